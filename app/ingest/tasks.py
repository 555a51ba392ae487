"""Queue jobs: extract facts from conversation turns (or an explicit write with
``infer=true``) and store them through the memory writer, in the job's one transaction."""

from __future__ import annotations

import asyncio
import logging
import re
import uuid
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.arbitration.keys import CATALOGUE, KeySpec, key_spec
from app.arbitration.service import PLACE_KEYS, Outcome, normalize_text, same_value
from app.arbitration.values import (
    DENIABLE_KEYS,
    DENIED_KEYS,
    ENDED_KEYS,
    NAMED_PLAN_KEYS,
    abbreviates,
    activity_words,
    denied_values,
    ended_plans,
    ended_values,
    named_by,
    named_plans,
    spelled_alike,
)
from app.db.models import Job, Memory, Message
from app.ingest.episodes import episode_draft, inherited_half_life, is_episode, with_context
from app.ingest.extraction import script, segment, semantic, standing
from app.ingest.extraction.base import ExtractedFact, ExtractionError, Turn
from app.ingest.extraction.cascade import CascadeExtractor, unread_turns
from app.ingest.extraction.cues import Cues, TurnCues, turn_cues
from app.ingest.extraction.filter import is_noise
from app.ingest.extraction.rules import (
    NOW_HOLDS_KEYS,
    addon_content,
    addon_has_subject,
    addon_sentences,
    may_put_right,
    said_in_place,
)
from app.ingest.repository import ConversationRepository, to_turn
from app.ingest.service import archive_session_scope
from app.ingest.session_scope import Formation, formation, shape
from app.ingest.tools import TOOL_UNSTATABLE_KEYS, about_user, as_observed, observation_fact
from app.ingest.window import folding_due
from app.jobs import kinds
from app.jobs.intake import JobIntake
from app.jobs.worker import JobContext, handler
from app.kit.chinese import simplified
from app.kit.metrics import CASCADE_TURNS, EXTRACTED_FACTS
from app.memories.repository import MemoryRepository
from app.memories.schemas import MAX_CONTENT_CHARS, MAX_VALUE_CHARS
from app.memories.service import outcome_result, writer_for
from app.memories.writer import MemoryDraft, MemoryWriter
from app.privacy import detect
from app.privacy.detect import reads_as_credential
from app.privacy.protect import SECRET_KEYS, owner_of
from app.runtime import Runtime
from app.tasks.service import fill_task_slots

log = logging.getLogger(__name__)
_HAN = re.compile(r"[\u4e00-\u9fff]")

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
        secret_kind=str(fact.metadata.get("secret_kind") or "secret")
        if fact.metadata.get("sensitivity") == "secret"
        else None,
    )


def extraction_writer(ctx: JobContext) -> MemoryWriter:
    """The memory writer of a formation job: the job's session, tenant and user, acting as
    ``extractor:<name>``, under the job's request id."""
    rt, job = ctx.rt, ctx.job
    return writer_for(
        rt,
        ctx.session,
        job.tenant_id,
        job.user_id,
        "extractor:" + rt.extractor.name,
        job.request_id,
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
    shaping: Callable[[ExtractedFact, MemoryDraft], MemoryDraft] | None = None,
) -> dict[str, Any]:
    """Write the episodes (``(message id, draft)``), then the facts, through the memory
    writer, in order, in the job's transaction, and link each episode with the facts formed
    from its message, both ways. ``occurred_at`` / ``metadata`` are per message id;
    ``shaping`` changes each fact's draft before it is written (session scope, emphasis).
    Returns ``outcome_result`` of the facts, plus ``episode_ids``: the episodes stored or
    refreshed."""
    rt, job = ctx.rt, ctx.job
    drafts = []
    for fact in facts:
        EXTRACTED_FACTS.labels(rt.extractor.name, fact.type).inc()
        at = max((occurred_at[m] for m in fact.message_ids if m in occurred_at), default=default_at)
        carried: dict[str, Any] = {}
        for m in fact.message_ids:
            carried.update(metadata.get(m) or {})
        draft = to_draft(
            fact,
            occurred_at=at,
            session_id=session_id,
            task_id=task_id,
            job_id=job.id,
            metadata=carried,
        )
        drafts.append(shaping(fact, draft) if shaping is not None else draft)
    writer = extraction_writer(ctx)
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
        # A fact formed from one participant's turns is theirs to lift (docs/recall.md).
        said = [
            (by_message[m].origin or {}).get("speaker") if m in by_message else None
            for m in fact.message_ids
        ]
        if said and all(said) and len(set(said)) == 1:
            draft.origin["speaker"] = said[0]
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


async def _batch(
    rt: Runtime, job: Job, session: AsyncSession
) -> tuple[list[Message], list[Message], list[dict[str, Any]]]:
    """The job's stored turns, the turn said before them when the cascade's model may need it
    as context (none otherwise), and the sealed entries of both."""
    conv = ConversationRepository(session, job.tenant_id, job.user_id)
    messages = await conv.messages([uuid.UUID(i) for i in job.payload["message_ids"]])
    before: list[Message] = []
    if isinstance(rt.extractor, CascadeExtractor) and messages:
        # what the model asked about the batch's first turn may need: the turn said before it
        first = min(m.seq for m in messages)
        previous = await conv.previous_message(job.payload["session_id"], first)
        before = [previous] if previous is not None else []
    return messages, before, [e for m in [*before, *messages] for e in m.sealed]


async def extract_batch(
    rt: Runtime,
    job: Job,
    messages: list[Message],
    before: list[Message],
    pool: list[dict[str, Any]],
) -> list[ExtractedFact]:
    """``extract_clear`` of the job's turns (``_batch``), in clear text."""
    return await extract_clear(
        rt,
        job,
        [to_turn(m) for m in messages],
        pool,
        job.payload.get("task_id"),
        [to_turn(m) for m in before],
    )


async def extracted_by_model(rt: Runtime, job: Job) -> list[ExtractedFact] | None:
    """The prepare step of an ingest job (``handler``): with a chat model in the extractor
    (``llm``, ``cascade``) the turns are read in a short transaction of their own and
    extracted before the job's unit of work takes the user lock, so no erase or write of the
    user waits on the model. None with the rules alone: they run in the unit of work."""
    if rt.extractor.name == "rules":
        return None
    async with rt.scoped(job.tenant_id, job.user_id) as session:
        messages, before, pool = await _batch(rt, job, session)
    return await extract_batch(rt, job, messages, before, pool)


