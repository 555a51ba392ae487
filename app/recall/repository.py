"""The recall query: exact per-user scan with the rerank in SQL (see docs/recall.md)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, and_, bindparam, or_, select, text
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Memory

# Every active row of the user in the allowed scopes is scored, not only the nearest N:
# ranking by similarity first and reranking after gives a different top_k than ranking all
# rows (DESIGN.md measured a top-8 overlap of 0.32–0.75), and the scan reads the same rows.
# The inner query touches only columns of ix_memories_recall (an index-only scan).
# decay = greatest(floor, 0.5 ^ (age / half_life)); age = max(0, at - valid_from) in days.
_RANKED = """
WITH scored AS MATERIALIZED (
    SELECT m.id,
           1 - (m.embedding <=> CAST(:query AS halfvec)) AS similarity,
           m.confidence,
           m.scope,
           m.type,
           greatest(0, date_part('epoch', CAST(:at AS timestamptz) - m.valid_from)) / 86400.0
               AS age_days,
           coalesce(m.half_life_days, CASE m.type
               WHEN 'profile' THEN CAST(:hl_profile AS float8)
               WHEN 'preference' THEN CAST(:hl_preference AS float8)
               WHEN 'fact' THEN CAST(:hl_fact AS float8)
               WHEN 'event' THEN CAST(:hl_event AS float8) END) AS half_life_days,
           CASE m.type
               WHEN 'profile' THEN CAST(:fl_profile AS float8)
               WHEN 'preference' THEN CAST(:fl_preference AS float8)
               WHEN 'fact' THEN CAST(:fl_fact AS float8)
               WHEN 'event' THEN CAST(:fl_event AS float8)
               ELSE 1.0 END AS decay_floor,
           CASE m.scope
               WHEN 'user' THEN CAST(:w_user AS float8)
               WHEN 'global' THEN CAST(:w_global AS float8)
               WHEN 'session' THEN CAST(:w_session AS float8)
               ELSE CAST(:w_task AS float8) END AS scope_weight
      FROM memories m
     WHERE m.tenant_id = :tenant_id
       AND m.user_id = :user_id
       AND m.status = :status
       AND m.embedding_model = :model
       AND m.type = ANY(:types)
       AND (m.scope IN ('user', 'global')
            OR (m.scope = 'task' AND m.scope_id = :task_id)
            OR (m.scope = 'session' AND m.scope_id = :session_id))
), decayed AS (
    SELECT s.*,
           CASE WHEN s.half_life_days IS NULL THEN 1.0
                ELSE greatest(s.decay_floor, power(0.5, s.age_days / s.half_life_days)) END
               AS decay
      FROM scored s
)
SELECT d.*, d.similarity * d.confidence * d.decay * d.scope_weight AS score
  FROM decayed d
 WHERE d.decay >= :min_decay
 ORDER BY score DESC, d.id
 LIMIT :top_k
"""


@dataclass(slots=True)
class RankedRow:
    memory: Memory
    similarity: float
    confidence: float
    decay: float
    scope_weight: float
    age_days: float
    half_life_days: float | None
    decay_floor: float
    score: float


class RecallRepository:
    def __init__(self, session: AsyncSession, tenant_id: uuid.UUID, user_id: str):
        self.session = session
        self.tenant_id = tenant_id
        self.user_id = user_id

    async def ranked(
        self,
        *,
        query_embedding: list[float],
        model: str,
        at: datetime,
        types: list[str],
        task_id: str | None,
        session_id: str | None,
        status: str,
        top_k: int,
        params: dict[str, float],
    ) -> list[RankedRow]:
        """The top_k rows by score, best first, with every factor."""
        stmt = text(_RANKED).bindparams(bindparam("types", expanding=False))
        rows = (
            (
                await self.session.execute(
                    stmt,
                    {
                        "query": "[" + ",".join(f"{x:.6f}" for x in query_embedding) + "]",
                        "at": at,
                        "tenant_id": self.tenant_id,
                        "user_id": self.user_id,
                        "status": status,
                        "model": model,
                        "types": types,
                        "task_id": task_id or "",
                        "session_id": session_id or "",
                        "top_k": top_k,
                        **params,
                    },
                )
            )
            .mappings()
            .all()
        )
        by_id = {m.id: m for m in await self._memories([r["id"] for r in rows])}
        return [
            RankedRow(
                memory=by_id[r["id"]],
                similarity=float(r["similarity"]),
                confidence=float(r["confidence"]),
                decay=float(r["decay"]),
                scope_weight=float(r["scope_weight"]),
                age_days=float(r["age_days"]),
                half_life_days=r["half_life_days"],
                decay_floor=float(r["decay_floor"]),
                score=float(r["score"]),
            )
            for r in rows
            if r["id"] in by_id
        ]

    async def _memories(self, ids: list[Any]) -> list[Memory]:
        if not ids:
            return []
        stmt = select(Memory).where(
            Memory.tenant_id == self.tenant_id, Memory.user_id == self.user_id, Memory.id.in_(ids)
        )
        return list((await self.session.scalars(stmt)).all())

    async def constraints(self, *, task_id: str | None, session_id: str | None) -> list[Memory]:
        """Active constraints of the user, the task and the session, oldest first."""
        stmt = (
            select(Memory)
            .where(
                Memory.tenant_id == self.tenant_id,
                Memory.user_id == self.user_id,
                Memory.status == "active",
                Memory.type == "constraint",
            )
            .order_by(Memory.created_at, Memory.id)
        )
        allowed: list[ColumnElement[bool]] = [Memory.scope.in_(["user", "global"])]
        if task_id:
            allowed.append(and_(Memory.scope == "task", Memory.scope_id == task_id))
        if session_id:
            allowed.append(and_(Memory.scope == "session", Memory.scope_id == session_id))
        return list((await self.session.scalars(stmt.where(or_(*allowed)))).all())

    async def record_access(self, ids: list[uuid.UUID], at: datetime) -> None:
        """Bump access statistics of recalled memories (one statement for a batch)."""
        await self.session.execute(
            text(
                "UPDATE memories SET access_count = access_count + 1, last_accessed_at = :at"
                " WHERE tenant_id = :t AND user_id = :u AND id = ANY(:ids)"
            ),
            {"at": at, "t": self.tenant_id, "u": self.user_id, "ids": ids},
        )
