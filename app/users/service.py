"""Users of a tenant and their memory settings (docs/vault.md)."""

from __future__ import annotations

import base64
import binascii
import uuid
from datetime import datetime
from typing import TYPE_CHECKING, cast

from sqlalchemy.ext.asyncio import AsyncSession

from app.db.session import ALL_USERS
from app.kit.errors import InvalidRequest
from app.kit.time import utcnow
from app.recall.repository import decay_params
from app.users.policy import DEFAULT_POLICY, MemoryMode
from app.users.repository import UserRepository
from app.users.schemas import (
    SessionSummary,
    TaskSummary,
    UserActivity,
    UserList,
    UserSettingsChange,
    UserSettingsHistoryRead,
    UserSettingsRead,
    UserSettingsUpdate,
    UserSummary,
)

if TYPE_CHECKING:
    from app.runtime import Runtime

MAX_ACTIVITY_ROWS = 50


def encode_user_cursor(user_id: str) -> str:
    return base64.urlsafe_b64encode(user_id.encode()).decode().rstrip("=")


def decode_user_cursor(cursor: str) -> str:
    """The user_id a cursor points after. Raises InvalidRequest if it is malformed."""
    try:
        padded = (cursor + "=" * (-len(cursor) % 4)).encode()
        return base64.b64decode(padded, altchars=b"-_", validate=True).decode()
    except (binascii.Error, ValueError, UnicodeDecodeError) as exc:
        raise InvalidRequest("cursor is not a cursor this service issued") from exc


async def list_users_page(
    rt: Runtime,
    tenant_id: uuid.UUID,
    *,
    limit: int,
    cursor: str | None,
    active_since: datetime | None,
    has_frozen: bool | None,
    prefix: str | None,
) -> UserList:
    """The tenant's users in user_id order with their counts; ``next_cursor`` continues after
    the last one. A read across the tenant's users in a short session of its own (``ALL_USERS``),
    like ``GET /v1/jobs/{id}``. Raises InvalidRequest (422) for a malformed cursor."""
    after = decode_user_cursor(cursor) if cursor else ""
    async with rt.scoped(tenant_id, ALL_USERS) as session:
        rows = await UserRepository(session, tenant_id).list_users(
            after=after,
            limit=limit + 1,
            active_since=active_since,
            has_frozen=has_frozen,
            prefix=prefix,
        )
    more = len(rows) > limit
    rows = rows[:limit]
    return UserList(
        items=[UserSummary(**r) for r in rows],
        next_cursor=encode_user_cursor(rows[-1]["user_id"]) if more and rows else None,
    )


class UserService:
    """One user's settings and activity in the request's session (it only flushes)."""

    def __init__(self, rt: Runtime, session: AsyncSession, tenant_id: uuid.UUID, user_id: str):
        self.rt = rt
        self.session = session
        self.tenant_id = tenant_id
        self.user_id = user_id
        self.repo = UserRepository(session, tenant_id)

    async def get_settings(self) -> UserSettingsRead:
        """The user's settings; the defaults (full, no limit, ``updated_at`` null) when unset."""
        user_id = self.user_id
        row = await self.repo.get_settings(user_id)
        if row is None:
            return UserSettingsRead(
                user_id=user_id,
                memory_mode=DEFAULT_POLICY.memory_mode,
                retention_days=DEFAULT_POLICY.retention_days,
                updated_at=None,
            )
        return UserSettingsRead(
            user_id=user_id,
            memory_mode=cast(MemoryMode, row.memory_mode),
            retention_days=row.retention_days,
            updated_at=row.updated_at,
        )

    async def put_settings(
        self, body: UserSettingsUpdate, *, actor: str, request_id: str | None
    ) -> UserSettingsRead:
        """Replace the user's settings; a change is recorded in the settings history (in the
        caller's transaction: the endpoint commits)."""
        user_id = self.user_id
        row = await self.repo.put_settings(
            user_id,
            memory_mode=body.memory_mode,
            retention_days=body.retention_days,
            actor=actor,
            request_id=request_id,
        )
        return UserSettingsRead(
            user_id=user_id,
            memory_mode=cast(MemoryMode, row.memory_mode),
            retention_days=row.retention_days,
            updated_at=row.updated_at,
        )

    async def settings_history(self) -> UserSettingsHistoryRead:
        """The latest 100 changes of the user's settings, newest first."""
        user_id = self.user_id
        rows = await self.repo.settings_history(user_id)
        return UserSettingsHistoryRead(
            user_id=user_id,
            items=[UserSettingsChange.model_validate(r, from_attributes=True) for r in rows],
        )

    async def activity(self) -> UserActivity:
        """The user's latest sessions and tasks (``MAX_ACTIVITY_ROWS`` of each)."""
        user_id = self.user_id
        sessions = await self.repo.sessions_of(user_id, MAX_ACTIVITY_ROWS)
        tasks = await self.repo.tasks_of(user_id, MAX_ACTIVITY_ROWS)
        return UserActivity(
            user_id=user_id,
            sessions=[SessionSummary(**s) for s in sessions],
            tasks=[
                TaskSummary(
                    task_id=t.id,
                    name=t.name,
                    status=t.status,
                    slots=t.slots,
                    conclusion=t.conclusion,
                    created_at=t.created_at,
                    updated_at=t.updated_at,
                    finished_at=t.finished_at,
                )
                for t in tasks
            ],
        )

    async def decay_of(self, ids: list[uuid.UUID]) -> dict[uuid.UUID, float]:
        """memory id -> decay factor (0..1) now, by recall's formula (docs/recall.md)."""
        return await self.repo.decay_of(
            self.user_id, ids, at=utcnow(), params=decay_params(self.rt.settings)
        )
