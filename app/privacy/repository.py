"""All SQL of erasing a user: every row of the user in every table, and its queue entries."""

from __future__ import annotations

from sqlalchemy import delete, select, text

from app.db.models import (
    Arbitration,
    ChatSession,
    Job,
    Memory,
    MemoryHistory,
    MemoryTerm,
    MemoryTermStats,
    Message,
    ScopeRead,
    Task,
    UserAttributes,
    UserSettings,
    UserSettingsHistory,
)
from app.db.repository import UserScopedRepository

# Children first; the job rows go last so that a job still running for this user finds its
# row gone when it tries to commit (app/jobs/worker.py: JobGone) and writes nothing.
ERASED_TABLES = (
    ("messages", Message),
    ("sessions", ChatSession),
    ("tasks", Task),
    ("user_settings", UserSettings),
    ("user_settings_history", UserSettingsHistory),
    ("user_attributes", UserAttributes),
    ("scope_reads", ScopeRead),
    ("memory_history", MemoryHistory),
    ("arbitrations", Arbitration),
    ("memories", Memory),
    # Emptied by the memories' trigger already; the statistics row of the user goes here.
    ("memory_terms", MemoryTerm),
    ("memory_term_stats", MemoryTermStats),
    ("jobs", Job),
)


class EraseRepository(UserScopedRepository):
    async def erase(self) -> tuple[dict[str, int], int]:
        """Delete every row of the user and the user's queue entries not yet taken, in the
        caller's transaction, under the user lock held exclusively (the lock waits for the
        writes and jobs in flight, and later ones wait for this transaction). Returns (rows
        deleted per table, queue entries cancelled)."""
        await self.lock_user(exclusive=True)
        # The job rows first, in the order a running job takes its locks (user lock, job row,
        # then memories): an erase and a job never wait on each other in a cycle.
        await self.session.execute(select(Job.id).where(self.mine(Job)).with_for_update())
        counts: dict[str, int] = {}
        for name, model in ERASED_TABLES:
            result = await self.session.execute(delete(model).where(self.mine(model)))
            counts[name] = int(result.rowcount)  # type: ignore[attr-defined]
        # Queue entries carry ids only, but they name the user: drop those not yet taken.
        cancelled = await self.session.execute(
            text(
                "DELETE FROM pgqueuer WHERE status IN ('queued', 'failed')"
                " AND convert_from(payload, 'UTF8')::jsonb ->> 'tenant_id' = :t"
                " AND convert_from(payload, 'UTF8')::jsonb ->> 'user_id' = :u"
            ),
            {"t": str(self.tenant_id), "u": self.user_id},
        )
        return counts, int(cancelled.rowcount)  # type: ignore[attr-defined]
