"""Erase a user: every row of that user in every table, with a receipt of what went."""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING

from pydantic import BaseModel
from sqlalchemy import delete, select, text

from app.db.models import (
    Arbitration,
    ChatSession,
    Job,
    Memory,
    MemoryHistory,
    Message,
    Task,
    UserSettings,
    UserSettingsHistory,
)

if TYPE_CHECKING:
    from app.runtime import Runtime

# Children first; the job rows go last so that a job still running for this user finds its
# row gone when it tries to commit (app/jobs/worker.py: JobGone) and writes nothing.
ERASED_TABLES = (
    ("messages", Message),
    ("sessions", ChatSession),
    ("tasks", Task),
    ("user_settings", UserSettings),
    ("user_settings_history", UserSettingsHistory),
    ("memory_history", MemoryHistory),
    ("arbitrations", Arbitration),
    ("memories", Memory),
    ("jobs", Job),
)


class EraseReceipt(BaseModel):
    """What was erased: rows per table (all zero when the user had nothing left)."""

    tenant_id: uuid.UUID
    user_id: str
    deleted: dict[str, int]
    queued_jobs_cancelled: int


async def erase_user(rt: Runtime, tenant_id: uuid.UUID, user_id: str) -> EraseReceipt:
    """Delete every row of the user in one transaction; idempotent."""
    counts: dict[str, int] = {}
    async with rt.scoped(tenant_id, user_id) as session:
        # Take the job rows first, in the order a running job takes its locks (job row, then
        # memories): an erase and a job never wait on each other in a cycle.
        await session.execute(
            select(Job.id)
            .where(Job.tenant_id == tenant_id, Job.user_id == user_id)
            .with_for_update()
        )
        for name, model in ERASED_TABLES:
            result = await session.execute(
                delete(model).where(model.tenant_id == tenant_id, model.user_id == user_id)
            )
            counts[name] = int(result.rowcount)  # type: ignore[attr-defined]
        # Queue entries carry ids only, but they name the user: drop those not yet done.
        cancelled = await session.execute(
            text(
                "DELETE FROM pgqueuer WHERE status IN ('queued', 'failed')"
                " AND convert_from(payload, 'UTF8')::jsonb ->> 'tenant_id' = :t"
                " AND convert_from(payload, 'UTF8')::jsonb ->> 'user_id' = :u"
            ),
            {"t": str(tenant_id), "u": user_id},
        )
        await session.commit()
    return EraseReceipt(
        tenant_id=tenant_id,
        user_id=user_id,
        deleted=counts,
        queued_jobs_cancelled=int(cancelled.rowcount),  # type: ignore[attr-defined]
    )
