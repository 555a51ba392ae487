"""All SQL of the forgetting pass. Every statement runs in a session scoped to one tenant
(``ALL_USERS``) and still filters tenant and user itself (isolation in depth)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select, text
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession

from app.db.models import Memory, Tenant, UserSettings
from app.kit.types import TENANT_WIDE_USER
from app.recall.repository import decay_inputs_sql, decay_sql

# One active memory of the user with its decay at :at and what protects it. A profile fact
# the user confirmed (said twice, or declared it / filled it in a form) is never archived by
# decay alone.
_ACTIVE = f"""
WITH scored AS MATERIALIZED (
    SELECT m.id,
           m.type,
           m.confidence,
           m.access_count,
           m.valid_from,
           (m.type = 'profile'
            AND (m.confirmations >= 2 OR m.source IN ('user_declared', 'form')))
               AS confirmed_profile,
           -- Emphasised by the user ("记住", "don't forget"): never archived by forgetting.
           coalesce(m.metadata @> '{{"pinned": true}}', false) AS pinned,
           {decay_inputs_sql("m")}
      FROM memories m
     WHERE m.tenant_id = :tenant_id
       AND m.user_id = :user_id
       AND m.status = 'active'
), decayed AS (
    SELECT s.*, {decay_sql("s")} AS decay
      FROM scored s
)"""

_DECAYED = (
    _ACTIVE
    + """
SELECT d.id, d.decay
  FROM decayed d
 WHERE d.type <> 'constraint'
   AND NOT d.confirmed_profile
   AND NOT d.pinned
   AND d.decay < :threshold
 ORDER BY d.id
"""
)

# value_score = w_recency · decay
#             + w_frequency · min(1, ln(1 + access_count) / ln(1 + access_saturation))
#             + w_confidence · confidence
# (app.lifecycle.forget states the weights and why). Only the rows beyond the capacity are
# returned, counted here, in the same snapshot, constraints included.
_LOWEST_VALUE = (
    _ACTIVE
    + """, valued AS (
    SELECT d.id, d.type, d.confirmed_profile, d.pinned, d.valid_from, d.decay,
           CAST(:w_recency AS float8) * d.decay
           + CAST(:w_frequency AS float8)
             * least(1.0, ln(1 + CAST(d.access_count AS float8))
                        / ln(1 + CAST(:access_saturation AS float8)))
           + CAST(:w_confidence AS float8) * d.confidence AS value_score
      FROM decayed d
)
SELECT v.id, v.decay, v.value_score, v.confirmed_profile
  FROM valued v
 WHERE v.type <> 'constraint'
   AND NOT v.pinned
 ORDER BY v.confirmed_profile, v.value_score, v.valid_from, v.id
 LIMIT greatest(0, (SELECT count(*) FROM scored) - :capacity)
"""
)


@dataclass(frozen=True, slots=True)
class Candidate:
    """A memory the pass archives and why: ``reason`` goes into its history row."""

    id: uuid.UUID
    reason: dict[str, Any]


async def tenant_ids(conn: AsyncConnection) -> list[uuid.UUID]:
    """Every tenant id, oldest first (``tenants`` has no row-level security)."""
    rows = await conn.execute(select(Tenant.id).order_by(Tenant.created_at, Tenant.id))
    return [r[0] for r in rows]


class ForgetRepository:
    """SQL of one tenant; ``session`` must be scoped to (tenant_id, ALL_USERS)."""

    def __init__(self, session: AsyncSession, tenant_id: uuid.UUID):
        self.session = session
        self.tenant_id = tenant_id

    async def active_counts(self) -> dict[str, int]:
        """``{user_id: number of active memories}`` of every user with at least one. The
        tenant-wide memories (owner TENANT_WIDE_USER) are the tenant's curated knowledge, not a
        user's: forgetting leaves them to the tenant (docs/scopes.md)."""
        rows = await self.session.execute(
            text(
                "SELECT user_id, count(*) FROM memories"
                " WHERE tenant_id = :t AND status = 'active' AND user_id <> :tenant_wide"
                " GROUP BY user_id ORDER BY user_id"
            ),
            {"t": self.tenant_id, "tenant_wide": TENANT_WIDE_USER},
        )
        return {str(u): int(n) for u, n in rows.all()}

    async def decayed(
        self, user_id: str, *, at: datetime, threshold: float, params: dict[str, float]
    ) -> list[Candidate]:
        """Active memories of the user whose decay at ``at`` is below ``threshold``, except
        constraints and confirmed profile facts."""
        rows = await self.session.execute(
            text(_DECAYED),
            {"tenant_id": self.tenant_id, "user_id": user_id, "at": at, "threshold": threshold}
            | params,
        )
        return [
            Candidate(r.id, {"reason": "decay", "decay": float(r.decay), "threshold": threshold})
            for r in rows
        ]

    async def lowest_value(
        self, user_id: str, *, at: datetime, capacity: int, params: dict[str, float]
    ) -> list[Candidate]:
        """The active memories of the user beyond ``capacity``, lowest value at ``at`` first:
        never a constraint, a confirmed profile fact only after every other kind (so fewer than
        the excess when only constraints are left). ``params``: ``decay_params`` plus the
        weights ``w_recency``, ``w_frequency``, ``w_confidence``, ``access_saturation``."""
        rows = await self.session.execute(
            text(_LOWEST_VALUE),
            {"tenant_id": self.tenant_id, "user_id": user_id, "at": at, "capacity": capacity}
            | params,
        )
        return [
            Candidate(
                r.id,
                {
                    "reason": "capacity",
                    "value_score": float(r.value_score),
                    "decay": float(r.decay),
                    "capacity": capacity,
                    "confirmed_profile": bool(r.confirmed_profile),
                },
            )
            for r in rows
        ]

    async def retention_limits(self) -> dict[str, int]:
        """``{user_id: retention_days}`` of the tenant's users that set a retention limit
        (app/users/policy.py)."""
        rows = await self.session.execute(
            select(UserSettings.user_id, UserSettings.retention_days).where(
                UserSettings.tenant_id == self.tenant_id,
                UserSettings.retention_days.is_not(None),
            )
        )
        return {str(u): int(d) for u, d in rows.all() if d is not None}

    async def older_than(self, user_id: str, not_before: datetime) -> list[Candidate]:
        """Active memories of the user whose ``valid_from`` is before ``not_before`` (the
        user's retention limit, app/users/policy.py)."""
        rows = await self.session.execute(
            select(Memory.id)
            .where(
                Memory.tenant_id == self.tenant_id,
                Memory.user_id == user_id,
                Memory.status == "active",
                Memory.valid_from < not_before,
            )
            .order_by(Memory.id)
        )
        return [
            Candidate(r.id, {"reason": "retention", "not_before": not_before.isoformat()})
            for r in rows
        ]


async def try_pass_lock(conn: AsyncConnection, key: int) -> bool:
    """Try the session-level advisory lock ``key`` on ``conn`` (never waits)."""
    return bool((await conn.execute(text("SELECT pg_try_advisory_lock(:k)"), {"k": key})).scalar())


async def release_pass_lock(conn: AsyncConnection, key: int) -> None:
    await conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": key})
