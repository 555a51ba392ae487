"""Memories of one user: write, list, read, edit, delete, history, arbitrations."""

from __future__ import annotations

import asyncio
import logging
import uuid
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request, Response, status
from fastapi.responses import JSONResponse

from app.auth.principal import TenantPrincipal, require_scope
from app.db.models import Job
from app.jobs.waiting import wait_for_job
from app.kit.deps import IdempotencyKey, UserId, UserSession, get_runtime, request_id
from app.kit.errors import (
    Conflict,
    Forbidden,
    IdempotencyKeyReused,
    NotFound,
    Unauthorized,
    UnknownFilter,
    error_responses,
)
from app.kit.types import Timestamp
from app.memories.schemas import (
    MAX_BATCH_MEMORIES,
    ArbitrationList,
    JobAccepted,
    MemoryBatchCreate,
    MemoryCreate,
    MemoryHistoryRead,
    MemoryList,
    MemoryRead,
    MemoryScope,
    MemorySource,
    MemoryStatus,
    MemoryType,
    MemoryUpdate,
    RevealResponse,
    WriteResult,
)
from app.memories.service import MemoryService
from app.runtime import Runtime

router = APIRouter(prefix="/v1/tenants/{tenant_id}/users/{user_id}", tags=["memories"])
RuntimeDep = Annotated[Runtime, Depends(get_runtime)]
log = logging.getLogger(__name__)

COMMON_ERRORS = (Unauthorized, Forbidden, NotFound)
# What a write answers: 202 + JobAccepted, or 201 + WriteResult with ?wait=true.
WRITE_RESPONSES: dict[int | str, dict[str, Any]] = {
    201: {"model": WriteResult, "description": "With wait=true: the stored memories"},
    **error_responses(*COMMON_ERRORS, IdempotencyKeyReused),
}
WaitForJob = Annotated[bool, Query(description="Wait for the job and return what it stored")]


async def accepted_or_waited(
    service: MemoryService, intake: Job, wait: bool, timeout_s: float
) -> Response:
    """202 {job_id, status}; with wait, 201 {job_id, memories, arbitrations} once done. A
    replayed request (same Idempotency-Key) answers its job's status as it is now.

    The intake is committed here, before waiting: the job must exist for a worker to run it.
    """
    job_id, state = intake.id, intake.status
    await service.session.commit()
    job: Job | None
    if wait:
        try:
            job = await wait_for_job(
                service.rt, service.tenant_id, service.user_id, job_id, timeout_s
            )
        except NotFound:
            raise  # the user was erased meanwhile
        except Exception:
            # The wait failed (its database reads, the completion watcher), not the write: it
            # is committed and its job will run, so the answer is the 202 of a wait past its
            # timeout, never a 500 that would make the client write it again.
            log.warning("waiting for a job failed", extra={"job_id": str(job_id)}, exc_info=True)
            job = None
        except asyncio.CancelledError:
            # The server cancels the requests still running when its graceful shutdown times
            # out (uvicorn's ``timeout_graceful_shutdown``); without an answer here the client
            # gets a plain 500 for a write that is stored and whose job runs after the restart.
            # Only the wait is given up: the request answers its 202 and ends.
            task = asyncio.current_task()
            if task is not None:
                task.uncancel()
            log.info("a wait was cancelled; answering 202", extra={"job_id": str(job_id)})
            job = None
        if job is not None and job.status == "done":
            memories, arbitrations = await service.result_of(job)
            body = WriteResult(
                job_id=job.id,
                memories=memories,
                arbitrations=arbitrations,
                episode_ids=(job.result or {}).get("episode_ids", []),
            )
            return JSONResponse(body.model_dump(mode="json"), status_code=status.HTTP_201_CREATED)
        if job is not None:
            state = job.status
    body_accepted = JobAccepted(job_id=job_id, status=state)  # type: ignore[arg-type]
    return JSONResponse(
        body_accepted.model_dump(mode="json"),
        status_code=status.HTTP_202_ACCEPTED,
        headers={"Location": f"/v1/jobs/{job_id}"},
    )


