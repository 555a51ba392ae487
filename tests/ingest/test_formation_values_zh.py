"""A Chinese value is the thing itself: the place after its word of where, not a word the
segmenter also takes for a place ("我是在哈尔滨长大的" → 哈尔滨, not 长大), and the allergen without
how allergic ("我对芒果也过敏" → 芒果). Through the HTTP API."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-02T09:00:00+08:00"


async def test_the_place_grown_up_in_is_the_hometown_and_replaces_only_that(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u", "s1", "我老家是上海的", at=T1)
    await tenant.say("u", "s1", "其实我是在哈尔滨长大的", at=T2)
    assert await tenant.values("u", "hometown") == ["哈尔滨"]


@pytest.mark.parametrize(
    ("said", "allergen"),
    [
        ("最近发现我对芒果也过敏", "芒果"),
        ("我对花粉特别过敏", "花粉"),
        ("我对猫毛有点敏感", "猫毛"),
        ("我对花生过敏", "花生"),
    ],
)
async def test_the_allergen_is_the_value(tenant: TenantCtx, said: str, allergen: str) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "health.allergy") == [allergen]
