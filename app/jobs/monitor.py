"""Samples queue depth, queue lag and per-tenant memory counts into gauges, off the request path."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from app.jobs.repository import QueueStatsRepository
from app.kit.metrics import LONG_TERM_MEM_SIZE, QUEUE_DEPTH, QUEUE_LAG

if TYPE_CHECKING:
    from app.runtime import Runtime

log = logging.getLogger(__name__)

QUEUE_STATES = ("queued", "picked")


async def sample(rt: Runtime) -> None:
    """One sample. The queue tables hold ids only (no user data, no row-level security);
    memory counts come from ``memlane_memory_counts()``, which returns aggregates per tenant
    and nothing else (SECURITY DEFINER, see the migration)."""
    async with rt.engine.connect() as conn:
        stats = QueueStatsRepository(conn)
        depth = await stats.depth()
        lag = await stats.lag_s()
        counts = await stats.memory_counts()
    for state in QUEUE_STATES:
        QUEUE_DEPTH.labels(state).set(depth.get(state, 0))
    QUEUE_LAG.set(max(0.0, float(lag)))
    if rt.settings.metrics_token is None:
        # An open /metrics must not list tenants (their ids are what a 404 hides): one total.
        LONG_TERM_MEM_SIZE.labels("*").set(sum(active for _, active in counts))
        return
    for tenant_id, active in counts:
        LONG_TERM_MEM_SIZE.labels(str(tenant_id)).set(active)


class Monitor:
    def __init__(self, rt: Runtime):
        self.rt = rt
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._task = asyncio.create_task(self._loop(), name="memlane-monitor")

    async def _loop(self) -> None:
        while True:
            try:
                await sample(self.rt)
            except Exception:
                log.warning("could not sample queue and memory gauges", exc_info=True)
            await asyncio.sleep(self.rt.settings.metrics_sample_interval_s)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
