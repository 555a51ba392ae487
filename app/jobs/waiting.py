"""Waiting for a job (``?wait=true``): a job run by this process's worker wakes its waiters as
soon as its unit of work commits (``JobWaiter.ended``); one run by another process is seen when
pgqueuer's ``CompletionWatcher`` reports its queue entry ended (LISTEN/NOTIFY, one connection
per process; pgqueuer writes that end in batches, up to 0.1 s later). The job row says how it
ended. The row is also read every ``RECHECK_S``, so a queue entry removed without an end
(its user erased) or a lost connection never leaves a waiter hanging; without a watcher the
row is read every ``POLL_S``. Each read is its own short transaction."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from typing import TYPE_CHECKING, Any

import asyncpg
from pgqueuer.core.completion import CompletionWatcher
from pgqueuer.db import AsyncpgDriver
from pgqueuer.queries import Queries
from pgqueuer.types import JobId

from app.db.models import Job
from app.jobs.repository import JobRepository
from app.kit.errors import NotFound

if TYPE_CHECKING:
    from app.runtime import Runtime

log = logging.getLogger(__name__)

TERMINAL = ("done", "failed")
RECHECK_S = 1.0
POLL_S = 0.05
WAITER_KEY = "job_waiter"


class JobWaiter:
    """One ``CompletionWatcher`` per process on a connection of its own, opened at the first
    wait and again after its connection was lost; None while the database refuses it."""

    def __init__(self, dsn: str):
        self.dsn = dsn
        self._conn: asyncpg.Connection | None = None
        self._watcher: CompletionWatcher | None = None
        self._lock = asyncio.Lock()
        # waiters of jobs this process's worker may run: job id -> futures to resolve
        self._local: dict[uuid.UUID, list[asyncio.Future[None]]] = {}

    def expect(self, job_id: uuid.UUID) -> asyncio.Future[None]:
        """A future resolved when this process's worker ends ``job_id`` (``ended``); the
        caller drops it with ``forget`` when done waiting."""
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._local.setdefault(job_id, []).append(fut)
        return fut

    def forget(self, job_id: uuid.UUID, fut: asyncio.Future[None]) -> None:
        pending = self._local.get(job_id, [])
        with contextlib.suppress(ValueError):
            pending.remove(fut)
        if not pending:
            self._local.pop(job_id, None)

    def ended(self, job_id: uuid.UUID) -> None:
        """Wake the waiters of ``job_id``: its end (done, or failed for good) has committed."""
        for fut in self._local.pop(job_id, []):
            if not fut.done():
                fut.get_loop().call_soon_threadsafe(_resolve, fut)

    async def watcher(self) -> CompletionWatcher | None:
        async with self._lock:
            if self._watcher is not None and self._conn is not None and not self._conn.is_closed():
                return self._watcher
            await self._drop()
            try:
                conn = await asyncpg.connect(self.dsn)
                driver = AsyncpgDriver(conn)
                watcher = CompletionWatcher(driver, queries=Queries(driver))
                await watcher.__aenter__()
            except Exception:
                log.warning("job completion watcher unavailable; waiting polls", exc_info=True)
                return None
            self._conn, self._watcher = conn, watcher
            return watcher

    async def _drop(self) -> None:
        watcher, conn = self._watcher, self._conn
        self._watcher = self._conn = None
        if watcher is not None:
            with contextlib.suppress(Exception):
                # With an exception type it cancels its waiters instead of awaiting them.
                await watcher.__aexit__(asyncio.CancelledError, None, None)
        if conn is not None and not conn.is_closed():
            with contextlib.suppress(Exception):
                await conn.close()

    async def close(self) -> None:
        async with self._lock:
            await self._drop()


def _resolve(fut: asyncio.Future[None]) -> None:
    if not fut.done():
        fut.set_result(None)


async def _read(rt: Runtime, tenant_id: uuid.UUID, user_id: str, job_id: uuid.UUID) -> Job:
    async with rt.scoped(tenant_id, user_id) as session:
        job = await JobRepository(session, tenant_id).get(job_id)
    if job is None:
        raise NotFound("no such job")
    return job


async def _queue_id(
    rt: Runtime, tenant_id: uuid.UUID, user_id: str, job_id: uuid.UUID
) -> int | None:
    async with rt.scoped(tenant_id, user_id) as session:
        return await JobRepository(session, tenant_id).queue_entry_id(job_id)


async def wait_for_job(
    rt: Runtime, tenant_id: uuid.UUID, user_id: str, job_id: uuid.UUID, timeout_s: float
) -> Job:
    """The job once done or failed, or as it is after ``timeout_s`` seconds. Raises NotFound
    (no such job, or its user was erased meanwhile)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout_s
    waiter: JobWaiter | None = rt.extras.get(WAITER_KEY)
    # expected before the first read, so an end that commits after it is never missed
    local = waiter.expect(job_id) if waiter is not None else None
    done: asyncio.Future[Any] | None = None
    watcher: CompletionWatcher | None = None
    queue_id: int | None = None
    try:
        job = await _read(rt, tenant_id, user_id, job_id)
        if job.status in TERMINAL:
            return job
        watcher = await waiter.watcher() if waiter is not None else None
        queue_id = await _queue_id(rt, tenant_id, user_id, job_id) if watcher is not None else None
        if watcher is not None and queue_id is not None:
            done = watcher.wait_for(JobId(queue_id))
        while True:
            remaining = deadline - loop.time()
            if remaining <= 0:
                return job
            signals = {f for f in (done, local) if f is not None and not f.done()}
            if signals:
                await asyncio.wait(
                    signals, timeout=min(RECHECK_S, remaining), return_when=asyncio.FIRST_COMPLETED
                )
            else:
                await asyncio.sleep(min(POLL_S if done is None else RECHECK_S, remaining))
            if local is not None and local.done():
                # an end reported (``ended`` dropped it) and read below: a later wake comes
                # from the watcher or a recheck
                local = None
            job = await _read(rt, tenant_id, user_id, job_id)
            if job.status in TERMINAL:
                return job
    finally:
        if local is not None and waiter is not None:
            waiter.forget(job_id, local)
        if done is not None and not done.done() and watcher is not None and queue_id is not None:
            done.cancel()
            # Forget the abandoned waiter: an erased job's queue entry never ends.
            pending = watcher.waiters.get(JobId(queue_id), [])
            with contextlib.suppress(ValueError):
                pending.remove(done)
            if not pending:
                watcher.waiters.pop(JobId(queue_id), None)
