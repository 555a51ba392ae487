"""Queue job: extract facts from conversation turns and arbitrate each into memory."""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.arbitration.service import Candidate, normalize_text
from app.config import Settings
from app.db.models import Job
from app.ingest.extraction.base import ExtractedFact, Turn
from app.ingest.repository import ConversationRepository, to_turn
from app.ingest.window import KIND as COMPRESS_KIND
from app.jobs.repository import JobRepository
from app.jobs.worker import handler
from app.kit.metrics import EXTRACTED_FACTS
from app.kit.time import utcnow
from app.memories.service import base_confidence
from app.memories.tasks import embed_and_arbitrate
from app.privacy.protect import SECRET_KEYS, merge_sealed, owner_of
from app.runtime import Runtime
from app.tasks.repository import TaskRepository
from app.tasks.service import slot_for_key
from app.users.policy import formable
from app.users.service import policy_of

KIND = "messages.ingest"
TASK_KEY_PREFIXES = ("project.", "task.")


def to_candidate(
    fact: ExtractedFact,
    *,
    occurred_at: datetime,
    session_id: str | None,
    task_id: str | None,
    job_id: uuid.UUID,
    settings: Settings,
) -> Candidate:
    """An extracted fact as an arbitration candidate, with its origin and defaults."""
    # Said inside a task, decisions and project facts belong to that task, never to others.
    in_task = fact.scope == "task" or (fact.key or "").startswith(TASK_KEY_PREFIXES)
    scope, scope_id = ("task", task_id) if in_task and task_id else ("user", "")
    origin: dict[str, Any] = {"job_id": str(job_id), "message_ids": fact.message_ids}
    if session_id:
        origin["session_id"] = session_id
        origin["sessions"] = [session_id]
    if task_id:
        origin["task_id"] = task_id
    return Candidate(
        content=fact.content,
        type=fact.type,
        key=fact.key,
        value=fact.value,
        source=fact.source,
        confidence=fact.confidence if fact.confidence is not None else base_confidence(fact.source),
        scope=scope,
        scope_id=scope_id,
        valid_from=fact.valid_from or occurred_at,
        valid_to=fact.valid_to,
        trigger="extraction",
        is_correction=fact.is_correction,
        retracts=list(fact.retracts),
        origin=origin,
        metadata={
            **fact.metadata,
            **({"inferred": True} if fact.source == "model_inferred" else {}),
        },
    )


async def arbitrate_facts(
    rt: Runtime,
    job: Job,
    facts: list[ExtractedFact],
    sealed: list[list[dict[str, Any]]],
    *,
    occurred_at: dict[str, datetime],
    default_at: datetime,
    session_id: str | None,
    task_id: str | None,
    also: Callable[[AsyncSession, list[ExtractedFact]], Awaitable[None]] | None = None,
) -> dict[str, Any]:
    """Embed every fact (one batch), then arbitrate them in order in one transaction; ``also``
    runs in that transaction before the commit (see ``embed_and_arbitrate``)."""
    for fact in facts:
        EXTRACTED_FACTS.labels(rt.extractor.name, fact.type).inc()
    candidates: list[Candidate] = []
    for fact, entries in zip(facts, sealed, strict=True):
        at = max((occurred_at[m] for m in fact.message_ids if m in occurred_at), default=default_at)
        cand = to_candidate(
            fact,
            occurred_at=at,
            session_id=session_id,
            task_id=task_id,
            job_id=job.id,
            settings=rt.settings,
        )
        cand.sealed = entries
        candidates.append(cand)
    # The user's memory mode decides what may be formed (app/users/policy.py).
    async with rt.scoped(job.tenant_id, job.user_id) as session:
        policy = await policy_of(session, job.tenant_id, job.user_id)
    candidates = formable(policy, candidates, session_id)

    async def then(session: AsyncSession) -> None:
        if also is not None:
            await also(session, facts)

    return await embed_and_arbitrate(
        rt, job, candidates, actor="extractor:" + rt.extractor.name, also=then
    )


