"""How the user wants the assistant to answer, said the many ways users say it: a wish ("I'd
rather you didn't mention my ex", "I want short answers"), a noun phrase said to stand ("bullet
points for me going forward"), a quantity of an answer as the topic ("重量都用公斤"), a
complaint ("你回复能不能别这么啰嗦，每次都好长", "You keep calling me buddy"), an order of an
answer's parts ("Start with the code"), a style allowed again ("emojis are fine now",
"表情可以用了") — each a standing rule (``assistant.constraint``), and a rule that turns an
earlier one round replaces it; a fix asked of the answer just judged ("这个回答太长了，精简一点")
stores nothing. Through the HTTP API, in Chinese and English."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-01T09:01:00+08:00"
RULE = "assistant.constraint"


@pytest.mark.parametrize(
    ("said", "rule"),
    [
        ("I'd rather you didn't mention my ex.", "mention my ex"),
        ("I want short answers, not essays.", "short answers"),
        ("I prefer concise replies.", "concise replies"),
        ("bullet points for me going forward", "bullet points"),
        ("Start with the code, explanation after.", "start with the code"),
        ("Use metric with me, not imperial.", "metric"),
        ("重量都用公斤，我对磅没概念", "重量都用公斤"),
        ("你回复能不能别这么啰嗦，每次都好长", "别这么啰嗦"),
        ("能不能不要每句话都加感叹号", "感叹号"),
        ("别啰嗦，直接给结论", "直接给结论"),
        # a complaint about how the answers keep coming asks for the other way
        ("Your replies are always way too long.", "too long"),
        ("You keep calling me buddy, please stop.", "calling me buddy"),
        ("你回答总是太长了", "太长"),
        # a dislike of a kind of answer, said to the one who answers
        ("I'm not a fan of bullet points.", "bullet points"),
        # how to address the user, what not to bring up
        ("叫我的时候不要加先生", "先生"),
        ("别跟我提减肥的事", "减肥"),
        ("Leave out the safety warnings.", "safety warnings"),
        ("I'd like you to be more direct with me.", "more direct"),
        ("Would you mind keeping your answers brief in future?", "brief"),
        ("今天起回答都要简短", "简短"),
        ("时间用24小时制", "24小时制"),
    ],
)
async def test_a_standing_wish_about_answers_is_one_rule(
    tenant: TenantCtx, said: str, rule: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    stored = await tenant.memories("u", status="active")
    assert [m["key"] for m in stored] == [RULE], stored
    assert stored[0]["type"] == "constraint"
    assert rule in stored[0]["value"]
    # a contrast inside the rule withdraws nothing and is no record of its own
    assert [m for m in await tenant.memories("u") if m["key"] != RULE] == []


@pytest.mark.parametrize(
    "said",
    [
        "这个回答太长了，精简一点",
        "This answer is too long, make it shorter.",
        "make this one shorter",
        "用表格列一下这三款手机的参数",
        # thanks and courtesies are no complaint
        "你太客气了",
        "you're too kind",
        "Stop worrying about it",
        "I don't like tables in my kitchen",
    ],
)
async def test_a_fix_of_the_answer_just_given_stores_nothing(tenant: TenantCtx, said: str) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", RULE) == []
    if "kitchen" not in said:  # a dislike of the user's own, not of answers
        assert await tenant.memories("u", status="active") == []


@pytest.mark.parametrize(
    ("first", "then", "old", "new"),
    [
        ("Keep answers short please.", "actually longer answers are fine now",
         "short", "longer answers"),
        ("别用emoji", "emoji可以用了", "别用emoji", "emoji"),
        ("Use Fahrenheit for temperatures.", "Actually make it Celsius from now on.",
         "fahrenheit", "celsius"),
        ("Please use bullet points in every answer.",
         "You can drop the bullet points, normal paragraphs are better.",
         "every answer", "normal paragraphs"),
        ("Talk to me casually.", "Switch back to a formal tone please.", "casually", "formal"),
        # a complaint turns the rule it is about round
        ("以后回答都用英文", "你老是用英文回我，烦死了", "英文", "老是用英文"),
    ],
)  # fmt: skip
async def test_a_rule_turned_round_replaces_the_one_of_its_kind(
    tenant: TenantCtx, first: str, then: str, old: str, new: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    assert any(old in r for r in await tenant.values("u", RULE, lower=True))
    languages = await tenant.values("u", "language.preferred")
    await tenant.say("u", "s1", then, at=T2)
    active = await tenant.values("u", RULE, lower=True)
    assert len(active) == 1 and new in active[0], active
    assert any(old in r for r in await tenant.values("u", RULE, "frozen", lower=True))
    # "emoji可以用了" lifts a rule, not an avoided food; a complaint of English adds no
    # language the user prefers
    assert await tenant.memories("u", key="diet.avoid") == []
    assert await tenant.values("u", "language.preferred") == languages


async def test_rules_of_other_kinds_stand_beside_each_other(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "温度用摄氏度", at=T1)
    await tenant.say("u", "s1", "以后回答简短一点", at=T2)
    active = await tenant.values("u", RULE)
    assert len(active) == 2 and any("摄氏度" in r for r in active), active
    assert await tenant.values("u", RULE, "frozen") == []


async def test_a_rule_is_recalled_when_asked_how_to_answer(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I'd rather you didn't bring up my divorce.", at=T1)
    [rule] = await tenant.memories("u", key=RULE)
    # a standing rule comes with every recall, among the constraints to follow
    recalled = await tenant.recall("u", "recommend a film for tonight")
    assert rule["id"] in [c["id"] for c in recalled["constraints"]]


@pytest.mark.parametrize(
    ("said", "language"),
    [
        ("please reply in 中文", "中文"),
        ("请用English回复我", "english"),
        ("以后跟我说中文吧", "中文"),
        ("和我讲日语就行", "日语"),
    ],
)
async def test_the_language_asked_for_in_the_other_script_is_the_one_preferred(
    tenant: TenantCtx, said: str, language: str
) -> None:
    """A request for the answers' language names it in either script, in either sentence;
    someone else's language, or a question about a language, is none."""
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "language.preferred", lower=True) == [language]
    await tenant.say("v", "s1", "我朋友跟我说粤语", at=T1)
    await tenant.say("v", "s1", "跟我说中文是什么意思", at=T1)
    assert await tenant.values("v", "language.preferred") == []


async def test_switching_back_freezes_the_language_asked_for_in_chinese_script(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u", "s1", "please reply in 中文", at=T1)
    await tenant.say("u", "s1", "switch back to English please, 我在练英语", at=T2)
    assert await tenant.values("u", "language.preferred", lower=True) == ["english"]
    assert await tenant.values("u", "language.preferred", "frozen") == ["中文"]
