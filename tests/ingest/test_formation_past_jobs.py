"""A job of before that ended ("我以前在滴滴干了三年，后来跳槽了") ends that job, not the one
the user has now. Through the HTTP API."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-02T09:00:00+08:00"


@pytest.mark.parametrize(
    "then", ["我以前在滴滴干了三年，后来跳槽了", "之前在阿里待过两年，后来辞职了"]
)
async def test_a_past_job_ended_leaves_the_current_employer(tenant: TenantCtx, then: str) -> None:
    await tenant.say("u", "s1", "我在美团上班", at=T1)
    await tenant.say("u", "s1", then, at=T2)
    assert await tenant.values("u", "work.employer") == ["美团"]


async def test_a_job_ended_now_still_ends_the_current_one(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我在美团上班", at=T1)
    await tenant.say("u", "s1", "我辞职了", at=T2)
    assert await tenant.values("u", "work.employer") == []


@pytest.mark.parametrize("then", ["辞职了，现在自己开了个奶茶店", "I quit my job last week"])
async def test_a_job_left_ends_the_role_when_no_employer_is_held(
    tenant: TenantCtx, then: str
) -> None:
    await tenant.say("u", "s1", "我是一名小学老师", at=T1)
    await tenant.say("u", "s1", then, at=T2)
    assert await tenant.values("u", "work.role") == []
    assert await tenant.values("u", "work.role", status="frozen") == ["小学老师"]


async def test_a_job_left_asked_back_ends_nothing(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I'm a teacher", at=T1)
    await tenant.say("u", "s1", "I quit my job? No way, I love teaching", at=T2)
    assert await tenant.values("u", "work.role") == ["teacher"]