@router.post(
    "/memories",
    status_code=status.HTTP_202_ACCEPTED,
    response_model=JobAccepted,
    responses=WRITE_RESPONSES,
    dependencies=[require_scope("memories:write")],
)
async def create_memory(
    tenant_id: uuid.UUID,
    user_id: UserId,
    body: MemoryCreate,
    request: Request,
    rt: RuntimeDep,
    _: TenantPrincipal,
    db: UserSession,
    idempotency_key: IdempotencyKey = None,
    wait: WaitForJob = False,
) -> Response:
    """Write a memory: persisted and queued at once, stored by a worker."""
    service = MemoryService(rt, db, tenant_id, user_id, request_id(request))
    job = await service.submit(body, idempotency_key=idempotency_key)
    return await accepted_or_waited(service, job, wait, rt.settings.job_wait_timeout_s)


@router.post(
    "/memories/batch",
    status_code=status.HTTP_202_ACCEPTED,
    response_model=JobAccepted,
    responses=WRITE_RESPONSES,
    description=(
        f"Stores 1 to {MAX_BATCH_MEMORIES} memories as given (infer=false; an item with "
        "infer=true is refused with 422 — send such content to POST …/memories one at a "
        "time). Each item follows the rules of a single write (defaults, occurred_at = "
        "arrival time, sensitive values sealed). One job embeds them together and arbitrates "
        "them in item order in one transaction, so a later item that corrects an earlier "
        "one's single-valued key supersedes it, as two writes would. Idempotency-Key and "
        "wait=true behave as for a single write; the result lists the memories in item order."
    ),
    dependencies=[require_scope("memories:write")],
)
async def create_memories(
    tenant_id: uuid.UUID,
    user_id: UserId,
    body: MemoryBatchCreate,
    request: Request,
    rt: RuntimeDep,
    _: TenantPrincipal,
    db: UserSession,
    idempotency_key: IdempotencyKey = None,
    wait: WaitForJob = False,
) -> Response:
    """Write a batch of memories as given (infer=false): persisted and queued as one job."""
    service = MemoryService(rt, db, tenant_id, user_id, request_id(request))
    job = await service.submit_batch(body, idempotency_key=idempotency_key)
    return await accepted_or_waited(service, job, wait, rt.settings.job_wait_timeout_s)


LIST_FILTERS = frozenset(
    {"type", "status", "scope", "source", "key", "valid_at", "cursor", "limit"}
)


