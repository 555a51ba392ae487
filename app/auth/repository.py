"""SQL for tenants and API keys (not user-owned: no row-level security)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import ColumnElement, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import ApiKey, Tenant
from app.kit.time import utcnow


class TenantRepository:
    def __init__(self, session: AsyncSession):
        self.session = session

    async def add_tenant(self, name: str) -> Tenant:
        tenant = Tenant(id=uuid.uuid4(), name=name, created_at=utcnow())
        self.session.add(tenant)
        await self.session.flush()
        return tenant

    async def get_tenant(self, tenant_id: uuid.UUID) -> Tenant | None:
        return await self.session.get(Tenant, tenant_id)

    async def list_tenants(self) -> list[Tenant]:
        return list((await self.session.scalars(select(Tenant).order_by(Tenant.created_at))).all())

    async def lock_active_keys(self, tenant_id: uuid.UUID) -> list[ApiKey]:
        """The tenant's keys that are not revoked, locked until the transaction ends (so two
        revocations take turns, and the second sees what the first revoked)."""
        stmt = (
            select(ApiKey)
            .where(ApiKey.tenant_id == tenant_id, ApiKey.revoked_at.is_(None))
            .order_by(ApiKey.id)
            .with_for_update()
        )
        return list((await self.session.scalars(stmt)).all())

    async def add_key(
        self,
        tenant_id: uuid.UUID,
        name: str,
        prefix: str,
        key_hash: str,
        *,
        scopes: Sequence[str],
        user_id: str | None = None,
        expires_at: datetime | None = None,
    ) -> ApiKey:
        key = ApiKey(
            tenant_id=tenant_id,
            id=uuid.uuid4(),
            name=name,
            prefix=prefix,
            key_hash=key_hash,
            scopes=list(scopes),
            user_id=user_id,
            expires_at=expires_at,
            created_at=utcnow(),
        )
        self.session.add(key)
        await self.session.flush()
        return key

    @staticmethod
    def _usable(now: datetime) -> list[ColumnElement[bool]]:
        return [
            ApiKey.revoked_at.is_(None),
            or_(ApiKey.expires_at.is_(None), ApiKey.expires_at > now),
        ]

    async def active_key_by_hash(self, key_hash: str) -> ApiKey | None:
        """The key with this hash, unless it is revoked or expired."""
        stmt = select(ApiKey).where(ApiKey.key_hash == key_hash, *self._usable(utcnow()))
        return (await self.session.scalars(stmt)).first()

    async def list_keys(self, tenant_id: uuid.UUID) -> list[ApiKey]:
        stmt = select(ApiKey).where(ApiKey.tenant_id == tenant_id).order_by(ApiKey.created_at)
        return list((await self.session.scalars(stmt)).all())

    async def revoke_key(self, tenant_id: uuid.UUID, key_id: uuid.UUID) -> bool:
        stmt = (
            update(ApiKey)
            .where(ApiKey.tenant_id == tenant_id, ApiKey.id == key_id, ApiKey.revoked_at.is_(None))
            .values(revoked_at=utcnow())
        )
        result = await self.session.execute(stmt)
        return bool(result.rowcount)  # type: ignore[attr-defined]
