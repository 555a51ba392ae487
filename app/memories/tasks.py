"""Queue jobs: store explicit memories (``infer=false``), one or a batch, through the writer."""

from __future__ import annotations

from typing import Any

from app.db.models import Job
from app.jobs import kinds
from app.jobs.worker import JobContext, handler
from app.memories.service import draft_of_write, outcome_result, writer_for
from app.memories.writer import MemoryDraft, MemoryWriter, embed_drafts
from app.runtime import Runtime


async def embedded_write(rt: Runtime, job: Job) -> list[MemoryDraft]:
    """The job's one draft, embedded: the ``prepare`` step, run before the job's unit of
    work opens its session, so the user lock is never held across the embedding call."""
    drafts = [draft_of_write(job.payload, job.id)]
    await embed_drafts(rt.embedder, drafts)
    return drafts


async def embedded_batch(rt: Runtime, job: Job) -> list[MemoryDraft]:
    """The batch's drafts, embedded in one provider call before the unit of work (see
    ``embedded_write``)."""
    drafts = [draft_of_write(write, job.id, item=i) for i, write in enumerate(job.payload["items"])]
    await embed_drafts(rt.embedder, drafts)
    return drafts


@handler(kinds.WRITE, prepare=embedded_write)
async def write_memory(ctx: JobContext) -> dict[str, Any]:
    """Store one explicit write (embedded by ``embedded_write``). Returns ``{memory_ids,
    arbitrations, arbitrations_total}`` for ``GET /v1/jobs/{id}`` and ``?wait=true``."""
    writer = writer_for(
        ctx.rt, ctx.session, ctx.job.tenant_id, ctx.job.user_id, "api", ctx.job.request_id
    )
    result = outcome_result(await writer.write(ctx.prepared))
    await archive_in_ended_sessions(writer, ctx.prepared)
    return result


async def archive_in_ended_sessions(writer: MemoryWriter, drafts: list[MemoryDraft]) -> None:
    """Archive what the drafts left in the scope of a session that was ended after the write
    was accepted (reason ``session_ended``, as POST …/sessions/{id}/end does). Runs under the
    writer's lock, after the writes: an end that committed first is seen here, one that comes
    later archives these rows itself."""
    ids = [d.scope_id for d in drafts if d.scope == "session" and d.scope_id]
    for session_id in await writer.repo.ended_sessions(list(dict.fromkeys(ids))):
        await writer.archive_scope(
            "session", session_id, {"reason": "session_ended", "session_id": session_id}
        )


@handler(kinds.WRITE_BATCH, prepare=embedded_batch)
async def write_memories(ctx: JobContext) -> dict[str, Any]:
    """Store a batch of explicit writes: one embedding call before the unit of work
    (``embedded_batch``), then arbitration item by item in the job's transaction, under the
    user's locks. Returns the result of ``write_memory`` over every item."""
    writer = writer_for(
        ctx.rt, ctx.session, ctx.job.tenant_id, ctx.job.user_id, "api", ctx.job.request_id
    )
    result = outcome_result(await writer.write(ctx.prepared))
    await archive_in_ended_sessions(writer, ctx.prepared)
    return result