@handler(KIND, prepare=extracted_by_model)
async def ingest_messages(ctx: JobContext) -> dict[str, Any]:
    """Extract facts from a stored batch of turns, store them, fill the task's slots, and queue
    the session's compression. Returns ``{memory_ids, arbitrations, arbitrations_total}``."""
    rt, job, session = ctx.rt, ctx.job, ctx.session
    payload = job.payload
    task_id = payload.get("task_id")
    session_id = payload["session_id"]
    conv = ConversationRepository(session, job.tenant_id, job.user_id)
    messages, before, pool = await _batch(rt, job, session)
    facts = ctx.prepared
    if facts is None:
        facts = await extract_batch(rt, job, messages, before, pool)
    facts = dedupe(facts + await tool_facts(rt, job, messages, pool, task_id))
    owner = owner_of(job.tenant_id, job.user_id)
    facts = await name_taken_back(conv, session_id, messages, facts)
    await seal_restated_secrets(rt, conv, owner, messages, facts)
    seal_formed_secrets(rt, owner, messages, facts)
    facts = await name_ended(MemoryRepository(session, job.tenant_id, job.user_id), facts)
    if runs_rules(rt):
        reveal = lambda text, sealed: rt.privacy.reveal_all(text, sealed, owner)  # noqa: E731
        memories = MemoryRepository(session, job.tenant_id, job.user_id)
        facts = await replace_in_place(memories, messages, facts, reveal)
        facts = await inherit_change_slots(memories, messages, facts, reveal)
        facts = await decisions_redone(conv, memories, session_id, messages, facts, reveal)
        facts = await tastes_turned(conv, memories, session_id, messages, facts, reveal)
        facts = await inherit_changes(conv, memories, session_id, messages, facts, reveal)
        facts = await inherit_addons(conv, memories, session_id, messages, facts, reveal)
    # The user's cues (temporary, emphasis, remember) decide where each fact starts.
    cues, back_refs = user_cues(rt, messages, owner)
    forms = {id(f): formation(f, cues) for f in facts}
    by_message: dict[str, list[Formation]] = {}
    for f in facts:
        for mid in f.message_ids:
            by_message.setdefault(mid, []).append(forms[id(f)])
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
            speaker=m.name,
        )
        draft.known_secrets = known_secrets(rt, owner, m)
        if rt.settings.episode_context:
            previous = await conv.previous_message(session_id, m.seq)
            if previous is not None:
                draft.known_secrets += known_secrets(rt, owner, previous)
            with_context(
                draft,
                previous_id=str(previous.id) if previous is not None else None,
                previous=rt.privacy.reveal_all(previous.content, previous.sealed, owner)
                if previous is not None
                else None,
                local_time=to_turn(m).occurred_at,
            )
        episode_scope(draft, by_message.get(str(m.id), []), cues.get(str(m.id)), session_id)
        episodes.append((str(m.id), draft))
    boost = rt.settings.emphasis_confidence_boost
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
        shaping=lambda fact, draft: shape(
            draft, forms[id(fact)], session_id=session_id, emphasis_boost=boost
        ),
    )
    if back_refs:
        referred = outcome_result(await apply_back_refs(ctx, conv, session_id, back_refs))
        result["memory_ids"] = list(dict.fromkeys(result["memory_ids"] + referred["memory_ids"]))
        result["arbitrations"] += referred["arbitrations"]
        result["arbitrations_total"] += referred["arbitrations_total"]
    chat = await conv.get_session(session_id)
    if chat is not None and chat.ended_at is not None:
        # Turns accepted before the session ended, formed after: nothing stays in its scope.
        await archive_session_scope(
            rt, session, job.tenant_id, job.user_id, session_id, job.request_id
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
    if await folding_due(rt, conv, session_id):
        await queue_compression(session, job, session_id)
    return result


def user_cues(
    rt: Runtime, messages: Sequence[Message], owner: str
) -> tuple[dict[str, TurnCues], list[tuple[Message, Cues]]]:
    """The cues of each user turn (by message id, in clear text), a turn that is nothing but a
    cue ("记住这个") merged into the user turn before it in the batch. Returns the cues and the
    cue-only turns that open the batch (``(message, cues)``): they refer to an earlier turn."""
    out: dict[str, TurnCues] = {}
    back_refs: list[tuple[Message, Cues]] = []
    previous: str | None = None
    for m in messages:
        if m.role != "user":
            continue
        tc = turn_cues(rt.privacy.reveal_all(m.content, m.sealed, owner))
        out[str(m.id)] = tc
        if tc.refers_back is not None:
            if previous is not None:
                before = out[previous]
                before.clauses = [(c, x | tc.refers_back) for c, x in before.clauses]
            elif tc.refers_back.emphasised:
                back_refs.append((m, tc.refers_back))
        previous = str(m.id)
    return out, back_refs


def episode_scope(
    draft: MemoryDraft, formed: list[Formation], cues: TurnCues | None, session_id: str
) -> None:
    """A kept turn whose every fact is tentative — or, without facts, a turn marked
    temporary — stays in the session's scope with them, so its words leave with the session;
    an emphasised turn that formed no fact is pinned itself."""
    if draft.scope == "user":
        tentative = all(f.tentative for f in formed) if formed else bool(cues and cues.temporary)
        if tentative:
            draft.scope, draft.scope_id = "session", session_id
    if not formed and cues is not None and cues.refers_back is None:
        # ("记住这个" alone pins what it refers to, not its own words.)
        said = next((x.emphasised for _, x in cues.clauses if x.emphasised), None)
        if said:
            draft.metadata = {**draft.metadata, "pinned": True, "emphasis": said}


async def tool_facts(
    rt: Runtime,
    job: Job,
    messages: Sequence[Message],
    pool: list[dict[str, Any]],
    task_id: str | None,
) -> list[ExtractedFact]:
    """What the batch's tool turns observed (app/ingest/tools.py): each result as one
    observation, and the facts about the user it states, through the same extractor; all with
    source ``tool_observed`` and ``settings.tool_observed_confidence``."""
    confidence = rt.settings.tool_observed_confidence
    owner = owner_of(job.tenant_id, job.user_id)
    out: list[ExtractedFact] = []
    for m in messages:
        if m.role != "tool":
            continue
        turn = to_turn(m)
        clear = rt.privacy.reveal_all(m.content, m.sealed, owner)
        observed = observation_fact(str(m.id), m.name, clear, confidence)
        if observed is not None:
            out.append(observed)
        stated = about_user(turn)
        if stated is not None:
            for fact in await extract_clear(rt, job, [stated], pool, task_id):
                if fact.key in TOOL_UNSTATABLE_KEYS:
                    continue
                out.append(as_observed(fact, m.name, confidence))
    return out


async def apply_back_refs(
    ctx: JobContext,
    conv: ConversationRepository,
    session_id: str,
    back_refs: list[tuple[Message, Cues]],
) -> list[Outcome]:
    """A turn that only says "记住" / "remember that" / "别忘了" about the user's previous
    turn (sent in an earlier batch): the facts formed from that turn are said again through the
    writer with the cue — promoted from the session's scope when asked to remember, pinned and
    more confident when emphasised (arbitration refreshes each: rule ``duplicate`` or
    ``session_layer``)."""
    rt, job = ctx.rt, ctx.job
    owner = owner_of(job.tenant_id, job.user_id)
    writer = extraction_writer(ctx)
    outcomes: list[Outcome] = []
    for m, cue in back_refs:
        previous = await conv.previous_message(session_id, m.seq, role="user")
        if previous is None:
            continue
        drafts = []
        for old in await writer.repo.active_formed_from(str(previous.id)):
            draft = MemoryDraft(
                content=rt.privacy.reveal_all(old.content, old.sealed, owner),
                type=old.type,
                source=old.source,
                valid_from=old.valid_from,
                scope=old.scope,
                scope_id=old.scope_id,
                key=old.key,
                value=rt.privacy.reveal_all(old.value, old.sealed, owner) if old.value else None,
                confidence=old.confidence,
                trigger="extraction",
                origin={
                    "job_id": str(job.id),
                    "message_ids": [str(m.id)],
                    "session_id": session_id,
                    "sessions": [session_id],
                },
            )
            drafts.append(
                shape(
                    draft,
                    Formation(tentative=None, cues=cue),
                    session_id=session_id if old.scope == "session" else None,
                    emphasis_boost=rt.settings.emphasis_confidence_boost,
                )
            )
            if cue.remember is not None and old.scope == "session":
                draft.promote_now = True
        if drafts:
            outcomes += await writer.write(drafts)
    return outcomes


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
    # An emphasis pins here too ("记住，…"); without a session nothing is tentative.
    cues = {turn_id: turn_cues(body["content"])}
    boost = ctx.rt.settings.emphasis_confidence_boost
    return await store_facts(
        ctx,
        facts,
        occurred_at={},
        metadata={turn_id: body.get("metadata") or {}},
        default_at=at,
        session_id=None,
        task_id=task_id,
        shaping=lambda fact, draft: shape(
            draft, formation(fact, cues), session_id=None, emphasis_boost=boost
        ),
    )


def runs_rules(rt: Runtime) -> bool:
    """True if the service's extractor runs the offline rules in this process (``rules`` and
    ``cascade``): they read the clear text, and their readings are completed from the
    conversation (``inherit_changes`` and the steps beside it)."""
    return rt.extractor.name in ("rules", "cascade")


async def extract_clear(
    rt: Runtime,
    job: Job,
    turns: list[Turn],
    pool: list[dict[str, Any]],
    task_id: str | None,
    before: Sequence[Turn] = (),
) -> list[ExtractedFact]:
    """Extract facts from stored (protected) turns; returns the facts in clear text, in memory
    only: the memory writer protects them before anything is stored or embedded.

    The offline rule extractor runs in this process and reads the clear text; a remote LLM
    only ever sees the protected text, tokens and masks. ``before``: the session's turns
    before ``turns`` (protected), context for the cascade's model only.
    """
    privacy, owner = rt.privacy, owner_of(job.tenant_id, job.user_id)
    has_task = task_id is not None
    clear = turns
    if runs_rules(rt):
        clear = [replace(t, content=privacy.reveal_all(t.content, pool, owner)) for t in turns]
    if isinstance(rt.extractor, CascadeExtractor):
        try:
            facts = await rt.extractor.extract(clear, has_task=has_task, shown=turns, before=before)
        except ExtractionError:
            if job.attempts < rt.settings.job_max_attempts:
                raise  # retried: the model may answer next time
            # the last attempt: what the rules read is formed all the same, and the turns the
            # model was to read stay as the episodes they are
            facts = await rt.extractor.rules.extract(clear, has_task=has_task)
            unread = len(unread_turns(clear, facts))
            CASCADE_TURNS.labels("model_failed").inc(unread)
            log.warning(
                "cascade: the model failed on the job's last attempt; %d turn(s) formed by"
                " the rules alone",
                unread,
                extra={"job_id": str(job.id)},
            )
    else:
        facts = await rt.extractor.extract(clear, has_task=has_task)
    for fact in facts:
        # in what a model answered, a mask stands for its secret only in the value of a fact
        # that holds a secret, which the writer seals; its sentence keeps the mask: a model
        # that says "uses ****** for the router too" never gets the password put back into
        # what is stored as it is (the rules' own masks are theirs, and filled as ever)
        model = rt.extractor.name == "llm" or fact.metadata.get("formed_by") == "llm"
        holds = fact.key in SECRET_KEYS or fact.metadata.get("sensitivity") == "secret"
        fact.content = privacy.reveal_all(fact.content, pool, owner, secrets=not model)
        if fact.value:
            fact.value = privacy.reveal_all(fact.value, pool, owner, secrets=holds or not model)
    secrets = [e["value"] for e in privacy.open_secrets(pool, owner)]
    return dedupe(
        [
            f
            for f in facts
            if not leaks_a_secret(f, secrets)
            # within the API's limits once the values are back (a model's answer was cut to
            # them before, with the tokens in place)
            and len(f.content) <= MAX_CONTENT_CHARS
            and len(f.value or "") <= MAX_VALUE_CHARS
        ]
    )


# A value this short is too common to say it came from a secret ("88" in "MoonLight#88").
MIN_LEAK_CHARS = 3


def _letters_and_digits(text: str) -> str:
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def leaks_a_secret(fact: ExtractedFact, secrets: Sequence[str]) -> bool:
    """Whether ``fact`` would keep part of a secret of its turns as an ordinary value: a fact
    of a key that is not secret (``SECRET_KEYS``) nor marked secret, whose value, compared in
    letters and digits without case, lies inside one of ``secrets`` ("sk-proj-AbCd…" read as
    the tool "abcd…", "MoonLight#88" as "moonlight"). Such a fact is not formed: the secret is
    stored only sealed."""
    if not fact.value or fact.key in SECRET_KEYS or fact.metadata.get("sensitivity") == "secret":
        return False
    value = _letters_and_digits(fact.value)
    return len(value) >= MIN_LEAK_CHARS and any(value in _letters_and_digits(s) for s in secrets)


async def name_taken_back(
    conv: ConversationRepository,
    session_id: str,
    messages: Sequence[Message],
    facts: list[ExtractedFact],
) -> list[ExtractedFact]:
    """``facts``, where a fact that takes back what the user just said
    (``metadata["takes_back"]``) names the user's previous turn of the session
    (``metadata["takes_back_message"]``; small talk such as "thanks!" and questions between
    are passed over, up to three turns back), so arbitration withdraws what that turn formed.
    With no previous turn, a fact of the user's own is kept as it is, and so is a name spelled
    out ("Catherine with a C", ``metadata["spelled"]``: arbitration looks for the name among
    the user's); a record that only takes back ("I take that back", "it's Leo, not Liam") is
    left out: it withdraws nothing, and names no key."""
    seq_of = {str(m.id): m.seq for m in messages}
    kept = []
    for fact in facts:
        elliptic = fact.metadata.pop("elliptic", False)
        if fact.metadata.pop("takes_back", False):
            seq = seq_of.get(fact.message_ids[0]) if fact.message_ids else None
            if elliptic and seq is not None:
                # "Not really." answering the assistant's question takes back nothing the
                # user said: a denial that names nothing is of the message right before it
                before = await conv.previous_message(session_id, seq)
                if before is None or before.role != "user":
                    continue
            previous = None
            for _ in range(3):  # past small talk ("thanks!") to what the user stated
                if seq is None:
                    break
                previous = await conv.previous_message(session_id, seq, role="user")
                # "Based in Leeds.": a turn with no word of the user's still states a fact;
                # only questions and small talk are passed over
                if previous is None or not is_noise(previous.content):
                    break
                seq = previous.seq
            if previous is None:
                if fact.key is None and not fact.retracts and not fact.metadata.get("spelled"):
                    continue
                fact.metadata.pop("takes_back_topic", None)
            else:
                fact.metadata["takes_back_message"] = str(previous.id)
        kept.append(fact)
    return kept


async def seal_restated_secrets(
    rt: Runtime,
    conv: ConversationRepository,
    owner: str,
    messages: Sequence[Message],
    facts: list[ExtractedFact],
) -> None:
    """A value said in place of a secret the user just misstated ("My wifi password is
    tulip-4471" → "Sorry, I meant tulip-4417") is a secret of the same kind: its fact is
    marked secret (the writer seals its value as a whole, and arbitration lets it replace
    that secret, ``values._misstated``), and its turn is stored again with the value sealed,
    so that neither the message, the session's window and summary nor the turn's episode
    keep it in clear. A value is taken for the misstated secret when the turn it takes back
    (``metadata["takes_back_message"]``, ``name_taken_back``) holds exactly one secret and the
    value reads as a credential (``detect.reads_as_credential``: a digit or a symbol) or is
    spelled like that secret (``values.spelled_alike``). Changes ``facts`` and ``messages`` in
    place; the job's unit of work stores the messages."""
    by_id = {str(m.id): m for m in messages}
    for fact in facts:
        taken_back = fact.metadata.get("takes_back_message")
        if not (fact.metadata.get("in_place") and fact.value and taken_back):
            continue
        previous = await conv.messages([uuid.UUID(str(taken_back))])
        secrets = known_secrets(rt, owner, previous[0]) if previous else []
        if len(secrets) != 1:
            continue
        old, kind = secrets[0]
        if not (reads_as_credential(fact.value) or spelled_alike(old, fact.value)):
            continue
        fact.metadata["sensitivity"], fact.metadata["secret_kind"] = "secret", kind
        for m in (by_id[i] for i in fact.message_ids if i in by_id):
            clear = rt.privacy.reveal_all(m.content, m.sealed, owner)
            stored = rt.privacy.protect(clear, owner, known=[(fact.value, kind)])
            m.content, m.sealed = stored.text, stored.sealed


def seal_formed_secrets(
    rt: Runtime, owner: str, messages: Sequence[Message], facts: list[ExtractedFact]
) -> None:
    """A secret a fact holds (``SECRET_KEYS``) that its turn still shows in clear — said apart
    from its kind ("I changed my password, the new one is tiger77"), where detection alone does
    not find it — is sealed in the turn too, with the secrets the turn already seals, so that
    neither the message, the session's window and summary nor the turn's episode keep it in
    clear. Changes ``messages`` in place; the job's unit of work stores them."""
    by_id = {str(m.id): m for m in messages}
    for fact in facts:
        kind = SECRET_KEYS.get(fact.key or "")
        if kind is None or not fact.value:
            continue
        for m in (by_id[i] for i in fact.message_ids if i in by_id):
            clear = rt.privacy.reveal_all(m.content, m.sealed, owner)
            if fact.value not in m.content or fact.value not in clear:
                continue  # sealed already (the stored text shows only its mask)
            known = [*known_secrets(rt, owner, m), (fact.value, kind)]
            stored = rt.privacy.protect(clear, owner, known=known)
            m.content, m.sealed = stored.text, stored.sealed


def known_secrets(rt: Runtime, owner: str, message: Message) -> list[tuple[str, str]]:
    """``[(value, kind)]`` of the secrets sealed in a stored message, opened in memory."""
    return [(e["value"], e["kind"]) for e in rt.privacy.open_secrets(message.sealed, owner)]


async def name_ended(repo: MemoryRepository, facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """``facts``, where a record of something ended (``metadata["ended"]``: the texts that say
    so, ``rules._ended``; ``metadata["denied"]``: what the user says they are not) retracts
    the user's active values those texts name (``values.ended_values``, ``denied_values``),
    under their key when they share one; with none named it is left
    out: it ends nothing, and its words stay in the turn's episode. Reads without locks,
    before the write lock: arbitration matches the retracted values again under it."""
    kept = []
    olds: list[Memory] | None = None
    for fact in facts:
        texts: list[str] | None = fact.metadata.pop("ended", None)  # type: ignore[assignment]
        denials: list[str] = fact.metadata.pop("denied", None) or []  # type: ignore[assignment]
        names: list[str] = fact.metadata.pop("named", None) or []  # type: ignore[assignment]
        denying: list[str] = fact.metadata.pop("denying", None) or []  # type: ignore[assignment]
        if texts is None:
            kept.append(fact)
            continue
        if olds is None:
            read = [*ENDED_KEYS, *DENIED_KEYS, *NAMED_PLAN_KEYS, *DENIABLE_KEYS]
            read = list(dict.fromkeys(read))
            olds = await repo.active_with_keys(read, "user", "", lock=False)
        said = [f.value for f in facts if f.value and f is not fact]
        covered = {r.lower() for f in facts for r in f.retracts}
        found = [
            *ended_values(olds, texts, said),
            *denied_values(olds, denials),
            *named_plans(olds, names, said),
            *ended_plans(olds, texts, said),
            *ended_values([m for m in olds if m.key in DENIABLE_KEYS], denying, said),
        ]
        ended = [v for v in dict.fromkeys(found) if v.lower() not in covered]
        if not ended:
            if fact.metadata.get("takes_back_message") or fact.retracts:
                # "其实不太会啦": it takes back the previous turn's ability; a withdrawal of the
                # same words merged into it (``dedupe``) retracts what it names itself
                kept.append(fact)
            continue
        keys = {m.key for m in olds if m.value in ended}
        if len(keys) == 1:
            fact.key = keys.pop()
            spec = key_spec(fact.key)
            fact.type = spec.type if spec else fact.type  # type: ignore[assignment]
        fact.retracts = list(dict.fromkeys([*fact.retracts, *ended]))
        kept.append(fact)
    return kept


@dataclass(slots=True)
class _Stated:
    """A fact of an earlier turn, in clear text: what an add-on can inherit."""

    key: str
    type: str
    value: str | None
    content: str


async def _stated_before(
    conv: ConversationRepository,
    repo: MemoryRepository,
    session_id: str,
    message: Message,
    batch: list[ExtractedFact],
    reveal: Callable[[str, list[dict[str, Any]]], str],
) -> list[_Stated]:
    """What the user's previous turn of the session formed (a turn that formed nothing, such
    as "thanks!", is passed over, up to three turns back): from this batch's facts when that
    turn is in it, else the active memories formed from it."""
    async for previous in _previous_turns(conv, session_id, message):
        pid = str(previous.id)
        here = [f for f in batch if pid in f.message_ids and f.key]
        if here:
            return [_Stated(f.key or "", f.type, f.value, f.content) for f in here]
        stored = [m for m in await repo.active_formed_from(pid) if m.key]
        if stored:
            return [
                _Stated(
                    m.key or "",
                    m.type,
                    reveal(m.value, m.sealed) if m.value else None,
                    reveal(m.content, m.sealed),
                )
                for m in stored
            ]
    return []


async def _previous_turns(
    conv: ConversationRepository, session_id: str, message: Message, most: int = 3
) -> AsyncIterator[Message]:
    """The user's turns of the session before ``message``, the nearest first, ``most`` at
    most."""
    seq = message.seq
    for _ in range(most):
        previous = await conv.previous_message(session_id, seq, role="user")
        if previous is None:
            return
        yield previous
        seq = previous.seq


def _of_sentence(fact: ExtractedFact, sentence: str) -> bool:
    """Whether ``fact`` was formed from ``sentence`` of its turn: its value, or the start of
    its content, is in the sentence."""
    said = simplified(sentence).lower()
    if fact.value:
        return simplified(fact.value).lower() in said
    head = normalize_text(fact.content)[:6]
    return bool(head) and head in normalize_text(sentence)


def _addon_fact(
    sentence: str, said: str, earlier: list[_Stated], own: list[ExtractedFact], mid: str
) -> ExtractedFact | None:
    """The fact an add-on sentence forms under the key of a fact of the previous turn: the
    first such key its words give a value of that the previous turn did not hold
    (``semantic.addon_value``); else, when that turn formed one key only and the sentence
    names a thing without a clause of its own (``semantic.addon_elliptical``; a routine
    without a subject; a rule for the assistant), the sentence as the content under that key
    (a routine's or a rule's value as well). ``None`` when neither. A number or an address
    is looked for in the whole turn ``said`` ("座机也留一个吧，010-6655 7788")."""
    keys = list(dict.fromkeys(e.key for e in earlier))
    if semantic.is_negated(sentence):  # "也不吃甜" after "我喜欢吃辣" is no second liking
        keys = [k for k in keys if k in semantic.NEGATIVE_KEYS]
    elif semantic.states_liking(sentence):  # "还有我喜欢喝豆浆" after "我不喝牛奶" avoids nothing
        keys = [k for k in keys if k not in ("diet.avoid", "preference.dislikes")]
    if "assistant.constraint" in keys and standing.is_one_off(sentence):
        keys.remove("assistant.constraint")  # "Also, translate this into French: …"
    if not keys:
        return None
    for key in keys:
        held = {(e.value or "").lower() for e in earlier if e.key == key}
        value = semantic.addon_value(key, said if key.startswith("contact.") else sentence)
        if not value or value.lower() in held:
            continue
        if any(f.key == key and same_value(f.value, value) for f in own):
            return None
        content = next(
            (
                re.sub(re.escape(e.value), value, e.content, count=1, flags=re.I)
                for e in earlier
                if e.key == key and e.value and e.value.lower() in e.content.lower()
            ),
            semantic.describe(key, value, bool(_HAN.search(value))),
        )
        return _inherited(earlier, key, value, content, mid)
    if len(keys) != 1 or keys[0] in semantic.ADDON_NAMED:
        return None
    key = keys[0]
    if key == "assistant.constraint":
        if addon_has_subject(sentence) and not semantic.addresses_assistant(sentence):
            return None
    elif key not in semantic.ADDON_SENTENCE and not semantic.addon_elliptical(sentence):
        return None  # "that's also why I carry an EpiPen" is no allergy
    elif addon_has_subject(sentence):
        return None
    # a routine or a rule is its words: they are the value too, as they are of a routine or a
    # rule said in full (a keyed fact without a value would read as the record of a
    # withdrawal); of another key the sentence is no value
    said_again = addon_content(sentence)
    value = said_again if key in semantic.ADDON_SENTENCE else None
    return _inherited(earlier, key, value, said_again, mid)


def _inherited(
    earlier: list[_Stated], key: str, value: str | None, content: str, mid: str
) -> ExtractedFact:
    spec = key_spec(key)
    kind = spec.type if spec else next(e.type for e in earlier if e.key == key)
    return ExtractedFact(
        type=kind,  # type: ignore[arg-type]
        content=content,
        key=key,
        value=value,
        message_ids=[mid],
        metadata={
            "formed_by": "addon",
            **({"sensitivity": "personal"} if key.startswith("contact.") else {}),
        },
    )


async def inherit_changes(
    conv: ConversationRepository,
    repo: MemoryRepository,
    session_id: str,
    messages: Sequence[Message],
    facts: list[ExtractedFact],
    reveal: Callable[[str, list[dict[str, Any]]], str],
) -> list[ExtractedFact]:
    """``facts``, where a name said as what holds now without a predicate of its own ("Portland
    now." after "I live in Denver", "ended up at Stripe" after "I work at Google";
    ``metadata["now_holds"]``, ``rules._now_holds``) takes the key of the fact it replaces:
    the one key of the user's previous turn it can be (``rules.NOW_HOLDS_KEYS``, by the
    preposition before it); when no earlier turn of the session formed a keyed fact, and the
    turn says the change ("now", "ended up at"), the one such key the user holds an active
    value of. A name whose key stays unclear is left out: it forms nothing."""
    out: list[ExtractedFact] = []
    for fact in facts:
        prep = fact.metadata.pop("now_holds", None)
        strong = fact.metadata.pop("strong", False)
        rekey = fact.metadata.pop("rekey", None)
        if prep is None and not isinstance(rekey, list):
            out.append(fact)
            continue
        message = next((m for m in messages if str(m.id) in fact.message_ids), None)
        if message is None or not fact.value:
            if prep is None:
                out.append(fact)
            continue
        earlier = await _stated_before(conv, repo, session_id, message, facts, reveal)
        if isinstance(rekey, list):
            # "Transferred to Roosevelt High" (a guess: a school) after "I teach at Lincoln
            # High": the name takes the key of what the turn before held, when it says one
            _rekeyed(fact, earlier, facts, *map(str, rekey))
        if prep is None:
            out.append(fact)
            continue
        allowed = NOW_HOLDS_KEYS.get(str(prep), ())
        if prep == "" and (instead := fact.metadata.get("instead_of")):
            # "不是X，是Y": Y takes the key of the fact of X, not of whatever the turn before
            # held ("不是北京烤鸭，是南京盐水鸭" after "我住在北京" names no city)
            said_not = [str(w) for w in instead] if isinstance(instead, list) else []
            earlier = [e for e in earlier if e.value and named_by(said_not, e.value, exact=True)]
            # the value denied names the fact exactly, and the turn says of the user what kind
            # of thing it is: that key too ("过敏的是头孢，不是青霉素" after "我对青霉素过敏";
            # not "药店缺货的是头孢，不是青霉素", nor "my son's allergy is to amoxicillin…")
            if not (semantic.someone_elses(fact.content) or semantic.family_subject(fact.content)):
                allowed = (
                    *allowed,
                    *(k for k, kind in _CONTRASTED_KEYS.items() if kind.search(fact.content)),
                )
        if prep == "doing":
            # "Walking the dog at 6 now." after "I walk the dog at 7am": the routine of the
            # turn before, done another way, when it names most of the same doing
            words = activity_words(fact.value)
            if not any(
                e.key == "schedule.habit"
                and 2 * len(words & activity_words(f"{e.content} {e.value or ''}")) > len(words)
                for e in earlier
            ):
                continue
            fact.key, fact.type = "schedule.habit", "preference"
            fact.metadata["moved"] = {"away": [], "words": [], "rest": "", "instead": False}
            out.append(fact)
            continue
        keys = list(dict.fromkeys(e.key for e in earlier if e.key in allowed))
        if not earlier and strong:
            held = await repo.active_with_keys(list(allowed), "user", "", lock=False)
            keys = list(dict.fromkeys(m.key for m in held if m.key and m.value))
        if len(keys) != 1:
            continue
        if keys[0] not in _PLACE_KEYS and segment.is_place(fact.value):
            # "成都那个出差取消了，改成下个月去杭州了" after "现在改喝茶": a place is no drink
            continue
        spec = _take_key(fact, keys[0], fact.value)
        if spec is not None and spec.cardinality == "multi" and fact.metadata.get("instead_of"):
            # "过敏的是头孢，不是青霉素": only the value denied is put right
            fact.retracts = [e.value for e in earlier if e.key == keys[0] and e.value]
        elif spec is not None and spec.cardinality == "multi":
            fact.metadata["replaces"] = True  # "Mac now.": it took the others' place
        out.append(fact)
    return out


# the keys beside ``NOW_HOLDS_KEYS[""]`` whose value a contrast may put right when it names
# the stored value exactly ("不是X，是Y") and says what kind of thing it is
_CONTRASTED_KEYS = {
    "health.allergy": re.compile(r"过敏|敏感|\ballerg|\breact", re.I),
    "health.condition": re.compile(r"病|症|炎|诊断|\b(?:diagnos|condition)", re.I),
    "diet.avoid": re.compile(r"不吃|不喝|忌口|不能吃|\b(?:can'?t eat|avoid|don'?t eat)\b", re.I),
    "diet.style": re.compile(r"吃素|素食|\b(?:diet|vegan|vegetarian)\b", re.I),
    "preference.likes": re.compile(r"喜欢|爱|\b(?:like|love|into)\b", re.I),
    "preference.dislikes": re.compile(r"讨厌|不喜欢|\b(?:hate|dislike|can'?t stand)\b", re.I),
    "hometown": re.compile(r"老家|家乡|\b(?:hometown|grew up|from)\b", re.I),
    "work.role": re.compile(r"职位|工作是|岗位|\b(?:job|role|title|work as)\b", re.I),
    "language.preferred": re.compile(r"语|\blanguage\b", re.I),
    "name.nickname": re.compile(r"叫我|名字|\b(?:call me|name)\b", re.I),
    "pets.name": re.compile(r"[猫狗]|宠物|\b(?:cat|dog|pet)\b", re.I),
}


# the keys a place's name can be the value of
_PLACE_KEYS = (*PLACE_KEYS, "work.employer", "education.school")


def _rekeyed(
    fact: ExtractedFact,
    earlier: list[_Stated],
    facts: Sequence[ExtractedFact],
    prep: str,
    name: str,
) -> None:
    """Give a name the classifier keyed by guess (``metadata["rekey"]``) the one key of the
    user's previous turn (``earlier``) its preposition allows, when that is another key and no
    other fact of the turn (``facts``) holds it ("moved to Toronto, same job at Shopify":
    Toronto is no employer)."""
    allowed = NOW_HOLDS_KEYS.get(prep, ())
    keys = list(dict.fromkeys(e.key for e in earlier if e.key in allowed))
    if len(keys) != 1 or keys[0] == fact.key:
        return
    if any(f is not fact and f.key == keys[0] and f.value for f in facts):
        return
    _take_key(fact, keys[0], name)
    fact.value = name
    fact.is_correction = True


def _take_key(fact: ExtractedFact, key: str, value: str) -> KeySpec | None:
    """File ``fact`` under ``key``: its type and its words as that key says ``value``.
    Returns the key's spec (None for a key the registry does not know)."""
    spec = key_spec(key)
    fact.key = key
    fact.type = spec.type if spec else fact.type  # type: ignore[assignment]
    fact.content = semantic.describe(key, value, False)
    return spec


async def inherit_addons(
    conv: ConversationRepository,
    repo: MemoryRepository,
    session_id: str,
    messages: Sequence[Message],
    facts: list[ExtractedFact],
    reveal: Callable[[str, list[dict[str, Any]]], str],
) -> list[ExtractedFact]:
    """``facts``, with what an add-on said without its predicate ("I don't eat pork" → "no
    beef either", "我对花粉过敏" → "还有芒果") formed under the key of a fact of the user's
    previous turn (``rules.addon_sentences``; only multi-valued keys,
    ``semantic.ADDON_KEYS``): a second value beside the first, never a change of it.

    An add-on that already formed a fact of that key, or a fact of another key that the rule
    table formed or that has a subject of its own ("I also work at Shopify"), is left as it
    is, and so is a turn that changes or withdraws something ("I don't use Jenkins anymore,
    too much maintenance"). A guess of the classifier's without a subject
    ("and lactose too" as a drink) gives way to the inherited fact. ``reveal(text, sealed)``
    gives a stored memory's clear text."""
    out = list(facts)
    for m in messages:
        if m.role != "user":
            continue
        # traditional Chinese is read in simplified characters and formed as written
        written = reveal(m.content, m.sealed)
        said = simplified(written)
        sentences = addon_sentences(said)
        if not sentences:
            continue
        earlier = [
            _Stated(e.key, e.type, e.value and simplified(e.value), simplified(e.content))
            for e in await _stated_before(conv, repo, session_id, m, out, reveal)
            if e.key in semantic.ADDON_KEYS
        ]
        if not earlier:
            continue
        mid = str(m.id)
        if any(f.retracts or f.is_correction for f in out if mid in f.message_ids):
            continue  # a turn that changes or withdraws something adds nothing
        keys = {e.key for e in earlier}
        for sentence in sentences:
            own = [f for f in out if mid in f.message_ids]
            whole = normalize_text(sentence) == normalize_text(said)
            mine = own if whole else [f for f in own if _of_sentence(f, sentence)]
            if any(f.key in keys and (f.value or f.key in semantic.ADDON_SENTENCE) for f in mine):
                continue  # it formed the fact itself
            subject = addon_has_subject(sentence)
            settled = [
                f
                for f in mine
                if f.key not in keys and (f.metadata.get("formed_by") != "classifier" or subject)
            ]
            if settled:
                continue
            fact = _addon_fact(sentence, said, earlier, own, mid)
            if fact is None:
                continue
            if said != written:
                fact = script.fact_as_written(fact, written, said)
            gone = {id(f) for f in mine}  # guesses of the classifier's, a key without a value
            at = max((i for i, f in enumerate(out) if id(f) in gone), default=len(out) - 1)
            out.insert(at + 1, fact)
            out = [f for f in out if id(f) not in gone]
    return out


# the keys a change said by its verb alone can take (``semantic.change_slots``), by its kind
_CHANGE_KEYS = {
    "go": ("work.employer",),
    "switch": ("tech.preferred", "preference.drink"),
    "move": ("residence.city",),
    "post": ("work.location",),
    # an English name after "switched to": the key of the clause's family; a school is left
    # only by a transfer ("switched to LSE for my master's" adds one); a home is left by the
    # rules' own readings ("moved over to Notion" reads as a move to the classifier)
    "named": ("work.employer", "tech.preferred"),
    "transfer": ("work.employer", "education.school"),
}
# the kinds of change whose key is the one of the clause's family
_BY_FAMILY = ("named", "transfer")


def _changed_fact(
    kind: str,
    value: str,
    olds: dict[str, list[str]],
    own: list[ExtractedFact],
    mid: str,
    family_key: str | None = None,
    *,
    zh: bool = True,
) -> ExtractedFact | None:
    """The fact a change said by its verb and value alone forms: the value of the one key of
    its kind the user holds an active value of (a workplace gone to replaces the employer, a
    thing switched to the tool or the drink, a home moved to the city, a post the place of
    work; 老家 is the hometown; for an English name, ``family_key``, the key of the family the
    classifier gives its clause, however sure: the value the user holds of it makes the guess),
    described in the clause's language (``zh``),
    when the value reads as one (``segment.name_run``: a name, not a spot or a doing; a
    place for a home) and the turn formed no other value of that key itself than the one held.
    ``None`` otherwise."""
    keys = [
        k for k in _CHANGE_KEYS[kind] if olds.get(k) and (kind not in _BY_FAMILY or k == family_key)
    ]
    if len(keys) != 1:
        return None
    key = keys[0]
    if semantic.ROLE_TRACK.fullmatch(value.strip()):
        return None  # "got moved back to IC": the track of the job, no workplace
    held = {v.lower() for v in olds[key]}
    # a value of the key the turn formed itself stands, unless it is the one held: "switched to
    # Zed, VS Code got way too sluggish" names the old tool as what it leaves
    if any(f.key == key and f.value and simplified(f.value).lower() not in held for f in own):
        return None
    if kind in ("move", "post"):
        if value == "老家":
            homes = olds.get("hometown") or []
            value = homes[0] if len(homes) == 1 else ""
        value = value if segment.is_place(value) else segment.slot_place(value) or ""
        if not value:
            return None
    elif not (segment.name_run(value) or (kind == "switch" and segment.brand(value))):
        return None
    if value.lower() in held:
        return None
    spec = key_spec(key)
    single = spec is not None and spec.cardinality == "single"
    return ExtractedFact(
        type=spec.type if spec else "fact",  # type: ignore[arg-type]
        content=semantic.describe(key, value, zh),
        key=key,
        value=value,
        is_correction=single,
        message_ids=[mid],
        metadata={"formed_by": "change", **({} if single else {"replaces": True})},
    )


# the user speaking of themselves, not of the project ("I switched to Neovim", "我换成 Mac 了"),
# or of long ago ("last year we switched to Terraform", "去年我们改用过 Cassandra")
_NOT_THE_PROJECTS = re.compile(
    r"\b(?:I|i|I'm|i'm|I've|i've|my)\b|我(?!们)|\b(?:last (?:year|month|week)|years? ago"
    r"|back in|in \d{4})\b|去年|前年|以前|之前|过去|用过|改用过|换过",
)
# words of a turn that name no topic of a decision: the team, its ways of deciding, the change
_NO_TOPIC = frozenset(
    ("project", "projects", "plan", "plans", "team", "vote", "voted", "review", "boss", "stack",
     "decision", "decided", "decide", "meeting", "now", "instead", "switched", "switch", "moved",
     "going", "with", "overruled", "vetoed", "changed", "change", "after", "all", "ugh", "lol",
     "haha", "the", "for", "and", "but", "our", "its", "it's", "that", "this", "them", "back",
     "over", "fully", "finally", "actually", "again", "yet", "well", "okay", "ok", "so", "then",
     "just", "new", "old", "one", "ones", "thing", "way", "anyway", "guess", "think", "mind",
     "through", "were", "was", "are", "been", "have", "has", "had", "too", "very", "into", "from",
     "about", "than", "will", "would", "can", "could", "should", "must", "got", "get", "use",
     "using", "used", "goes", "went", "there", "here", "what", "which", "who", "some", "any",
     "more", "most", "much", "many", "also", "only", "still", "not", "don't", "didn't", "everyone",
     "agreed", "since", "because",
     "项目", "方案", "架构", "计划", "团队", "投票", "老板", "决定", "开会", "会议", "技术栈",
     "那套", "大家", "公司", "最后", "结果", "情况", "讨论", "评审", "意见", "事情", "东西", "问题")
)  # fmt: skip


# a Chinese verb of switching to a thing (``_SWITCHED_TO``); before it a topic may stand, also
# before a verb of moving or keeping ("日志还是放 Elasticsearch"), and what stands between a
# topic and its verb
_SWITCH_VERBS_ZH = r"改用|改成|换成|换到|转到|迁到|改为|切到|切换到|换用"
_SWITCH_ZH = re.compile(rf"{_SWITCH_VERBS_ZH}|改到|改放|还是放|还是用")
_TOPIC_FILLER_ZH = re.compile(
    r"那边|这边|这块|那块|方面|我们|咱们|现在|已经|最后|后来|然后|结果|最终|终于|目前|如今|最近|这次"
    r"|这回|统一|全部|全都|一律|又|也|都|就|完|了|的|还是"
)
# who decides for a project, before what they decided ("老板拍板了，…", "the boss vetoed it, …"):
# the decision is still the project's
_DECIDER = re.compile(
    r"^\W*(?:(?:the |my |our )?(?:boss|manager|cto|lead|leader)|老板|领导|主管)\s*"
    r"(?:拍板|定|决定|批|说|decided|vetoed|overruled|said|picked|chose)[^，,。.;；]*[，,。.;；]\s*",
    re.I,
)


def _topics(said: str, value: str) -> set[str]:
    """What the clause of ``said`` holding the new ``value`` is about besides it: in Chinese,
    what stands before its verb of switching ("日志改用 Elasticsearch" → 日志, "团建改成去杭州了"
    → 团建); in English, its words of three letters or more. Less the value, the words of
    ``_NO_TOPIC`` and fillers."""
    clause = next(
        (c for c in re.split(r"[，,。.!！；;：:\n]", said) if value.lower() in c.lower()), said
    )
    if _HAN.search(clause):
        m = _SWITCH_ZH.search(clause)
        head = clause[: m.start()] if m else ""
        for word in sorted(_NO_TOPIC, key=len, reverse=True):
            head = head.replace(word, " ")
        head = _TOPIC_FILLER_ZH.sub(" ", head)
        return {w.lower() for w in re.findall(r"[\u4e00-\u9fff]{2,}|[A-Za-z][\w-]+", head)}
    gone = value.lower()
    return {
        w.lower()
        for w in re.findall(r"[A-Za-z][A-Za-z'-]{2,}", clause)
        if w.lower() not in _NO_TOPIC and w.lower() not in gone
    }


async def decisions_redone(
    conv: ConversationRepository,
    repo: MemoryRepository,
    session_id: str,
    messages: Sequence[Message],
    facts: list[ExtractedFact],
    reveal: Callable[[str, list[dict[str, Any]]], str],
) -> list[ExtractedFact]:
    """``facts``, where a turn that takes a project's decision again ("架构 review 完改成
    PostgreSQL 了", "team vote overruled me, it's React for the redesign now", "开会又改了，日志
    改用 Elasticsearch") right after a turn of the session that formed one ("这个 project 我们
    decide 用 MongoDB") decides the new thing in its place. The tool, decision or name the turn
    holds now (a tool it keys as the user's own, a name said to hold now with no key of its
    own) becomes a decision (``task.decision``) that retracts the previous turn's decisions —
    those only, not every decision the user holds, and only those that name every topic the
    turn names besides its new things (``_topics``: "前端改用 React" after "后端用 Go", "for
    analytics we switched to ClickHouse" after "Postgres for user data" replace nothing); not
    one the turn names again. Only for a turn that says a change and adds nothing beside
    (``semantic.moves``: not "we're also going to use Zapier"), and not one said of the user
    ("I switched to Neovim", "我换成 Mac 了"), of long ago or of someone else."""
    out = list(facts)
    for m in messages:
        if m.role != "user":
            continue
        said = reveal(m.content, m.sealed)
        rest = _DECIDER.sub("", said)
        if (
            not semantic.moves(said)
            or _NOT_THE_PROJECTS.search(said)
            or semantic.is_about_others(rest)
            or semantic.someone_elses(rest)
        ):
            continue
        mid = str(m.id)
        own = [f for f in out if mid in f.message_ids]
        switched = _switched_to(said)
        taken = [
            f
            for f in own
            if f.value
            and (
                f.key in ("task.decision", "tech.preferred")
                or (f.key is None and "now_holds" in f.metadata)
                # "deploys moved to Pulumi now": a name switched to, whatever key it was guessed
                or (f.metadata.get("formed_by") == "classifier" and f.value in switched)
            )
        ]
        added = None
        if not taken and switched and not any(f.value for f in own if f.key):
            # "数据库改用 TiDB 了", "老板拍板了，改成 Go": the name switched to, formed by nothing
            added = _decision(switched[0], said, mid)
            taken = [added]
        if not taken:
            continue
        earlier = await _stated_before(conv, repo, session_id, m, out, reveal)
        before = [e for e in earlier if e.key == "task.decision" and e.value]
        if not before:
            continue
        # what the turn is about besides its new things: every word of it the turns before name
        # ("it's React for the redesign now" after "for the Q3 redesign we're going with
        # Vue"), else it is about something else ("for analytics we switched to ClickHouse")
        about = {w for f in taken for w in _topics(said, f.value or "")}
        prior = (await _said_before(conv, session_id, m, reveal)).lower()
        decided = [
            e.value or ""
            for e in before
            if not {w for w in about if w not in f"{e.content} {e.value} {prior}".lower()}
        ]
        if not decided or (
            not about and any(f.key not in (None, "task.decision", "tech.preferred") for f in taken)
        ):
            continue  # a name guessed of another key needs the topic of a decision named
        if added is not None:
            out.append(added)
        for fact in taken:
            value = fact.value or ""
            if any(value.lower() in d.lower() or d.lower() in value.lower() for d in decided):
                continue  # the decision said again
            if fact.key != "task.decision":
                fact.key, fact.type = "task.decision", "fact"
                fact.content = _clause_of(said, value)
            for k in ("now_holds", "strong", "replaces"):
                fact.metadata.pop(k, None)
            fact.is_correction = True
            fact.retracts = list(dict.fromkeys([*fact.retracts, *decided]))
    return out


# a name switched to: "改用 TiDB", "改成 Go", "switched the mobile app to React Native",
# "payments go through Adyen now"
_SWITCHED_TO = re.compile(
    rf"(?:{_SWITCH_VERBS_ZH}|switch\s*到)\s*"
    r"(?P<zh>[A-Za-z][\w.+#-]*(?: [A-Z][\w.+#-]*){0,2}|[\u4e00-\u9fff]{2,8}?)\s*(?:了|啦|吧)?"
    r"(?=\s*(?:[，,。！!；;]|$))"
    r"|\b(?:switched|moved|migrated|changed|went)\b(?: (?:the |our )?[\w -]{1,30}?)? (?:over )?to "
    r"(?P<en>[A-Z][\w.+#-]*(?: [A-Z][\w.+#-]*){0,2})"
    r"|\bgo(?:es)? through (?P<via>[A-Z][\w.+#-]*(?: [A-Z][\w.+#-]*){0,2}) now\b",
)


def _switched_to(said: str) -> list[str]:
    """The names ``said`` switches to (``_SWITCHED_TO``): a Latin name, or 2–8 Chinese
    characters that read as a name (``segment.name_run``)."""
    found = []
    for m in _SWITCHED_TO.finditer(said):
        value = (m["zh"] or m["en"] or m["via"] or "").strip()
        if value and (value.isascii() or segment.name_run(value)):
            found.append(value)
    return found


def _clause_of(said: str, value: str) -> str:
    """The clause of ``said`` that holds ``value``, as a fact's content."""
    return addon_content(
        next(
            (c for c in re.split(r"[，,。.!！；;\n]", said) if value.lower() in c.lower()), said
        ).strip()
    )


def _decision(value: str, said: str, mid: str) -> ExtractedFact:
    """A decision of ``value``, in the words of its clause of ``said``."""
    return ExtractedFact(
        type="fact",
        content=_clause_of(said, value),
        key="task.decision",
        value=value,
        is_correction=True,
        message_ids=[mid],
        metadata={"formed_by": "change"},
    )


async def _said_before(
    conv: ConversationRepository,
    session_id: str,
    message: Message,
    reveal: Callable[[str, list[dict[str, Any]]], str],
) -> str:
    """The user's three turns of the session before ``message``, in clear text."""
    return " ".join(
        [reveal(p.content, p.sealed) async for p in _previous_turns(conv, session_id, message)]
    )


# the taste a liking turned round replaces: the other way of the same thing
_TURNED_FROM = {"likes": "preference.dislikes", "dislikes": "preference.likes"}


async def tastes_turned(
    conv: ConversationRepository,
    repo: MemoryRepository,
    session_id: str,
    messages: Sequence[Message],
    facts: list[ExtractedFact],
    reveal: Callable[[str, list[dict[str, Any]]], str],
) -> list[ExtractedFact]:
    """``facts``, with a taste turned round and said of "it" ("hot take reversal: had them on a
    pizza in Naples and now i love them" after "I hate olives", "我收回！昨天吃了家鱼香茄子，
    真香" after "茄子是我最不喜欢的菜"; ``semantic.taste_turned``): the thing the user's previous
    turn of the session disliked (or liked) is now liked (or disliked) — a fact of the other
    key, which arbitration lets replace the one it opposes. Only when that turn held one such
    thing, this turn formed no taste of its own, and it names the thing again or says it
    turned round ("tried anchovies and now I love them" turns nothing)."""
    out = list(facts)
    for m in messages:
        if m.role != "user":
            continue
        said = reveal(m.content, m.sealed)
        way = semantic.taste_turned(said)
        if way is None:
            continue
        mid = str(m.id)
        if any(mid in f.message_ids and f.value and f.key in _TURNED_FROM.values() for f in out):
            continue
        earlier = await _stated_before(conv, repo, session_id, m, out, reveal)
        key = _TURNED_FROM[way]
        held = list(dict.fromkeys(e.value for e in earlier if e.key == key and e.value))
        if len(held) != 1 or not semantic.turned_round(said, held[0]):
            continue
        new = f"preference.{way}"
        out.append(
            ExtractedFact(
                type="preference",
                content=semantic.describe(new, held[0], bool(_HAN.search(said))),
                key=new,
                value=held[0],
                is_correction=True,
                message_ids=[mid],
                metadata={"formed_by": "change"},
            )
        )
    return out


def users_clauses(clauses: Sequence[str]) -> list[str]:
    """The clauses whose subject is the user: a clause that names none carries the subject of
    the clause before it ("我哥去年搬到了无锡，后来又搬到了苏州": the second move is the
    brother's, not the user's), and one that names another person is theirs."""
    out, others = [], False
    for clause in clauses:
        if semantic.someone_elses(clause):
            others = True
        elif semantic.own_subject(clause):
            others = False
        if not others:
            out.append(clause)
    return out


async def inherit_change_slots(
    repo: MemoryRepository,
    messages: Sequence[Message],
    facts: list[ExtractedFact],
    reveal: Callable[[str, list[dict[str, Any]]], str],
) -> list[ExtractedFact]:
    """``facts``, with what a Chinese turn changes by its verb and its new value alone ("去了顺丰"
    after "我在美团上班", "现在换成安卓了" after "我用苹果手机", "后来回老家了") formed under the
    key of what the user holds now (``semantic.change_slots``, ``_changed_fact``). A fact of the
    turn that holds the same value under another key was a guess of that value's key, and
    gives way."""
    out = list(facts)
    olds: dict[str, list[str]] | None = None
    for m in messages:
        if m.role != "user":
            continue
        written = reveal(m.content, m.sealed)
        said = simplified(written)  # traditional Chinese read in simplified characters
        slots = [
            (c, *s)
            for c in users_clauses(re.split(r"[，,。！!；;\n]", said))
            for s in semantic.change_slots(c)
        ]
        if not slots:
            continue
        if olds is None:
            read = [k for ks in _CHANGE_KEYS.values() for k in ks] + ["hometown"]
            olds = {}
            for old in await repo.active_with_keys(read, "user", "", lock=False):
                if old.key and old.value:
                    olds.setdefault(old.key, []).append(simplified(reveal(old.value, old.sealed)))
        mid = str(m.id)
        for clause, kind, value in slots:
            own = [f for f in out if mid in f.message_ids]
            family_key = None
            if kind in _BY_FAMILY:
                guess = (await asyncio.to_thread(semantic.classify, [clause]))[0]
                family_key = semantic.FAMILY_KEY.get(guess.family)
            zh = bool(_HAN.search(clause))
            fact = _changed_fact(kind, value, olds, own, mid, family_key, zh=zh)
            if fact is None:
                continue
            if said != written:
                fact = script.fact_as_written(fact, written, said)
            same = fact.value.lower() if fact.value else ""
            held = tuple(v.lower() for v in olds.get(fact.key or "", []))
            out = [
                f
                for f in out
                if not (mid in f.message_ids and f.value and f.value.lower() == same)
                and not (f.key == fact.key and _restates(f, mid, held))
            ]
            out.append(fact)
    return out


# the keys a denial followed by what holds can correct: every key of the catalogue but the
# secrets (sealed; a secret given again is read by its own rules)
_DENIABLE_BY_VALUE = tuple(k for k in CATALOGUE if k not in SECRET_KEYS)
_REPORT, _PET = "report:", "pet:"


def _named_value(
    denied: str, said: str, olds: Sequence[tuple[str, str]]
) -> tuple[str, str, str] | None:
    """``(key, stored value, new value)`` when ``denied`` is exactly one stored value (``olds``:
    (key, value) pairs in simplified characters), or a Chinese short form of it
    (``values.abbreviates``: 武大 → 武汉大学); a doctor's finding (``rules.said_in_place``'s
    "report:") names only a condition or an allergy, and "his name" ("pet:") only a pet's. A
    value of digits alone (an age) is never named: any number in a sentence would be. ``None``
    when none or several keys are named, or ``said`` is the stored value."""
    report, pet = denied.startswith(_REPORT), denied.startswith(_PET)
    denied = denied.removeprefix(_REPORT).removeprefix(_PET)
    zh = bool(_HAN.search(denied))
    low = denied.lower()
    hits = [
        (key, value, said)
        for key, value in olds
        if not value.isdigit()
        and (key.startswith("health.") or not report)
        and (key == "pets.name" or not pet)
        and (low == value.lower() or (zh and abbreviates(denied, value)))
        and said.lower() != value.lower()
    ]
    return hits[0] if len({h[0] for h in hits}) == 1 else None


_CONTACT_SHAPES = {"contact.phone": detect.PHONE_SHAPED, "contact.email": detect.EMAIL}


# a turn that changes a contact by naming the old one ("不是liming@example.com，是…", "changed
# my email from … to …", "手机号从138…换成139…了")
_CONTACT_CHANGED = re.compile(r"不是|换成|改成|\b(?:not|changed|from|switched)\b", re.I)
# a contact given as the one from now on, the old one lost or given up
_CONTACT_NOW = re.compile(
    r"改用|换成|换了|不用了|停用|弃用|以后用|新的|新号|新邮箱|\b(?:new|now|changed|switched"
    r"|replaced|lost|no longer|don'?t use|stopped using)\b",
    re.I,
)
# a number or an address of someone to reach, asked of the assistant ("call the new pizza place
# at …", "帮我打给…"): not the user's. A relative's or a colleague's ("我妈的新号码") is already
# someone else's (``semantic.someone_elses``); a doctor's is not, and is named here
_SOMEONE_TO_REACH = re.compile(
    r"\b(?:call|text|ring|dial|email|message|contact|book|reach)\b[^.!?]*?\b(?:at|on)\b"
    # "my dentist's new number: …", "new email from my boss: …"
    r"|\w['’]s (?:new )?(?:number|phone|cell|mobile|email|address)\b"
    r"|\b(?:from|of|for)\s+(?:my|our|the|his|her|their)\s+(?!own\b)\w+"
    r"|医生的?(?:新)?(?:号码|手机|电话|邮箱)"
    r"|打给|打电话给|联系一下|发给|帮我|替我",
    re.I,
)
# another contact beside the one held ("工作邮箱不是…，是…", "my work email is …"): none replaced
_ANOTHER_CONTACT = re.compile(
    r"工作|公司|单位|另一个|另外|备用|第二|也|还有|\b(?:work|office|another|second|backup|also"
    r"|other)\b",
    re.I,
)


def _contact_put_right(
    said: str, olds: Sequence[tuple[str, str]], *, named_old: bool = False
) -> list[tuple[str, str]]:
    """``(stored, new)`` for a phone number or an email put right in a turn that says it was
    mistyped ("打错了，尾数是9，就是 6234 5679" after "我电话是 6234 5678"), or that names the
    stored one as what it changes (``named_old``: "不是liming@example.com，是liming@test.com"):
    the one value of the turn shaped like the user's one stored value of that key (an email;
    a number of as many digits), and not it."""
    out = []
    for key, pattern in _CONTACT_SHAPES.items():
        held = [v for k, v in olds if k == key]
        if len(held) != 1:
            continue
        old = held[0]
        digits = re.sub(r"\D", "", old)
        in_turn = old.lower() in said.lower() or (
            key == "contact.phone" and len(digits) >= 7 and digits in re.sub(r"\D", "", said)
        )
        if named_old and not in_turn:
            continue
        if key == "contact.email":
            found = {
                m.group(0) for m in pattern.finditer(said) if m.group(0).lower() != old.lower()
            }
        else:
            found = {
                m.group(0).strip()
                for m in pattern.finditer(said)
                if len(number := re.sub(r"\D", "", m.group(0))) == len(digits) and number != digits
            }
        if len(found) == 1:
            out.append((old, found.pop()))
    return out


def _restates(fact: ExtractedFact, mid: str, values: tuple[str, ...]) -> bool:
    """Whether ``fact``, of message ``mid``, holds one of ``values`` (lower-cased, simplified)
    and retracts nothing: a value the turn names, read as if it held now."""
    return (
        mid in fact.message_ids
        and bool(fact.value)
        and simplified(fact.value or "").lower() in values
        and not fact.retracts
        and not fact.metadata.get("takes_back_message")
    )


async def replace_in_place(
    repo: MemoryRepository,
    messages: Sequence[Message],
    facts: list[ExtractedFact],
    reveal: Callable[[str, list[dict[str, Any]]], str],
) -> list[ExtractedFact]:
    """``facts``, with a stored value the user puts another in the place of, in one breath
    (``rules.said_in_place``: "医生说不是胃炎，是胃酸倒流", "it's not a hamster, it's a guinea
    pig", "预算从20万改成15万了"), replaced under its own key: the new value is formed under
    the key of the stored one and retracts it. The key comes from what the user holds, so words
    that name nothing stored form nothing. Of the turn's own facts, one holding the new value
    under another key was a guess of its key and gives way; one holding the old value as if it
    held now was a misreading ("预算从20万改成15万了" read as a budget of 20万) and goes; one
    holding the new value (or its words) under the same key is kept and retracts the old value
    too ("我是浙江工业大学毕业的，不是浙大": the school the rules read stays)."""
    out = list(facts)
    olds: list[tuple[str, str]] | None = None
    raw: dict[tuple[str, str], str] = {}
    earlier: set[str] = set()
    for m in messages:
        earlier_here, earlier = set(earlier), earlier | {str(m.id)}
        if m.role != "user":
            continue
        written = reveal(m.content, m.sealed)
        said = simplified(written)
        pairs = said_in_place(said)
        users_own = may_put_right(said) and not semantic.someone_elses(said)
        slip = users_own and semantic.is_slip(said)
        names_old = (
            users_own and bool(_CONTACT_CHANGED.search(said)) and not _ANOTHER_CONTACT.search(said)
        )
        # "new one: (312) 555-0199", "163那个不用了，改用 …@qq.com": the one held is replaced by
        # the one of its shape the turn gives, named or not
        given_now = (
            users_own
            and bool(detect.PHONE_SHAPED.search(said) or detect.EMAIL.search(said))
            and bool(_CONTACT_NOW.search(said))
            and not _ANOTHER_CONTACT.search(said)
            and not _SOMEONE_TO_REACH.search(said)
        )
        if not (pairs or slip or names_old or given_now):
            continue
        if olds is None:
            stored = await repo.active_with_keys(_DENIABLE_BY_VALUE, "user", "", lock=False)
            for old in stored:
                if old.key and old.value:
                    # retracted as stored: a personal value is held as its token
                    raw[(old.key, simplified(reveal(old.value, old.sealed)))] = old.value
            olds = list(raw)
        mid = str(m.id)
        # what earlier turns of this batch said counts as held ("我有胃炎" and "医生说不是胃炎，
        # 是胃酸倒流" sent in one request)
        for f in out:
            if f.key in _DENIABLE_BY_VALUE and f.value and set(f.message_ids) <= earlier_here:
                said_before = (f.key, simplified(f.value))
                if said_before not in raw:
                    raw[said_before] = f.value
                    olds.append(said_before)
        if slip or names_old or given_now:
            pairs = pairs + _contact_put_right(said, olds, named_old=not (slip or given_now))
        for denied, new_words in pairs:
            named = _named_value(denied, new_words, olds)
            if named is None:
                continue
            key, value, new = named
            own = [f for f in out if mid in f.message_ids]
            low = new.lower()
            same = [
                f
                for f in own
                if f.key == key and f.value and (f.value.lower() in low or low in f.value.lower())
            ]
            if same:
                out = [f for f in out if not _restates(f, mid, (value.lower(),))]
                for f in same:
                    if f.metadata.get("takes_back_message") or f.metadata.get("instead_of"):
                        continue  # a slip or a "not …" the rules read: arbitration reads it
                    f.retracts = list(dict.fromkeys([*f.retracts, raw[(key, value)]]))
                    f.is_correction = True
                continue
            out = [f for f in out if not _restates(f, mid, (low, value.lower()))]
            spec = key_spec(key)
            fact = ExtractedFact(
                type=spec.type if spec else "fact",  # type: ignore[arg-type]
                content=semantic.describe(key, new, bool(_HAN.search(said))),
                key=key,
                value=new,
                is_correction=True,
                message_ids=[mid],
                metadata={"formed_by": "change"},
            )
            if said != written:
                fact = script.fact_as_written(fact, written, said)
            fact.retracts = [raw[(key, value)]]
            out.append(fact)
    return out


def dedupe(facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """One fact per (type, key, value, text, scope) in a batch: a sentence repeated inside one
    request is one statement, not several confirmations. Message ids and retracted values are
    merged, and the first fact takes the metadata it lacks from the others ("换车的事黄了": the
    withdrawal of 换车的事 and the record naming the plan dropped are one)."""
    kept: dict[tuple[Any, ...], ExtractedFact] = {}
    for fact in facts:
        ident = (fact.type, fact.key, fact.value, normalize_text(fact.content), fact.scope)
        if ident in kept:
            first = kept[ident]
            first.message_ids = list(dict.fromkeys([*first.message_ids, *fact.message_ids]))
            first.retracts = list(dict.fromkeys([*first.retracts, *fact.retracts]))
            for name, value in fact.metadata.items():
                first.metadata.setdefault(name, value)
            continue
        kept[ident] = fact
    return list(kept.values())
