"""Who a fact is about, and what a request of the assistant asks: a request that points back
at what was just said ("please don't use it", "别用了") is no rule of its own; a name the user
declines to be called by, or gives up for their own name, is frozen; a lunar birthday is kept
as said, never as a Gregorian MM-DD; a name beside a comparison ("听着像小孩") is no relative.
Through the HTTP API, in Chinese and English."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1 = "2026-03-01T09:00:00+08:00"
T2 = "2026-03-01T09:05:00+08:00"


@pytest.mark.parametrize(
    ("first", "then", "key", "name"),
    [
        (
            "call me Pip",
            "hmm, I'm not Pip anymore, please don't call me that",
            "name.nickname",
            "pip",
        ),
        (
            "Hi, I'm Robin.",
            "Robin is my sister's login, not mine, so please don't use it",
            "name.full",
            "robin",
        ),
        ("大家都叫我 Lulu", "其实我挺讨厌 Lulu 这个名字的，别用了", "name.nickname", "lulu"),
        ("你就叫我小胖吧", "算了，别这么叫我了，还是叫我名字吧", "name.nickname", "小胖"),
        ("叫我阿牛就行", "别再叫我阿牛了", "name.nickname", "阿牛"),
        ("you can call me Bex", "please stop calling me Bex", "name.nickname", "bex"),
    ],
)
async def test_a_name_declined_is_frozen_and_no_rule_points_back(
    tenant: TenantCtx, first: str, then: str, key: str, name: str
) -> None:
    active, frozen = await tenant.change("u", (first, then), key, at=(T1, T2))
    assert active == [] and frozen == [name], (active, frozen)
    # the request says which name; it is no rule of its own about "that" or "it"
    rules = await tenant.values("u", "assistant.constraint", lower=True)
    assert not any(r.endswith(("that", "it", "别用")) for r in rules), rules
    # nor is "名字" (the word for a name) a nickname
    assert "名字" not in await tenant.values("u", "name.nickname")


@pytest.mark.parametrize(
    "text",
    ["ugh, never do that again", "please don't do that", "以后别这样了", "别这么干了"],
)
async def test_a_request_pointing_back_forms_no_rule(tenant: TenantCtx, text: str) -> None:
    await tenant.say("u", "s1", text, at=T1)
    assert await tenant.facts("u") == []


@pytest.mark.parametrize(
    ("text", "rule_word"),
    [
        ("Never use emojis with me", "emojis"),
        ("以后别用 emoji", "emoji"),
        ("别啰嗦了，以后直接说重点", "重点"),
        ("Could you stop calling me 'buddy'? It's a bit much.", "buddy"),
    ],
)
async def test_a_request_that_names_what_it_asks_is_still_a_rule(
    tenant: TenantCtx, text: str, rule_word: str
) -> None:
    await tenant.say("u", "s1", text, at=T1)
    rules = await tenant.values("u", "assistant.constraint", lower=True)
    assert any(rule_word in r for r in rules), rules


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("我生日是农历三月初八", "农历三月初八"),
        ("我的生日是阴历七月初七", "农历七月初七"),
        ("我的生日在正月初五", "农历正月初五"),
        ("我是11月2号生日", "11-02"),
        ("我生日是3月5日", "03-05"),
    ],
)
async def test_a_lunar_birthday_is_kept_as_said(tenant: TenantCtx, text: str, value: str) -> None:
    await tenant.say("u", "s1", text, at=T1)
    assert await tenant.values("u", "birthday") == [value]


async def test_a_bare_age_after_wo_replaces_the_old_one(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u", ("我今年31", "说错了，我32，去年才31"), "age", at=(T1, T2)
    )
    assert (active, frozen) == (["32"], ["31"])


@pytest.mark.parametrize(
    "text",
    ["以后叫我杰哥吧，阿杰听着像小孩", "叫我大伟吧，小伟听起来像个孩子"],
)
async def test_a_name_beside_a_comparison_is_no_relative(tenant: TenantCtx, text: str) -> None:
    await tenant.say("u", "s1", text, at=T1)
    assert await tenant.values("u", "family.member") == []
    assert len(await tenant.values("u", "name.nickname")) == 1


@pytest.mark.parametrize("text", ["口语一点", "语气 softer 一点", "正式一些吧", "shorter pls"])
async def test_a_degree_asked_alone_is_about_the_answer_at_hand(
    tenant: TenantCtx, text: str
) -> None:
    await tenant.say("u", "s1", text, at=T1)
    assert await tenant.facts("u") == []


@pytest.mark.parametrize("text", ["回答简短一点", "以后简短一点", "写代码的时候注释多一点"])
async def test_a_degree_asked_of_answers_to_come_is_a_rule(tenant: TenantCtx, text: str) -> None:
    await tenant.say("u", "s1", text, at=T1)
    assert len(await tenant.values("u", "assistant.constraint")) == 1


@pytest.mark.parametrize(
    ("text", "member", "thing"),
    [
        ("阳台上还有几盆多肉，我妈在养", "妈", "多肉"),
        ("这家店的菜，我爸特别喜欢", "爸", "这家店"),
    ],
)
async def test_a_relative_s_verb_without_object_keeps_the_object_said_before(
    tenant: TenantCtx, text: str, member: str, thing: str
) -> None:
    await tenant.say("u", "s1", text, at=T1)
    mine = await tenant.memories("u", status="active")
    about = [m["content"] for m in mine if m["key"] is None and m["type"] == "profile"]
    assert await tenant.values("u", "family.member") == [member]
    assert about and all(thing in c for c in about), about


@pytest.mark.parametrize(
    ("first", "then", "old", "new"),
    [
        ("I'm 33", "my birthday was on Monday, so 34 now", "33", "34"),
        ("我今年40", "昨天刚过完生日，现在 41 了", "40", "41"),
    ],
)
async def test_a_bare_number_beside_a_birthday_is_the_new_age(
    tenant: TenantCtx, first: str, then: str, old: str, new: str
) -> None:
    assert await tenant.change("u", (first, then), "age", at=(T1, T2)) == ([new], [old])


async def test_a_relative_s_birthday_and_number_are_not_the_user_s_age(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我爸上周过生日，现在 65 了", at=T1)
    assert await tenant.values("u", "age") == []


@pytest.mark.parametrize(
    ("text", "name"), [("我全名是 Huang Zixuan", "Huang Zixuan"), ("我名字叫周一鸣", "周一鸣")]
)
async def test_a_full_name_said_without_de(tenant: TenantCtx, text: str, name: str) -> None:
    await tenant.say("u", "s1", text, at=T1)
    assert await tenant.values("u", "name.full") == [name]


async def test_an_occasion_of_the_assistant_s_doing_makes_a_rule_stand(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "Use a table whenever you compare two options", at=T1)
    assert len(await tenant.values("u", "assistant.constraint")) == 1
    # an occasion of the user's time is no rule: the task is for now
    await tenant.say("v", "s1", "when you have a minute, summarize the article for me", at=T1)
    assert await tenant.facts("v") == []
