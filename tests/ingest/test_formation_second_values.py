"""A second value under a key that holds several — another school, routine, plan, appointment,
language, avoidance or condition — said with a word of change ("switched", "改到", "开始") but
about another thing, replaces nothing: the first stays active. Through the HTTP API.

Kept as guards: replacing the earlier value the turn is closest to in meaning froze the first
nine (docs/formation.md, "What a new value replaces, found by meaning: tried and
reverted")."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-02T09:00:00+08:00"


@pytest.mark.parametrize(
    ("first", "then", "key", "kept"),
    [
        (
            "我是华南理工毕业的，学的土木",
            "去年辞职考进了中山大学读研，换了个方向做城市规划",
            "education.school",
            "华南理工",
        ),
        (
            "我 bachelor 在 HKU",
            "switched 到 LSE 读 master，现在人在 London",
            "education.school",
            "hku",
        ),
        (
            "I go to the gym after work on weekdays",
            "Weekends are for hiking now, usually Saturday mornings",
            "schedule.habit",
            "gym after work",
        ),
        (
            "I want to run a marathon next year.",
            "Changed my mind about the new laptop, going to wait for the M4.",
            "plan",
            "marathon",
        ),
        ("周五下午三点要开组会", "牙医预约改到下周二了", "event", "组会"),
        ("我 Friday 下午要去 interview", "dentist 改到 next Monday 了", "event", "interview"),
        ("我母语是 Mandarin", "搬到 Montreal 之后开始学 French", "language.preferred", "mandarin"),
        ("我不吃牛肉", "最近开始戒糖了", "diet.avoid", "牛肉"),
        ("我有胃炎", "前两天确诊了甲减", "health.condition", "胃炎"),
        # a taste taken up lately, as "gotten into X lately": one more, not in the other's place
        ("我喜欢看科幻小说", "最近迷上了推理小说", "preference.likes", "科幻小说"),
    ],
)
async def test_a_second_value_of_another_thing_replaces_nothing(
    tenant: TenantCtx, first: str, then: str, key: str, kept: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    await tenant.say("u", "s1", then, at=T2)
    active = [
        m["value"] or m["content"] for m in await tenant.memories("u", key=key, status="active")
    ]
    assert any(kept in v.lower() for v in active), active
    frozen = [
        m["value"] or m["content"] for m in await tenant.memories("u", key=key, status="frozen")
    ]
    assert not any(kept in v.lower() for v in frozen), frozen
