"""What is said of a relative just introduced ("I have an older brother, works at Google, lives
in Austin", "还有个姐姐，已经结婚了，住深圳") is theirs, never the user's own employer or city; a
name said right after them names them, once. Through the HTTP API, in English and Chinese."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-02T09:00:00+08:00"


@pytest.mark.parametrize(
    ("said", "member"),
    [
        ("I have an older brother, works at Google, lives in Austin", "brother"),
        ("I also have a sister, she's married and lives in Denver", "sister"),
        ("还有个姐姐，已经结婚了，住深圳", "姐姐"),
        ("我还有个哥哥，在北京工作，住在海淀", "哥哥"),
    ],
)
async def test_what_follows_a_relative_introduced_is_theirs(
    tenant: TenantCtx, said: str, member: str
) -> None:
    await tenant.say("u", "s1", "I live in Boston and work at Initech.", at=T1)
    await tenant.say("u", "s1", said, at=T2)
    assert await tenant.values("u", "residence.city") == ["Boston"]
    assert await tenant.values("u", "work.employer") == ["Initech"]
    assert await tenant.values("u", "family.member", lower=True) == [member]


@pytest.mark.parametrize(
    ("said", "members"),
    [
        ("I have a daughter, Mia, she's 4", ["mia"]),
        ("I have a sister, her name is Ann", ["ann"]),
        ("I have two kids, Max and Lily", ["lily", "max"]),
        ("我有个女儿，叫小雨", ["小雨"]),
    ],
)
async def test_a_relative_named_after_being_introduced_is_one_member(
    tenant: TenantCtx, said: str, members: list[str]
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "family.member", lower=True) == members


async def test_the_users_own_clause_after_a_relative_is_the_users(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I have a sister, and I live in Boston", at=T1)
    assert await tenant.values("u", "residence.city") == ["Boston"]
    assert await tenant.values("u", "family.member") == ["sister"]


async def test_a_place_or_a_holiday_beside_relatives_names_no_member(tenant: TenantCtx) -> None:
    said = "we're spending Christmas at my in-laws in Chicago, staying two weeks"
    await tenant.say("u", "s1", said, at=T1)
    assert [
        v
        for v in await tenant.values("u", "family.member", lower=True)
        if v in ("christmas", "chicago")
    ] == []
