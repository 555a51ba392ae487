"""Job status."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import APIRouter, Depends

from app.auth.principal import CurrentPrincipal, require_scope
from app.db.session import ALL_USERS
from app.jobs.repository import JobRepository
from app.kit.deps import get_runtime
from app.kit.errors import Forbidden, NotFound, Unauthorized, error_responses
from app.memories.schemas import JobRead
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
    if principal.tenant_id is None:
        raise Forbidden("jobs belong to tenants; use a tenant API key")
    async with rt.scoped(principal.tenant_id, ALL_USERS) as session:
        job = await JobRepository(session, principal.tenant_id).get(job_id)
    if job is None:
        raise NotFound("no such job")
    return JobRead.model_validate(job, from_attributes=True)
