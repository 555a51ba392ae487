"""A job left ends the whole job, a condition named as gone ends it, a pet named after it was
told of, something being learnt now, a stay beside the user's home, and a decision said after a
pause or moved to another place. Through the HTTP API."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-02T09:00:00+08:00"


@pytest.mark.parametrize(
    "left",
    ["我上周辞职了。", "I quit my job last week."],
)
async def test_a_job_left_ends_its_employer_and_its_role(tenant: TenantCtx, left: str) -> None:
    await tenant.say("u", "s1", "我在腾讯做设计师。", at=T1)
    await tenant.say("u", "s1", left, at=T2)
    assert await tenant.values("u", "work.employer") == []
    assert await tenant.values("u", "work.role") == []
    assert await tenant.values("u", "work.role", "frozen") == ["设计师"]


async def test_a_role_taken_up_in_the_turn_that_leaves_the_job_stays(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我在一家银行做柜员", at=T1)
    await tenant.say("u", "s1", "银行那份工作辞了，现在在做保险销售", at=T2)
    assert await tenant.values("u", "work.role") == ["保险销售"]
    assert await tenant.values("u", "work.role", "frozen") == ["柜员"]


@pytest.mark.parametrize(
    ("had", "gone", "condition"),
    [
        ("我有偏头痛。", "偏头痛好了，最近都没犯。", "偏头痛"),
        ("我有鼻炎", "我的鼻炎好了", "鼻炎"),
    ],
)
async def test_a_condition_named_as_gone_ends(
    tenant: TenantCtx, had: str, gone: str, condition: str
) -> None:
    await tenant.say("u", "s1", had, at=T1)
    await tenant.say("u", "s1", gone, at=T2)
    assert await tenant.values("u", "health.condition") == []
    assert await tenant.values("u", "health.condition", "frozen") == [condition]


async def test_being_ready_is_no_condition_gone(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我有鼻炎", at=T1)
    await tenant.say("u", "s1", "饭做好了，我准备好了", at=T2)
    assert await tenant.values("u", "health.condition") == ["鼻炎"]


@pytest.mark.parametrize(
    ("text", "kind", "name"),
    [
        ("We got a beagle last month, named her Pepper.", "beagle", "Pepper"),
        ("We got a kitten last week, we call her Luna.", "kitten", "Luna"),
    ],
)
async def test_a_pet_named_after_it_was_told_of(
    tenant: TenantCtx, text: str, kind: str, name: str
) -> None:
    await tenant.say("u", "s1", text, at=T1)
    assert await tenant.values("u", "pets.name") == [name]
    assert await tenant.values("u", "pets.kind") == [kind]


async def test_someone_nicknamed_is_no_pet(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "My boss is annoying, I named him Voldemort.", at=T1)
    assert await tenant.values("u", "pets.name") == []


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("我最近开始学吉他。", "学吉他"),
        ("我在练瑜伽", "练瑜伽"),
        ("I've started learning guitar.", "learning guitar"),
    ],
)
async def test_what_the_user_is_learning_now_is_kept(
    tenant: TenantCtx, text: str, said: str
) -> None:
    await tenant.say("u", "s1", text, at=T1)
    contents = [m["content"] for m in await tenant.memories("u", status="active")]
    assert any(said in c for c in contents), contents
    assert await tenant.memories("u", key="plan") == []


async def test_learning_still_to_come_is_a_plan(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "thinking of learning the piano this winter, finally", at=T1)
    [plan] = await tenant.memories("u", key="plan")
    assert "piano" in plan["content"]


async def test_a_stay_beside_the_home_is_no_home(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我现在在上海，下周回北京，我家在北京。", at=T1)
    assert await tenant.values("u", "residence.city") == ["北京"]


async def test_a_decision_said_after_a_pause_is_moved_to_another_place(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我们定了，今年年会在三亚办。", at=T1)
    assert await tenant.values("u", "task.decision") == ["今年年会在三亚办"]
    await tenant.say("u", "s1", "年会不去三亚了，改成在杭州办。", at=T2)
    assert await tenant.values("u", "task.decision") == ["在杭州办"]
    assert await tenant.values("u", "task.decision", "frozen") == ["今年年会在三亚办"]
    assert await tenant.values("u", "residence.city") == []  # a gathering's place, no home
