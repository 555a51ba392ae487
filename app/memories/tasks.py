"""Queue jobs: store explicit memories (``infer=false``), one or a batch, through the writer."""

from __future__ import annotations

from typing import Any

from app.jobs import kinds
from app.jobs.worker import JobContext, handler
from app.memories.service import draft_of_write, outcome_result, writer_for


@handler(kinds.WRITE)
async def write_memory(ctx: JobContext) -> dict[str, Any]:
    """Store one explicit write. Returns ``{memory_ids, arbitrations, arbitrations_total}``
    for ``GET /v1/jobs/{id}`` and ``?wait=true``."""
    writer = writer_for(
        ctx.rt, ctx.session, ctx.job.tenant_id, ctx.job.user_id, "api", ctx.job.request_id
    )
    outcomes = await writer.write([draft_of_write(ctx.job.payload, ctx.job.id)])
    return outcome_result(outcomes)


@handler(kinds.WRITE_BATCH)
async def write_memories(ctx: JobContext) -> dict[str, Any]:
    """Store a batch of explicit writes: one embedding call, then arbitration item by item in
    the job's transaction. Returns the result of ``write_memory`` over every item."""
    writer = writer_for(
        ctx.rt, ctx.session, ctx.job.tenant_id, ctx.job.user_id, "api", ctx.job.request_id
    )
    drafts = [
        draft_of_write(write, ctx.job.id, item=i)
        for i, write in enumerate(ctx.job.payload["items"])
    ]
    return outcome_result(await writer.write(drafts))
