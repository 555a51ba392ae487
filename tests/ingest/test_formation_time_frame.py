"""What held only before, a move still to come and a place the user owns replace nothing of
now: the user's city, employer and routines stay — through the HTTP API, in Chinese and
English."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-01T09:05:00+08:00"


@pytest.mark.parametrize(
    ("first", "then", "key", "now"),
    [
        ("I live in Oslo", "I lived in Madrid for six years before that", "residence.city", "Oslo"),
        ("我住在杭州", "我以前在广州住过五年", "residence.city", "杭州"),
        ("I work at Spotify", "Before Spotify I was at Zalando", "work.employer", "Spotify"),
        ("I live in Oslo", "We also have a cabin in Bergen for the summers", "residence.city",
         "Oslo"),
        ("我住在杭州", "我下个月要搬去深圳", "residence.city", "杭州"),
    ],
)  # fmt: skip
async def test_what_held_before_or_comes_later_replaces_nothing_of_now(
    tenant: TenantCtx, first: str, then: str, key: str, now: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    await tenant.say("u", "s1", then, at=T2)
    assert await tenant.values("u", key) == [now]
    assert await tenant.values("u", key, "frozen") == []


async def test_a_move_still_to_come_is_a_plan(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我明年打算搬去成都", at=T1)
    assert await tenant.values("u", "residence.city") == []
    assert await tenant.values("u", "plan") == ["明年搬去成都"]


async def test_a_routine_the_user_used_to_have_is_none_of_now(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I used to go swimming every morning", at=T1)
    assert await tenant.values("u", "schedule.habit") == []
    await tenant.say("u", "s1", "I go cycling every morning", at=T2)
    assert await tenant.values("u", "schedule.habit") == ["go cycling every morning"]
