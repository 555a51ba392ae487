"""Every SQL statement of users and their memory settings."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import select, text
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Memory, Task, UserSettings, UserSettingsHistory
from app.kit.time import utcnow
from app.kit.types import TENANT_WIDE_USER
from app.recall.repository import decay_inputs_sql, decay_sql
from app.users.policy import LOW_CONFIDENCE_SOURCES

# Users of one tenant: anyone with a memory, a session or settings. Counts per user come from
# correlated subqueries on the (tenant_id, user_id, …) indexes; filters apply to the counts.
_USERS = """
WITH u AS (
    SELECT user_id FROM memories WHERE tenant_id = :t
    UNION SELECT user_id FROM sessions WHERE tenant_id = :t
    UNION SELECT user_id FROM user_settings WHERE tenant_id = :t
), c AS (
    SELECT u.user_id,
           (SELECT count(*) FROM memories m
             WHERE m.tenant_id = :t AND m.user_id = u.user_id AND m.status = 'active') AS active,
           (SELECT count(*) FROM memories m
             WHERE m.tenant_id = :t AND m.user_id = u.user_id AND m.status = 'frozen') AS frozen,
           (SELECT count(*) FROM sessions s
             WHERE s.tenant_id = :t AND s.user_id = u.user_id) AS sessions,
           greatest(
               (SELECT max(m.updated_at) FROM memories m
                 WHERE m.tenant_id = :t AND m.user_id = u.user_id),
               (SELECT max(s.updated_at) FROM sessions s
                 WHERE s.tenant_id = :t AND s.user_id = u.user_id)
           ) AS last_activity_at
      FROM u
     WHERE u.user_id > :after AND u.user_id <> :tenant_wide
)
SELECT * FROM c
 WHERE (CAST(:active_since AS timestamptz) IS NULL OR c.last_activity_at >= :active_since)
   AND (CAST(:has_frozen AS boolean) IS NULL OR (c.frozen > 0) = :has_frozen)
   AND (CAST(:prefix AS text) IS NULL OR starts_with(c.user_id, :prefix))
 ORDER BY c.user_id
 LIMIT :limit
