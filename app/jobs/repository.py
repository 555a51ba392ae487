"""SQL on the jobs table (the intake rows) and the pgqueuer queue."""

from __future__ import annotations

import json
import uuid
from datetime import datetime
from typing import Any

from pgqueuer.db import AsyncpgDriver
from pgqueuer.queries import Queries
from sqlalchemy import select, text, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession

from app.db.models import Job
from app.kit.time import utcnow

ENTRYPOINT = "memlane.job"


class JobRepository:
    def __init__(self, session: AsyncSession, tenant_id: uuid.UUID):
        self.session = session
        self.tenant_id = tenant_id

    async def get(self, job_id: uuid.UUID, *, for_update: bool = False) -> Job | None:
        stmt = select(Job).where(Job.tenant_id == self.tenant_id, Job.id == job_id)
        if for_update:
            stmt = stmt.with_for_update()
        return (await self.session.scalars(stmt)).first()

    async def lock_idempotency_key(self, user_id: str, key: str) -> None:
        """Hold a transaction lock on (tenant, user, Idempotency-Key): two concurrent retries
        of one request are taken in turn, and the second finds the first's job."""
        await self.session.execute(
            text("SELECT pg_advisory_xact_lock(hashtextextended(:k, 0))"),
            {"k": f"idempotency:{self.tenant_id}:{user_id}:{key}"},
        )

    async def by_idempotency_key(self, user_id: str, key: str) -> Job | None:
        stmt = select(Job).where(
            Job.tenant_id == self.tenant_id, Job.user_id == user_id, Job.idempotency_key == key
        )
        return (await self.session.scalars(stmt)).first()

    async def add_and_enqueue(
        self,
        *,
        user_id: str,
        kind: str,
        payload: dict[str, Any],
        idempotency_key: str | None,
        request_hash: str | None,
        request_id: str | None,
        job_id: uuid.UUID | None = None,
    ) -> Job:
        """Insert the intake row and enqueue its job on the same connection and transaction:
        the job exists if and only if the caller's commit succeeds."""
        now = utcnow()
        job = Job(
            tenant_id=self.tenant_id,
            id=job_id or uuid.uuid4(),
            user_id=user_id,
            kind=kind,
            status="queued",
            payload=payload,
            attempts=0,
            idempotency_key=idempotency_key,
            request_hash=request_hash,
            request_id=request_id,
            created_at=now,
            updated_at=now,
        )
        self.session.add(job)
        await self.session.flush()
        await self.enqueue(user_id, job.id)
        return job

    async def requeue_failed(self, job: Job) -> None:
        """Run a failed job again from its first attempt: status ``queued``, attempts 0, the
        last error cleared, a new queue entry (in the session's transaction). Its payload was
        kept: an acknowledged write lands once what failed it (a provider down) is back."""
        job.status, job.attempts, job.error = "queued", 0, None
        job.finished_at, job.updated_at = None, utcnow()
        await self.session.flush()
        await self.enqueue(job.user_id, job.id)

    async def enqueue(self, user_id: str, job_id: uuid.UUID) -> None:
        """A queue entry for the job, on the session's own connection and transaction."""
        conn = await self.session.connection()
        raw = (await conn.get_raw_connection()).driver_connection
        ref = {"tenant_id": str(self.tenant_id), "user_id": user_id, "job_id": str(job_id)}
        await Queries(AsyncpgDriver(raw)).enqueue(ENTRYPOINT, json.dumps(ref).encode())

    async def queue_entry_id(self, job_id: uuid.UUID) -> int | None:
        """The id of the job's queue entry while it waits or runs (None once it ended)."""
        row = await self.session.execute(
            text(
                "SELECT id FROM pgqueuer"
                " WHERE convert_from(payload, 'UTF8')::jsonb ->> 'job_id' = :j"
                " ORDER BY id DESC LIMIT 1"
            ),
            {"j": str(job_id)},
        )
        found = row.scalar()
        return int(found) if found is not None else None

    async def orphans(self, before: datetime) -> list[tuple[uuid.UUID, str]]:
        """``(job id, user id)`` of the tenant's unfinished jobs (queued or running, last
        changed before ``before``) that no queue entry waits for or runs: they would stay
        unfinished forever. The session must be scoped to (tenant, ALL_USERS)."""
        rows = await self.session.execute(
            text(
                "SELECT j.id, j.user_id FROM jobs j"
                " WHERE j.tenant_id = :t AND j.status IN ('queued', 'running')"
                " AND j.updated_at < :before"
                " AND NOT EXISTS (SELECT 1 FROM pgqueuer q"
                "   WHERE q.status IN ('queued', 'picked')"
                "   AND convert_from(q.payload, 'UTF8')::jsonb ->> 'job_id' = j.id::text)"
                " FOR UPDATE OF j SKIP LOCKED"
            ),
            {"t": self.tenant_id, "before": before},
        )
        return [(r[0], r[1]) for r in rows.all()]

    async def touch(self, job_id: uuid.UUID) -> None:
        await self.session.execute(
            update(Job)
            .where(Job.tenant_id == self.tenant_id, Job.id == job_id)
            .values(status="queued", updated_at=utcnow())
        )

    async def scrub_write(self, job_id: uuid.UUID, item: int | None = None) -> None:
        """Erase the content of an explicit write's request (its memory was deleted): the body
        of a single write, or item number ``item`` of a batch write (the other items keep
        theirs: their memories still exist)."""
        job = await self.get(job_id, for_update=True)
        if job is None:
            return
        if "body" in job.payload:
            job.payload = _scrubbed(job.payload)
        elif item is not None and 0 <= item < len(items := job.payload.get("items", [])):
            items = [*items[:item], _scrubbed(items[item]), *items[item + 1 :]]
            job.payload = {**job.payload, "items": items}


def _scrubbed(write: dict[str, Any]) -> dict[str, Any]:
    """One write's payload ``{body, sealed, …}`` without what the user said."""
    body = {**write["body"], "content": "", "value": None, "metadata": {}}
    return {**write, "body": body, "sealed": []}


class QueueStatsRepository:
    """The monitor's reads: queue depth and lag (the queue tables hold ids only, no user
    data, no row-level security) and per-tenant memory counts (``memlane_memory_counts()``
    returns aggregates per tenant and nothing else: SECURITY DEFINER, see the migration)."""

    def __init__(self, conn: AsyncConnection):
        self.conn = conn

    async def depth(self) -> dict[str, int]:
        """Queue entries per pgqueuer status."""
        rows = await self.conn.execute(
            text("SELECT status::text, count(*) FROM pgqueuer GROUP BY 1")
        )
        return {str(state): int(n) for state, n in rows.all()}

    async def lag_s(self) -> float:
        """Seconds the oldest due queue entry has waited (0 when none)."""
        lag = (
            await self.conn.execute(
                text(
                    "SELECT coalesce(extract(epoch FROM now() - min(execute_after)), 0)::float8"
                    " FROM pgqueuer WHERE status = 'queued' AND execute_after <= now()"
                )
            )
        ).scalar_one()
        return float(lag)

    async def memory_counts(self) -> list[tuple[uuid.UUID, int]]:
        rows = await self.conn.execute(
            text("SELECT tenant_id, active FROM memlane_memory_counts()")
        )
        return [(t, int(n)) for t, n in rows.all()]


async def tenant_ids(conn: AsyncConnection) -> list[uuid.UUID]:
    """Every tenant id (``tenants`` has no row-level security)."""
    rows = await conn.execute(text("SELECT id FROM tenants ORDER BY created_at, id"))
    return [r[0] for r in rows.all()]
