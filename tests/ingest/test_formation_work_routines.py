"""What a job is made of is no routine of the user's own: a turn that tells of the user's work
and of something done every day forms the work, not a habit; a routine beside a job that is no
part of it is kept. Through the HTTP API, in English and Chinese."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1 = "2026-03-01T09:00:00+08:00"


@pytest.mark.parametrize(
    ("said", "key", "value"),
    [
        ("I work at Amazon, warehouse side, picking orders all day", "work.employer", "Amazon"),
        ("主要负责风控，天天跟模型打交道。", "work.role", "风控"),
        ("我现在在Meta做data scientist，每天就是跑model跑到怀疑人生", "work.employer", "Meta"),
    ],
)
async def test_a_duty_done_every_day_is_part_of_the_job_not_a_habit(
    tenant: TenantCtx, said: str, key: str, value: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", key) == [value]
    assert await tenant.values("u", "schedule.habit") == []


@pytest.mark.parametrize(
    ("said", "habit"),
    [
        ("I'm a nurse and I run every morning", "run every morning"),
        ("我在腾讯上班，每周三晚上去打羽毛球", "每周三晚上打羽毛球"),
        ("我是程序员，每天早上跑步", "每天早上跑步"),
    ],
)
async def test_a_routine_beside_a_job_is_kept(tenant: TenantCtx, said: str, habit: str) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "schedule.habit") == [habit]
