"""Job intake: a write is acknowledged by storing its job row and queue entry in the caller's
transaction (the job exists if and only if the caller's commit succeeds), with idempotency."""

from __future__ import annotations

import uuid
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Job
from app.db.repository import UserScopedRepository
from app.jobs.repository import JobRepository
from app.kit.errors import IdempotencyKeyReused


class JobIntake:
    """Queues jobs of one user inside the caller's transaction (it only flushes)."""

    def __init__(self, session: AsyncSession, tenant_id: uuid.UUID, user_id: str):
        self.user = UserScopedRepository(session, tenant_id, user_id)
        self.jobs = JobRepository(session, tenant_id)
        self.user_id = user_id

    async def replay(self, idempotency_key: str | None, digest: str) -> Job | None:
        """Start an intake: take the user lock (shared: an erase waits for this write, or this
        write waits for the erase), and with an Idempotency-Key return the job of the first
        request with this key — queued again when it had failed, so a client's retry lands the
        write (``JobRepository.requeue_failed``). Raises IdempotencyKeyReused (409) when that
        request had another body (``digest`` identifies a body)."""
        await self.user.lock_user()
        if idempotency_key is None:
            return None
        await self.jobs.lock_idempotency_key(self.user_id, idempotency_key)
        existing = await self.jobs.by_idempotency_key(self.user_id, idempotency_key)
        if existing is not None and existing.request_hash != digest:
            raise IdempotencyKeyReused(
                "this Idempotency-Key was used with a different request body"
            )
        if existing is not None and existing.status == "failed":
            await self.jobs.requeue_failed(existing)
        return existing

    async def submit(
        self,
        kind: str,
        payload: dict[str, Any],
        *,
        digest: str,
        idempotency_key: str | None,
        request_id: str | None,
        job_id: uuid.UUID | None = None,
    ) -> Job:
        """Store the job row and its queue entry (call ``replay`` first). ``job_id`` lets the
        caller name the job in intake rows written before it (messages)."""
        await self.user.lock_user()
        return await self.jobs.add_and_enqueue(
            user_id=self.user_id,
            kind=kind,
            payload=payload,
            idempotency_key=idempotency_key,
            request_hash=digest,
            request_id=request_id,
            job_id=job_id,
        )
