"""The base of every repository that reads or writes one user's rows, and the user's locks.

Two transaction-level advisory locks per (tenant, user) order the units of work that touch a
user (PostgreSQL advisory locks: https://www.postgresql.org/docs/current/explicit-locking.html
#ADVISORY-LOCKS):

- the *user lock*: every unit of work that stores something for the user (a write's intake, a
  job) holds it shared from its first statement; erasing the user holds it exclusively. An
  erase therefore waits for the writes in flight and removes all they stored, and a write that
  starts after the erase lands whole after it (or finds its job gone).
- the *write lock*: the memory writer holds it exclusively while it arbitrates, so two writes
  of one user never decide against the same snapshot (20 parallel identical writes leave one
  active memory). It is taken after the embedding call, so no lock waits on a provider.

Both are released at commit or rollback. Take the user lock before any row lock of the unit of
work, and the write lock after it: every unit then takes its locks in the same order and none
waits on another in a cycle.
"""

from __future__ import annotations

import uuid
from typing import Any

from sqlalchemy import and_, event, text
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session, SessionTransaction

# Distinct namespaces for the two locks of one user (hashtextextended's seed).
USER_LOCK_SEED = 0x6D6C_0001
WRITE_LOCK_SEED = 0x6D6C_0002
_HELD = "memlane_user_locks"


class UserScopedRepository:
    """SQL on the rows of one user of one tenant; subclasses add their statements.

    ``mine(Model)`` is the filter every statement carries (row-level security is the second
    layer, not the only one).
    """

    def __init__(self, session: AsyncSession, tenant_id: uuid.UUID, user_id: str):
        self.session = session
        self.tenant_id = tenant_id
        self.user_id = user_id

    def mine(self, model: Any) -> Any:
        return and_(model.tenant_id == self.tenant_id, model.user_id == self.user_id)

    async def flush(self) -> None:
        await self.session.flush()

    async def _lock(self, seed: int, mode: str) -> None:
        key = f"{self.tenant_id}:{self.user_id}"
        held: set[tuple[str, int, str]] = self.session.info.setdefault(_HELD, set())
        if (key, seed, mode) in held or (key, seed, "exclusive") in held:
            return
        fn = "pg_advisory_xact_lock_shared" if mode == "shared" else "pg_advisory_xact_lock"
        await self.session.execute(
            text(f"SELECT {fn}(hashtextextended(:k, :seed))"), {"k": key, "seed": seed}
        )
        held.add((key, seed, mode))

    async def lock_user(self, *, exclusive: bool = False) -> None:
        """Hold the user lock until the transaction ends: shared for a write or a job,
        exclusive for an erase. Idempotent within one transaction."""
        await self._lock(USER_LOCK_SEED, "exclusive" if exclusive else "shared")

    async def lock_writes(self) -> None:
        """Hold the user's memory write lock (exclusive) until the transaction ends; takes the
        user lock (shared) first. Idempotent within one transaction."""
        await self.lock_user()
        await self._lock(WRITE_LOCK_SEED, "exclusive")


@event.listens_for(Session, "after_transaction_end")
def _forget_locks(session: Session, transaction: SessionTransaction) -> None:
    # The transaction ended (commit or rollback): its advisory locks are gone with it.
    if transaction.parent is None:
        session.info.pop(_HELD, None)
