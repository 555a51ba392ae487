"""Every SQL statement of templates and user attributes (tenant-wide memories themselves are
memories rows of the reserved owner TENANT_WIDE_USER: app/memories/repository.py reads them)."""

from __future__ import annotations

import uuid
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import TenantTemplate, UserAttributes
from app.kit.time import utcnow


class TemplateRepository:
    """The templates of one tenant (row-level security: the tenant's own only)."""

    def __init__(self, session: AsyncSession, tenant_id: uuid.UUID):
        self.session = session
        self.tenant_id = tenant_id

    async def all(self) -> list[TenantTemplate]:
        stmt = (
            select(TenantTemplate)
            .where(TenantTemplate.tenant_id == self.tenant_id)
            .order_by(TenantTemplate.id)
        )
        return list((await self.session.scalars(stmt)).all())

    async def get(self, template_id: str) -> TenantTemplate | None:
        stmt = select(TenantTemplate).where(
            TenantTemplate.tenant_id == self.tenant_id, TenantTemplate.id == template_id
        )
        return (await self.session.scalars(stmt)).first()

    async def put(self, template_id: str, attribute: str, equals: str) -> TenantTemplate:
        """Create or replace the template ``template_id``; returns it."""
        stmt = (
            insert(TenantTemplate)
            .values(tenant_id=self.tenant_id, id=template_id, attribute=attribute, equals=equals)
            .on_conflict_do_update(
                index_elements=["tenant_id", "id"],
                set_={"attribute": attribute, "equals": equals},
            )
            .returning(TenantTemplate)
        )
        row = (
            await self.session.scalars(stmt, execution_options={"populate_existing": True})
        ).one()
        return row

    async def delete(self, template_id: str) -> bool:
        """Whether a template was deleted."""
        result = await self.session.execute(
            delete(TenantTemplate).where(
                TenantTemplate.tenant_id == self.tenant_id, TenantTemplate.id == template_id
            )
        )
        return bool(result.rowcount)  # type: ignore[attr-defined]


class AttributeRepository:
    """The attributes of one user (row-level security: that user's row only)."""

    def __init__(self, session: AsyncSession, tenant_id: uuid.UUID, user_id: str):
        self.session = session
        self.tenant_id = tenant_id
        self.user_id = user_id

    async def get(self) -> UserAttributes | None:
        stmt = select(UserAttributes).where(
            UserAttributes.tenant_id == self.tenant_id, UserAttributes.user_id == self.user_id
        )
        return (await self.session.scalars(stmt)).first()

    async def put(self, attributes: dict[str, Any]) -> UserAttributes:
        """Replace the user's attributes; returns the row."""
        now = utcnow()
        stmt = (
            insert(UserAttributes)
            .values(
                tenant_id=self.tenant_id,
                user_id=self.user_id,
                attributes=attributes,
                updated_at=now,
            )
            .on_conflict_do_update(
                index_elements=["tenant_id", "user_id"],
                set_={"attributes": attributes, "updated_at": now},
            )
            .returning(UserAttributes)
        )
        return (
            await self.session.scalars(stmt, execution_options={"populate_existing": True})
        ).one()
