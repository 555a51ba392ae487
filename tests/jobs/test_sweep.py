"""A job row that no queue entry would ever run is queued again by the sweep."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

from app.db.models import Job
from app.jobs.sweep import requeue_orphans
from app.kit.time import utcnow
from app.memories.schemas import MemoryCreate
from tests.conftest import TenantCtx


async def test_an_orphaned_queued_job_is_queued_again_and_runs(tenant: TenantCtx, app: Any) -> None:
    rt = app.state.memlane  # type: ignore[attr-defined]
    body = MemoryCreate(content="I keep bees on the roof")
    job_id = uuid.uuid4()
    long_ago = utcnow() - timedelta(minutes=10)
    async with rt.scoped(uuid.UUID(tenant.id), "u") as session:
        # A row as an older version or an outage could leave it: queued, no queue entry.
        session.add(
            Job(
                tenant_id=uuid.UUID(tenant.id),
                id=job_id,
                user_id="u",
                kind="memory.write",
                status="queued",
                payload={
                    "body": body.model_dump(mode="json"),
                    "sealed": [],
                    "occurred_at": long_ago.isoformat(),
                },
                attempts=0,
                created_at=long_ago,
                updated_at=long_ago,
            )
        )
        await session.commit()
    r = await tenant.client.get(f"/v1/jobs/{job_id}", headers=tenant.headers)
    assert r.json()["status"] == "queued"

    # The count is not asserted: the service's own every-minute schedule may have taken this
    # job already, and other tests' jobs in the same database can be orphans too (a test that
    # stalls the worker leaves one). Without a new queue entry the job below would never end.
    await requeue_orphans(rt)

    job = await tenant.finished_job(str(job_id))
    assert job["status"] == "done", job
    listed = await tenant.client.get(f"{tenant.user('u')}/memories", headers=tenant.headers)
    assert [m["content"] for m in listed.json()["items"]] == ["I keep bees on the roof"]
    async with rt.scoped(uuid.UUID(tenant.id), "u") as session:
        from app.jobs.repository import JobRepository

        # A done job is no orphan.
        assert job_id not in [
            j for j, _ in await JobRepository(session, uuid.UUID(tenant.id)).orphans(utcnow())
        ]
