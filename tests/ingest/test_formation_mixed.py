"""What a user says in Chinese with English words in it ("我主要用TypeScript写前端", "我是一名data
engineer", "我在Microsoft"), and facts about a family member, become the memories a person would
expect — through the HTTP API: the tool is the Latin name, not the name with the Chinese verb
after it; an English job title is a role; a Latin workplace is an employer, not a tool; a
budget limit is the project's budget, not a rule for answers; a relative's fact is kept beside
the relative."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-01T09:01:00+08:00"


@pytest.mark.parametrize(
    ("said", "tools"),
    [
        ("我主要用TypeScript写前端", ["typescript"]),
        ("我习惯用Mac开发", ["mac"]),
        ("我daily用vim写code", ["vim"]),
        ("我最喜欢的编程语言是Python", ["python"]),
    ],
)
async def test_a_tool_named_in_latin_inside_chinese_is_the_name_alone(
    tenant: TenantCtx, said: str, tools: list[str]
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "tech.preferred", lower=True) == tools
    assert await tenant.values("u", "preference.likes") == []


@pytest.mark.parametrize(
    ("said", "role"),
    [
        ("我是一名data engineer", "data engineer"),
        ("我是freelancer，主要接design的活", "freelancer"),
    ],
)
async def test_an_english_job_title_in_chinese_is_a_role(
    tenant: TenantCtx, said: str, role: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "work.role", lower=True) == [role]


async def test_a_latin_workplace_is_an_employer_not_a_tool(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我在Microsoft", at=T1)
    assert await tenant.values("u", "work.employer") == ["Microsoft"]
    assert await tenant.values("u", "tech.preferred") == []


async def test_moving_to_another_employer_in_chinese_replaces_the_first(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u", "s1", "我在Alibaba做算法", at=T1)
    await tenant.say("u", "s1", "上个月跳槽去拼多多了", at=T2)
    assert await tenant.values("u", "work.employer") == ["拼多多"]
    assert await tenant.values("u", "work.employer", "frozen") == ["Alibaba"]


async def test_a_budget_limit_is_the_projects_budget_not_a_rule(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "装修预算控制在15万以内", at=T1)
    assert await tenant.values("u", "project.budget") == ["15万"]
    assert await tenant.values("u", "assistant.constraint") == []


@pytest.mark.parametrize(
    ("said", "member", "fact"),
    [
        ("我爸在银行上班", "爸", "在银行上班"),
        ("我老婆在Google做PM", "老婆", "在Google做PM"),
        ("My son is allergic to eggs.", "son", "allergic to eggs"),
    ],
)
async def test_a_relatives_fact_is_kept_beside_the_relative(
    tenant: TenantCtx, said: str, member: str, fact: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "family.member") == [member]
    keyless = [m for m in await tenant.memories("u", status="active") if m["key"] is None]
    assert [m for m in keyless if fact in m["content"]], keyless
    # the user's own employer and allergies are not theirs
    assert await tenant.values("u", "work.employer") == []
    assert await tenant.values("u", "health.allergy") == []


@pytest.mark.parametrize(
    ("said", "key", "value"),
    [
        ("My birthday is 11月3号, don't forget 哈哈", "birthday", "11-03"),
        ("I'm allergic to 猫毛, so no cat cafés pls", "health.allergy", "猫毛"),
    ],
)
async def test_english_grammar_with_chinese_words_is_read(
    tenant: TenantCtx, said: str, key: str, value: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", key) == [value]


async def test_a_switch_proposed_with_ba_replaces_the_decision_it_names(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u", "s1", "我们决定用MySQL", at=T1)
    await tenant.say("u", "s1", "算了，改用TiDB吧，MySQL扛不住", at=T2)
    assert await tenant.values("u", "task.decision", lower=True) == ["tidb"]
    assert await tenant.values("u", "task.decision", "frozen", lower=True) == ["用mysql"]
    assert await tenant.values("u", "tech.preferred") == []


async def test_a_rule_said_to_be_dropped_is_replaced_by_the_new_one(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "回答的时候用列表", at=T1)
    await tenant.say("u", "s1", "不用列表了，写成段落就行", at=T2)
    active = await tenant.values("u", "assistant.constraint")
    assert len(active) == 1 and "段落" in active[0]
    assert await tenant.values("u", "assistant.constraint", "frozen") == ["回答的时候用列表"]
