"""Queue workers: pgqueuer dispatches, Memlane's ``jobs`` table records status and results.

A job is retried with exponential backoff (pgqueuer's ``DatabaseRetryEntrypointExecutor``)
until ``settings.job_max_attempts``; then it ends ``failed`` with its error, visible at
``GET /v1/jobs/{id}``. A worker killed mid-job stops heartbeating; pgqueuer hands the job to a
live worker once the heartbeat is older than ``settings.job_heartbeat_timeout_s``. A job's
writes and its ``done`` mark commit together, so a job already done is never run twice.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import asyncpg
from pgqueuer import QueueManager
from pgqueuer.db import AsyncpgDriver
from pgqueuer.executors import DatabaseRetryEntrypointExecutor, EntrypointExecutorParameters
from pgqueuer.models import Job as QueueJob
from pgqueuer.models import Schedule
from pgqueuer.queries import Queries
from pgqueuer.sm import SchedulerManager
from sqlalchemy.ext.asyncio import AsyncSession

from app.config import Settings
from app.db.models import Job
from app.db.repository import UserScopedRepository
from app.jobs.repository import ENTRYPOINT, JobRepository
from app.jobs.sweep import SWEEP_CRON, SWEEP_SCHEDULE, requeue_orphans
from app.jobs.waiting import WAITER_KEY
from app.kit.metrics import JOB_FAILURES, JOB_LATENCY
from app.kit.time import utcnow
from app.runtime import Runtime

log = logging.getLogger(__name__)

MAX_RETRY_DELAY = timedelta(minutes=5)


def job_error(exc: BaseException) -> str:
    """The error a failed job shows: its type and the first line of its message (a database
    error's later lines carry the SQL statement)."""
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {first}"[:500]


class JobGone(Exception):
    """The job's row was deleted while it ran (its user was erased): write nothing."""


async def hold_job_row(session: AsyncSession, job: Job) -> Job:
    """Lock the job's row in the transaction that writes its results, and return it. Raises
    JobGone when the row is gone, so an erase that committed first is never undone by a late
    job; an erase that comes second waits for this transaction (user lock) and then deletes
    what it wrote."""
    row = await JobRepository(session, job.tenant_id).get(job.id, for_update=True)
    if row is None:
        raise JobGone(str(job.id))
    return row


def mark_done(row: Job, result: dict[str, Any]) -> None:
    """Record the result on the held job row: committed with the job's writes, so a crash can
    never leave the writes done and the job still to run (it would run twice)."""
    row.status, row.result, row.error = "done", result, None
    row.updated_at = row.finished_at = utcnow()


@dataclass
class JobContext:
    """What a handler works with: the runtime, the job (read before the unit began) and the
    job's one session. The handler only flushes; the runner commits its writes together with
    the job's done mark."""

    rt: Runtime
    job: Job
    session: AsyncSession
    # What the kind's ``prepare`` step computed, outside the unit of work (None without one).
    prepared: Any = None


Handler = Callable[[JobContext], Awaitable[dict[str, Any]]]
Prepare = Callable[[Runtime, Job], Awaitable[Any]]
HANDLERS: dict[str, Handler] = {}
PREPARES: dict[str, Prepare] = {}


def handler(kind: str, *, prepare: Prepare | None = None) -> Callable[[Handler], Handler]:
    """Register the coroutine that runs jobs of ``kind`` (``app.jobs.kinds``).

    ``prepare(rt, job)``, when given, does the job's slow work that needs no database — the
    embedding call — before the unit of work opens its session and takes the user lock; its
    result reaches the handler as ``ctx.prepared``. So no lock (and no open transaction) waits
    on a provider: an erase of the user, or another write, is not held up by it.
    """

    def register(fn: Handler) -> Handler:
        HANDLERS[kind] = fn
        if prepare is not None:
            PREPARES[kind] = prepare
        return fn

    return register


async def _start(rt: Runtime, tenant_id: uuid.UUID, user_id: str, job_id: uuid.UUID) -> Job | None:
    """Mark the job running (its own short transaction: pollers see it at once)."""
    async with rt.scoped(tenant_id, user_id) as session:
        job = await JobRepository(session, tenant_id).get(job_id, for_update=True)
        if job is None or job.status in ("done", "failed"):
            return None
        job.status, job.attempts, job.updated_at = "running", job.attempts + 1, utcnow()
        await session.commit()
        return job


async def _unit(rt: Runtime, job: Job) -> dict[str, Any]:
    """The job's unit of work: the kind's ``prepare`` step (no session, no lock), then one
    session, user lock (shared) first, the handler, the done mark, one commit. Raises JobGone
    when the user was erased meanwhile (the done mark finds the job row gone)."""
    fn = HANDLERS[job.kind]
    prepare = PREPARES.get(job.kind)
    prepared = await prepare(rt, job) if prepare is not None else None
    async with rt.scoped(job.tenant_id, job.user_id) as session:
        await UserScopedRepository(session, job.tenant_id, job.user_id).lock_user()
        result = await fn(JobContext(rt, job, session, prepared))
        row = await hold_job_row(session, job)
        mark_done(row, result)
        await session.commit()
    return result


async def run_job(rt: Runtime, ref: dict[str, str]) -> None:
    """Run one job by reference ``{tenant_id, user_id, job_id}``.

    A failure with attempts left is recorded (status ``queued``, its error) and raised again:
    pgqueuer's retry executor (``retry_executor``) queues the job again with exponential
    backoff. The last attempt's failure is recorded as ``failed`` and not raised.
    """
    tenant_id, user_id, job_id = (
        uuid.UUID(ref["tenant_id"]),
        ref["user_id"],
        uuid.UUID(ref["job_id"]),
    )
    job = await _start(rt, tenant_id, user_id, job_id)
    if job is None:
        return
    attempts = job.attempts
    started = time.perf_counter()
    try:
        await _unit(rt, job)
    except JobGone:
        log.info("job dropped: its user was erased", extra={"job_id": str(job_id)})
        _ended(rt, job_id)
        return
    except Exception as exc:
        failed = attempts >= rt.settings.job_max_attempts
        JOB_LATENCY.labels(job.kind, "error").observe(time.perf_counter() - started)
        JOB_FAILURES.labels(job.kind, str(failed).lower()).inc()
        log.warning(
            "job failed",
            extra={
                "job_id": str(job_id),
                "kind": job.kind,
                "attempt": attempts,
                "final": failed,
                "error": type(exc).__name__,
            },
        )
        async with rt.scoped(tenant_id, user_id) as session:
            row = await JobRepository(session, tenant_id).get(job_id, for_update=True)
            if row is not None:
                row.status = "failed" if failed else "queued"
                row.error = job_error(exc)
                row.updated_at = utcnow()
                if failed:
                    row.finished_at = utcnow()
                await session.commit()
        if failed:
            _ended(rt, job_id)
            return
        raise
    _ended(rt, job_id)
    JOB_LATENCY.labels(job.kind, "done").observe(time.perf_counter() - started)


def _ended(rt: Runtime, job_id: uuid.UUID) -> None:
    """Wake this process's waiters of ``job_id`` (``?wait=true``): its end has committed."""
    waiter = rt.extras.get(WAITER_KEY)
    if waiter is not None:
        waiter.ended(job_id)


def retry_executor(settings: Settings) -> Callable[[EntrypointExecutorParameters], Any]:
    """pgqueuer's ``DatabaseRetryEntrypointExecutor``: an exception from the entrypoint queues
    the job again after ``job_retry_initial_delay_s × 2^attempt`` seconds (at most
    ``MAX_RETRY_DELAY``); after ``job_max_attempts`` it is held as failed."""

    def build(parameters: EntrypointExecutorParameters) -> DatabaseRetryEntrypointExecutor:
        return DatabaseRetryEntrypointExecutor(
            parameters=parameters,
            max_attempts=settings.job_max_attempts,
            initial_delay=timedelta(seconds=settings.job_retry_initial_delay_s),
            max_delay=MAX_RETRY_DELAY,
            backoff_multiplier=2.0,
        )

    return build


class Worker:
    """A pgqueuer QueueManager on its own connection, running jobs until stopped."""

    def __init__(self, rt: Runtime):
        self.rt = rt
        self._task: asyncio.Task[None] | None = None
        self._qm: QueueManager | None = None
        self._sm: SchedulerManager | None = None
        self._conn: asyncpg.Connection | None = None
        self.alive = False

    async def start(self) -> None:
        self._task = asyncio.create_task(self._run_forever(), name="memlane-worker")

    async def _run_forever(self) -> None:
        # Reconnect after the database went away (restart, failover).
        while True:
            try:
                await self._run_once()
                return
            except asyncio.CancelledError:
                raise
            except Exception:
                self.alive = False
                log.exception("worker lost its connection; reconnecting in 1 s")
                await asyncio.sleep(1.0)

    async def _run_once(self) -> None:
        settings = self.rt.settings
        self._conn = await asyncpg.connect(self.rt.asyncpg_dsn)
        qm = QueueManager(Queries(AsyncpgDriver(self._conn)))
        self._qm = qm
        rt = self.rt

        @qm.entrypoint(ENTRYPOINT, on_failure="hold", executor_factory=retry_executor(settings))
        async def _entry(job: QueueJob) -> None:
            # Any exception (the job's own, or the database gone before its bookkeeping ran)
            # is retried by the executor with backoff.
            await run_job(rt, json.loads(job.payload or b"{}"))

        sweeper = asyncio.create_task(self._schedule(), name="memlane-job-sweep")
        self.alive = True
        try:
            await qm.run(
                batch_size=settings.worker_concurrency,
                max_concurrent_tasks=settings.worker_concurrency * 2,
                heartbeat_timeout=timedelta(seconds=settings.job_heartbeat_timeout_s),
                dequeue_timeout=timedelta(seconds=5),
            )
        finally:
            self.alive = False
            if self._sm is not None:
                self._sm.shutdown.set()
            try:
                await asyncio.wait_for(sweeper, timeout=5)
            except (TimeoutError, asyncio.CancelledError):
                sweeper.cancel()
            if not self._conn.is_closed():
                await self._conn.close()

    async def _schedule(self) -> None:
        """pgqueuer's scheduler on a connection of its own: ``requeue_orphans`` every minute.
        Its failure is logged and never stops the queue worker."""
        rt = self.rt
        try:
            conn = await asyncpg.connect(rt.asyncpg_dsn)
        except Exception:
            log.warning("job sweep scheduler could not connect", exc_info=True)
            return
        try:
            sm = SchedulerManager(Queries(AsyncpgDriver(conn)))
            self._sm = sm

            @sm.schedule(SWEEP_SCHEDULE, SWEEP_CRON)
            async def _sweep(schedule: Schedule) -> None:
                await requeue_orphans(rt)

            await sm.run()
        except Exception:
            log.warning("job sweep scheduler stopped", exc_info=True)
        finally:
            self._sm = None
            if not conn.is_closed():
                await conn.close()

    async def stop(self) -> None:
        if self._sm is not None:
            self._sm.shutdown.set()
        if self._qm is not None:
            self._qm.shutdown.set()
        if self._task is not None:
            try:
                await asyncio.wait_for(self._task, timeout=10)
            except (TimeoutError, asyncio.CancelledError):
                self._task.cancel()
            except Exception:
                log.exception("worker stopped with an error")
