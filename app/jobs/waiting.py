"""Waiting for a job and reading it, each read its own short transaction."""

from __future__ import annotations

import asyncio
import uuid
from typing import TYPE_CHECKING

from app.db.models import Job
from app.jobs.repository import JobRepository
from app.kit.errors import NotFound

if TYPE_CHECKING:
    from app.runtime import Runtime

WAIT_POLL_S = 0.02
TERMINAL = ("done", "failed")


async def wait_for_job(
    rt: Runtime, tenant_id: uuid.UUID, user_id: str, job_id: uuid.UUID, timeout_s: float
) -> Job:
    """The job once done or failed, or as it is after ``timeout_s`` seconds. Each look is its
    own transaction (no connection is held between looks). Raises NotFound."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout_s
    while True:
        async with rt.scoped(tenant_id, user_id) as session:
            job = await JobRepository(session, tenant_id).get(job_id)
        if job is None:
            raise NotFound("no such job")
        if job.status in TERMINAL or loop.time() >= deadline:
            return job
        await asyncio.sleep(WAIT_POLL_S)
