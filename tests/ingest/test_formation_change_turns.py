"""What a change turn forms beside the change: a reason said of someone or something else, the
old value mentioned in passing, a routine that only uses the new value — none of them is a fact
of the user's; and what a change gives up without a new value of its own: a thing no longer
eaten or drunk is avoided, a liking taken back is a dislike of the thing the sentence had.
Through the HTTP API, in Chinese and English."""

from __future__ import annotations

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-01T09:01:00+08:00"


async def test_a_reason_said_of_another_is_no_fact_of_the_user(tenant: TenantCtx) -> None:
    # the partner's new job is why the user moved: no employer of the user's
    turns = ("I live in Porto.", "moved to Lisbon last month bc my wife got a job at Google there")
    assert await tenant.change("u1", turns, "residence.city", at=(T1, T2)) == (
        ["lisbon"],
        ["porto"],
    )
    assert await tenant.values("u1", "work.employer") == []
    assert await tenant.values("u1", "family.member") == ["wife"]
    # a reason whose subject is a thing: the tool complained of is not held again
    for user, second in (
        ("u2", "我现在改用 Obsidian 了，因为 Notion 太慢了"),
        ("u5", "I switched to Obsidian because Notion got way too slow"),
    ):
        turns = ("I keep all my notes in Notion", second)
        assert await tenant.change(user, turns, "tech.preferred", at=(T1, T2)) == (
            ["obsidian"],
            ["notion"],
        ), second
    # a relative named in a reason is a relative; what they did is no keyless fact either
    await tenant.say("u3", "s1", "搬回 Hong Kong 了，因为我妈身体不好要照顾她", at=T1)
    assert await tenant.facts("u3") == [("family.member", "妈"), ("residence.city", "Hong Kong")]
    # the user's own reason still says something of the user
    await tenant.say("u4", "s1", "I moved to Austin because I got a job at Dell", at=T1)
    assert await tenant.values("u4", "work.employer") == ["Dell"]


async def test_the_old_value_beside_a_switch_is_not_held_again(tenant: TenantCtx) -> None:
    cases = [
        (
            (
                "Please reply in Spanish, I'm practicing",
                "switch to English pls, Spanish was just for my trip to Madrid, I mostly read "
                "English at work now",
            ),
            ["english"],
            ["spanish"],
        ),
        (("我平时用英文", "改用中文吧，英文是给老板看的"), ["中文"], ["英文"]),
    ]
    for n, (turns, active, frozen) in enumerate(cases):
        got = await tenant.change(f"u{n}", turns, "language.preferred", at=(T1, T2))
        assert got == (active, frozen), turns


async def test_a_routine_that_only_uses_the_new_value_is_no_habit(tenant: TenantCtx) -> None:
    turns = (
        "Can you answer me in Italian from now on?",
        "Actually switch to Dutch please. Italian was for my old job, I use Dutch every day now",
    )
    assert await tenant.change("u1", turns, "language.preferred", at=(T1, T2)) == (
        ["dutch"],
        ["italian"],
    )
    assert await tenant.values("u1", "schedule.habit") == []


async def test_a_thing_no_longer_eaten_or_drunk_is_avoided(tenant: TenantCtx) -> None:
    cases = [
        ("u1", ("我每天都喝汽水", "汽水戒了，牙医说我有蛀牙"), "汽水"),
        (
            "u2",
            (
                "I drink a lot of soda, like 3 a day",
                "quit soda completely, my doctor said my blood sugar is too high",
            ),
            "soda",
        ),
    ]
    for user, turns, thing in cases:
        for text, when in zip(turns, (T1, T2), strict=True):
            await tenant.say(user, "s1", text, at=when)
        assert await tenant.values(user, "diet.avoid", lower=True) == [thing], turns
        assert thing in await tenant.values(user, "preference.drink", "frozen", lower=True)
        assert await tenant.values(user, "preference.drink") == []
    # "not even a little of it", said after the doctor's words
    turns = ("我特别喜欢吃辣", "前阵子胃出了问题，医生说不能再吃辣了，现在一点辣都不碰")
    await tenant.say("u3", "s1", turns[0], at=T1)
    await tenant.say("u3", "s1", turns[1], at=T2)
    assert await tenant.values("u3", "diet.avoid") == ["辣"]
    assert await tenant.values("u3", "preference.likes") == []
    # red meat cut out: the liking of it is frozen
    turns = ("I love red meat", "cut out red meat entirely, my cardiologist was pretty blunt")
    await tenant.say("u4", "s1", turns[0], at=T1)
    await tenant.say("u4", "s1", turns[1], at=T2)
    assert await tenant.values("u4", "diet.avoid") == ["red meat"]
    assert await tenant.values("u4", "preference.likes", "frozen") == ["red meat"]


