"""Waiting for a job (``?wait=true``) when this process's worker runs it: the waiter is woken by
the worker as the job's unit of work commits, without pgqueuer's completion watcher or polling,
and leaves nothing registered behind. Compression is queued only when a turn left the window."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import select

from app.db.models import Job
from app.jobs import kinds, waiting
from app.jobs.waiting import WAITER_KEY
from tests.conftest import TenantCtx

WAIT_S = 120.0
GUARD_S = 30.0


async def test_a_wait_is_woken_by_the_worker_that_ran_the_job(
    tenant: TenantCtx, app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    rt = app.state.memlane
    waiter = rt.extras[WAITER_KEY]

    async def no_watcher() -> None:
        return None

    # No completion watcher, and the job row read again only when the wait runs out: without
    # the worker's own wake, each request would take the whole wait (a liveness guard, not a
    # timing claim).
    monkeypatch.setattr(waiter, "watcher", no_watcher)
    monkeypatch.setattr(waiting, "POLL_S", 600.0)
    monkeypatch.setattr(waiting, "RECHECK_S", 600.0)
    monkeypatch.setattr(rt.settings, "job_wait_timeout_s", WAIT_S)
    for i in range(3):
        r = await asyncio.wait_for(
            tenant.client.post(
                f"{tenant.user('u')}/memories?wait=true",
                json={"content": f"I keep {i + 2} beehives on the roof"},
                headers=tenant.headers,
            ),
            GUARD_S,
        )
        assert r.status_code == 201, r.text
        assert [m["content"] for m in r.json()["memories"]] == [
            f"I keep {i + 2} beehives on the roof"
        ]
    assert waiter._local == {}


async def test_a_wait_that_times_out_leaves_nothing_registered(
    tenant: TenantCtx, app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    rt = app.state.memlane
    waiter = rt.extras[WAITER_KEY]
    # a job that never ends within the wait: its queue entry is not run by this worker
    monkeypatch.setattr(rt.settings, "job_wait_timeout_s", 0.2)

    async def stalled(*_: Any) -> None:
        return None

    monkeypatch.setattr("app.jobs.worker.run_job", stalled)
    r = await tenant.client.post(
        f"{tenant.user('u')}/memories?wait=true",
        json={"content": "I grow basil"},
        headers=tenant.headers,
    )
    assert r.status_code == 202, r.text
    assert r.json()["status"] in ("queued", "running")
    assert waiter._local == {}


async def compress_jobs(app: Any, tenant: TenantCtx, user: str) -> int:
    rt = app.state.memlane
    async with rt.scoped(tenant.id, user) as session:
        rows = await session.scalars(
            select(Job).where(Job.user_id == user, Job.kind == kinds.COMPRESS)
        )
        return len(rows.all())


async def test_compression_is_queued_only_once_a_turn_left_the_window(
    tenant: TenantCtx, app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(app.state.memlane.settings, "session_window_turns", 3)
    await tenant.say("u", "s1", "I live in Lyon", "I work at a bakery")
    assert await compress_jobs(app, tenant, "u") == 0
    await tenant.say("u", "s1", "My cat is called Miso", "I play the cello")
    assert await compress_jobs(app, tenant, "u") == 1
