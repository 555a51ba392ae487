"""The memory writer: the only code that creates or changes a memory row.

Every path that stores a memory — explicit and batch writes, extraction jobs, imports, task
conclusions, PATCH — hands the writer ``MemoryDraft`` objects and the writer runs the same
steps, in the caller's session and transaction (it only flushes):

    admit (policy hook) → protect (mask, seal) → content_hash + search_text → embedding
        → write lock → arbitration → audit (arbitrations) + history (memory_history)

Protection runs once per draft: a draft built from a job payload that was protected at intake
(``MemoryWriter.protect`` is the intake's step too) carries ``protected=True`` and is not
protected twice. Embedding happens before the write lock is taken, so no lock waits on the
provider. docs/architecture.md draws the path.

Extension points, one place each:
- ``MemoryWriter.admit``: per-user policy (a user's memory mode: facts only, session only,
  paused) decides here whether and how a draft is stored.
- ``MemoryDraft.kind``: a ``fact`` is arbitrated; an ``episode`` (a verbatim user turn,
  type ``episode``) is dispatched in ``_write_one``: the same protection, hashing, embedding
  and history, no arbitration (it holds no key), and an identical active turn is refreshed
  rather than stored twice.

Episodes and the facts formed from them point at each other (``origin.episode_ids`` on a fact,
``origin.fact_ids`` on an episode; ``link_episode``). When a fact leaves current knowledge
(superseded, stored frozen, deleted, corrected by PATCH), the episodes it was formed from are
frozen with it — except an episode that also formed the fact's successor, an episode of
another speaker than the successor's (a group conversation), and the turn of a
classifier's guess outdated by a later turn that stated no change (``guesses_outdated``) — so
an old sentence never brings a corrected fact back (``_retire_episodes``; docs/formation.md,
Episodes).
"""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Final, Literal

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.arbitration.service import (
    PROMOTE_AFTER_SESSIONS,
    ArbitrationService,
    Candidate,
    Outcome,
    fingerprint,
    merge_metadata,
)
from app.db.models import Memory
from app.kit.errors import Conflict, InvalidRequest, NotFound
from app.kit.time import utcnow
from app.memories.repository import MemoryRepository, snapshot
from app.privacy.protect import (
    Privacy,
    embedding_text,
    merge_sealed,
    owner_of,
    protect_json,
    protect_memory,
)
from app.providers.embeddings import Embedder
from app.recall.text import index_text
from app.users.policy import MemoryPolicy, formable
from app.users.settings import policy_of

BASE_CONFIDENCE = {
    "user_declared": 0.9,
    "form": 0.9,
    "import": 0.8,
    # settings.tool_observed_confidence for facts formed from tool turns (docs/sessions.md).
    "tool_observed": 0.8,
    "behavior_observed": 0.7,
    "model_inferred": 0.5,
}

DraftKind = Literal["fact", "episode"]
EPISODE: Final = "episode"


def base_confidence(source: str) -> float:
    """Default confidence (0..1) of a memory from ``source`` (DESIGN.md)."""
    return BASE_CONFIDENCE.get(source, 0.5)


