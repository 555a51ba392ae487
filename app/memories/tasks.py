"""Queue job: store an explicit memory (``infer=false``) through arbitration."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from app.arbitration.service import ArbitrationService, Candidate
from app.db.models import Job
from app.jobs.worker import handler, hold_job_row, mark_done
from app.memories.repository import MemoryRepository
from app.memories.service import KIND_WRITE, base_confidence, outcome_result
from app.privacy.protect import embedding_text
from app.runtime import Runtime

KIND = KIND_WRITE


@handler(KIND)
async def write_memory(rt: Runtime, job: Job) -> dict[str, Any]:
    """Embed the content, arbitrate it, store it. Returns ``{memories: [...], arbitrations: [...]}``
    (ids and decisions) for ``GET /v1/jobs/{id}`` and ``?wait=true``."""
    body = job.payload["body"]
    if body.get("infer"):
        from app.ingest.tasks import ingest_texts

        task_id = body.get("scope_id") if body.get("scope") == "task" else None
        return await ingest_texts(
            rt, job, [body["content"]], job.payload.get("sealed", []), task_id=task_id
        )
    [embedding] = await rt.embedder.embed_passages([embedding_text(body["content"])])
    cand = Candidate(
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
        valid_from=datetime.fromisoformat(job.payload["occurred_at"]),
        trigger="explicit",
        metadata=body.get("metadata") or {},
        sealed=job.payload.get("sealed", []),
        origin={"job_id": str(job.id)},
        embedding=embedding,
        embedding_model=rt.embedder.model,
    )
    async with rt.scoped(job.tenant_id, job.user_id) as session:
        row = await hold_job_row(session, job)
        repo = MemoryRepository(session, job.tenant_id, job.user_id)
        outcome = await ArbitrationService(repo, actor="api", request_id=job.request_id).apply(cand)
        result = outcome_result([outcome])
        mark_done(row, result)
        await session.commit()
    return result
