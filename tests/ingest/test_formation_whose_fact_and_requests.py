"""Single statements read for whose fact they are and what they are about: a relative named in
other words (爱人, 老伴, 婆婆, "my other half", "my GF", grandparents, in-laws) keeps their own
facts; "I'm a dad of two" names the user; "I'm in marketing" is a line of work, "I'm at 腾讯" an
employer, "我在星巴克等人" none; an end asked of an answer habit ("Could you quit with the walls
of text?", "别老是道歉") is a rule, a reshape of the answer at hand ("换成列表形式") and filler
("I'm all ears") form nothing. Through the HTTP API, in Chinese and English."""

from __future__ import annotations

from tests.conftest import TenantCtx

T1 = "2026-03-01T09:00:00+08:00"

# what the user said, the family member it names (None: none), and no fact of the user's own
RELATIVES = [
    ("我爱人是老师", "爱人"),
    ("我老伴今年七十了", "老伴"),
    ("我婆婆是四川人", "婆婆"),
    ("我女友对芒果过敏", "女友"),
    ("my other half works at IBM", "other half"),
    ("My grandparents were from Sicily", "grandparents"),
    ("my GF is from Brazil", "gf"),
    ("I'm a dad of two", None),
    ("我儿子叫我老爸", "儿子"),
]


async def test_a_relative_named_in_other_words_keeps_their_facts(tenant: TenantCtx) -> None:
    for n, (said, member) in enumerate(RELATIVES):
        user = f"u{n}"
        await tenant.say(user, "s1", said, at=T1)
        facts = await tenant.facts(user)
        assert {key for key, _ in facts} <= {"family.member", None}, (said, facts)
        members = await tenant.values(user, "family.member", lower=True)
        assert members == ([member] if member else []), said


async def test_a_line_of_work_or_a_chinese_employer_after_im_in_or_at(tenant: TenantCtx) -> None:
    for n, (said, key, value) in enumerate(
        [
            ("I'm in marketing", "work.role", "marketing"),
            ("I'm in the legal department", "work.role", "legal"),
            ("I'm on the design team", "work.role", "design"),
            ("I'm at 腾讯 now", "work.employer", "腾讯"),
        ]
    ):
        await tenant.say(f"u{n}", "s1", said, at=T1)
        assert await tenant.facts(f"u{n}") == [(key, value)], said
    for n, said in enumerate(["I'm in a meeting, brb", "我在星巴克等人", "我在家办公"]):
        await tenant.say(f"v{n}", "s1", said, at=T1)
        assert await tenant.facts(f"v{n}") == [], said
    # a clause that only names a relative ("My wife | and I both work…") says nothing of them
    await tenant.say("w", "s1", "My wife and I both work at Microsoft", at=T1)
    assert await tenant.facts("w") == [("family.member", "wife"), ("work.employer", "Microsoft")]


async def test_an_end_asked_of_an_answer_habit_is_a_rule(tenant: TenantCtx) -> None:
    for n, (said, word) in enumerate(
        [
            ("Could you quit with the walls of text?", "walls of text"),
            ("Enough with the disclaimers.", "disclaimers"),
            ("Can you knock it off with the emojis", "emojis"),
            ("别老是道歉", "道歉"),
        ]
    ):
        await tenant.say(f"u{n}", "s1", said, at=T1)
        rules = await tenant.values(f"u{n}", "assistant.constraint", lower=True)
        assert len(rules) == 1 and word in rules[0], (said, rules)
        assert await tenant.facts(f"u{n}") == [("assistant.constraint", rules[0])], said
    # an end of the user's own habit is no rule: "cut out caffeine"
    await tenant.say("w", "s1", "I drink earl grey most days.", "Cut out caffeine, so rooibos now.")
    assert await tenant.values("w", "assistant.constraint") == []


async def test_a_reshape_of_the_answer_at_hand_and_filler_form_nothing(tenant: TenantCtx) -> None:
    for n, said in enumerate(
        [
            "换成列表形式",
            "改成markdown格式",
            "写成一段话",
            "I'm all ears",
            "I'm thinking about it",
            "Call me whatever",
        ]
    ):
        await tenant.say(f"u{n}", "s1", said, at=T1)
        assert await tenant.facts(f"u{n}") == [], said
    # said to stand, or done by the user, it is kept
    await tenant.say("v", "s1", "以后都换成列表形式", at=T1)
    assert len(await tenant.values("v", "assistant.constraint")) == 1
    await tenant.say("w", "s1", "换成Python了", at=T1)
    assert await tenant.values("w", "tech.preferred", lower=True) == ["python"]