@dataclass(slots=True)
class MemoryDraft:
    """A memory on its way in: what the caller knows, before protection and arbitration.

    ``content``/``value`` are clear text unless ``protected`` is set (then ``sealed`` holds
    the entries their tokens and masks stand for). ``confidence`` None takes the source's base
    confidence. ``secret_kind`` marks the value as secret as a whole (besides the keys of
    ``SECRET_KEYS``); ``known_secrets`` (``(value, kind)``) are secrets the text holds where
    detection cannot tell (a password restated without its keyword, sealed once in its
    message): sealed wherever they stand in the content or the context. ``trigger`` is the
    arbitration trigger recorded in the audit (explicit | extraction | import | promotion |
    correction). ``embedding`` may be given
    (already computed); ``embed=False`` on ``write`` stores none (a dry run).
    """

    content: str
    type: str
    source: str
    valid_from: datetime
    scope: str = "user"
    scope_id: str = ""
    key: str | None = None
    value: str | None = None
    confidence: float | None = None
    trigger: str = "explicit"
    is_correction: bool = False
    retracts: list[str] = field(default_factory=list)
    valid_to: datetime | None = None
    origin: dict[str, Any] = field(default_factory=dict)
    metadata: dict[str, Any] = field(default_factory=dict)
    sealed: list[dict[str, Any]] = field(default_factory=list)
    secret_kind: str | None = None
    known_secrets: list[tuple[str, str]] = field(default_factory=list)
    protected: bool = False
    embedding: list[float] | None = None
    kind: DraftKind = "fact"
    # Contextual indexing (an episode): text embedded and full-text indexed together with the
    # content, never part of it — ``context`` (the previous turn; clear until protected) in
    # both, ``context_date`` (the session's date in words) in the full text only.
    context: str | None = None
    context_date: str | None = None
    # For kinds that point at other memories (an episode's facts); unused by facts.
    links: list[uuid.UUID] = field(default_factory=list)
    # The memory this draft corrects, by id (``MemoryCreate.corrects``): arbitration freezes
    # it by rule user_correction, superseded by this one. Needs ``is_correction``.
    corrects: uuid.UUID | None = None
    # False: a session fact never moves to user scope (the session_only memory mode sets it
    # in ``MemoryWriter.admit``).
    promote: bool = True
    # The user asked to keep it ("记住"): a session fact moves to user scope at once.
    promote_now: bool = False

    @property
    def is_episode(self) -> bool:
        return self.kind == EPISODE or self.type == EPISODE


@dataclass(slots=True)
class Restore:
    """How a memory is restored as it was recorded elsewhere (an import document): frozen,
    with its id here and its links already mapped to ids here (None: the linked memory is not
    here)."""

    memory_id: uuid.UUID
    superseded_by: uuid.UUID | None
    supersedes: uuid.UUID | None
    superseded_at: datetime | None
    confirmations: int = 1


def indexed_text(draft: MemoryDraft, *, with_date: bool) -> str:
    """What is indexed of a draft: its content, then its context (the content first, so a
    length bound of the index never cuts the memory's own words), then — for the full text —
    the context date."""
    parts = [draft.content, draft.context or ""]
    if with_date:
        parts.append(draft.context_date or "")
    return "\n".join(p for p in parts if p)


async def embed_drafts(embedder: Embedder | None, drafts: Sequence[MemoryDraft]) -> None:
    """Set the embedding of every draft that has none, in one provider call
    (``embedding_text``: personal tokens as ``[kind]``, secrets masked). Needs no session, so a
    job computes it before its unit of work takes any lock (``app.jobs.worker.handler``'s
    ``prepare``). The drafts must be protected. Raises ``EmbeddingError``."""
    todo = [d for d in drafts if d.embedding is None]
    if not todo:
        return
    if any(not d.protected for d in todo):
        raise RuntimeError("a draft is embedded once it is protected")
    if embedder is None:
        raise RuntimeError("this memory writer was built without an embedder")
    vectors = await embedder.embed_passages(
        [embedding_text(indexed_text(d, with_date=False)) for d in todo]
    )
    for d, v in zip(todo, vectors, strict=True):
        d.embedding = v


