"""Task working memory endpoints."""

from __future__ import annotations

import uuid
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Path, Query, Request, status

from app.auth.principal import TenantPrincipal, require_scope
from app.kit.deps import UserId, get_runtime, request_id
from app.kit.errors import Conflict, Forbidden, NotFound, Unauthorized, error_responses
from app.memories.schemas import ID_PATTERN
from app.runtime import Runtime
from app.tasks.schemas import TaskCreate, TaskFinish, TaskFinished, TaskList, TaskRead, TaskUpdate
from app.tasks.service import TaskService

router = APIRouter(prefix="/v1/tenants/{tenant_id}/users/{user_id}/tasks", tags=["tasks"])
RuntimeDep = Annotated[Runtime, Depends(get_runtime)]
TaskId = Annotated[str, Path(pattern=ID_PATTERN, max_length=128)]
ERRORS = (Unauthorized, Forbidden, NotFound, Conflict)


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    response_model=TaskRead,
    responses=error_responses(*ERRORS),
    dependencies=[require_scope("memories:write")],
)
async def create_task(
    tenant_id: uuid.UUID, user_id: UserId, body: TaskCreate, rt: RuntimeDep, _: TenantPrincipal
) -> TaskRead:
    """Open a task with the slots it needs filled."""
    return await TaskService(rt, tenant_id, user_id).create(body)


@router.get(
    "",
    response_model=TaskList,
    responses=error_responses(*ERRORS),
    dependencies=[require_scope("memories:read")],
)
async def list_tasks(
    tenant_id: uuid.UUID,
    user_id: UserId,
    rt: RuntimeDep,
    _: TenantPrincipal,
    status_: Annotated[Literal["open", "finished"] | None, Query(alias="status")] = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> TaskList:
    """List the user's tasks, newest first."""
    return TaskList(items=await TaskService(rt, tenant_id, user_id).list_tasks(status_, limit))


@router.get(
    "/{task_id}",
    response_model=TaskRead,
    responses=error_responses(*ERRORS),
    dependencies=[require_scope("memories:read")],
)
async def get_task(
    tenant_id: uuid.UUID, user_id: UserId, task_id: TaskId, rt: RuntimeDep, _: TenantPrincipal
) -> TaskRead:
    """Read a task's working memory: slots (and which are missing) and steps."""
    return await TaskService(rt, tenant_id, user_id).get(task_id)


@router.patch(
    "/{task_id}",
    response_model=TaskRead,
    responses=error_responses(*ERRORS),
    dependencies=[require_scope("memories:write")],
)
async def update_task(
    tenant_id: uuid.UUID,
    user_id: UserId,
    task_id: TaskId,
    body: TaskUpdate,
    rt: RuntimeDep,
    _: TenantPrincipal,
) -> TaskRead:
    """Fill slots and record steps of an open task."""
    return await TaskService(rt, tenant_id, user_id).update(task_id, body)


@router.post(
    "/{task_id}/finish",
    response_model=TaskFinished,
    responses=error_responses(*ERRORS),
    dependencies=[require_scope("memories:write")],
)
async def finish_task(
    tenant_id: uuid.UUID,
    user_id: UserId,
    task_id: TaskId,
    body: TaskFinish,
    request: Request,
    rt: RuntimeDep,
    _: TenantPrincipal,
) -> TaskFinished:
    """Seal a task; its conclusion stays task-scoped unless promotion is asked for."""
    return await TaskService(rt, tenant_id, user_id).finish(task_id, body, request_id(request))
