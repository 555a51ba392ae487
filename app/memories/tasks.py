"""Queue jobs: store explicit memories (``infer=false``), one or a batch, through arbitration."""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.arbitration.service import ArbitrationService, Candidate
from app.db.models import Job
from app.jobs.worker import handler, hold_job_row, mark_done
from app.memories.repository import MemoryRepository
from app.memories.service import KIND_WRITE, KIND_WRITE_BATCH, base_confidence, outcome_result
from app.privacy.protect import embedding_text
from app.runtime import Runtime


async def embed_and_arbitrate(
    rt: Runtime,
    job: Job,
    candidates: list[Candidate],
    *,
    actor: str,
    also: Callable[[AsyncSession], Awaitable[None]] | None = None,
) -> dict[str, Any]:
    """Embed the candidates' contents in one ``embed_passages`` call, then arbitrate them in
    order in one transaction that also marks the job done (so a later candidate meets what an
    earlier one wrote, exactly as separate writes would); ``also`` runs in that transaction
    before the commit.

    Returns the job result of ``outcome_result``: ``{memory_ids, arbitrations,
    arbitrations_total}``. Raises ``JobGone`` when the job's user was erased meanwhile, and
    ``IntegrityError`` when a concurrent writer took a single-valued key (the worker runs the
    job again).
    """
    embeddings = (
        await rt.embedder.embed_passages([embedding_text(c.content) for c in candidates])
        if candidates
        else []
    )
    for cand, embedding in zip(candidates, embeddings, strict=True):
        cand.embedding, cand.embedding_model = embedding, rt.embedder.model
    async with rt.scoped(job.tenant_id, job.user_id) as session:
        row = await hold_job_row(session, job)
        arbiter = ArbitrationService(
            MemoryRepository(session, job.tenant_id, job.user_id),
            actor=actor,
            request_id=job.request_id,
        )
        outcomes = [await arbiter.apply(cand) for cand in candidates]
        if also is not None:
            await also(session)
        result = outcome_result(outcomes)
        mark_done(row, result)
        await session.commit()
    return result


def explicit_candidate(write: dict[str, Any], job: Job, item: int | None = None) -> Candidate:
    """The arbitration candidate of one explicit write's payload (``{body, sealed,
    occurred_at}``, see ``MemoryService.protected_write``); ``item`` is its position in a batch
    and is kept in the memory's origin (a deletion erases that item from the job's payload)."""
    body = write["body"]
    origin: dict[str, Any] = {"job_id": str(job.id)}
    if item is not None:
        origin["item"] = item
    return Candidate(
        content=body["content"],
        type=body["type"],
        key=body.get("key"),
        value=body.get("value"),
        source=body["source"],
        confidence=body["confidence"]
        if body.get("confidence") is not None
        else base_confidence(body["source"]),
        scope=body["scope"],
        scope_id=body.get("scope_id") or "",
        valid_from=datetime.fromisoformat(write["occurred_at"]),
        trigger="explicit",
        is_correction=body.get("corrects") is not None,
        corrects=uuid.UUID(body["corrects"]) if body.get("corrects") else None,
        metadata=body.get("metadata") or {},
        sealed=write.get("sealed", []),
        origin=origin,
    )


@handler(KIND_WRITE)
async def write_memory(rt: Runtime, job: Job) -> dict[str, Any]:
    """Embed the content, arbitrate it, store it. Returns ``{memory_ids, arbitrations,
    arbitrations_total}`` for ``GET /v1/jobs/{id}`` and ``?wait=true``."""
    body = job.payload["body"]
    if body.get("infer"):
        from app.ingest.tasks import ingest_texts

        task_id = body.get("scope_id") if body.get("scope") == "task" else None
        return await ingest_texts(
            rt, job, [body["content"]], job.payload.get("sealed", []), task_id=task_id
        )
    return await embed_and_arbitrate(rt, job, [explicit_candidate(job.payload, job)], actor="api")


@handler(KIND_WRITE_BATCH)
async def write_memories(rt: Runtime, job: Job) -> dict[str, Any]:
    """Store a batch of explicit writes: one embedding call, then arbitration item by item in
    one transaction. Returns the result of ``write_memory`` over every item."""
    candidates = [
        explicit_candidate(write, job, item=i) for i, write in enumerate(job.payload["items"])
    ]
    return await embed_and_arbitrate(rt, job, candidates, actor="api")
