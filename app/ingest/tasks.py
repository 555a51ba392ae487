"""Queue jobs: extract facts from conversation turns (or an explicit write with
``infer=true``) and store them through the memory writer, in the job's one transaction."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.arbitration.service import normalize_text
from app.db.models import Job
from app.ingest.episodes import episode_draft, inherited_half_life, is_episode, with_context
from app.ingest.extraction.base import ExtractedFact, Turn
from app.ingest.repository import ConversationRepository, to_turn
from app.jobs import kinds
from app.jobs.intake import JobIntake
from app.jobs.worker import JobContext, handler
from app.kit.metrics import EXTRACTED_FACTS
from app.memories.service import outcome_result, writer_for
from app.memories.writer import MemoryDraft
from app.privacy.protect import owner_of
from app.runtime import Runtime
from app.tasks.service import fill_task_slots

KIND = kinds.INGEST
TASK_KEY_PREFIXES = ("project.", "task.")


def to_draft(
    fact: ExtractedFact,
    *,
    occurred_at: datetime,
    session_id: str | None,
    task_id: str | None,
    job_id: uuid.UUID,
    metadata: dict[str, Any],
) -> MemoryDraft:
    """An extracted fact (clear text) as the writer's draft, with its origin and defaults.
    ``metadata`` is what the fact's messages carried; the fact's own metadata wins."""
    # Said inside a task, decisions and project facts belong to that task, never to others.
    in_task = fact.scope == "task" or (fact.key or "").startswith(TASK_KEY_PREFIXES)
    scope, scope_id = ("task", task_id) if in_task and task_id else ("user", "")
    origin: dict[str, Any] = {"job_id": str(job_id), "message_ids": fact.message_ids}
    if session_id:
        origin["session_id"] = session_id
        origin["sessions"] = [session_id]
    if task_id:
        origin["task_id"] = task_id
    return MemoryDraft(
        content=fact.content,
        type=fact.type,
        key=fact.key,
        value=fact.value,
        source=fact.source,
        confidence=fact.confidence,
        scope=scope,
        scope_id=scope_id,
        valid_from=fact.valid_from or occurred_at,
        valid_to=fact.valid_to,
        trigger="extraction",
        is_correction=fact.is_correction,
        retracts=list(fact.retracts),
        origin=origin,
        metadata={
            **metadata,
            **fact.metadata,
            **({"inferred": True} if fact.source == "model_inferred" else {}),
        },
        secret_kind="secret" if fact.metadata.get("sensitivity") == "secret" else None,
    )


async def store_facts(
    ctx: JobContext,
    facts: list[ExtractedFact],
    *,
    occurred_at: dict[str, datetime],
    metadata: dict[str, dict[str, Any]],
    default_at: datetime,
    session_id: str | None,
    task_id: str | None,
    episodes: Sequence[tuple[str, MemoryDraft]] = (),
) -> dict[str, Any]:
    """Write the episodes (``(message id, draft)``), then the facts, through the memory
    writer, in order, in the job's transaction, and link each episode with the facts formed
    from its message, both ways. ``occurred_at`` / ``metadata`` are per message id. Returns
    ``outcome_result`` of the facts, plus ``episode_ids``: the episodes stored or refreshed."""
    rt, job = ctx.rt, ctx.job
    drafts = []
    for fact in facts:
        EXTRACTED_FACTS.labels(rt.extractor.name, fact.type).inc()
        at = max((occurred_at[m] for m in fact.message_ids if m in occurred_at), default=default_at)
        carried: dict[str, Any] = {}
        for m in fact.message_ids:
            carried.update(metadata.get(m) or {})
        drafts.append(
            to_draft(
                fact,
                occurred_at=at,
                session_id=session_id,
                task_id=task_id,
                job_id=job.id,
                metadata=carried,
            )
        )
    writer = writer_for(
        rt,
        ctx.session,
        job.tenant_id,
        job.user_id,
        "extractor:" + rt.extractor.name,
        job.request_id,
    )
    kept = await writer.write([d for _, d in episodes]) if episodes else []
    # One outcome per admitted draft: a policy that drops some leaves the turns unlinked.
    by_message = (
        {mid: o.memories[0] for (mid, _), o in zip(episodes, kept, strict=True)}
        if len(kept) == len(episodes)
        else {}
    )
    for fact, draft in zip(facts, drafts, strict=True):
        ids = [str(by_message[m].id) for m in fact.message_ids if m in by_message]
        if ids:
            draft.origin["episode_ids"] = list(dict.fromkeys(ids))
    outcomes = await writer.write(drafts)
    if by_message and len(outcomes) == len(drafts):
        for mid, episode in by_message.items():
            formed = [
                o.memories[0]
                for fact, o in zip(facts, outcomes, strict=True)
                if mid in fact.message_ids
            ]
            # An episode fades no slower than the plans formed from it (a meeting's turn).
            await writer.link_episode(
                episode,
                formed,
                half_life_days=inherited_half_life(rt.settings, episode, formed),
            )
    result = outcome_result(outcomes)
    result["episode_ids"] = list(dict.fromkeys(str(o.memories[0].id) for o in kept))
    return result


@handler(KIND)
async def ingest_messages(ctx: JobContext) -> dict[str, Any]:
    """Extract facts from a stored batch of turns, store them, fill the task's slots, and queue
    the session's compression. Returns ``{memory_ids, arbitrations, arbitrations_total}``."""
    rt, job, session = ctx.rt, ctx.job, ctx.session
    payload = job.payload
    ids = [uuid.UUID(i) for i in payload["message_ids"]]
    messages = await ConversationRepository(session, job.tenant_id, job.user_id).messages(ids)
    task_id = payload.get("task_id")
    session_id = payload["session_id"]
    facts = await extract_clear(
        rt, job, [to_turn(m) for m in messages], [e for m in messages for e in m.sealed], task_id
    )
    owner = owner_of(job.tenant_id, job.user_id)
    conv = ConversationRepository(session, job.tenant_id, job.user_id)
    episodes = []
    for m in messages:
        if m.role != "user":
            continue
        clear = rt.privacy.reveal_all(m.content, m.sealed, owner)
        if not is_episode(clear):
            continue
        draft = episode_draft(
            content=clear,
            message_id=str(m.id),
            occurred_at=m.occurred_at,
            session_id=session_id,
            task_id=task_id,
            job_id=job.id,
            metadata=dict(m.metadata_ or {}),
        )
        if rt.settings.episode_context:
            previous = await conv.previous_message(session_id, m.seq)
            with_context(
                draft,
                previous_id=str(previous.id) if previous is not None else None,
                previous=rt.privacy.reveal_all(previous.content, previous.sealed, owner)
                if previous is not None
                else None,
                local_time=to_turn(m).occurred_at,
            )
        episodes.append((str(m.id), draft))
    result = await store_facts(
        ctx,
        facts,
        occurred_at={str(m.id): m.occurred_at for m in messages},
        metadata={str(m.id): dict(m.metadata_ or {}) for m in messages},
        default_at=max(
            (m.occurred_at for m in messages),
            default=datetime.fromisoformat(payload["received_at"]),
        ),
        session_id=session_id,
        task_id=task_id,
        episodes=episodes,
    )
    if task_id is not None:
        await fill_task_slots(
            session,
            rt.privacy,
            job.tenant_id,
            job.user_id,
            task_id,
            [(f.key, f.value) for f in facts],
        )
    # The window moved: fold what fell out of it into the summary, on the queue.
    await queue_compression(session, job, session_id)
    return result


