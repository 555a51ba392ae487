"""Calling the recall repository directly, as the service does, for tests that pick the query
vector or terms themselves."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select

from app.db.models import Memory
from app.recall.repository import RankedRow, RecallRepository
from app.recall.service import RANKED_TYPES, RecallService
from tests.conftest import TenantCtx


async def ranked(
    app: Any,
    tenant: TenantCtx,
    terms: list[str],
    *,
    vector_of: str | None = None,
    user_id: str = "u",
    **kw: Any,
) -> list[RankedRow]:
    """``RecallRepository.ranked`` for ``user_id`` with the service's parameters; the query
    vector is the stored embedding of the memory whose content is ``vector_of`` (none: no
    vector)."""
    rt = app.state.memlane
    tenant_id = uuid.UUID(tenant.id)
    async with rt.scoped(tenant_id, user_id) as session:
        query_embedding = None
        if vector_of is not None:
            anchor = await session.scalar(select(Memory).where(Memory.content == vector_of))
            assert anchor is not None and anchor.embedding is not None
            query_embedding = [float(x) for x in anchor.embedding]
        return await RecallRepository(session, tenant_id, user_id).ranked(
            query_embedding=query_embedding,
            query_terms=terms,
            model=rt.embedder.model,
            at=datetime.now(UTC),
            types=list(RANKED_TYPES),
            task_id=None,
            session_id=None,
            status="active",
            params=RecallService(rt, tenant_id, user_id)._params(),
            **{"candidates": rt.settings.recall_candidates, **kw},
        )
