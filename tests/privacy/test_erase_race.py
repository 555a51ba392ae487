"""An erase racing real writes: every write is erased whole or lands whole after it, and no
job stays queued."""

from __future__ import annotations

import asyncio
from typing import Any

import asyncpg

from app.db.setup import Database
from tests.conftest import TenantCtx


async def _state(database: Database, tenant_id: str, user: str) -> dict[str, Any]:
    """The user's rows as the owner sees them (no row-level security)."""
    conn = await asyncpg.connect(database.asyncpg_dsn)
    try:
        args = (tenant_id, user)
        jobs = {
            str(r["id"]): r["status"]
            for r in await conn.fetch(
                "SELECT id, status FROM jobs WHERE tenant_id = $1::uuid AND user_id = $2", *args
            )
        }
        message_jobs = [
            str(r[0])
            for r in await conn.fetch(
                "SELECT job_id FROM messages WHERE tenant_id = $1::uuid AND user_id = $2", *args
            )
        ]
        memory_jobs = [
            r[0]
            for r in await conn.fetch(
                "SELECT origin ->> 'job_id' FROM memories"
                " WHERE tenant_id = $1::uuid AND user_id = $2",
                *args,
            )
        ]
        queued = [
            r[0]
            for r in await conn.fetch(
                "SELECT convert_from(payload, 'UTF8')::jsonb ->> 'job_id' FROM pgqueuer"
                " WHERE convert_from(payload, 'UTF8')::jsonb ->> 'tenant_id' = $1"
                " AND convert_from(payload, 'UTF8')::jsonb ->> 'user_id' = $2",
                *args,
            )
        ]
        return {"jobs": jobs, "messages": message_jobs, "memories": memory_jobs, "queue": queued}
    finally:
        await conn.close()


async def test_an_erase_racing_thirty_writes_leaves_no_half_written_user(
    tenant: TenantCtx, database: Database
) -> None:
    user = "racer"
    base = tenant.user(user)

    acknowledged = 0
    some_acknowledged = asyncio.Event()

    async def write(i: int) -> tuple[str, str | None]:
        nonlocal acknowledged
        await asyncio.sleep(0.005 * i)
        if i % 2:
            r = await tenant.client.post(
                f"{base}/sessions/s{i}/messages",
                json={"messages": [{"role": "user", "content": f"I have a cat named Tom{i}."}]},
                headers=tenant.headers,
            )
        else:
            r = await tenant.client.post(
                f"{base}/memories",
                json={"content": f"My locker number is {i}", "key": "place.locker"},
                headers=tenant.headers,
            )
        assert r.status_code == 202, r.text
        acknowledged += 1
        if acknowledged >= 5:
            some_acknowledged.set()
        return ("write", r.json()["job_id"])

    async def erase() -> tuple[str, str | None]:
        # in the middle of the writes: after some were acknowledged, while others are sent
        await asyncio.wait_for(some_acknowledged.wait(), 30)
        r = await tenant.client.delete(base, headers=tenant.headers)
        assert r.status_code == 200, r.text
        return ("erase", None)

    results = await asyncio.gather(*(write(i) for i in range(30)), erase())
    job_ids = [j for kind, j in results if kind == "write" and j]
    assert len(job_ids) == 30

    # Every acknowledged write ends: erased with the user (404), or done after the erase; a
    # queue entry the worker had already taken when the erase came is ended by the worker,
    # which finds its job gone.
    for _ in range(300):
        state = await _state(database, tenant.id, user)
        if all(s in ("done", "failed") for s in state["jobs"].values()) and set(
            state["queue"]
        ) <= set(state["jobs"]):
            break
        await asyncio.sleep(0.1)
    assert all(s == "done" for s in state["jobs"].values()), state["jobs"]
    outcomes = []
    for job_id in job_ids:
        r = await tenant.client.get(f"/v1/jobs/{job_id}", headers=tenant.headers)
        state_seen = r.json()["status"] if r.status_code == 200 else None
        assert (r.status_code, state_seen) in ((404, None), (200, "done")), r.text
        outcomes.append(r.status_code)
    # The erase came in the middle: the writes acknowledged before it went with it.
    assert 404 in outcomes, outcomes
    # What is left landed whole: each message and memory belongs to a job that is done, and
    # no queue entry of the user waits for a job that no longer exists.
    survivors = set(state["jobs"])
    assert set(state["messages"]) <= survivors
    assert {j for j in state["memories"] if j} <= survivors
    assert set(state["queue"]) <= survivors

    # A second erase, with nothing in flight, leaves nothing at all.
    assert (await tenant.client.delete(base, headers=tenant.headers)).status_code == 200
    for _ in range(100):
        state = await _state(database, tenant.id, user)
        if not state["queue"]:
            break
        await asyncio.sleep(0.1)
    assert state == {"jobs": {}, "messages": [], "memories": [], "queue": []}