async def queue_compression(session: AsyncSession, job: Job, session_id: str) -> None:
    await JobIntake(session, job.tenant_id, job.user_id).submit(
        kinds.COMPRESS,
        {"session_id": session_id},
        digest="",
        idempotency_key=None,
        request_id=job.request_id,
    )


@handler(kinds.INFER)
async def infer_memory(ctx: JobContext) -> dict[str, Any]:
    """``infer=true`` on an explicit memory: the (protected) content is one user turn through
    extraction; the write's metadata is carried to the facts formed from it."""
    job = ctx.job
    body = job.payload["body"]
    at = datetime.fromisoformat(job.payload["occurred_at"])
    task_id = body.get("scope_id") if body.get("scope") == "task" else None
    turn_id = f"{job.id}:0"
    turns = [Turn(message_id=turn_id, role="user", content=body["content"], occurred_at=at)]
    facts = await extract_clear(ctx.rt, job, turns, job.payload.get("sealed", []), task_id)
    return await store_facts(
        ctx,
        facts,
        occurred_at={},
        metadata={turn_id: body.get("metadata") or {}},
        default_at=at,
        session_id=None,
        task_id=task_id,
    )


async def extract_clear(
    rt: Runtime,
    job: Job,
    turns: list[Turn],
    pool: list[dict[str, Any]],
    task_id: str | None,
) -> list[ExtractedFact]:
    """Extract facts from stored (protected) turns; returns the facts in clear text, in memory
    only: the memory writer protects them before anything is stored or embedded.

    The offline rule extractor runs in this process and reads the clear text; a remote LLM
    only ever sees the protected text, tokens and masks.
    """
    privacy, owner = rt.privacy, owner_of(job.tenant_id, job.user_id)
    if rt.extractor.name == "rules":
        turns = [replace(t, content=privacy.reveal_all(t.content, pool, owner)) for t in turns]
    facts = await rt.extractor.extract(turns, has_task=task_id is not None)
    for fact in facts:
        fact.content = privacy.reveal_all(fact.content, pool, owner)
        if fact.value:
            fact.value = privacy.reveal_all(fact.value, pool, owner)
    return dedupe(facts)


def dedupe(facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """One fact per (type, key, value, text, scope) in a batch: a sentence repeated inside one
    request is one statement, not several confirmations. Message ids are merged."""
    kept: dict[tuple[Any, ...], ExtractedFact] = {}
    for fact in facts:
        ident = (fact.type, fact.key, fact.value, normalize_text(fact.content), fact.scope)
        if ident in kept:
            first = kept[ident]
            first.message_ids = list(dict.fromkeys([*first.message_ids, *fact.message_ids]))
            continue
        kept[ident] = fact
    return list(kept.values())
