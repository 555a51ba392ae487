"""Job status, and a failed job run again."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import APIRouter, Depends, status

from app.auth.principal import CurrentPrincipal, Principal, require_scope
from app.db.session import ALL_USERS
from app.jobs.repository import JobRepository
from app.jobs.schemas import JobRead
from app.kit.deps import get_runtime
from app.kit.errors import Conflict, Forbidden, NotFound, Unauthorized, error_responses
from app.runtime import Runtime

router = APIRouter(prefix="/v1/jobs", tags=["jobs"])


def _tenant_of(principal: Principal) -> uuid.UUID:
    """The tenant whose jobs ``principal`` reaches. Raises Forbidden (403) for the admin key:
    jobs belong to tenants."""
    if principal.tenant_id is None:
        raise Forbidden("jobs belong to tenants; use a tenant API key")
    return principal.tenant_id


@router.get(
    "/{job_id}",
    response_model=JobRead,
    responses=error_responses(Unauthorized, Forbidden, NotFound),
    dependencies=[require_scope("memories:write")],
)
async def get_job(
    job_id: uuid.UUID, principal: CurrentPrincipal, rt: Annotated[Runtime, Depends(get_runtime)]
) -> JobRead:
    """Status of a queued write: queued, running, done (with result) or failed (with error)."""
    # A user-bound key reads only its own user's jobs (404 for others'; docs/api-keys.md).
    tenant_id = _tenant_of(principal)
    async with rt.scoped(tenant_id, ALL_USERS) as session:
        job = await JobRepository(session, tenant_id).get(job_id)
    # A key bound to one user sees that user's jobs; another user's answers like no job.
    if job is None or (principal.user_id is not None and job.user_id != principal.user_id):
        raise NotFound("no such job")
    return JobRead.model_validate(job, from_attributes=True)


@router.post(
    "/{job_id}/retry",
    status_code=status.HTTP_202_ACCEPTED,
    response_model=JobRead,
    responses=error_responses(Unauthorized, Forbidden, NotFound, Conflict),
    dependencies=[require_scope("memories:write")],
)
async def retry_job(
    job_id: uuid.UUID, principal: CurrentPrincipal, rt: Annotated[Runtime, Depends(get_runtime)]
) -> JobRead:
    """Run a failed job again from its first attempt (its write was kept); 409 if not failed."""
    # An operator's action: a key bound to one user is refused before this (403), as on every
    # path naming no user but ``GET /v1/jobs/{id}``; its own retry is the write sent again.
    tenant_id = _tenant_of(principal)
    async with rt.scoped(tenant_id, ALL_USERS) as session:
        repo = JobRepository(session, tenant_id)
        job = await repo.get(job_id, for_update=True)
        if job is None:
            raise NotFound("no such job")
        if job.status != "failed":
            raise Conflict(f"only a failed job is run again; this one is {job.status}")
        await repo.requeue_failed(job)
        read = JobRead.model_validate(job, from_attributes=True)
        await session.commit()
    return read