def guesses_outdated(outcomes: Sequence[Outcome]) -> frozenset[uuid.UUID]:
    """The facts of ``outcomes`` whose retirement does not take their turns out of recall: a
    fact the key-family classifier guessed (``metadata.formed_by == "classifier"``: its key
    from the sentence's nearest prototype, its value from a span of it) that a fact of the
    same key formed from a later turn (trigger ``extraction``) superseded by recency or source
    (any rule but ``user_correction``). Nothing the user said stated a change, and the guess
    may never have been what the turn meant; the turn keeps its words, as it would had the
    classifier formed nothing. A stated change (user_correction), a fact of another key that
    ends the guess (a liking guessed, then "我已经戒辣了": the user said the opposite), a guess
    stored frozen on arrival, and every act of the client — an explicit write, a PATCH, a
    deletion — still freeze the turns (docs/formation.md, Episodes)."""
    formed = {m.id: m for o in outcomes for m in o.memories}
    losers = {
        i: m
        for i, m in formed.items()
        if m.type != EPISODE and (m.metadata_ or {}).get("formed_by") == "classifier"
    }
    out = set()
    for o in outcomes:
        for a in o.arbitrations:
            winner = formed.get(a.new_memory_id) if a.new_memory_id else None
            if (
                a.outcome == "superseded"
                and a.existing_memory_id in losers
                and a.trigger == "extraction"
                and a.rule != "user_correction"
                and (winner is None or winner.key == losers[a.existing_memory_id].key)
            ):
                out.add(a.existing_memory_id)
    return frozenset(out)


