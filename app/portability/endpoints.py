"""Export a user as one JSON document; import such a document into a user."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

from app.auth.principal import TenantPrincipal, require_scope
from app.kit.deps import UserId, get_runtime, request_id
from app.kit.errors import (
    Conflict,
    Forbidden,
    NotFound,
    PayloadTooLarge,
    ServiceUnavailable,
    Unauthorized,
    UnsupportedSchemaVersion,
    error_responses,
)
from app.portability.schemas import ExportDocument, ImportResult, parse_document
from app.portability.service import PortabilityService
from app.runtime import Runtime

router = APIRouter(prefix="/v1/tenants/{tenant_id}/users/{user_id}", tags=["portability"])
RuntimeDep = Annotated[Runtime, Depends(get_runtime)]
COMMON_ERRORS = (Unauthorized, Forbidden, NotFound)
MEMORY_COUNT_HEADER = "X-Memlane-Memory-Count"


@router.get(
    "/export",
    response_model=None,
    responses={
        200: {
            "model": ExportDocument,
            "description": "The document, streamed",
            "headers": {
                MEMORY_COUNT_HEADER: {
                    "description": "Memories in the document (counted when the export began)",
                    "schema": {"type": "integer"},
                }
            },
        },
        **error_responses(*COMMON_ERRORS),
    },
    dependencies=[require_scope("memories:read")],
)
async def export_user(
    tenant_id: uuid.UUID,
    user_id: UserId,
    rt: RuntimeDep,
    _: TenantPrincipal,
    include_messages: Annotated[
        bool, Query(description="Also export the user's conversation messages")
    ] = False,
) -> StreamingResponse:
    """Export the user's memories (and messages) as one JSON document, streamed."""
    service = PortabilityService(rt, tenant_id, user_id)
    count = await service.count_memories()
    return StreamingResponse(
        service.export_chunks(include_messages=include_messages),
        media_type="application/json",
        headers={
            "Content-Disposition": f'attachment; filename="memlane-{user_id}.json"',
            MEMORY_COUNT_HEADER: str(count),
        },
    )


@router.post(
    "/import",
    response_model=ImportResult,
    responses=error_responses(
        *COMMON_ERRORS, Conflict, PayloadTooLarge, ServiceUnavailable, UnsupportedSchemaVersion
    ),
    openapi_extra={
        "requestBody": {
            "required": True,
            "description": "A document made by GET …/export (up to settings.max_import_bytes)",
            "content": {
                "application/json": {"schema": {"$ref": "#/components/schemas/ExportDocument"}}
            },
        }
    },
    dependencies=[require_scope("memories:write")],
)
async def import_user(
    tenant_id: uuid.UUID,
    user_id: UserId,
    request: Request,
    rt: RuntimeDep,
    _: TenantPrincipal,
    dry_run: Annotated[
        bool, Query(description="Arbitrate in a transaction that is rolled back: report only")
    ] = False,
) -> ImportResult:
    """Import an export document into this user, arbitrating every memory against theirs."""
    # Parsed off the event loop: a document may be tens of megabytes.
    document = await run_in_threadpool(parse_document, await request.body())
    return await PortabilityService(rt, tenant_id, user_id).import_document(
        document, dry_run=dry_run, request_id=request_id(request)
    )
