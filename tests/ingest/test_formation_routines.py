"""A routine is kept as its activity and its time, in the user's words without the user, the
habitual adverbs or the auxiliaries, and its hour is no date of today — through the HTTP API,
in Chinese and English."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1 = "2026-03-04T09:00:00+08:00"


async def _habits(t: TenantCtx, user: str) -> list[dict[str, str]]:
    r = await t.client.get(
        f"{t.user(user)}/memories",
        params={"key": "schedule.habit", "status": "active"},
        headers=t.headers,
    )
    assert r.status_code == 200, r.text
    return r.json()["items"]


@pytest.mark.parametrize(
    ("said", "routine"),
    [
        ("我每天晚上都会泡脚二十分钟", "每天晚上泡脚二十分钟"),
        ("每周二晚上我都要上日语课", "每周二晚上上日语课"),
        ("周末我通常会去爬山", "周末去爬山"),
        ("每周三晚上我都会去打篮球", "每周三晚上去打篮球"),  # jieba: 打篮球 a noun
        ("Every Sunday I call my grandma", "call my grandma every sunday"),
        ("On Thursdays I do pilates.", "do pilates on thursdays"),
    ],
)
async def test_a_routine_is_its_activity_and_its_time(
    tenant: TenantCtx, said: str, routine: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert [m["value"] for m in await _habits(tenant, "u")] == [routine]


@pytest.mark.parametrize(
    ("said", "not_in_content"),
    [("我一般早上六点起床跑步", "2026"), ("I usually go to the gym at 6am before work", "2026")],
)
async def test_a_routines_hour_is_no_date_of_today(
    tenant: TenantCtx, said: str, not_in_content: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    (habit,) = await _habits(tenant, "u")
    assert not_in_content not in habit["content"]
    assert habit["valid_from"] is None or habit["valid_from"].startswith("2026-03-04")