class MemoryWriter:
    """Writes one user's memories inside the caller's transaction (it only flushes).

    Raises ``sqlalchemy.exc.IntegrityError`` when the database refused a second active row of
    one fact (the unique indexes are the last guard; the write lock normally prevents it) —
    the caller's unit of work is then rolled back and may be retried.
    """

    def __init__(
        self,
        session: AsyncSession,
        *,
        tenant_id: uuid.UUID,
        user_id: str,
        actor: str,
        request_id: str | None,
        privacy: Privacy | None = None,
        embedder: Embedder | None = None,
        promote_after_sessions: int = PROMOTE_AFTER_SESSIONS,
    ):
        """``privacy`` and ``embedder`` are needed by every step that stores what a memory says;
        a writer that only retires memories (forgetting) is built without them.
        ``promote_after_sessions``: ``settings.promote_after_sessions``."""
        self.repo = MemoryRepository(session, tenant_id, user_id)
        self.tenant_id = tenant_id
        self.user_id = user_id
        self._policy: MemoryPolicy | None = None
        self.privacy = privacy
        self.embedder = embedder
        self.owner = owner_of(tenant_id, user_id)
        self.actor = actor
        self.request_id = request_id
        self.arbiter = ArbitrationService(
            self.repo, actor=actor, request_id=request_id, promote_after=promote_after_sessions
        )

    # --- the steps -----------------------------------------------------------------------

    async def admit(self, draft: MemoryDraft) -> MemoryDraft | None:
        """Policy hook: the draft to store, changed or not, or None to store nothing.

        Every draft of every path passes here before anything else happens to it. The user's
        memory mode (app/users/policy.py, ``formable``) applies to what is formed from
        conversation (``trigger="extraction"``: messages and ``infer=true`` writes):
        ``paused`` stores none, ``facts_only`` no preference or event, ``session_only`` keeps
        each in the scope of its session (``origin["session_id"]``) with ``promote=False``,
        and none without a session. Explicit writes, corrections, imports and task conclusions
        are the client's own statements and are admitted unchanged.
        """
        if draft.trigger != "extraction":
            return draft
        kept = formable(await self.policy(), [draft], draft.origin.get("session_id"))
        return kept[0] if kept else None

    async def policy(self) -> MemoryPolicy:
        """The user's memory policy, read once per writer in the caller's transaction."""
        if self._policy is None:
            self._policy = await policy_of(self.repo.session, self.tenant_id, self.user_id)
        return self._policy

    def protect(self, draft: MemoryDraft) -> MemoryDraft:
        """The draft with its sensitive values sealed (``protect_memory``); a draft already
        protected is returned as is. Pure: no I/O. A write's intake calls it before the
        payload is stored, so the queue never holds the clear values either."""
        if draft.protected:
            return draft
        if self.privacy is None:
            raise RuntimeError("this memory writer was built without privacy")
        p = protect_memory(
            self.privacy,
            self.owner,
            content=draft.content,
            key=draft.key,
            value=draft.value,
            secret_kind=draft.secret_kind,
            known=draft.known_secrets,
        )
        meta = protect_json(self.privacy, self.owner, draft.metadata)
        sealed = merge_sealed(draft.sealed, p.sealed, meta.sealed)
        # The context is only indexed: protected the same way, its sealed entries not kept (no
        # one reveals it from this row; its own message holds them).
        context = (
            self.privacy.protect(draft.context, self.owner, known=draft.known_secrets).text
            if draft.context
            else None
        )
        return replace(
            draft,
            content=p.content,
            value=p.value,
            metadata=meta.value,
            sealed=sealed,
            context=context,
            protected=True,
        )

    async def embed(self, drafts: Sequence[MemoryDraft]) -> list[list[float]]:
        """Embeddings of the drafts that have none, in one provider call (``embedding_text``:
        personal tokens as ``[kind]``, secrets masked). Raises ``EmbeddingError``."""
        await embed_drafts(self.embedder, drafts)
        return [d.embedding for d in drafts if d.embedding is not None]

    async def write(self, drafts: Sequence[MemoryDraft], *, embed: bool = True) -> list[Outcome]:
        """Store the drafts in order: each one is arbitrated against what the earlier ones
        wrote, exactly as separate writes would be. Returns one ``Outcome`` per admitted draft
        (the memories created or touched, first the new one; the arbitration rows)."""
        admitted = [a for a in [await self.admit(d) for d in drafts] if a is not None]
        protected = [self.protect(d) for d in admitted]
        if embed:
            await self.embed(protected)
        await self.repo.lock_writes()
        outcomes = [await self._write_one(d) for d in protected]
        await self._retire_episodes(
            [m for o in outcomes for m in o.memories], guesses_outdated=guesses_outdated(outcomes)
        )
        return outcomes

    async def _write_one(self, draft: MemoryDraft) -> Outcome:
        # Dispatch on draft.kind: a new kind of memory gets its branch here.
        if draft.is_episode:
            return await self._write_episode(draft)
        return await self.arbiter.apply(self._candidate(draft))

    async def _write_episode(self, draft: MemoryDraft) -> Outcome:
        """A verbatim turn: stored as it is, or — the same turn already active — the existing
        episode refreshed (confirmations + 1, the new message ids and sessions added; its
        first metadata kept). Not arbitrated: an episode has no key and conflicts with
        nothing."""
        cand = self._candidate(replace(draft, type=EPISODE, key=None, value=None))
        # The same words from another participant are their own turn.
        dup = await self.repo.active_episode(cand.content_hash, cand.origin.get("speaker"))
        if dup is not None:
            before = snapshot(dup)
            dup.confirmations += 1
            dup.updated_at = utcnow()
            origin = dict(dup.origin or {})
            for name in ("message_ids", "sessions"):
                merged = [*origin.get(name, []), *cand.origin.get(name, [])]
                if merged:
                    origin[name] = list(dict.fromkeys(merged))
            dup.origin = origin
            self.repo.add_history(
                dup,
                "refresh",
                old=before,
                new=snapshot(dup),
                actor=self.actor,
                request_id=self.request_id,
            )
            await self.repo.flush()
            return Outcome(memories=[dup])
        new = self.arbiter.new_row(cand)
        self.repo.add(new)
        self.repo.add_history(
            new, "create", old=None, new=snapshot(new), actor=self.actor, request_id=self.request_id
        )
        await self.repo.flush()
        return Outcome(memories=[new])

    async def link_episode(
        self, episode: Memory, facts: Sequence[Memory], *, half_life_days: float | None = None
    ) -> None:
        """Point ``episode`` and the facts formed from it at each other, both ways:
        ``episode.origin.fact_ids`` and each fact's ``origin.episode_ids`` gain the other's id
        (ids as strings; links already there are kept). Recorded in each row's history.

        ``half_life_days``: the shortest half-life of those facts, when it is shorter than the
        episode's own — the turn then fades as fast as what it said (the turn announcing
        tomorrow's meeting fades with the meeting's event)."""
        fact_ids = [str(f.id) for f in facts if f.id != episode.id]
        if not fact_ids:
            return
        if half_life_days is not None and (
            episode.half_life_days is None or half_life_days < episode.half_life_days
        ):
            episode.half_life_days = half_life_days
        self._add_links(episode, "fact_ids", fact_ids)
        for f in facts:
            if f.id != episode.id:
                self._add_links(f, "episode_ids", [str(episode.id)])
        await self.repo.flush()

    def _add_links(self, m: Memory, name: str, ids: Sequence[str]) -> None:
        origin = dict(m.origin or {})
        merged = list(dict.fromkeys([*origin.get(name, []), *ids]))
        if merged == origin.get(name):
            return
        before = snapshot(m)
        origin[name] = merged
        m.origin = origin
        self.repo.add_history(
            m, "link", old=before, new=snapshot(m), actor=self.actor, request_id=self.request_id
        )

    async def relink(
        self, memory_ids: Sequence[uuid.UUID], mapping: dict[uuid.UUID, uuid.UUID]
    ) -> None:
        """Rewrite the episode/fact links (``origin.episode_ids`` / ``origin.fact_ids``) of the
        memories ``memory_ids`` through ``mapping`` (ids elsewhere -> ids here), as an import
        needs; a link to a memory that is not here is dropped."""
        for m in await self.repo.get_many(list(memory_ids)):
            origin = dict(m.origin or {})
            changed = False
            for name in ("episode_ids", "fact_ids"):
                if name not in origin:
                    continue
                mapped = []
                for i in origin[name]:
                    with contextlib.suppress(ValueError):
                        target = mapping.get(uuid.UUID(str(i)))
                        if target is not None:
                            mapped.append(str(target))
                if mapped != origin[name]:
                    origin[name], changed = mapped, True
            if changed:
                m.origin = origin
        await self.repo.flush()

    async def _retire_episodes(
        self, memories: Sequence[Memory], *, guesses_outdated: frozenset[uuid.UUID] = frozenset()
    ) -> None:
        """Freeze the active episodes of every fact in ``memories`` that is no longer current
        (frozen or deleted), so its old words leave recall with it. An episode that also formed
        the fact's successor (``superseded_by``) stays: it states the correction itself.
        A frozen episode is ``superseded_by`` the fact's successor (None after a deletion).

        A retired episode's validity ends where its fact's did: where the successor began, or
        earlier when the fact's own ``valid_to`` is earlier — an earlier value of its key told
        late fitted it, or cut it after it was frozen (``ArbitrationService._fit_earlier``,
        docs/time.md). An episode already frozen (with this fact, or with another fact it
        formed) is cut by the same rule when a superseded fact now ends before it: its words
        never hold longer than any fact formed from them.

        Facts in ``guesses_outdated`` (``guesses_outdated()``: a classifier's guess outdated by
        a later turn that did not say anything changed) leave their episodes as they are."""
        retired = {
            m.id: m
            for m in memories
            if m.type != EPISODE
            and m.status in ("frozen", "deleted")
            and (m.origin or {}).get("episode_ids")
            and m.id not in guesses_outdated
        }
        for fact in retired.values():
            successor = (
                await self.repo.get(fact.superseded_by) if fact.superseded_by is not None else None
            )
            keep = set((successor.origin or {}).get("episode_ids", [])) if successor else set()
            # In a conversation of several people, what one says does not retire another's
            # words: the episode of a different speaker than the successor's stays current.
            said_by = (successor.origin or {}).get("speaker") if successor else None
            ids = []
            for i in fact.origin["episode_ids"]:
                with contextlib.suppress(ValueError, TypeError, AttributeError):
                    if i not in keep:
                        ids.append(uuid.UUID(str(i)))
            for ep in await self.repo.get_many(ids):
                if ep.status not in ("active", "frozen") or ep.type != EPISODE:
                    continue
                speaker = (ep.origin or {}).get("speaker")
                if said_by and speaker and speaker != said_by:
                    continue
                now = utcnow()
                end = now
                if successor is not None:
                    end = successor.valid_from
                    if fact.valid_to is not None:
                        end = min(end, fact.valid_to)
                end = max(ep.valid_from, end)
                if ep.status == "frozen" and (
                    successor is None or (ep.valid_to is not None and ep.valid_to <= end)
                ):
                    continue  # retired already, and not past where this fact now ends
                before = snapshot(ep)
                if ep.status == "active":
                    ep.status, ep.superseded_at = "frozen", now
                ep.updated_at = now
                ep.superseded_by = successor.id if successor is not None else None
                ep.valid_to = end
                self.repo.add_history(
                    ep,
                    "supersede",
                    old=before,
                    new=snapshot(ep),
                    actor=self.actor,
                    request_id=self.request_id,
                )
        if retired:
            await self.repo.flush()

    def _candidate(self, draft: MemoryDraft) -> Candidate:
        """The arbitration candidate of a protected draft, with its hash and search text."""
        chash, search_text = fingerprint(draft.content, draft.sealed)
        if draft.context or draft.context_date:
            search_text = index_text(indexed_text(draft, with_date=True))
        return Candidate(
            content=draft.content,
            type=draft.type,
            source=draft.source,
            confidence=draft.confidence
            if draft.confidence is not None
            else base_confidence(draft.source),
            scope=draft.scope,
            scope_id=draft.scope_id,
            valid_from=draft.valid_from,
            valid_to=draft.valid_to,
            trigger=draft.trigger,
            key=draft.key,
            value=draft.value,
            is_correction=draft.is_correction,
            retracts=list(draft.retracts),
            corrects=draft.corrects,
            promote=draft.promote,
            promote_now=draft.promote_now,
            origin=dict(draft.origin),
            metadata=dict(draft.metadata),
            sealed=list(draft.sealed),
            embedding=draft.embedding,
            embedding_model=self.embedder.model
            if draft.embedding is not None and self.embedder is not None
            else None,
            content_hash=chash,
            search_text=search_text,
        )

    async def restore(
        self, items: Sequence[tuple[MemoryDraft, Restore]], *, embed: bool = True
    ) -> list[Outcome]:
        """Store retired memories as they were recorded (frozen, their links kept), not
        arbitrated: what superseded them was decided where they were recorded. The same steps
        as ``write`` (admit, protect, hash, embed, write lock, audit rule ``import_chain``)."""
        admitted = [
            (a, r) for a, r in [(await self.admit(d), r) for d, r in items] if a is not None
        ]
        protected = [(self.protect(d), r) for d, r in admitted]
        if embed:
            await self.embed([d for d, _ in protected])
        await self.repo.lock_writes()
        out = []
        for d, r in protected:
            out.append(
                await self.arbiter.restore(
                    self._candidate(d),
                    memory_id=r.memory_id,
                    superseded_by=r.superseded_by,
                    supersedes=r.supersedes,
                    superseded_at=r.superseded_at,
                    confirmations=r.confirmations,
                )
            )
        return out

    # --- changes of an existing memory ----------------------------------------------------

    async def revise(
        self,
        memory_id: uuid.UUID,
        *,
        content: str | None,
        value: str | None,
        value_set: bool,
        metadata: dict[str, Any] | None = None,
        confidence: float | None = None,
    ) -> Outcome:
        """A new version of an active memory (PATCH of its content or value): the old one's
        clear text with the changes is written as a user correction that supersedes it (rule
        ``user_correction``: the old one is frozen, ``superseded_by`` the new one). Never an
        in-place edit of what a memory says.

        A new ``value`` without ``content`` replaces the old value where the content says it
        ("I live in Porto" → "I live in Tokyo").

        Raises NotFound, Conflict (409) when the memory is not active (frozen, archived),
        InvalidRequest (422) for a new value alone when the content does not contain the old
        one.
        """
        if self.privacy is None:
            raise RuntimeError("this memory writer was built without privacy")
        old = await self._active(memory_id)
        clear_content = self.privacy.reveal_all(old.content, old.sealed, self.owner)
        clear_value = (
            self.privacy.reveal_all(old.value, old.sealed, self.owner) if old.value else None
        )
        if content is None and value_set and value != clear_value:
            # A new value alone: the text says it too, or the two would disagree.
            if not clear_value or not value or clear_value not in clear_content:
                raise InvalidRequest(
                    "the memory's content does not contain its value: send the new content "
                    "with the new value"
                )
            content = clear_content.replace(clear_value, value)
        draft = MemoryDraft(
            content=content if content is not None else clear_content,
            type=old.type,
            source="user_declared",
            valid_from=utcnow(),
            scope=old.scope,
            scope_id=old.scope_id,
            key=old.key,
            value=value if value_set else clear_value,
            confidence=confidence if confidence is not None else old.confidence,
            trigger="correction",
            is_correction=True,
            # The new version is the user's edit, not formed from the old one's episodes.
            origin={
                **{k: v for k, v in (old.origin or {}).items() if k != "episode_ids"},
                "revises": str(old.id),
            },
            metadata=merge_metadata(old.metadata_, metadata)[0],
        )
        [protected] = [self.protect(draft)]
        await self.embed([protected])
        await self.repo.lock_writes()
        old = await self._active(memory_id, for_update=True)
        out = await self.arbiter.supersede(old, self._candidate(protected))
        await self._retire_episodes(out.memories)
        return out

    async def restate(self, memory_id: uuid.UUID, *, source: str) -> Outcome:
        """The active memory said again by ``source`` (a user confirming an inferred fact):
        its clear text as a new draft through ``write``. Arbitration finds the stored memory
        as the duplicate, refreshes it and, for a better-ranked source, raises its source
        (rule ``duplicate``). Raises NotFound, Conflict (409) when the memory is not active.
        """
        if self.privacy is None:
            raise RuntimeError("this memory writer was built without privacy")
        old = await self._active(memory_id)
        draft = MemoryDraft(
            content=self.privacy.reveal_all(old.content, old.sealed, self.owner),
            type=old.type,
            source=source,
            valid_from=old.valid_from,
            scope=old.scope,
            scope_id=old.scope_id,
            key=old.key,
            value=self.privacy.reveal_all(old.value, old.sealed, self.owner) if old.value else None,
            trigger="explicit",
            metadata={k: v for k, v in (old.metadata_ or {}).items() if k != "inferred"},
        )
        [outcome] = await self.write([draft])
        return outcome

    async def annotate(
        self,
        memory_id: uuid.UUID,
        *,
        confidence: float | None = None,
        metadata: dict[str, Any] | None = None,
        status: str | None = None,
    ) -> Memory:
        """Change what Memlane thinks of a memory, not what it says: its confidence, its
        metadata (replaced), its status. Recorded in its history. The checks run on the row
        locked under the user's write lock, so concurrent changes see each other's result.

        Allowed: on an active memory every change (``archived`` retires it); on an archived
        one confidence, metadata and ``active`` again — only when it was never superseded and
        no other active memory holds its fact. A frozen memory is history: it takes no change.

        Raises NotFound, Conflict (409) for any change of a frozen memory, for an archived one
        to become active when it was superseded, or when it would be a second active value.
        """
        await self.repo.lock_writes()
        m = await self.repo.get(memory_id, for_update=True)
        if m is None or m.status == "deleted":
            raise NotFound("no such memory")
        if m.status == "frozen":
            raise Conflict(
                "the memory is frozen (superseded): it is history and takes no change; "
                "write a new memory instead"
            )
        if status == "active" and m.status != "active" and m.superseded_by is not None:
            raise Conflict(
                f"the memory was superseded by {m.superseded_by}: it cannot become active again; "
                "write a new memory instead"
            )
        before = snapshot(m)
        if confidence is not None:
            m.confidence = confidence
        if metadata is not None:
            if self.privacy is None:
                raise RuntimeError("this memory writer was built without privacy")
            meta = protect_json(self.privacy, self.owner, metadata)
            m.metadata_, m.sealed = meta.value, merge_sealed(m.sealed, meta.sealed)
        if status is not None:
            m.status = status
        m.updated_at = utcnow()
        self.repo.add_history(
            m, "update", old=before, new=snapshot(m), actor=self.actor, request_id=self.request_id
        )
        try:
            async with self.repo.session.begin_nested():
                await self.repo.flush()
        except IntegrityError as exc:
            raise Conflict("another active memory holds this fact; supersede it instead") from exc
        return m

    async def archive(
        self, reasons: Mapping[uuid.UUID, dict[str, Any]], *, batch_rows: int = 500
    ) -> int:
        """Archive the memories of ``reasons`` that are still active (forgetting), each with a
        history row ``archive`` whose ``new`` holds the state, ``reason`` and the
        ``forgetting`` details (``reasons[id]``: ``{"reason": …, …}``). A memory a concurrent
        writer changed first is skipped. Returns how many were archived."""
        await self.repo.lock_writes()
        ids = list(reasons)
        archived = 0
        for start in range(0, len(ids), batch_rows):
            changed_at = utcnow()
            for m in await self.repo.lock_active(ids[start : start + batch_rows]):
                before = snapshot(m)
                m.status, m.updated_at = "archived", changed_at
                details = dict(reasons[m.id])
                reason = details.pop("reason", None)
                self.repo.add_history(
                    m,
                    "archive",
                    old=before,
                    new={**snapshot(m), "reason": reason, "forgetting": details},
                    actor=self.actor,
                    request_id=self.request_id,
                )
                archived += 1
            await self.repo.flush()
        return archived

    async def archive_scope(self, scope: str, scope_id: str, reason: dict[str, Any]) -> int:
        """Archive every active memory of one scope (a session that ended), each with a history
        row ``archive`` carrying ``reason`` (``{"reason": …, …}``). Returns how many."""
        ids = await self.repo.active_ids_in_scope(scope, scope_id)
        return await self.archive({i: dict(reason) for i in ids}) if ids else 0

    async def delete(self, memory_id: uuid.UUID) -> dict[str, Any]:
        """Real deletion: content, value, embedding and metadata are erased; the history keeps
        that the memory existed and when, not what it said. Returns the memory's ``origin`` as
        it was (the caller scrubs the request that held the words). Raises NotFound."""
        await self.repo.lock_writes()
        m = await self.repo.get(memory_id, for_update=True)
        if m is None or m.status == "deleted":
            raise NotFound("no such memory")
        origin = dict(m.origin or {})
        if m.type != EPISODE and origin.get("episode_ids"):
            # The episodes it was formed from leave current knowledge with it.
            m.status = "deleted"
            await self._retire_episodes([m])
        m.status, m.content, m.value, m.embedding, m.metadata_ = "deleted", "", None, None, {}
        m.content_hash, m.origin, m.updated_at = "", {}, utcnow()
        m.search_text, m.sealed, m.entities = "", [], []
        await self.repo.scrub_history(m.id)
        self.repo.add_history(
            m, "delete", old=None, new=None, actor=self.actor, request_id=self.request_id
        )
        await self.repo.flush()
        return origin

    async def _active(self, memory_id: uuid.UUID, *, for_update: bool = False) -> Memory:
        m = await self.repo.get(memory_id, for_update=for_update)
        if m is None or m.status == "deleted":
            raise NotFound("no such memory")
        if m.status != "active":
            raise Conflict(
                f"the memory is {m.status}: only an active memory takes a new version "
                "(write a new memory instead)"
            )
        return m
