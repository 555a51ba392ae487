"""Usage decay: a memory recall keeps returning decays more slowly, within a bound; recall and
forgetting read the same effective half-life (docs/time.md)."""

from __future__ import annotations

import math
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from app.lifecycle.forget import DatabaseRuntime, forget_pass
from tests.conftest import TenantCtx

NOW = datetime.now(UTC).replace(microsecond=0)


def ago(days: float) -> str:
    return (NOW - timedelta(days=days)).isoformat()


async def flush(app: Any) -> None:
    await app.state.memlane.extras["access"].flush()


def expected_half_life(base: float, uses: int, alpha: float = 0.5, cap: float = 3.0) -> float:
    return base * min(cap, 1 + alpha * math.log1p(uses))


def explained(answer: dict, content: str) -> dict:
    [m] = [m for m in answer["memories"] if m["content"] == content]
    return m["explain"]


async def test_use_lengthens_the_half_life_and_explain_shows_it(
    tenant: TenantCtx, app: Any
) -> None:
    fact = "My favourite board game is Carcassonne"
    await tenant.remember("u", fact, occurred_at=ago(60))
    first = explained(
        await tenant.recall("u", "board game", explain=True, at=NOW.isoformat()), fact
    )
    assert first["access_count"] == 0
    assert first["base_half_life_days"] == pytest.approx(30.0)  # type fact
    assert first["half_life_days"] == pytest.approx(30.0)
    for _ in range(4):
        await tenant.recall("u", "board game", at=NOW.isoformat())
    await flush(app)
    used = explained(await tenant.recall("u", "board game", explain=True, at=NOW.isoformat()), fact)
    assert used["access_count"] == 5  # the first recall and the four after it
    assert used["base_half_life_days"] == pytest.approx(30.0)
    assert used["half_life_days"] == pytest.approx(expected_half_life(30.0, 5))
    assert used["decay"] == pytest.approx(max(0.3, 0.5 ** (60 / used["half_life_days"])), rel=1e-6)
    assert used["decay"] > first["decay"]


async def test_the_lengthening_is_bounded(tenant: TenantCtx, app: Any) -> None:
    fact = "我最喜欢的桌游是卡坦岛"
    await tenant.remember("u", fact, occurred_at=ago(10))
    for _ in range(60):  # 1 + 0.5·ln(61) > 3: past the cap
        await tenant.recall("u", "桌游", at=NOW.isoformat())
    await flush(app)
    ex = explained(await tenant.recall("u", "桌游", explain=True, at=NOW.isoformat()), fact)
    assert ex["access_count"] == 60
    assert ex["half_life_days"] == pytest.approx(3 * 30.0)


async def test_a_used_event_outlives_an_unused_one_in_recall_and_forgetting(
    tenant: TenantCtx, app: Any
) -> None:
    used, unused = "I went to the Porto jazz festival", "I went to the Braga book fair"
    await tenant.remember("u", used, type="event", occurred_at=ago(20))
    await tenant.remember("u", unused, type="event", occurred_at=ago(20))
    # recalled often while it was fresh (the day after): only the festival
    for _ in range(60):
        await tenant.recall("u", "jazz festival", at=ago(19), types=["event"], top_k=1)
    await flush(app)
    # 20 days on, a 3-day half-life leaves 0.5^(20/3) ≈ 0.01 < 0.02: faded unless used
    today = await tenant.recall("u", "what did I go to?", explain=True, at=NOW.isoformat())
    contents = [m["content"] for m in today["memories"]]
    assert used in contents and unused not in contents
    assert explained(today, used)["half_life_days"] == pytest.approx(9.0)

    rt = app.state.memlane
    summary = await forget_pass(
        DatabaseRuntime(rt.settings, rt.engine, rt.sessionmaker),
        now=NOW,
        only_tenants=[uuid.UUID(tenant.id)],
    )
    assert summary.archived_by_decay == 1
    r = await tenant.client.get(
        f"{tenant.user('u')}/memories", params={"status": "archived"}, headers=tenant.headers
    )
    assert [m["content"] for m in r.json()["items"]] == [unused]
