"""Access statistics, recorded off the request path and written in batches."""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections import Counter, defaultdict
from datetime import datetime
from typing import TYPE_CHECKING

from app.kit.time import utcnow

if TYPE_CHECKING:
    from app.runtime import Runtime

log = logging.getLogger(__name__)

FLUSH_INTERVAL_S = 2.0


class AccessRecorder:
    """Collects recalled memory ids in memory and flushes them every ``FLUSH_INTERVAL_S``.

    Counts are statistics, not acknowledged writes: a crash loses at most one interval of them.
    """

    def __init__(self, rt: Runtime):
        self.rt = rt
        self._pending: dict[tuple[uuid.UUID, str], Counter[uuid.UUID]] = defaultdict(Counter)
        self._last_at: datetime = utcnow()
        self._task: asyncio.Task[None] | None = None
        # One flush at a time: a flush returns once everything recorded before it is written,
        # including what a flush already under way (the periodic one) had taken.
        self._flushing = asyncio.Lock()

    def record(self, tenant_id: uuid.UUID, user_id: str, ids: list[uuid.UUID]) -> None:
        if ids:
            self._pending[(tenant_id, user_id)].update(ids)  # one count per recall
            self._last_at = utcnow()

    async def start(self) -> None:
        self._task = asyncio.create_task(self._loop(), name="memlane-access-stats")

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(FLUSH_INTERVAL_S)
            try:
                await self.flush()
            except Exception:
                log.warning("could not write access statistics", exc_info=True)

    async def flush(self) -> None:
        """Write the counts recorded so far: when it returns, every count recorded before the
        call is committed. Raises what the database raises (those counts are then lost)."""
        async with self._flushing:
            await self._write()

    async def _write(self) -> None:
        from app.recall.repository import RecallRepository

        pending, self._pending = self._pending, defaultdict(Counter)
        for (tenant_id, user_id), ids in pending.items():
            async with self.rt.scoped(tenant_id, user_id) as session:
                await RecallRepository(session, tenant_id, user_id).record_access(
                    dict(ids), self._last_at
                )
                await session.commit()

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
        try:
            await self.flush()
        except Exception:
            log.warning("could not write access statistics at shutdown", exc_info=True)
