"""A project's decision taken again replaces the one the previous turn decided, and no other;
a firm left in lower case ends the employer; a name said to hold now before a question, an
appointment moved before a request, and a hedged "不是X…是Y" still form. Through the HTTP API
(turns on Saturday 2026-12-05)."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

AT = "2026-12-05T09:00:00+08:00"
LATER = "2026-12-05T10:00:00+08:00"
DECISION = "task.decision"


@pytest.mark.parametrize(
    ("turns", "new"),
    [
        (
            (
                "这个 project 我们 decide 用 MongoDB",
                "架构 review 完改成 PostgreSQL 了，schema 太乱 hold 不住",
            ),
            "postgresql",
        ),
        (
            (
                "for the Q3 redesign we're going with Vue",
                "team vote overruled me, it's React for the redesign now. ugh",
            ),
            "react",
        ),
        (
            (
                "项目这边决定用 MongoDB 存日志",
                "开会又改了，日志改用 Elasticsearch，Mongo 那套方案放弃",
            ),
            "elasticsearch",
        ),
        (
            (
                "落地页我们定了用 Tailwind",
                "计划有变：团队投票决定不用 Tailwind 了，改用普通的 CSS Modules",
            ),
            "css modules",
        ),
    ],
)
async def test_a_decision_taken_again_replaces_the_one_decided_before(
    tenant: TenantCtx, turns: tuple[str, str], new: str
) -> None:
    active, frozen = await tenant.change("u", turns, DECISION, at=(AT, LATER))
    assert any(new in v for v in active), active
    assert len(frozen) == 1
    # the new decision is the project's, not a tool the user prefers
    assert not any(new in v for v in await tenant.values("u", "tech.preferred", lower=True))


@pytest.mark.parametrize(
    "turns",
    [
        # another part of the system; one more beside it; the user's own tool
        ("后端我们决定用 Go", "前端改用 React 了"),
        ("For the new CRM we decided on HubSpot", "we're also going to use Zapier now"),
        ("我们项目决定用 React", "我个人现在改用 Vim 了"),
    ],
)
async def test_a_decision_beside_another_replaces_nothing(
    tenant: TenantCtx, turns: tuple[str, str]
) -> None:
    active, frozen = await tenant.change("u", turns, DECISION, at=(AT, LATER))
    assert frozen == []
    assert len(active) >= 1


async def test_a_firm_left_in_lower_case_ends_the_employer(tenant: TenantCtx) -> None:
    turns = (
        "I work in marketing at Spotify, need help tightening a campaign brief",
        "heads up — I left spotify last week. freelancing now, same marketing stuff",
    )
    active, frozen = await tenant.change("u", turns, "work.employer", at=(AT, LATER))
    assert active == []
    assert frozen == ["spotify"]


async def test_keys_left_somewhere_end_no_employer(tenant: TenantCtx) -> None:
    turns = ("I work at Spotify", "ugh I left my badge at Spotify again, no lunch for me")
    active, frozen = await tenant.change("u", turns, "work.employer", at=(AT, LATER))
    assert active == ["spotify"]
    assert frozen == []


async def test_a_name_said_to_hold_now_before_a_question_replaces_the_tool(
    tenant: TenantCtx,
) -> None:
    turns = (
        "my daily driver is a thinkpad running Ubuntu",
        "caved and bought a macbook air, so macOS now. any must-have apps?",
    )
    active, frozen = await tenant.change("u", turns, "tech.preferred", at=(AT, LATER))
    assert active == ["macos"]
    assert frozen == ["ubuntu"]


async def test_an_appointment_moved_before_a_request_is_moved(tenant: TenantCtx) -> None:
    turns = (
        "dentist appt thursday 3pm",
        "they moved it to friday 10am, can u remind me the night before?",
    )
    active, frozen = await tenant.change("u", turns, "event", at=(AT, LATER))
    assert len(active) == 1 and "friday 10am" in active[0]
    assert len(frozen) == 1 and "thursday" in frozen[0]


async def test_a_hedged_denial_puts_the_allergen_right(tenant: TenantCtx) -> None:
    turns = ("我对猫毛过敏", "好像不是猫毛，测了过敏原，是尘螨")
    active, frozen = await tenant.change("u", turns, "health.allergy", at=(AT, LATER))
    assert active == ["尘螨"]
    assert frozen == ["猫毛"]
