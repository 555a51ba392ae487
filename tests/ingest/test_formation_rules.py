"""A user who tells the assistant how to answer, in any short wording ("Short paragraphs only,
please.", "以后回复我尽量口语化一点"), gets a standing rule (``assistant.constraint``) whose value
is the rule itself — through the HTTP API, in Chinese and English; a one-off task ("shorten
this paragraph", "帮我写一封请假邮件"), a question or someone else's habit stores nothing, and a
rule that says it ends an earlier one of the same kind replaces it."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-01T09:01:00+08:00"


async def _active(t: TenantCtx, user: str) -> list[dict]:
    r = await t.client.get(
        f"{t.user(user)}/memories", params={"status": "active"}, headers=t.headers
    )
    assert r.status_code == 200, r.text
    return [m for m in r.json()["items"] if m["type"] != "episode"]


async def _rules(t: TenantCtx, user: str, status: str = "active") -> list[str]:
    r = await t.client.get(
        f"{t.user(user)}/memories",
        params={"key": "assistant.constraint", "status": status},
        headers=t.headers,
    )
    assert r.status_code == 200, r.text
    return [m["value"] for m in r.json()["items"] if m["value"] is not None]


@pytest.mark.parametrize(
    ("said", "rule"),
    [
        ("Short paragraphs only, please.", "short paragraphs"),
        ("Never pad your answers with filler.", "pad your answers with filler"),
        ("Go easy on the technical jargon when you explain stuff to me.", "jargon"),
        ("Use kilometres, not miles, every time.", "kilometres"),
        ("以后回复我尽量口语化一点", "口语化"),
        ("别跟我绕弯子，有话直说", "绕弯子"),
        ("写SQL的时候，记得每个字段都加上注释", "注释"),
    ],
)
async def test_a_rule_said_in_a_few_words_is_a_standing_rule(
    tenant: TenantCtx, said: str, rule: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    stored = await _active(tenant, "u")
    assert [m["key"] for m in stored] == ["assistant.constraint"], stored
    assert stored[0]["type"] == "constraint"
    assert rule in stored[0]["value"]


async def test_the_occasion_of_a_rule_is_part_of_it_not_the_rule(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "以后给我推荐电影的时候，都附上豆瓣评分", at=T1)
    [rule] = await _rules(tenant, "u")
    assert "豆瓣评分" in rule and "推荐电影" in rule  # not "给我推荐电影的时候" alone
    await tenant.say("u2", "s2", "When you suggest recipes, always list the calories.", at=T1)
    [rule] = await _rules(tenant, "u2")
    assert "calories" in rule and "recipes" in rule


@pytest.mark.parametrize(
    "said",
    [
        "Can you shorten this paragraph for me?",
        "Summarize the meeting notes below in three bullets.",
        "Write a limerick about autumn leaves.",
        "My manager wants every report in bullet points.",
        "把下面这段改成更正式的语气：周五见",
        "帮我写一封请假邮件",
        "“谢谢”用英文怎么说？",
        "我朋友让AI回答都用英文",
    ],
)
async def test_a_one_off_task_a_question_or_someone_elses_habit_stores_nothing(
    tenant: TenantCtx, said: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await _active(tenant, "u") == []


@pytest.mark.parametrize(
    ("first", "then", "old", "new"),
    [
        ("Answer me in long, detailed paragraphs.",
         "Stop writing essays, keep answers to three sentences.", "detailed", "three sentences"),
        ("以后回答都用表格", "别再用表格了，用普通段落写", "表格", "段落"),
    ],
)  # fmt: skip
async def test_a_rule_that_ends_one_of_its_kind_replaces_it(
    tenant: TenantCtx, first: str, then: str, old: str, new: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    assert any(old in r for r in await _rules(tenant, "u"))
    await tenant.say("u", "s1", then, at=T2)
    active = await _rules(tenant, "u")
    assert len(active) == 1 and new in active[0], active
    assert any(old in r for r in await _rules(tenant, "u", "frozen"))


async def test_a_rule_of_another_kind_stands_beside_the_first(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "Reply in Spanish from now on.", at=T1)
    await tenant.say("u", "s1", "Also, go light on the emojis.", at=T2)
    active = await _rules(tenant, "u")
    assert len(active) == 2 and any("spanish" in r for r in active), active
    assert await _rules(tenant, "u", "frozen") == []
