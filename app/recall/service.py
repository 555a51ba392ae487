"""Recall: the memories that matter for a query, strictly inside one tenant, user and scope."""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from datetime import datetime
from typing import TYPE_CHECKING

from app.kit.metrics import RECALL_DEGRADED, RECALL_HIT, RECALL_LATENCY, timed
from app.kit.time import utcnow
from app.privacy.protect import Privacy, embedding_text, owner_of
from app.providers.embeddings import EmbeddingError
from app.recall.entities import entities
from app.recall.isolation import owned_only
from app.recall.repository import (
    RankedRow,
    RecallMode,
    RecallRepository,
    ScopeReach,
    ScopeReadRepository,
    decay_params,
    effective_mode,
)
from app.recall.rerank import RERANKER_KEY, Reranked, pool_size, rerank
from app.recall.schemas import (
    ConstraintRead,
    RecalledMemory,
    RecallRequest,
    RecallResponse,
    ScoreFactors,
)
from app.recall.text import query_terms
from app.tenantwide.templates import templates_of
from app.users.policy import RecallScopes, not_before, recall_scopes
from app.users.settings import policy_of

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncSession

    from app.db.models import Memory
    from app.runtime import Runtime

log = logging.getLogger(__name__)

RANKED_TYPES = ("profile", "preference", "fact", "event", "episode")
REMINDERS_TOP_K = 3
# Extra rows fetched so that dropping shadowed single-valued rows still leaves top_k.
SCOPE_SLACK = 4
SCOPE_PRECEDENCE = {"session": 0, "task": 1, "agent": 2, "user": 3, "global": 4, "tenant": 5}


def narrowest_scope_wins(rows: list[RankedRow]) -> list[RankedRow]:
    """One value per single-valued key: a session fact wins in its session over the task's,
    which wins over the agent's, then the user's (DESIGN.md rule 6); a tenant-wide value yields
    to all of them (docs/scopes.md). Order is kept."""
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


