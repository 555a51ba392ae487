"""Tenant-wide memories, templates and user attributes, in the request's unit of work.

Tenant-wide memories are memories of the reserved owner ``TENANT_WIDE_USER``
(app/kit/types.py) in scope ``tenant``: they are written, listed and deleted by the memory
service and its one writer, exactly as a user's memories, in a transaction of that owner.
docs/scopes.md says who reads them.
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING

from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Job
from app.kit.errors import InvalidRequest, NotFound
from app.kit.types import TENANT_WIDE_USER
from app.memories.schemas import MemoryList
from app.memories.service import MemoryService
from app.tenantwide.repository import AttributeRepository, TemplateRepository
from app.tenantwide.schemas import (
    TemplateList,
    TemplatePut,
    TemplateRead,
    TenantMemoryCreate,
    UserAttributesPut,
    UserAttributesRead,
)
from app.tenantwide.templates import matching

if TYPE_CHECKING:
    from app.runtime import Runtime


class TenantWideService:
    """The tenant's shared memories and templates; ``session`` is scoped to (tenant,
    TENANT_WIDE_USER)."""

    def __init__(
        self,
        rt: Runtime,
        session: AsyncSession,
        tenant_id: uuid.UUID,
        request_id: str | None = None,
    ):
        self.rt = rt
        self.session = session
        self.tenant_id = tenant_id
        self.memories = MemoryService(rt, session, tenant_id, TENANT_WIDE_USER, request_id)
        self.templates = TemplateRepository(session, tenant_id)

    async def submit(self, body: TenantMemoryCreate, *, idempotency_key: str | None) -> Job:
        """Queue the write through the memory service (``scope="tenant"``). Raises
        InvalidRequest (422) when ``template`` names no template of the tenant."""
        if body.template is not None and await self.templates.get(body.template) is None:
            raise InvalidRequest(
                f"no template {body.template!r}: create it with PUT …/templates/{{id}} first"
            )
        return await self.memories.submit(body.as_memory(), idempotency_key=idempotency_key)

    async def list_page(
        self, *, limit: int, cursor: str | None, template: str | None, status: str | None
    ) -> MemoryList:
        filters = {"scope": "tenant", "scope_id": template, "status": status}
        return await self.memories.list_page(limit=limit, cursor=cursor, filters=filters)

    async def delete(self, memory_id: uuid.UUID) -> None:
        """Real deletion through the writer. Raises NotFound."""
        await self.memories.delete(memory_id)

    async def put_template(self, template_id: str, body: TemplatePut) -> TemplateRead:
        row = await self.templates.put(template_id, body.attribute, body.equals)
        return TemplateRead.model_validate(row, from_attributes=True)

    async def list_templates(self) -> TemplateList:
        rows = await self.templates.all()
        return TemplateList(
            items=[TemplateRead.model_validate(r, from_attributes=True) for r in rows]
        )

    async def delete_template(self, template_id: str) -> None:
        """Its memories stay, read by no user until a template of that id exists again.
        Raises NotFound."""
        if not await self.templates.delete(template_id):
            raise NotFound("no such template")


class UserAttributeService:
    """One user's attributes; ``session`` is scoped to (tenant, user)."""

    def __init__(self, session: AsyncSession, tenant_id: uuid.UUID, user_id: str):
        self.session = session
        self.tenant_id = tenant_id
        self.user_id = user_id
        self.repo = AttributeRepository(session, tenant_id, user_id)

    async def _read(self, attributes: dict[str, str], updated_at: object) -> UserAttributesRead:
        templates = await TemplateRepository(self.session, self.tenant_id).all()
        return UserAttributesRead(
            user_id=self.user_id,
            attributes=attributes,
            templates=matching(templates, attributes),
            updated_at=updated_at,  # type: ignore[arg-type]
        )

    async def get(self) -> UserAttributesRead:
        row = await self.repo.get()
        if row is None:
            return await self._read({}, None)
        return await self._read(dict(row.attributes), row.updated_at)

    async def put(self, body: UserAttributesPut) -> UserAttributesRead:
        row = await self.repo.put(body.attributes)
        return await self._read(dict(row.attributes), row.updated_at)
