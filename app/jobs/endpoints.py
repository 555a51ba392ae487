"""Job status."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import APIRouter, Depends

from app.auth.principal import CurrentPrincipal, require_scope
from app.db.session import ALL_USERS
from app.jobs.repository import JobRepository
from app.jobs.schemas import JobRead
from app.kit.deps import get_runtime
from app.kit.errors import Forbidden, NotFound, Unauthorized, error_responses
from app.runtime import Runtime

router = APIRouter(prefix="/v1/jobs", tags=["jobs"])


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
    if principal.tenant_id is None:
        raise Forbidden("jobs belong to tenants; use a tenant API key")
    async with rt.scoped(principal.tenant_id, ALL_USERS) as session:
        job = await JobRepository(session, principal.tenant_id).get(job_id)
    # A key bound to one user sees that user's jobs; another user's answers like no job.
    if job is None or (principal.user_id is not None and job.user_id != principal.user_id):
        raise NotFound("no such job")
    return JobRead.model_validate(job, from_attributes=True)
