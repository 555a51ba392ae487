"""Negation read by its scope: a thing not done over a span of time is given up ("I haven't
smoked in two years", "我已经半年没抽烟了"), unless it is missed ("好久没吃火锅了，好想吃"); a thing
done only seldom or to a degree ("I rarely drink coffee", "我很少喝咖啡", "I don't drink tea that
often") is neither had nor avoided; a denial beside the value that holds now ("No, I don't use
Vim, I use Emacs") leaves no empty record listed; a plural or a hedge still names what is denied
("I don't have cats", "I don't really speak Russian"). Through the HTTP API, Chinese and
English."""

from __future__ import annotations

from tests.conftest import TenantCtx

T = ("2026-03-01T09:00:00+08:00", "2026-03-01T09:01:00+08:00")


async def test_a_span_not_done_gives_the_thing_up(tenant: TenantCtx) -> None:
    cases = [
        ("I'm a smoker", "I haven't smoked in two years", "schedule.habit"),
        ("I work at Deloitte", "I haven't worked at Deloitte for a year now", "work.employer"),
        ("I live in Boston", "Haven't lived in Boston since 2022", "residence.city"),
        ("我每天抽一包烟", "我已经半年没抽烟了", "schedule.habit"),
        ("我喜欢喝啤酒", "啤酒好久没喝了", "preference.drink"),
    ]
    for i, (first, then, key) in enumerate(cases):
        active, frozen = await tenant.change(f"u{i}", (first, then), key, at=T)
        assert active == [] and len(frozen) == 1, then
    # nothing happened on a date: no event of not smoking
    assert await tenant.values("u0", "event") == []
    # a thing missed is still liked
    active, frozen = await tenant.change(
        "u9", ("我喜欢吃火锅", "好久没吃火锅了，好想吃"), "preference.likes", at=T
    )
    assert active == ["火锅"] and frozen == []


async def test_a_thing_done_seldom_is_neither_had_nor_avoided(tenant: TenantCtx) -> None:
    said = [
        "I rarely drink coffee",
        "I barely speak French",
        "I don't drink tea that often",
        "I don't eat out much",
        "我很少喝咖啡",
        "我偶尔才喝酒",
    ]
    for i, text in enumerate(said):
        await tenant.say(f"u{i}", "s1", text, at=T[0])
        assert await tenant.facts(f"u{i}") == [], text
    # a dislike said with a degree is still a dislike; "almost never" still avoids
    await tenant.say("u8", "s1", "I don't like horror movies that much", at=T[0])
    assert await tenant.values("u8", "preference.dislikes", lower=True) == ["horror movies"]
    await tenant.say("u9", "s1", "我几乎不吃甜食", at=T[0])
    assert await tenant.values("u9", "diet.avoid") == ["甜食"]
    # used less is not given up
    active, _ = await tenant.change(
        "u7", ("I use Twitter", "I don't use Twitter that much anymore"), "tech.preferred", at=T
    )
    assert active == ["twitter"]


async def test_a_denial_names_what_it_takes_back(tenant: TenantCtx) -> None:
    cases = [
        ("I use Vim", "No, I don't use Vim, I use Emacs", "tech.preferred", ["emacs"]),
        ("I have two cats", "I don't have cats, they're my roommate's", "pets.kind", []),
        ("I speak Russian", "I don't really speak Russian, I just know a few words",
         "language.preferred", []),
        ("我会说法语", "其实我不会说法语，只会几句", "language.preferred", []),
        ("我在 Microsoft 工作", "我不在 Microsoft 了", "work.employer", []),
    ]  # fmt: skip
    for i, (first, then, key, now) in enumerate(cases):
        active, frozen = await tenant.change(f"u{i}", (first, then), key, at=T)
        assert active == now and len(frozen) == 1, then
    # no empty record of the withdrawal listed beside the value that holds now
    assert all(m["value"] for m in await tenant.memories("u0", status="active"))
    # "只会几句" is what the user can say, no rule for the assistant
    assert await tenant.values("u3", "assistant.constraint") == []


async def test_a_negated_taste_keeps_its_subject_and_its_firmness(tenant: TenantCtx) -> None:
    said = [
        ("Not a fan of running but I love swimming", "running", "swimming"),
        ("不太喜欢跑步，但我喜欢游泳", "跑步", "游泳"),
    ]
    for i, (text, disliked, liked) in enumerate(said):
        await tenant.say(f"u{i}", "s1", text, at=T[0])
        assert await tenant.values(f"u{i}", "preference.dislikes", lower=True) == [disliked]
        assert await tenant.values(f"u{i}", "preference.likes", lower=True) == [liked]
    # "basically never" / "never" before the verb is still an avoidance
    await tenant.say("u8", "s1", "我基本不喝奶茶", at=T[0])
    assert await tenant.values("u8", "diet.avoid") == ["奶茶"]
