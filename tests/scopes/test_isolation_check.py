"""per_user_isolation through the HTTP API (docs/scopes.md, Isolation check): the check on recall's
result holds even when both layers before it fail — the recall binds the wrong user and the
database session is opened on every user of the tenant — and counts what it drops in /metrics."""

from __future__ import annotations

import logging
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.session import ALL_USERS, scoped_session
from app.recall.repository import ScopeReach
from tests.conftest import TenantCtx

VIOLATIONS = re.compile(
    r'^memlane_recall_isolation_violations_total\{section="(\w+)"\} ([0-9.e+]+)$', re.M
)
CHECKED = re.compile(r"^memlane_recall_isolation_checked_rows_total ([0-9.e+]+)$", re.M)


async def metrics(client: httpx.AsyncClient) -> tuple[dict[str, float], float]:
    text = (await client.get("/metrics")).text
    checked = CHECKED.search(text)
    return (
        {s: float(n) for s, n in VIOLATIONS.findall(text)},
        float(checked.group(1)) if checked else 0.0,
    )


def contents(body: dict[str, Any]) -> list[str]:
    return [m["content"] for m in body["memories"]] + [c["content"] for c in body["constraints"]]


async def test_a_healthy_recall_counts_rows_checked_and_no_violation(tenant: TenantCtx) -> None:
    await tenant.remember("alice", "I like green tea")
    before, checked_before = await metrics(tenant.client)
    body = await tenant.recall("alice", "tea")
    after, checked_after = await metrics(tenant.client)
    assert contents(body) == ["I like green tea"]
    assert checked_after - checked_before >= 1
    assert after == before


async def test_rows_of_another_user_are_dropped_logged_and_counted(
    tenant: TenantCtx,
    app: Any,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    await tenant.remember("alice", "我喜欢喝绿茶")
    await tenant.remember("bob", "我喜欢喝红茶 I like black tea")
    await tenant.remember("bob", "Never mention tea prices", type="constraint")
    rt = app.state.memlane

    # Layer 1 fails: the recall binds bob where alice is asked for.
    binds = ScopeReach.binds

    def wrong_user(self: ScopeReach, user_id: str, *args: Any) -> dict[str, Any]:
        out = binds(self, "bob" if user_id == "alice" else user_id, *args)
        out["owners"] = [*out["owners"], "alice"]
        return out

    # Layer 2 fails: the session's row-level security is opened on every user of the tenant.
    @asynccontextmanager
    async def every_user(tenant_id: Any, user_id: str) -> AsyncIterator[AsyncSession]:
        async with scoped_session(rt.sessionmaker, tenant_id, ALL_USERS) as session:
            yield session

    before, _ = await metrics(tenant.client)
    monkeypatch.setattr(ScopeReach, "binds", wrong_user)
    monkeypatch.setattr(rt, "scoped", every_user)
    with caplog.at_level(logging.ERROR, logger="app.recall.isolation"):
        body = await tenant.recall("alice", "喝茶 tea", include_reminders=True)
    monkeypatch.undo()
    after, _ = await metrics(tenant.client)

    # Nothing of bob's reaches alice's answer. The ranking's filter reads the rows of the owners
    # it is given (app/recall/repository.py, _FILTERS), and the broken binds name alice among
    # them: her own memory is all that is left.
    assert contents(body) == ["我喜欢喝绿茶"]
    dropped = {s: after.get(s, 0) - before.get(s, 0) for s in ("memories", "constraints")}
    assert dropped == {"memories": 1, "constraints": 1}
    logged = [r.getMessage() for r in caplog.records if "isolation violation" in r.getMessage()]
    assert len(logged) == 2 and all("'bob'" in m and "红茶" not in m for m in logged)

    # With both layers back, alice reads her own again.
    assert contents(await tenant.recall("alice", "喝茶 tea")) == ["我喜欢喝绿茶"]


async def test_every_section_is_exported_at_zero_before_any_violation(
    tenant: TenantCtx,
) -> None:
    # An alert on increase(...) and the ratio 1 - violations / checked need the series to
    # exist while nothing leaks; a labelled counter shows none until its first increment.
    await tenant.recall("alice", "tea")
    counted, checked = await metrics(tenant.client)
    assert {"memories", "constraints", "reminders"} <= set(counted)
    assert checked >= 0
