"""Recall: the memories that matter for a query, strictly inside one tenant, user and scope."""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from typing import TYPE_CHECKING

from app.kit.metrics import RECALL_DEGRADED, RECALL_HIT, RECALL_LATENCY, timed
from app.kit.time import utcnow
from app.privacy.protect import Privacy, embedding_text, owner_of
from app.providers.embeddings import EmbeddingError
from app.recall.entities import entities
from app.recall.repository import RankedRow, RecallMode, RecallRepository, decay_params
from app.recall.schemas import (
    ConstraintRead,
    RecalledMemory,
    RecallRequest,
    RecallResponse,
    ScoreFactors,
)
from app.recall.text import query_terms
from app.users.policy import not_before, recall_scopes
from app.users.settings import policy_of

if TYPE_CHECKING:
    from app.db.models import Memory
    from app.runtime import Runtime

log = logging.getLogger(__name__)

RANKED_TYPES = ("profile", "preference", "fact", "event", "episode")
REMINDERS_TOP_K = 3
# Extra rows fetched so that dropping shadowed single-valued rows still leaves top_k.
SCOPE_SLACK = 4
SCOPE_PRECEDENCE = {"session": 0, "task": 1, "user": 2, "global": 3}


def narrowest_scope_wins(rows: list[RankedRow]) -> list[RankedRow]:
    """One value per single-valued key: a session fact wins in its session over the task's,
    which wins over the user's (DESIGN.md rule 6). Order is kept."""
    best: dict[str, int] = {}
    for r in rows:
        m = r.memory
        if m.single_valued and m.key is not None:
            rank = SCOPE_PRECEDENCE.get(m.scope, 9)
            best[m.key] = min(best.get(m.key, rank), rank)
    return [
        r
        for r in rows
        if not (r.memory.single_valued and r.memory.key is not None)
        or SCOPE_PRECEDENCE.get(r.memory.scope, 9) == best[r.memory.key]
    ]


def without_redundant_episodes(rows: list[RankedRow], shown: set[str]) -> list[RankedRow]:
    """Leave out an episode every fact of which (``origin.fact_ids``) is already in the answer —
    ranked above it, or among the constraints (ids ``shown``): the turn would repeat what the
    answer says, in a slot another memory could take. Order is kept."""
    out = []
    seen = set(shown)
    for r in rows:
        m = r.memory
        facts = (m.origin or {}).get("fact_ids") if m.type == "episode" else None
        if facts and all(f in seen for f in facts):
            continue
        seen.add(str(m.id))
        out.append(r)
    return out


def _recalled(row: RankedRow, explain: bool, privacy: Privacy) -> RecalledMemory:
    m = row.memory
    owner = owner_of(m.tenant_id, m.user_id)
    return RecalledMemory(
        id=m.id,
        content=privacy.reveal_personal(m.content, m.sealed, owner) or "",
        type=m.type,  # type: ignore[arg-type]
        key=m.key,
        value=privacy.reveal_personal(m.value, m.sealed, owner),
        score=row.score,
        similarity=row.similarity,
        confidence=row.confidence,
        decay=row.decay,
        status=m.status,  # type: ignore[arg-type]
        source=m.source,  # type: ignore[arg-type]
        scope=m.scope,  # type: ignore[arg-type]
        scope_id=m.scope_id or None,
        metadata=m.metadata_ or {},
        occurred_at=m.valid_from,
        created_at=m.created_at,
        superseded_by=m.superseded_by,
        explain=ScoreFactors(
            similarity=row.similarity,
            text_rank=row.text_rank,
            vector_score=row.vector_score,
            text_score=row.text_score,
            entity_score=row.entity_score,
            relevance=row.relevance,
            confidence=row.confidence,
            decay=row.decay,
            scope_weight=row.scope_weight,
            type_weight=row.type_weight,
            age_days=row.age_days,
            half_life_days=row.half_life_days,
            decay_floor=row.decay_floor,
            score=row.score,
        )
        if explain
        else None,
    )


def constraint_read(m: Memory, privacy: Privacy) -> ConstraintRead:
    owner = owner_of(m.tenant_id, m.user_id)
    return ConstraintRead(
        id=m.id,
        content=privacy.reveal_personal(m.content, m.sealed, owner) or "",
        key=m.key,
        value=privacy.reveal_personal(m.value, m.sealed, owner),
        scope=m.scope,  # type: ignore[arg-type]
        scope_id=m.scope_id or None,
        occurred_at=m.valid_from,
    )