def _recalled(
    row: RankedRow, explain: bool, privacy: Privacy, reranked: Reranked | None = None
) -> RecalledMemory:
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
        valid_to=m.valid_to,
        speaker=(m.origin or {}).get("speaker"),
        explain=ScoreFactors(
            similarity=row.similarity,
            text_rank=row.text_rank,
            vector_score=row.vector_score,
            text_score=row.text_score,
            entity_score=row.entity_score,
            speaker_score=row.speaker_score,
            relevance=row.relevance,
            confidence=row.confidence,
            decay=row.decay,
            recency=row.recency,
            scope_weight=row.scope_weight,
            type_weight=row.type_weight,
            age_days=row.age_days,
            half_life_days=row.half_life_days,
            decay_floor=row.decay_floor,
            score=row.score,
            pinned=bool((m.metadata_ or {}).get("pinned")),
            base_half_life_days=row.base_half_life_days,
            access_count=m.access_count or 0,
            rerank=reranked.outcome if reranked is not None else "off",
            rerank_score=reranked.scores.get(m.id) if reranked is not None else None,
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
            "w_agent": s.scope_weight_agent,
            "w_tenant": s.scope_weight_tenant,
            "w_episode": s.recall_type_weight_episode,
            "min_decay": s.recall_min_decay,
            "w_recency": s.recall_recency_weight,
            "rank_k": s.recall_rank_k,
            "bm25_k1": s.recall_bm25_k1,
            "bm25_b": s.recall_bm25_b,
            "w_vector": s.recall_fusion_weight_vector,
            "w_text": s.recall_fusion_weight_text,
            "w_entity": s.recall_fusion_weight_entity,
            "w_speaker": s.recall_fusion_weight_speaker,
            "spread_vector": s.recall_fusion_spread_vector,
            "spread_text": s.recall_fusion_spread_text,
        }

    async def reach(
        self, session: AsyncSession, scopes: RecallScopes, req: RecallRequest
    ) -> ScopeReach:
        """What ``req`` reads beyond the open scopes, its task and its session
        (docs/scopes.md): its agent's scope, the tasks and sessions of ``scope_override``
        (authorized by the endpoint), the tenant-wide memories of the user's templates. A
        memory mode that reads nothing across sessions (``session_only``) reads none of them."""
        if not scopes.broad:
            return ScopeReach()
        overrides = req.scope_override or []
        return ScopeReach(
            agent_id=req.agent_id,
            task_ids=tuple(o.scope_id for o in overrides if o.scope == "task")
            if scopes.task
            else (),
            session_ids=tuple(o.scope_id for o in overrides if o.scope == "session"),
            templates=await templates_of(session, self.tenant_id, self.user_id),
        )

    async def recall(
        self, req: RecallRequest, *, actor: str = "api", request_id: str | None = None
    ) -> RecallResponse:
        """Rank the user's active memories for ``req.query``.

        ``score = relevance × confidence × recency × scope_weight × type_weight``
        (docs/recall.md, "Ranking formula"; type_weight < 1 only for episodes): relevance in
        0..1 — vector mode: by the rank of the memory's cosine similarity among the user's
        rows; hybrid: the weighted sum of its min-max normalised similarity and BM25 score and
        of its entity score (``recall_fusion=minmax``, docs/recall.md "Fusion by normalised
        scores"), or reciprocal rank fusion (``rrf``) — ``recency = 1 - w × (1 - decay)`` with ``w =
        settings.recall_recency_weight``, ``decay = max(floor_type, 0.5^(age_days /
        half_life_days))`` and age measured from the memory's ``valid_from`` to ``req.at``
        (default now), the half-life lengthened by use (``decay_inputs_sql``); a memory whose
        decay fell below ``recall_min_decay`` has faded and is left out. With ``req.valid_at``
        the ranking reads the memories valid then, frozen ones included, and measures age to
        ``valid_at`` (docs/time.md). Constraints of the user, task and session come back
        separately, always, outside ``top_k``. When the query embedding fails or takes longer than
        ``recall_embed_timeout_s``, the ranking is full-text only (``mode: text``,
        ``degraded: true``).

        Scopes (docs/scopes.md): ``req.agent_id`` adds that agent's scope; tenant-wide memories
        of the user's templates come in at ``scope_weight_tenant``; ``req.scope_override``
        (authorized by the caller) adds other tasks and sessions and is written to the audit
        ``scope_reads`` with ``actor`` and ``request_id``. Every returned row passes the
        isolation check of app/recall/isolation.py.
        """
        with timed(RECALL_LATENCY, "total"):
            response = await self._recall(req, actor, request_id)
        RECALL_HIT.labels(str(bool(response.memories)).lower()).inc()
        return response

    async def _recall(
        self, req: RecallRequest, actor: str, request_id: str | None
    ) -> RecallResponse:
        at = req.at or utcnow()
        # Point in time: decay is computed then; the retention limit stays relative to ``at``.
        valid_at = req.valid_at
        decay_at = valid_at or at
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
        mode = effective_mode(mode, terms)  # what the answer reports is what ran
        named = entities(query_text)
        db_started = time.perf_counter()
        async with self.rt.scoped(self.tenant_id, self.user_id) as session:
            repo = RecallRepository(session, self.tenant_id, self.user_id)
            # The user's memory mode and retention narrow what may be read (app/users/policy).
            policy = await policy_of(session, self.tenant_id, self.user_id)
            scopes, oldest = recall_scopes(policy), not_before(policy, at)
            task_id = req.task_id if scopes.task else None
            reach = await self.reach(session, scopes, req)

            async def ranked(
                status: str | tuple[str, ...], limit: int, **when: datetime | None
            ) -> list[RankedRow]:
                return await repo.ranked(
                    query_embedding=query_embedding,
                    query_terms=terms,
                    mode=mode,
                    model=self.rt.embedder.model,
                    at=decay_at,
                    types=types,
                    task_id=task_id,
                    session_id=req.session_id,
                    open_scopes=scopes.broad,
                    not_before=oldest,
                    reach=reach,
                    status=status,
                    top_k=limit,
                    params=self._params(),
                    vector_relevance=self.rt.settings.recall_vector_relevance,
                    candidates=self.rt.settings.recall_candidates,
                    **when,
                    text_rank=self.rt.settings.recall_text_rank,
                    fusion=self.rt.settings.recall_fusion,
                    query_entities=named,
                )

            constraints = owned_only(
                await repo.constraints(
                    task_id=task_id,
                    session_id=req.session_id,
                    open_scopes=scopes.broad,
                    not_before=oldest,
                    reach=reach,
                ),
                lambda c: c,
                section="constraints",
                tenant_id=self.tenant_id,
                user_id=self.user_id,
            )
            # Now: the active memories. At a point in time: every memory valid then, frozen
            # ones included; the reminders are what had been superseded by then.
            statuses = ("active", "frozen") if valid_at else ("active",)
            reranker = self.rt.extras.get(RERANKER_KEY)
            size = pool_size(self.rt.settings, reranker, 2 * top_k + SCOPE_SLACK)
            ranked_rows = owned_only(
                await ranked(statuses, size, valid_at=valid_at),
                lambda r: r.memory,
                section="memories",
                tenant_id=self.tenant_id,
                user_id=self.user_id,
            )
            pool = narrowest_scope_wins(ranked_rows)
            reminders = (
                owned_only(
                    await ranked("frozen", REMINDERS_TOP_K, ended_by=valid_at),
                    lambda r: r.memory,
                    section="reminders",
                    tenant_id=self.tenant_id,
                    user_id=self.user_id,
                )
                if req.include_reminders
                else []
            )
        RECALL_LATENCY.labels("db").observe(time.perf_counter() - db_started)
        # The optional reranker (app/recall/rerank.py) reorders the best rows, outside the
        # transaction; on its failure the order stays recall's own.
        reranked = await rerank(reranker, self.rt.settings, query_text, pool)
        rows = without_redundant_episodes(reranked.rows, {str(c.id) for c in constraints})[:top_k]
        if req.scope_override:
            async with self.rt.scoped(self.tenant_id, self.user_id) as session:
                await self._audit_override(
                    session,
                    req,
                    [r.memory for r in rows + reminders],
                    constraints,
                    actor,
                    request_id,
                )
        recorder = self.rt.extras.get("access")
        if recorder is not None:
            recorder.record(self.tenant_id, self.user_id, [r.memory.id for r in rows])
        return RecallResponse(
            memories=[_recalled(r, req.explain, self.rt.privacy, reranked) for r in rows],
            constraints=[constraint_read(c, self.rt.privacy) for c in constraints],
            reminders=[_recalled(r, req.explain, self.rt.privacy) for r in reminders],
            mode=mode,
            degraded=mode == "text",
        )

    async def _audit_override(
        self,
        session: AsyncSession,
        req: RecallRequest,
        memories: list[Memory],
        constraints: list[Memory],
        actor: str,
        request_id: str | None,
    ) -> None:
        """One ``scope_reads`` row: the overridden scopes and the memories of theirs that this
        recall returns; committed with the recall's transaction."""
        named = {(o.scope, o.scope_id) for o in req.scope_override or []}
        own = {("task", req.task_id), ("session", req.session_id)}
        read = [m.id for m in [*memories, *constraints] if (m.scope, m.scope_id) in named - own]
        ScopeReadRepository(session, self.tenant_id, self.user_id).add(
            actor=actor,
            scopes=[o.model_dump() for o in req.scope_override or []],
            memory_ids=list(dict.fromkeys(read)),
            request_id=request_id,
        )
        await session.commit()

    async def constraints(
        self, *, session_id: str | None, task_id: str | None, agent_id: str | None = None
    ) -> list[ConstraintRead]:
        """Active constraints of the user, the task, the session, the agent and the tenant's
        templates of the user (no query needed)."""
        async with self.rt.scoped(self.tenant_id, self.user_id) as session:
            policy = await policy_of(session, self.tenant_id, self.user_id)
            scopes = recall_scopes(policy)
            req = RecallRequest(query="-", agent_id=agent_id)
            rows = await RecallRepository(session, self.tenant_id, self.user_id).constraints(
                task_id=task_id if scopes.task else None,
                session_id=session_id,
                open_scopes=scopes.broad,
                not_before=not_before(policy, utcnow()),
                reach=await self.reach(session, scopes, req),
            )
        rows = owned_only(
            rows,
            lambda c: c,
            tenant_id=self.tenant_id,
            user_id=self.user_id,
            section="constraints",
        )
        return [constraint_read(c, self.rt.privacy) for c in rows]
