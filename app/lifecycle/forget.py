"""Forgetting: archive what decayed and enforce a per-user capacity (DESIGN.md, Forgetting).

One pass, for every tenant and every user in it with active memories:

1. **Decay.** An active memory whose decay factor at ``now`` is below
   ``settings.forget_decay_threshold`` is archived. The decay is recall's own formula
   (``app.recall.repository.decay_inputs_sql`` / ``decay_sql``): ``max(floor_type,
   0.5 ^ (age_days / half_life_days))``, age from ``valid_from``, the half-life lengthened by
   use (docs/time.md, Usage decay). With the default floors only events (floor 0) get there.
2. **Capacity.** When the user still has more than ``settings.max_active_memories_per_user``
   active memories, the lowest-value ones beyond it are archived (``value_score`` below).

Never archived by decay: constraints, and profile facts the user confirmed (type ``profile`` and
``confirmations >= 2`` or source ``user_declared``/``form``). Capacity never archives a
constraint (they still count towards the capacity, so a user with more constraints than the
capacity stays above it); it archives a confirmed profile fact only when nothing else is left to
archive — every other memory goes first, whatever its value.
A memory the user emphasised (``metadata.pinned``: "记住", "don't forget"; docs/sessions.md)
is archived by neither; the user's retention limit still applies to it.

Archiving sets ``status = 'archived'`` and ``updated_at``, and writes a ``memory_history`` row
(action ``archive``, actor ``forgetting``, the new snapshot carrying ``reason`` and the numbers
behind it). Nothing is deleted: archived memories leave recall (it reads ``status = 'active'``)
and stay readable by id, in lists (``status=archived``) and in their history.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import uuid
from collections.abc import AsyncIterator, Collection, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy.ext.asyncio import (
    AsyncConnection,
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
)

from app.config import Settings
from app.db.session import ALL_USERS, scoped_session
from app.kit.time import utcnow
from app.lifecycle.repository import (
    Candidate,
    ForgetRepository,
    release_pass_lock,
    tenant_ids,
    try_pass_lock,
)
from app.memories.writer import MemoryWriter
from app.recall.repository import decay_params
from app.users.policy import MemoryPolicy, not_before

log = logging.getLogger(__name__)

ACTOR = "forgetting"

# Weights and scale of ``value_score`` (its docstring has the formula and the reasons).
VALUE_WEIGHT_RECENCY = 0.5
VALUE_WEIGHT_FREQUENCY = 0.2
VALUE_WEIGHT_CONFIDENCE = 0.3
ACCESS_COUNT_SATURATION = 100  # recalls that earn the full frequency term

# Session-level advisory lock held for a whole pass: one pass at a time across every process
# on the database (the bytes of "memlanef", a key no other part of Memlane uses).
FORGET_LOCK_KEY = int.from_bytes(b"memlanef", "big")
# Rows loaded and archived per statement, so a user far over capacity is not one huge batch.
ARCHIVE_BATCH_ROWS = 500


def value_score(*, decay: float, access_count: int, confidence: float) -> float:
    """The value (0..1) of a memory for capacity enforcement; the lowest go first.

    ::

        value_score = VALUE_WEIGHT_RECENCY    × decay                              (0.5)
                    + VALUE_WEIGHT_FREQUENCY  × frequency                          (0.2)
                    + VALUE_WEIGHT_CONFIDENCE × confidence                         (0.3)
        frequency   = min(1, ln(1 + access_count) / ln(1 + ACCESS_COUNT_SATURATION))

    Every term lies in 0..1 and the weights sum to 1. Recency weighs most: it is the decay
    recall ranks by, so the type's half-life and floor speak (an old profile fact keeps 0.6, an
    old event falls to 0). Confidence next: a declared fact (0.9) outlives an inferred one (0.5)
    of the same age. Access frequency is a bonus that lets a memory recall keeps returning
    survive its age; it is logarithmic and saturates at 100 recalls so one hot memory does not
    dwarf the rest, and it is a fixed scale, not relative to the user's busiest memory, so a
    memory's value does not depend on its neighbours. This mirrors the SQL that decides
    (``_LOWEST_VALUE`` in ``app/lifecycle/repository.py``); a test holds them together.
    """
    frequency = min(1.0, math.log1p(access_count) / math.log1p(ACCESS_COUNT_SATURATION))
    return (
        VALUE_WEIGHT_RECENCY * decay
        + VALUE_WEIGHT_FREQUENCY * frequency
        + VALUE_WEIGHT_CONFIDENCE * confidence
    )


def value_params() -> dict[str, float]:
    """The bind parameters of the value formula in SQL."""
    return {
        "w_recency": VALUE_WEIGHT_RECENCY,
        "w_frequency": VALUE_WEIGHT_FREQUENCY,
        "w_confidence": VALUE_WEIGHT_CONFIDENCE,
        "access_saturation": float(ACCESS_COUNT_SATURATION),
    }


class ForgetRuntime(Protocol):
    """What a pass needs of a process: ``app.runtime.Runtime`` or a ``DatabaseRuntime``."""

    @property
    def settings(self) -> Settings: ...

    @property
    def engine(self) -> AsyncEngine: ...

    def scoped(
        self, tenant_id: uuid.UUID, user_id: str
    ) -> AbstractAsyncContextManager[AsyncSession]: ...


@dataclass
class DatabaseRuntime:
    """Settings and database only, for commands (``memlane forget``) that need no providers."""

    settings: Settings
    engine: AsyncEngine
    sessionmaker: async_sessionmaker[AsyncSession]

    @asynccontextmanager
    async def scoped(self, tenant_id: uuid.UUID, user_id: str) -> AsyncIterator[AsyncSession]:
        """A session whose every transaction sees only (tenant, user) rows."""
        async with scoped_session(self.sessionmaker, tenant_id, user_id) as session:
            yield session


@dataclass
class ForgetSummary:
    """What one pass did. ``skipped``: another pass held the lock, nothing was done."""

    tenants: int = 0
    users_scanned: int = 0
    archived_by_decay: int = 0
    archived_by_capacity: int = 0
    tenants_failed: int = 0
    skipped: bool = False

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@asynccontextmanager
async def pass_lock(engine: AsyncEngine) -> AsyncIterator[AsyncConnection | None]:
    """Try the forgetting lock (``pg_try_advisory_lock``, never waits) on a connection of its
    own and hold it until exit. Yields that connection when the lock was acquired, else None."""
    async with engine.connect() as conn:
        got = await try_pass_lock(conn, FORGET_LOCK_KEY)
        # End the statement's transaction: the session-level lock stays, and the connection
        # does not sit "idle in transaction" for the whole pass.
        await conn.commit()
        try:
            yield conn if got else None
        finally:
            if got:
                try:
                    await conn.rollback()
                    await release_pass_lock(conn, FORGET_LOCK_KEY)
                    await conn.commit()
                except BaseException:
                    # Closing the connection releases the lock; never pool a locked one.
                    await conn.invalidate()
                    raise


async def forget_pass(
    rt: ForgetRuntime,
    *,
    now: datetime | None = None,
    only_tenants: Collection[uuid.UUID] | None = None,
) -> ForgetSummary:
    """Run one forgetting pass at ``now`` (default: the current time) and return its summary.

    ``only_tenants`` restricts the pass to those tenants (default: every tenant). When another
    pass holds the lock, returns at once with ``skipped=True``. A tenant whose work fails is
    logged and counted in ``tenants_failed``; the other tenants still run (each user's changes
    are one transaction, so a failure leaves no half-archived user).
    """
    at = now or utcnow()
    summary = ForgetSummary()
    async with pass_lock(rt.engine) as conn:
        if conn is None:
            summary.skipped = True
            log.info("forgetting pass skipped: another pass is running")
            return summary
        # tenants has no row-level security; the connection runs as the application role.
        tenants = await tenant_ids(conn)
        await conn.commit()
        if only_tenants is not None:
            wanted = set(only_tenants)
            tenants = [t for t in tenants if t in wanted]
        for tenant_id in tenants:
            summary.tenants += 1
            try:
                await _forget_tenant(rt, tenant_id, at, summary)
            except Exception:
                summary.tenants_failed += 1
                log.warning(
                    "forgetting failed for a tenant",
                    extra={"tenant_id": str(tenant_id)},
                    exc_info=True,
                )
    log.info(
        "forgetting pass done",
        extra={
            "tenants": summary.tenants,
            "users_scanned": summary.users_scanned,
            "archived_by_decay": summary.archived_by_decay,
            "archived_by_capacity": summary.archived_by_capacity,
            "tenants_failed": summary.tenants_failed,
        },
    )
    return summary


async def _forget_tenant(
    rt: ForgetRuntime, tenant_id: uuid.UUID, at: datetime, summary: ForgetSummary
) -> None:
    settings = rt.settings
    params = decay_params(settings)
    capacity = settings.max_active_memories_per_user
    async with rt.scoped(tenant_id, ALL_USERS) as session:
        repo = ForgetRepository(session, tenant_id)
        counts = await repo.active_counts()
        retention = await repo.retention_limits()
        await session.commit()
        for user_id, active in counts.items():
            summary.users_scanned += 1
            decayed = await repo.decayed(
                user_id, at=at, threshold=settings.forget_decay_threshold, params=params
            )
            if user_id in retention:
                # The user's retention limit (app/users/policy.py): older memories go too.
                oldest = not_before(MemoryPolicy(retention_days=retention[user_id]), at)
                assert oldest is not None
                decayed += await repo.older_than(user_id, oldest)
            n_decay = await _archive(session, repo, user_id, decayed, at)
            n_capacity = 0
            # The count is from before this user's transaction: a cheap filter only; the
            # statement counts again.
            if active - n_decay > capacity:
                lowest = await repo.lowest_value(
                    user_id, at=at, capacity=capacity, params=params | value_params()
                )
                n_capacity = await _archive(session, repo, user_id, lowest, at)
            await session.commit()
            session.expunge_all()  # a tenant may have many users: keep no rows between them
            summary.archived_by_decay += n_decay
            summary.archived_by_capacity += n_capacity


async def _archive(
    session: AsyncSession,
    repo: ForgetRepository,
    user_id: str,
    candidates: Sequence[Candidate],
    at: datetime,
) -> int:
    """Archive the candidates that are still active through the memory writer (each with a
    history row); returns how many."""
    writer = MemoryWriter(
        session, tenant_id=repo.tenant_id, user_id=user_id, actor=ACTOR, request_id=None
    )
    reasons = {c.id: {**c.reason, "evaluated_at": at.isoformat()} for c in candidates}
    return await writer.archive(reasons, batch_rows=ARCHIVE_BATCH_ROWS)


class ForgetScheduler:
    """Runs ``forget_pass`` every ``settings.forget_interval_s`` (0 disables it).

    The first pass runs one interval after start, not at start: a process that restarts does
    not rescan at once, and the advisory lock keeps processes from running passes together.
    """

    def __init__(self, rt: ForgetRuntime):
        self.rt = rt
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        if self.rt.settings.forget_interval_s > 0:
            self._task = asyncio.create_task(self._loop(), name="memlane-forgetting")

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(self.rt.settings.forget_interval_s)
            try:
                await forget_pass(self.rt)
            except Exception:
                log.warning("forgetting pass failed", exc_info=True)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
