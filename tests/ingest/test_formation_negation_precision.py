"""What a negation forms, and nothing beside it: a liking negated with a word of ending takes
the liking back and states no dislike ("I'm not into anime anymore"); a negative cue said only
to be denied ("Not that I hate tea", "也不是讨厌香菜") forms no dislike; a hypothetical or a
question gives nothing up ("要是我不住在上海就好了", "Why don't I like coffee anymore?"); a
place's 都 is part of its name ("成都不去了"), an adverb's is not ("酒都不喝了"); a negation
scoped to a time is a habit, not a food avoided ("I don't drink coffee at night"); what did not
happen is no event ("I didn't go to the gym today"). Through the HTTP API, in Chinese, English
and both mixed."""

from __future__ import annotations

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-01T09:01:00+08:00"


async def test_a_liking_negated_with_a_word_of_ending_withdraws_it_and_forms_no_dislike(
    tenant: TenantCtx,
) -> None:
    cases = [
        ("I love anime.", "I'm not into anime anymore.", "anime"),
        ("I'm a big fan of jazz.", "Not a fan of jazz these days.", "jazz"),
        ("我喜欢 Taylor Swift。", "现在不怎么听 Taylor Swift 了。", "taylor swift"),
        ("我喜欢看韩剧。", "我现在不太看韩剧了。", "看韩剧"),
    ]
    for i, (first, then, old) in enumerate(cases):
        user = f"u{i}"
        await tenant.say(user, "s1", first, at=T1)
        await tenant.say(user, "s1", then, at=T2)
        assert await tenant.values(user, "preference.likes", "frozen", lower=True) == [old]
        # nothing holds a value: the withdrawal's own record has none
        assert [f for f in await tenant.facts(user) if f[1]] == [], then
    # a dislike said without a word of ending is still one
    await tenant.say("u9", "s1", "I'm not into anime.", at=T1)
    assert await tenant.values("u9", "preference.dislikes") == ["anime"]


async def test_a_negative_cue_said_only_to_be_denied_forms_no_dislike(tenant: TenantCtx) -> None:
    await tenant.say("u1", "s1", "Not that I hate tea, but I prefer coffee.", at=T1)
    assert await tenant.facts("u1") == [("preference.drink", "coffee")]
    for i, said in enumerate(["I wouldn't say I hate cooking.", "我也不是讨厌香菜，就是不常吃。"]):
        await tenant.say(f"u{i + 2}", "s1", said, at=T1)
        assert [f for f in await tenant.facts(f"u{i + 2}") if f[1]] == [], said


async def test_a_hypothetical_or_a_question_with_a_negation_gives_nothing_up(
    tenant: TenantCtx,
) -> None:
    cases = [
        ("我住在上海。", "要是我不住在上海就好了。", "residence.city", "上海"),
        ("I love coffee.", "Why don't I like coffee anymore?", "preference.likes", "coffee"),
    ]
    for i, (first, then, key, value) in enumerate(cases):
        got = await tenant.change(f"u{i}", (first, then), key, at=(T1, T2))
        assert got == ([value], []), then


async def test_a_place_keeps_its_du_when_a_trip_is_dropped(tenant: TenantCtx) -> None:
    await tenant.say("u1", "s1", "我下个月要去成都出差。", at=T1)
    assert len(await tenant.values("u1", "event")) == 1
    await tenant.say("u1", "s1", "成都不去了。", at=T2)
    assert await tenant.values("u1", "event") == []
    assert len(await tenant.values("u1", "event", "frozen")) == 1
    # the adverb 都 is no part of the drink given up
    await tenant.say("u2", "s1", "酒都不喝了", at=T1)
    assert await tenant.values("u2", "diet.avoid") == ["酒"]


async def test_a_negation_scoped_to_a_time_is_no_food_avoided(tenant: TenantCtx) -> None:
    for i, said in enumerate(
        ["I don't drink coffee at night.", "我晚上不喝咖啡。", "I don't eat after 8pm."]
    ):
        await tenant.say(f"u{i}", "s1", said, at=T1)
        assert await tenant.values(f"u{i}", "diet.avoid") == [], said
    assert await tenant.values("u1", "schedule.habit") == ["晚上不喝咖啡"]
    assert await tenant.values("u0", "schedule.habit") == ["doesn't drink coffee at night"]


async def test_what_did_not_happen_is_no_event(tenant: TenantCtx) -> None:
    for i, said in enumerate(["I didn't go to the gym today.", "我今天没去上班。"]):
        await tenant.say(f"u{i}", "s1", said, at=T1)
        assert await tenant.facts(f"u{i}") == [], said
