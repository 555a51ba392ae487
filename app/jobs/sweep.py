"""Unfinished jobs that nothing would ever run are queued again.

A job row is acknowledged together with its queue entry, and an erase removes both in one
transaction, so a job row without a queue entry should not exist. Should one appear anyway (a
queue entry held as failed by pgqueuer after a database outage, a row written by an older
version), a pgqueuer schedule (``SchedulerManager``, every minute, one process at a time)
queues it again instead of leaving it ``queued`` forever.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import TYPE_CHECKING

from app.db.session import ALL_USERS
from app.jobs.repository import JobRepository, tenant_ids
from app.kit.time import utcnow

if TYPE_CHECKING:
    from app.runtime import Runtime

log = logging.getLogger(__name__)

SWEEP_SCHEDULE = "memlane.requeue_orphans"
SWEEP_CRON = "* * * * *"
# A job row and its queue entry commit together: anything younger is left alone anyway.
ORPHAN_AFTER = timedelta(minutes=1)


async def requeue_orphans(rt: Runtime, older_than: timedelta = ORPHAN_AFTER) -> int:
    """Give every orphaned unfinished job (see ``JobRepository.orphans``) a new queue entry,
    one transaction per tenant. Returns how many were queued again."""
    async with rt.engine.connect() as conn:
        tenants = await tenant_ids(conn)
    requeued = 0
    before = utcnow() - older_than
    for tenant_id in tenants:
        async with rt.scoped(tenant_id, ALL_USERS) as session:
            repo = JobRepository(session, tenant_id)
            for job_id, user_id in await repo.orphans(before):
                await repo.touch(job_id)
                await repo.enqueue(user_id, job_id)
                requeued += 1
            await session.commit()
    if requeued:
        log.warning("unfinished jobs without a queue entry queued again", extra={"n": requeued})
    return requeued
