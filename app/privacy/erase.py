"""Erase a user: every row of that user in every table, with a receipt of what went."""

from __future__ import annotations

import uuid

from pydantic import BaseModel
from sqlalchemy.ext.asyncio import AsyncSession

from app.privacy.repository import ERASED_TABLES, EraseRepository

__all__ = ["ERASED_TABLES", "EraseReceipt", "erase_user"]


class EraseReceipt(BaseModel):
    """What was erased: rows per table (all zero when the user had nothing left)."""

    tenant_id: uuid.UUID
    user_id: str
    deleted: dict[str, int]
    queued_jobs_cancelled: int


async def erase_user(session: AsyncSession, tenant_id: uuid.UUID, user_id: str) -> EraseReceipt:
    """Delete every row of the user, in the caller's one transaction; idempotent. A write
    acknowledged before the erase is erased with the user; one that starts after it lands
    whole after it (app/db/repository.py explains the user lock)."""
    counts, cancelled = await EraseRepository(session, tenant_id, user_id).erase()
    return EraseReceipt(
        tenant_id=tenant_id, user_id=user_id, deleted=counts, queued_jobs_cancelled=cancelled
    )