class RecallService:
    def __init__(self, rt: Runtime, tenant_id: uuid.UUID, user_id: str):
        self.rt = rt
        self.tenant_id = tenant_id
        self.user_id = user_id

    def _params(self) -> dict[str, float]:
        s = self.rt.settings
        return {
            **decay_params(s),
            "w_user": s.scope_weight_user,
            "w_global": s.scope_weight_global,
            "w_session": s.scope_weight_session,
            "w_task": s.scope_weight_task,
            "w_episode": s.recall_type_weight_episode,
            "min_decay": s.recall_min_decay,
            "w_recency": s.recall_recency_weight,
            "rank_k": s.recall_rank_k,
            "bm25_k1": s.recall_bm25_k1,
            "bm25_b": s.recall_bm25_b,
            "w_vector": s.recall_fusion_weight_vector,
            "w_text": s.recall_fusion_weight_text,
            "w_entity": s.recall_fusion_weight_entity,
            "spread_vector": s.recall_fusion_spread_vector,
            "spread_text": s.recall_fusion_spread_text,
        }

    async def recall(self, req: RecallRequest) -> RecallResponse:
        """Rank the user's active memories for ``req.query``.

        ``score = relevance × confidence × recency × scope_weight × type_weight``
        (docs/recall.md, "Ranking formula"; type_weight < 1 only for episodes): relevance in
        0..1 — vector mode: by the rank of the memory's cosine similarity among the user's
        rows; hybrid: the weighted sum of its min-max normalised similarity and BM25 score and
        of its entity score (``recall_fusion=minmax``, docs/recall.md "Fusion by normalised
        scores"), or reciprocal rank fusion (``rrf``) — ``recency = 1 - w × (1 - decay)`` with ``w =
        settings.recall_recency_weight``, ``decay = max(floor_type, 0.5^(age_days /
        half_life_days))`` and age measured from the memory's ``valid_from`` to ``req.at``
        (default now); a memory whose decay fell below ``recall_min_decay`` has faded and is
        left out. Constraints of the user, task and session come back separately, always,
        outside ``top_k``. When the query embedding fails or takes longer than
        ``recall_embed_timeout_s``, the ranking is full-text only (``mode: text``,
        ``degraded: true``).
        """
        with timed(RECALL_LATENCY, "total"):
            response = await self._recall(req)
        RECALL_HIT.labels(str(bool(response.memories)).lower()).inc()
        return response

    async def _recall(self, req: RecallRequest) -> RecallResponse:
        at = req.at or utcnow()
        top_k = req.top_k or self.rt.settings.recall_default_top_k
        types = list(req.types or RANKED_TYPES)
        # The embedder never sees a sensitive value, not even in a query.
        owner = owner_of(self.tenant_id, self.user_id)
        query_text = embedding_text(self.rt.privacy.protect(req.query, owner).text)
        mode: RecallMode = self.rt.settings.recall_mode
        query_embedding: list[float] | None = None
        try:
            with timed(RECALL_LATENCY, "embed"):
                query_embedding = await asyncio.wait_for(
                    self.rt.embedder.embed_query(query_text),
                    self.rt.settings.recall_embed_timeout_s,
                )
        except (EmbeddingError, TimeoutError):
            # The embedder is down, broken or busy past the deadline: answer from full-text
            # search, and say so.
            log.warning("recall degraded to full-text search: the embedder failed or was late")
            RECALL_DEGRADED.inc()
            mode = "text"
        terms = query_terms(query_text)
        named = entities(query_text)
        db_started = time.perf_counter()
        async with self.rt.scoped(self.tenant_id, self.user_id) as session:
            repo = RecallRepository(session, self.tenant_id, self.user_id)
            # The user's memory mode and retention narrow what may be read (app/users/policy).
            policy = await policy_of(session, self.tenant_id, self.user_id)
            scopes, oldest = recall_scopes(policy), not_before(policy, at)
            task_id = req.task_id if scopes.task else None

            async def ranked(status: str, limit: int) -> list[RankedRow]:
                return await repo.ranked(
                    query_embedding=query_embedding,
                    query_terms=terms,
                    mode=mode,
                    model=self.rt.embedder.model,
                    at=at,
                    types=types,
                    task_id=task_id,
                    session_id=req.session_id,
                    open_scopes=scopes.broad,
                    not_before=oldest,
                    status=status,
                    top_k=limit,
                    params=self._params(),
                    vector_relevance=self.rt.settings.recall_vector_relevance,
                    candidates=self.rt.settings.recall_candidates,
                    text_rank=self.rt.settings.recall_text_rank,
                    fusion=self.rt.settings.recall_fusion,
                    query_entities=named,
                )

            constraints = await repo.constraints(
                task_id=task_id,
                session_id=req.session_id,
                open_scopes=scopes.broad,
                not_before=oldest,
            )
            rows = without_redundant_episodes(
                narrowest_scope_wins(await ranked("active", 2 * top_k + SCOPE_SLACK)),
                {str(c.id) for c in constraints},
            )[:top_k]
            reminders = await ranked("frozen", REMINDERS_TOP_K) if req.include_reminders else []
        RECALL_LATENCY.labels("db").observe(time.perf_counter() - db_started)
        recorder = self.rt.extras.get("access")
        if recorder is not None:
            recorder.record(self.tenant_id, self.user_id, [r.memory.id for r in rows])
        return RecallResponse(
            memories=[_recalled(r, req.explain, self.rt.privacy) for r in rows],
            constraints=[constraint_read(c, self.rt.privacy) for c in constraints],
            reminders=[_recalled(r, req.explain, self.rt.privacy) for r in reminders],
            mode=mode,
            degraded=mode == "text",
        )

    async def constraints(
        self, *, session_id: str | None, task_id: str | None
    ) -> list[ConstraintRead]:
        """Active constraints of the user, the task and the session (no query needed)."""
        async with self.rt.scoped(self.tenant_id, self.user_id) as session:
            policy = await policy_of(session, self.tenant_id, self.user_id)
            scopes = recall_scopes(policy)
            rows = await RecallRepository(session, self.tenant_id, self.user_id).constraints(
                task_id=task_id if scopes.task else None,
                session_id=session_id,
                open_scopes=scopes.broad,
                not_before=not_before(policy, utcnow()),
            )
        return [constraint_read(c, self.rt.privacy) for c in rows]
