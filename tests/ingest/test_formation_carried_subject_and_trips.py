"""A clause that leaves the user out after a clause of theirs is still theirs ("I quit coffee,
switched to green tea in the mornings"), and a trip taken up in place of a trip is a plan, not
a routine ("日本的旅行取消了，改成去泰国。"). Through the HTTP API."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

AT = ("2026-12-01T09:00:00+08:00", "2026-12-07T10:00:00+08:00")


@pytest.mark.parametrize(
    ("turns", "key", "new", "old"),
    [
        (("I drink black coffee every morning.",
          "I quit coffee, switched to green tea in the mornings."),
         "preference.drink", "green tea", "black coffee"),
        (("I work at Google.", "I left Google last month, joined Stripe as a PM."),
         "work.employer", "stripe", "google"),
        (("I live in Boston.", "I broke up with Sam, moved back to Ohio."),
         "residence.city", "ohio", "boston"),
    ],
)  # fmt: skip
async def test_a_clause_after_the_users_own_keeps_their_subject(
    tenant: TenantCtx, turns: tuple[str, str], key: str, new: str, old: str
) -> None:
    active, frozen = await tenant.change("u", turns, key, at=AT)
    assert active == [new]
    assert frozen == [old]


async def test_a_degree_finished_then_a_job_started_is_no_school(tenant: TenantCtx) -> None:
    await tenant.say(
        "u", "s1", "I finished my degree in May, started at Deloitte in June.", at=AT[0]
    )
    assert await tenant.values("u", "work.employer") == ["Deloitte"]
    assert await tenant.values("u", "education.school") == []


async def test_someone_elses_switch_is_not_the_users(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I drink black coffee every morning.", at=AT[0])
    await tenant.say("u", "s1", "My sister quit coffee, switched to green tea.", at=AT[1])
    assert await tenant.values("u", "preference.drink") == ["black coffee"]
    assert await tenant.values("u", "preference.drink", "frozen") == []


@pytest.mark.parametrize(
    ("second", "place"),
    [
        ("日本的旅行取消了，改成去泰国。", "泰国"),
        ("日本不去了，改成去泰国。", "泰国"),
        ("日本签证没办下来，只好改成去新加坡。", "新加坡"),
    ],
)
async def test_a_trip_in_place_of_a_trip_is_the_plan(
    tenant: TenantCtx, second: str, place: str
) -> None:
    active, frozen = await tenant.change("u", ("下个月我打算去日本旅行。", second), "plan", at=AT)
    assert len(active) == 1 and place in active[0]
    assert len(frozen) == 1 and "日本" in frozen[0]
    assert await tenant.values("u", "schedule.habit") == []


async def test_a_doing_in_place_of_a_doing_stays_a_routine(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u", ("我每天早上跑步", "不跑步了，现在改成去游泳"), "schedule.habit", at=AT
    )
    assert active == ["去游泳"]
    assert frozen == ["每天早上跑步"]


@pytest.mark.parametrize(
    "second",
    [
        "晚上的瑜伽课取消了，改成去健身房。",
        "每周六的英语课取消了，改成去图书馆自习。",
        "食堂的午饭取消了，改成去外面吃。",
        "公司原定的团建取消了，改成去莫干山。",
    ],
)
async def test_a_doing_or_an_outing_in_place_of_another_leaves_the_trip(
    tenant: TenantCtx, second: str
) -> None:
    active, frozen = await tenant.change("u", ("下个月我打算去日本旅行。", second), "plan", at=AT)
    assert len(active) == 1 and "日本" in active[0]
    assert frozen == []


async def test_a_move_asked_about_is_no_move(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u",
        ("I live in Seattle.", "If I quit my job, moved to Portland, would my rent go down?"),
        "residence.city",
        at=AT,
    )
    assert active == ["seattle"]
    assert frozen == []


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("I live in Manchester.",
         "I sometimes dream that I quit everything, moved to London and opened a bar."),
        ("I live in Dublin.",
         "In the book I'm reading, the detective resigned from the force, moved to Lisbon."),
        ("I live in Osaka.", "I often dream of living in Kyoto."),
    ],
)  # fmt: skip
async def test_a_dream_or_a_story_moves_no_one(tenant: TenantCtx, first: str, second: str) -> None:
    active, frozen = await tenant.change("u", (first, second), "residence.city", at=AT)
    assert active == [first.removeprefix("I live in ").rstrip(".").lower()]
    assert frozen == []


async def test_a_book_club_is_no_story(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "In my book club we read thrillers, I live in Leeds.", at=AT[0])
    assert await tenant.values("u", "residence.city") == ["Leeds"]
