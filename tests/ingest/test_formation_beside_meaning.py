"""What a turn forms beside what it means: a reason clause, a stay that is over, a word inside
a firm's or a team's name, the same place under a second key, a thing swapped out or missed
after a change, a routine the user only could keep, a verb said twice for a try ("想去走走") —
none of them is a fact of its own. Through the HTTP API, in Chinese and English."""

from __future__ import annotations

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-01T09:01:00+08:00"


async def test_a_reason_names_the_relative_and_nothing_of_theirs(tenant: TenantCtx) -> None:
    cases = [
        (
            "我住在杭州，因为老婆在阿里上班。",
            [("family.member", "老婆"), ("residence.city", "杭州")],
        ),
        (
            "We relocated to Austin because my husband got a job at Dell.",
            [("family.member", "husband"), ("residence.city", "Austin")],
        ),
        ("I live in Leeds mostly because it's close to my parents.", [("residence.city", "Leeds")]),
    ]
    for n, (text, facts) in enumerate(cases):
        await tenant.say(f"u{n}", "s1", text, at=T1)
        assert await tenant.facts(f"u{n}") == facts, text
    # the reason is no part of what its sentence states
    turns = ("我在网易做运营。", "换工作了，去了拼多多，因为那边工资高")
    assert await tenant.change("u9", turns, "work.employer", at=(T1, T2)) == (["拼多多"], ["网易"])


async def test_a_stay_that_is_over_is_no_place_of_now(tenant: TenantCtx) -> None:
    await tenant.say("u1", "s1", "在深圳待了三年，现在在苏州一家外企做财务。", at=T1)
    assert await tenant.values("u1", "work.role") == ["财务"]
    assert await tenant.values("u1", "residence.city") == []
    assert await tenant.values("u1", "education.school") == []
    await tenant.say("u2", "s1", "I spent two years in Osaka, now I live in Kyoto.", at=T1)
    assert await tenant.facts("u2") == [("residence.city", "Kyoto")]


async def test_a_word_inside_a_name_is_no_employer_and_a_place_is_filed_once(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u1", "s1", "我在一家做咖啡机的公司当销售。", at=T1)
    assert await tenant.facts("u1") == [("work.role", "销售")]
    await tenant.say("u2", "s1", "我在 Java 组，但是我自己更喜欢写 Go。", at=T1)
    assert await tenant.values("u2", "work.employer") == []
    await tenant.say(
        "u3", "s1", "Since my company opened an office there, I've been living in Lisbon.", at=T1
    )
    assert await tenant.facts("u3") == [("residence.city", "Lisbon")]


async def test_what_is_swapped_out_or_missed_is_not_held(tenant: TenantCtx) -> None:
    cases = [
        (("My go-to drink is Coke.", "I've swapped Coke for sparkling water these days."),
         "preference.drink", ["sparkling water"], ["coke"]),
        (("I use Slack for chat.", "I replaced Slack with Teams last month."),
         "tech.preferred", ["teams"], ["slack"]),
        (("I drink black coffee.",
          "doctor said cut caffeine, so I switched to rooibos tea. I miss coffee already"),
         "preference.drink", ["rooibos tea"], ["black coffee"]),
    ]  # fmt: skip
    for n, (turns, key, active, frozen) in enumerate(cases):
        assert await tenant.change(f"u{n}", turns, key, at=(T1, T2)) == (active, frozen), turns


async def test_what_the_user_could_do_or_would_try_is_no_routine_or_plan(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u1", "s1", "I could eat French fries every single day.", at=T1)
    assert await tenant.values("u1", "schedule.habit") == []
    await tenant.say("u3", "s1", "我想去走走", at=T1)
    assert await tenant.values("u3", "plan") == []
    await tenant.say("u2", "s1", "I run every morning.", at=T1)
    assert await tenant.values("u2", "schedule.habit", lower=True) == ["run every morning"]