async def test_a_job_or_a_tool_given_up_is_no_food_avoided(tenant: TenantCtx) -> None:
    turns = ("I work at Google", "I quit Google last month")
    assert await tenant.change("u1", turns, "work.employer", at=(T1, T2)) == ([], ["google"])
    assert await tenant.values("u1", "diet.avoid") == []
    turns = ("我主要写 Objective-C", "现在全面转 Swift 了，OC 不碰了")
    for text, when in zip(turns, (T1, T2), strict=True):
        await tenant.say("u2", "s1", text, at=when)
    assert await tenant.values("u2", "diet.avoid") == []
    assert await tenant.values("u2", "tech.preferred", lower=True) == ["swift"]


async def test_a_liking_taken_back_is_a_dislike_of_what_the_sentence_had(
    tenant: TenantCtx,
) -> None:
    turns = ("我很喜欢喝啤酒", "上周喝了好多啤酒，胃疼了两天，现在不喜欢了")
    await tenant.say("u1", "s1", turns[0], at=T1)
    await tenant.say("u1", "s1", turns[1], at=T2)
    assert await tenant.values("u1", "preference.dislikes") == ["啤酒"]
    assert await tenant.values("u1", "preference.likes") == []
    # nothing named before it: the liking is taken back, no dislike is guessed
    await tenant.say("u2", "s1", "我超爱看恐怖片", at=T1)
    await tenant.say("u2", "s1", "最近工作太累了，不喜欢了", at=T2)
    assert await tenant.values("u2", "preference.dislikes") == []


async def test_a_thing_said_first_then_given_up_by_any_verb_is_withdrawn(
    tenant: TenantCtx,
) -> None:
    # the object said before the verb takes the same verbs as the verb said first
    cases = [
        (("我平时用 Perl 写脚本", "现在都用 Python 了，Perl 基本不写了"), "tech.preferred", "perl"),
        (("我养了一只仓鼠", "仓鼠我不养了，太吵"), "pets.kind", "仓鼠"),
    ]
    for n, (turns, key, old) in enumerate(cases):
        for text, when in zip(turns, (T1, T2), strict=True):
            await tenant.say(f"u{n}", "s1", text, at=when)
        assert old in await tenant.values(f"u{n}", key, "frozen", lower=True), turns
        assert old not in await tenant.values(f"u{n}", key, lower=True), turns
    # a pet with a Latin name given away, a space before the verb
    turns = ("我养了一只柯基叫 Bobby", "Bobby 送给我姐养了，新房子不让养狗")
    for text, when in zip(turns, (T1, T2), strict=True):
        await tenant.say("u9", "s1", text, at=when)
    assert await tenant.values("u9", "pets.name", "frozen") == ["Bobby"]
    assert await tenant.values("u9", "pets.name") == []


async def test_a_name_not_to_be_called_is_withdrawn_not_a_rule(tenant: TenantCtx) -> None:
    turns = ("叫我小峰就行", "别叫小峰了，叫我峰哥吧，小峰是小时候的外号")
    assert await tenant.change("u1", turns, "name.nickname", at=(T1, T2)) == (["峰哥"], ["小峰"])
    assert await tenant.values("u1", "assistant.constraint") == []
    assert await tenant.values("u1", "family.member") == []
    turns = ("You can call me Tommy", "don't call me Tommy anymore, I'm 40")
    for text, when in zip(turns, (T1, T2), strict=True):
        await tenant.say("u2", "s1", text, at=when)
    assert await tenant.values("u2", "name.nickname", "frozen") == ["Tommy"]
    assert await tenant.values("u2", "name.nickname") == []
    assert await tenant.values("u2", "assistant.constraint") == []
    # what not to be called that is no name stays a rule
    for user, text in (("u3", "Don't call me sweetie"), ("u4", "别叫我亲爱的")):
        await tenant.say(user, "s1", text, at=T1)
        assert len(await tenant.values(user, "assistant.constraint")) == 1, text
