"""SQL for tenants and API keys (not user-owned: no row-level security)."""

from __future__ import annotations

import uuid

from sqlalchemy import select, update
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

    async def add_key(self, tenant_id: uuid.UUID, name: str, prefix: str, key_hash: str) -> ApiKey:
        key = ApiKey(
            tenant_id=tenant_id,
            id=uuid.uuid4(),
            name=name,
            prefix=prefix,
            key_hash=key_hash,
            created_at=utcnow(),
        )
        self.session.add(key)
        await self.session.flush()
        return key

    async def active_key_by_hash(self, key_hash: str) -> ApiKey | None:
        stmt = select(ApiKey).where(ApiKey.key_hash == key_hash, ApiKey.revoked_at.is_(None))
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