@router.get(
    "/memories",
    response_model=MemoryList,
    responses=error_responses(*COMMON_ERRORS),
    dependencies=[require_scope("memories:read")],
)
async def list_memories(
    tenant_id: uuid.UUID,
    user_id: UserId,
    request: Request,
    rt: RuntimeDep,
    _: TenantPrincipal,
    db: UserSession,
    type: MemoryType | None = None,
    status_: Annotated[MemoryStatus | None, Query(alias="status")] = None,
    scope: MemoryScope | None = None,
    source: MemorySource | None = None,
    key: Annotated[str | None, Query(max_length=128)] = None,
    valid_at: Annotated[
        Timestamp | None,
        Query(
            description="Only the memories valid at this time (ISO-8601 with offset): "
            "valid_from <= valid_at < valid_to; without status, active and frozen ones"
        ),
    ] = None,
    cursor: Annotated[str | None, Query(max_length=200)] = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> MemoryList:
    """List memories, newest first, with cursor pagination and filters."""
    unknown = sorted(set(request.query_params) - LIST_FILTERS)
    if unknown:
        # A misspelt filter must not silently list everything.
        raise UnknownFilter(
            f"unknown query parameter(s): {', '.join(unknown)}; "
            f"the filters are {', '.join(sorted(LIST_FILTERS))}"
        )
    filters = {
        "type": type,
        "status": status_,
        "scope": scope,
        "source": source,
        "key": key,
        "valid_at": valid_at,
    }
    return await MemoryService(rt, db, tenant_id, user_id).list_page(
        limit=limit, cursor=cursor, filters=filters
    )


@router.get(
    "/memories/{memory_id}",
    response_model=MemoryRead,
    responses=error_responses(*COMMON_ERRORS),
    dependencies=[require_scope("memories:read")],
)
async def get_memory(
    tenant_id: uuid.UUID,
    user_id: UserId,
    memory_id: uuid.UUID,
    rt: RuntimeDep,
    _: TenantPrincipal,
    db: UserSession,
) -> MemoryRead:
    """Read one memory."""
    return await MemoryService(rt, db, tenant_id, user_id).get(memory_id)


@router.patch(
    "/memories/{memory_id}",
    response_model=MemoryRead,
    responses=error_responses(*COMMON_ERRORS, Conflict),
    description=(
        "A new content or value is a new version: it is stored as the user's correction of "
        "this memory (rule user_correction: this one is frozen and superseded by it) and the "
        "answer is the new version, with a new id. Only an active memory takes a new version "
        "(409 otherwise). Confidence, metadata and status change the memory itself: an active "
        "memory may be archived; an archived one may become active again only when it was "
        "never superseded and no other active memory holds its fact (409 otherwise); a frozen "
        "(superseded) memory is history and takes no change at all (409). Every change is "
        "recorded in the history."
    ),
    dependencies=[require_scope("memories:write")],
)
async def update_memory(
    tenant_id: uuid.UUID,
    user_id: UserId,
    memory_id: uuid.UUID,
    body: MemoryUpdate,
    request: Request,
    rt: RuntimeDep,
    _: TenantPrincipal,
    db: UserSession,
) -> MemoryRead:
    """Edit a memory: a new content or value becomes a new version that supersedes it."""
    return await MemoryService(rt, db, tenant_id, user_id, request_id(request)).update(
        memory_id, body
    )


@router.delete(
    "/memories/{memory_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    responses=error_responses(*COMMON_ERRORS),
    dependencies=[require_scope("memories:write")],
)
async def delete_memory(
    tenant_id: uuid.UUID,
    user_id: UserId,
    memory_id: uuid.UUID,
    request: Request,
    rt: RuntimeDep,
    _: TenantPrincipal,
    db: UserSession,
) -> Response:
    """Delete a memory for real: its content and embedding are erased."""
    await MemoryService(rt, db, tenant_id, user_id, request_id(request)).delete(memory_id)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get(
    "/memories/{memory_id}/history",
    response_model=MemoryHistoryRead,
    responses=error_responses(*COMMON_ERRORS),
    dependencies=[require_scope("memories:read")],
)
async def get_memory_history(
    tenant_id: uuid.UUID,
    user_id: UserId,
    memory_id: uuid.UUID,
    rt: RuntimeDep,
    _: TenantPrincipal,
    db: UserSession,
) -> MemoryHistoryRead:
    """The supersession chain of a memory (both ways) and every change to it."""
    return await MemoryService(rt, db, tenant_id, user_id).history(memory_id)


@router.get(
    "/arbitrations",
    response_model=ArbitrationList,
    responses=error_responses(*COMMON_ERRORS),
    dependencies=[require_scope("memories:read")],
)
async def list_arbitrations(
    tenant_id: uuid.UUID,
    user_id: UserId,
    rt: RuntimeDep,
    _: TenantPrincipal,
    db: UserSession,
    memory_id: uuid.UUID | None = None,
    outcome: Annotated[str | None, Query(max_length=32)] = None,
    since: Timestamp | None = None,
    until: Timestamp | None = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> ArbitrationList:
    """The arbitration audit of the user, newest first, filtered by memory, outcome and time."""
    return await MemoryService(rt, db, tenant_id, user_id).arbitrations(
        memory_id=memory_id, outcome=outcome, since=since, until=until, limit=limit
    )


@router.post(
    "/memories/{memory_id}/reveal",
    response_model=RevealResponse,
    responses=error_responses(*COMMON_ERRORS),
    dependencies=[require_scope("memories:reveal")],
)
async def reveal_memory_secrets(
    tenant_id: uuid.UUID,
    user_id: UserId,
    memory_id: uuid.UUID,
    request: Request,
    rt: RuntimeDep,
    _: TenantPrincipal,
    db: UserSession,
) -> RevealResponse:
    """Reveal a memory's secret values to its owner; audited in the memory's history."""
    return await MemoryService(rt, db, tenant_id, user_id, request_id(request)).reveal(memory_id)
