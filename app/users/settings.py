"""A user's memory policy, read in the caller's session: what the memory writer's ``admit``
hook and recall apply (app/users/policy.py has the rules).

This module and ``policy.py`` / ``repository.py`` sit low in the module map
(docs/architecture.md): they import only ``db``, ``kit`` and recall's SQL helpers, so the
writer and recall can read a user's settings without importing the users endpoints, which
themselves use the writer.
"""

from __future__ import annotations

import uuid
from typing import cast

from sqlalchemy.ext.asyncio import AsyncSession

from app.users.policy import DEFAULT_POLICY, MemoryMode, MemoryPolicy
from app.users.repository import UserRepository


async def policy_of(session: AsyncSession, tenant_id: uuid.UUID, user_id: str) -> MemoryPolicy:
    """The user's memory policy, read in the caller's transaction (``DEFAULT_POLICY`` — full,
    no retention limit — for a user who never set one)."""
    row = await UserRepository(session, tenant_id).get_settings(user_id)
    if row is None:
        return DEFAULT_POLICY
    return MemoryPolicy(
        memory_mode=cast(MemoryMode, row.memory_mode), retention_days=row.retention_days
    )