@handler(KIND)
async def ingest_messages(rt: Runtime, job: Job) -> dict[str, Any]:
    """Extract facts from a stored batch of turns. Returns ``{memory_ids, arbitrations}``."""
    payload = job.payload
    ids = [uuid.UUID(i) for i in payload["message_ids"]]
    async with rt.scoped(job.tenant_id, job.user_id) as session:
        messages = await ConversationRepository(session, job.tenant_id, job.user_id).messages(ids)
    task_id = payload.get("task_id")
    session_id = payload["session_id"]
    facts, sealed = await extract_protected(
        rt, job, [to_turn(m) for m in messages], [e for m in messages for e in m.sealed], task_id
    )

    async def fill_slots_and_compress(session: AsyncSession, facts: list[ExtractedFact]) -> None:
        if task_id is not None:
            await fill_task_slots(session, job, task_id, facts)
        # The window moved: fold what fell out of it into the summary, on the queue.
        await JobRepository(session, job.tenant_id).add_and_enqueue(
            user_id=job.user_id,
            kind=COMPRESS_KIND,
            payload={"session_id": session_id},
            idempotency_key=None,
            request_hash=None,
            request_id=job.request_id,
        )

    return await arbitrate_facts(
        rt,
        job,
        facts,
        sealed,
        occurred_at={str(m.id): m.occurred_at for m in messages},
        default_at=max(
            (m.occurred_at for m in messages),
            default=datetime.fromisoformat(payload["received_at"]),
        ),
        session_id=session_id,
        task_id=task_id,
        also=fill_slots_and_compress,
    )


async def fill_task_slots(
    session: AsyncSession, job: Job, task_id: str, facts: list[ExtractedFact]
) -> None:
    """Facts whose key names a required slot of the open task fill that slot."""
    task = await TaskRepository(session, job.tenant_id, job.user_id).get(task_id, for_update=True)
    if task is None or task.status != "open":
        return
    slots = dict(task.slots)
    for fact in facts:
        slot = slot_for_key(task, fact.key)
        if slot is not None and fact.value:
            slots[slot] = fact.value
    if slots != task.slots:
        task.slots = slots
        task.updated_at = utcnow()


async def ingest_texts(
    rt: Runtime,
    job: Job,
    texts: list[str],
    sealed: list[dict[str, Any]],
    *,
    task_id: str | None,
) -> dict[str, Any]:
    """``infer=true`` on an explicit memory: the (protected) content is one user turn through
    extraction."""
    at = datetime.fromisoformat(job.payload["occurred_at"])
    turns = [
        Turn(message_id=f"{job.id}:{i}", role="user", content=t, occurred_at=at)
        for i, t in enumerate(texts)
    ]
    facts, fact_sealed = await extract_protected(rt, job, turns, sealed, task_id)
    return await arbitrate_facts(
        rt, job, facts, fact_sealed, occurred_at={}, default_at=at, session_id=None, task_id=task_id
    )


async def extract_protected(
    rt: Runtime,
    job: Job,
    turns: list[Turn],
    pool: list[dict[str, Any]],
    task_id: str | None,
) -> tuple[list[ExtractedFact], list[list[dict[str, Any]]]]:
    """Extract facts from stored (protected) turns; returns the facts with their sensitive
    values sealed again, and each fact's sealed entries.

    The offline rule extractor runs in this process and reads the clear text (opened in
    memory only); a remote LLM only ever sees the protected text, tokens and masks.
    """
    privacy, owner = rt.privacy, owner_of(job.tenant_id, job.user_id)
    if rt.extractor.name == "rules":
        turns = [replace(t, content=privacy.reveal_all(t.content, pool, owner)) for t in turns]
    facts = await rt.extractor.extract(turns, has_task=task_id is not None)
    sealed: list[list[dict[str, Any]]] = []
    for fact in facts:
        content = privacy.protect(privacy.reveal_all(fact.content, pool, owner), owner)
        fact.content = content.text
        entries = content.sealed
        if fact.value:
            secret = SECRET_KEYS.get(fact.key or "") or (
                "secret" if fact.metadata.get("sensitivity") == "secret" else None
            )
            value = privacy.protect(
                privacy.reveal_all(fact.value, pool, owner), owner, whole_secret=secret
            )
            fact.value, entries = value.text, merge_sealed(entries, value.sealed)
        sealed.append(entries)
    return dedupe(facts, sealed)


def dedupe(
    facts: list[ExtractedFact], sealed: list[list[dict[str, Any]]]
) -> tuple[list[ExtractedFact], list[list[dict[str, Any]]]]:
    """One fact per (type, key, value, text, scope) in a batch: a sentence repeated inside one
    request is one statement, not several confirmations. Message ids are merged."""
    kept: dict[tuple[Any, ...], int] = {}
    out_facts: list[ExtractedFact] = []
    out_sealed: list[list[dict[str, Any]]] = []
    for fact, entries in zip(facts, sealed, strict=True):
        ident = (fact.type, fact.key, fact.value, normalize_text(fact.content), fact.scope)
        if ident in kept:
            first = out_facts[kept[ident]]
            first.message_ids = list(dict.fromkeys([*first.message_ids, *fact.message_ids]))
            continue
        kept[ident] = len(out_facts)
        out_facts.append(fact)
        out_sealed.append(entries)
    return out_facts, out_sealed