"""


def settings_snapshot(s: UserSettings | None) -> dict[str, Any] | None:
    """The audited fields of a settings row."""
    if s is None:
        return None
    return {"memory_mode": s.memory_mode, "retention_days": s.retention_days}


class UserRepository:
    def __init__(self, session: AsyncSession, tenant_id: uuid.UUID):
        self.session = session
        self.tenant_id = tenant_id

    async def list_users(
        self,
        *,
        after: str,
        limit: int,
        active_since: datetime | None,
        has_frozen: bool | None,
        prefix: str | None,
    ) -> list[dict[str, Any]]:
        """Users with ``user_id > after``, in user_id order, at most ``limit``, as dicts of
        ``{user_id, active, frozen, sessions, last_activity_at}``. Needs a session open on
        every user of the tenant (``ALL_USERS``)."""
        rows = await self.session.execute(
            text(_USERS),
            {
                "t": self.tenant_id,
                "after": after,
                "limit": limit,
                "active_since": active_since,
                "has_frozen": has_frozen,
                "prefix": prefix,
                # The owner of the tenant-wide memories is no user (docs/scopes.md).
                "tenant_wide": TENANT_WIDE_USER,
            },
        )
        return [dict(r) for r in rows.mappings().all()]

    async def get_settings(self, user_id: str, *, for_update: bool = False) -> UserSettings | None:
        stmt = select(UserSettings).where(
            UserSettings.tenant_id == self.tenant_id, UserSettings.user_id == user_id
        )
        if for_update:
            stmt = stmt.with_for_update()
        return (await self.session.scalars(stmt)).first()

    async def put_settings(
        self,
        user_id: str,
        *,
        memory_mode: str,
        retention_days: int | None,
        actor: str,
        request_id: str | None,
    ) -> UserSettings:
        """Insert or update the user's settings and add a history row when they changed."""
        now = utcnow()
        row = await self.get_settings(user_id, for_update=True)
        before = settings_snapshot(row)
        if row is None:
            row = UserSettings(
                tenant_id=self.tenant_id, user_id=user_id, created_at=now, updated_at=now
            )
            self.session.add(row)
        row.memory_mode, row.retention_days = memory_mode, retention_days
        after = settings_snapshot(row)
        if after != before:
            row.updated_at = now
            self.session.add(
                UserSettingsHistory(
                    tenant_id=self.tenant_id,
                    user_id=user_id,
                    old=before,
                    new=after,
                    actor=actor,
                    request_id=request_id,
                    created_at=now,
                )
            )
        await self.session.flush()
        return row

    async def settings_history(self, user_id: str, limit: int = 100) -> list[UserSettingsHistory]:
        """The latest ``limit`` changes of the user's settings, newest first."""
        stmt = (
            select(UserSettingsHistory)
            .where(
                UserSettingsHistory.tenant_id == self.tenant_id,
                UserSettingsHistory.user_id == user_id,
            )
            .order_by(UserSettingsHistory.id.desc())
            .limit(limit)
        )
        return list((await self.session.scalars(stmt)).all())

    async def to_confirm(self, user_id: str, limit: int) -> list[Memory]:
        """Active memories of the user formed from a low-confidence source, newest first."""
        stmt = (
            select(Memory)
            .where(
                Memory.tenant_id == self.tenant_id,
                Memory.user_id == user_id,
                Memory.status == "active",
                Memory.source.in_(LOW_CONFIDENCE_SOURCES),
            )
            .order_by(Memory.created_at.desc(), Memory.id.desc())
            .limit(limit)
        )
        return list((await self.session.scalars(stmt)).all())

    async def sessions_of(self, user_id: str, limit: int) -> list[dict[str, Any]]:
        """The user's latest ``limit`` sessions by last change, as ``{session_id, messages,
        summary, created_at, updated_at}``."""
        stmt = text(
            "SELECT s.id AS session_id, s.summary, s.created_at, s.updated_at,"
            " (SELECT count(*) FROM messages m WHERE m.tenant_id = s.tenant_id"
            "   AND m.user_id = s.user_id AND m.session_id = s.id) AS messages"
            " FROM sessions s WHERE s.tenant_id = :t AND s.user_id = :u"
            " ORDER BY s.updated_at DESC, s.id LIMIT :limit"
        )
        rows = await self.session.execute(stmt, {"t": self.tenant_id, "u": user_id, "limit": limit})
        return [dict(r) for r in rows.mappings().all()]

    async def tasks_of(self, user_id: str, limit: int) -> list[Task]:
        """The user's latest ``limit`` tasks by last change."""
        stmt = (
            select(Task)
            .where(Task.tenant_id == self.tenant_id, Task.user_id == user_id)
            .order_by(Task.updated_at.desc(), Task.id)
            .limit(limit)
        )
        return list((await self.session.scalars(stmt)).all())

    async def decay_of(
        self, user_id: str, ids: list[uuid.UUID], *, at: datetime, params: dict[str, float]
    ) -> dict[uuid.UUID, float]:
        """memory id -> decay factor (0..1) at ``at``, by recall's own formula
        (``app.recall.repository.decay_inputs_sql`` / ``decay_sql``); ``params`` are
        ``decay_params(settings)``."""
        if not ids:
            return {}
        stmt = text(
            f"SELECT d.id, {decay_sql('d')} AS decay FROM ("
            f" SELECT m.id, {decay_inputs_sql('m')} FROM memories m"
            " WHERE m.tenant_id = :tenant_id AND m.user_id = :user_id AND m.id = ANY(:ids)) d"
        )
        rows = await self.session.execute(
            stmt, {"tenant_id": self.tenant_id, "user_id": user_id, "ids": ids, "at": at} | params
        )
        return {r.id: float(r.decay) for r in rows}
