"""Arbitration: decide what a new fact does to what Memlane already knows.

Rules, in the order DESIGN.md gives them (docs/arbitration.md has a worked example of each):

1. ``duplicate``       same text, or same key and value, in the same scope -> no new row; the
                       existing one is refreshed (confirmations + 1, confidence up).
2. ``user_correction`` the user explicitly corrected ("我已经从…离职", "actually", "改喝…")
                       -> the old value is frozen, ``superseded_by`` the new one.
3. ``source_priority`` user_declared > form > behavior_observed > model_inferred: the lower
                       side is frozen (stored frozen when it is the new one).
4. ``newer_wins``      same source -> the later ``occurred_at`` (valid_from) wins, not arrival
                       order; an older fact arriving late is stored frozen, valid until the
                       current one began.
5. ``range``           keys with policy ``range`` (budgets) widen into "min–max" instead of
                       rule 4.
6. ``session_layer``   a session-scoped fact only conflicts inside its session; after it is
                       confirmed in N distinct sessions it is promoted to user scope.

Every decision writes an ``arbitrations`` row and every memory change a ``memory_history``
row, in the transaction that changes the memory. Losers are frozen, never deleted. The partial
unique index ``uq_memories_active_single_key`` makes "one active value per single-valued key"
hold under concurrent writers; the caller retries the unit of work on its violation.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from app.arbitration.keys import key_spec
from app.arbitration.values import resolve as resolve_values
from app.db.models import Arbitration, Memory
from app.db.models import memory_snapshot as snapshot
from app.kit.chinese import simplified
from app.kit.metrics import observe_arbitration
from app.kit.time import utcnow
from app.privacy.protect import masks_as_tokens
from app.recall.entities import memory_entities
from app.recall.text import index_text

SOURCE_RANK = {
    "user_declared": 4,
    "form": 4,
    "import": 3,
    # What a tool observed ("order shipped"): below the user's word, above behaviour and
    # inference (docs/sessions.md).
    "tool_observed": 2.5,
    "behavior_observed": 2,
    "model_inferred": 1,
}
CONFIRMATION_BOOST = 0.05
# what "left"/"离开" may name: a workplace, a home or a school ("Left Seattle in June" said with
# the verb of leaving a job withdraws the city it froze)
_LEFT_KEYS = frozenset(("work.employer", "work.location", "residence.city", "education.school"))
MAX_CONFIDENCE = 1.0
PROMOTE_AFTER_SESSIONS = 2
# A memory's metadata serialises to at most this many characters (JSON, ensure_ascii=False):
# the limit of a request's metadata (app/memories/schemas.py) and of a merge (merge_metadata).
MAX_METADATA_BYTES = 16_384
# what a withdrawal of a thing the user can have again ("I eat pork now", "现在能吃辣了") ends
LIFTED_KEYS = ("diet.avoid", "preference.dislikes")
# a place is a different fact under each of these keys: where the user is from is not where
# they live or work, so a place withdrawn under one ("我不是杭州人，老家在湖南") leaves the others
PLACE_KEYS = ("hometown", "residence.city", "work.location")

_NUMBER = re.compile(r"(\d+(?:\.\d+)?)\s*([万千百亿kKmM]?)")
_UNIT_FACTOR = {
    "": 1.0,
    "百": 1e2,
    "千": 1e3,
    "万": 1e4,
    "亿": 1e8,
    "k": 1e3,
    "K": 1e3,
    "m": 1e6,
    "M": 1e6,
}


def normalize_text(text: str) -> str:
    """NFKC, lower-case, collapsed white space, trailing punctuation removed."""
    text = unicodedata.normalize("NFKC", text).lower()
    text = re.sub(r"\s+", " ", text).strip()
    return text.rstrip("。.!！?？~～ ")


def same_value(a: str | None, b: str | None) -> bool:
    """Two stored values of one key say the same (compared case-insensitively, as the unique
    index ``uq_memories_active_value`` does, and in simplified characters: "雞蛋" is "鸡蛋");
    a missing value is the same as none."""
    return a is not None and b is not None and simplified(a).lower() == simplified(b).lower()


def content_hash(content: str) -> str:
    """SHA-256 hex of the normalised content: within one scope, equal hashes are duplicates."""
    return hashlib.sha256(normalize_text(content).encode()).hexdigest()


def fingerprint(content: str, sealed: Sequence[dict[str, Any]] = ()) -> tuple[str, str]:
    """``(content_hash, search_text)`` of a memory's stored (protected) content and its sealed
    entries: the hash that finds its duplicates (secrets told apart by their tokens, not their
    look-alike masks: ``masks_as_tokens``) and the segmented terms of its full-text search."""
    return content_hash(masks_as_tokens(content, sealed)), index_text(content)


def stored_value(value: str | None, sealed: Sequence[dict[str, Any]]) -> str | None:
    """A stored value as it compares with another of its key: a secret's mask as the secret's
    token ("******" and "******" are two passwords when their tokens differ)."""
    return masks_as_tokens(value, sealed) if value else value


def metadata_size(metadata: dict[str, Any]) -> int:
    """Characters of ``metadata`` serialised as JSON (``ensure_ascii=False``): what
    MAX_METADATA_BYTES limits."""
    return len(json.dumps(metadata, ensure_ascii=False))


def merge_metadata(
    old: dict[str, Any] | None, new: dict[str, Any] | None, *, limit: int = MAX_METADATA_BYTES
) -> tuple[dict[str, Any], list[str]]:
    """``(merged, dropped_keys)``: ``new`` over ``old`` (the newer value wins per field), kept
    within ``limit``: while the merge is too large, the keys only ``old`` has are dropped, its
    oldest first (insertion order). ``new`` itself is never cut (a request's metadata was held
    to the same limit at intake), so an accepted write is never dropped for its metadata."""
    old, new = dict(old or {}), dict(new or {})
    merged = {**old, **new}
    dropped: list[str] = []
    if metadata_size(merged) <= limit:
        return merged, dropped
    for k in [k for k in old if k not in new]:
        del merged[k]
        dropped.append(k)
        if metadata_size(merged) <= limit:
            break
    return merged, dropped


class MemoryStore(Protocol):
    """The memory rows arbitration reads and writes: one user's, in the caller's transaction
    (``app.memories.repository.MemoryRepository`` is the one implementation). Arbitration is
    handed it, so it imports nothing above the database layer."""

    tenant_id: uuid.UUID
    user_id: str

    async def active_duplicate(
        self, content_hash: str, scope: str, scope_id: str, key: str | None, value: str | None
    ) -> Memory | None: ...

    async def ended_session_twins(
        self, content_hash: str, key: str | None, value: str | None
    ) -> list[str]: ...

    async def active_with_keys(
        self, keys: Sequence[str], scope: str, scope_id: str, value: str | None = None
    ) -> list[Memory]: ...

    async def active_with_values(self, values: Sequence[str]) -> list[Memory]: ...

    async def held_before(self, keys: Sequence[str]) -> bool: ...

    async def active_keyless(self, scope: str, scope_id: str) -> list[Memory]: ...

    async def frozen_holding(
        self, key: str, scope: str, scope_id: str, at: datetime
    ) -> list[Memory]: ...

    async def next_valid_from(
        self, key: str, scope: str, scope_id: str, after: datetime
    ) -> datetime | None: ...

    async def active_formed_from(
        self, message_id: str, *, first: bool = False, for_update: bool = False
    ) -> list[Memory]: ...

    async def get(self, memory_id: uuid.UUID, *, for_update: bool = False) -> Memory | None: ...

    def add(self, memory: Memory) -> None: ...

    async def flush(self) -> None: ...

    def add_history(
        self,
        memory: Memory,
        action: str,
        *,
        old: dict[str, Any] | None,
        new: dict[str, Any] | None,
        actor: str,
        request_id: str | None,
    ) -> None: ...

    def add_arbitration(self, **fields: Any) -> Arbitration: ...


@dataclass(slots=True)
class Candidate:
    """A fact on its way into memory, with everything arbitration needs."""

    content: str
    type: str
    source: str
    confidence: float
    scope: str
    scope_id: str
    valid_from: datetime
    trigger: str  # explicit | extraction | import | promotion | correction
    key: str | None = None
    value: str | None = None
    is_correction: bool = False
    retracts: list[str] = field(default_factory=list)
    # The memory this write corrects, by id (a correction made in the vault or the API).
    corrects: uuid.UUID | None = None
    # Facts with no key that name a retracted value ("sold the Civic" → "drives a Civic"),
    # found by ``values.resolve``: frozen like the values in ``retracts``.
    retract_ids: list[uuid.UUID] = field(default_factory=list)
    # False under the session_only memory mode: a session fact never moves to user scope.
    promote: bool = True
    # The user asked to keep it ("记住", "remember this"): a session fact moves to user scope
    # now, without waiting for confirmation in other sessions (needs ``promote``).
    promote_now: bool = False
    valid_to: datetime | None = None
    origin: dict[str, Any] = field(default_factory=dict)
    metadata: dict[str, Any] = field(default_factory=dict)
    sealed: list[dict[str, Any]] = field(default_factory=list)
    embedding: list[float] | None = None
    embedding_model: str | None = None
    half_life_days: float | None = None
    content_hash: str = ""
    search_text: str = ""


@dataclass(slots=True)
class Outcome:
    """What one candidate did: the memories it created or touched, and the audit rows."""

    memories: list[Memory] = field(default_factory=list)
    arbitrations: list[Arbitration] = field(default_factory=list)


def _parse_amount(value: str | None) -> tuple[float, str] | None:
    if not value:
        return None
    m = _NUMBER.search(value)
    if not m:
        return None
    return float(m.group(1)) * _UNIT_FACTOR.get(m.group(2), 1.0), m.group(2)


def _format_amount(amount: float, unit: str) -> str:
    n = amount / _UNIT_FACTOR.get(unit, 1.0)
    return f"{int(n) if n == int(n) else n}{unit}"


class ArbitrationService:
    """Applies the rules for one user inside the caller's transaction (it only flushes)."""

    def __init__(
        self,
        repo: MemoryStore,
        *,
        actor: str,
        request_id: str | None,
        promote_after: int = PROMOTE_AFTER_SESSIONS,
    ):
        """``promote_after``: distinct sessions that promote a session fact to user scope
        (``settings.promote_after_sessions``)."""
        self.repo = repo
        self.actor = actor
        self.request_id = request_id
        self.trigger = "explicit"
        self.promote_after = promote_after

    async def apply(self, cand: Candidate) -> Outcome:
        """Arbitrate ``cand`` against the user's active memories and write the result.

        Returns the memories created or changed and the arbitration rows. Raises
        ``sqlalchemy.exc.IntegrityError`` when a concurrent writer won the single-key race
        (the caller retries the whole unit of work).
        """
        out = Outcome()
        self.trigger = cand.trigger
        # a take-back or a lifted avoidance ("Forget what I said about sushi", "现在能吃辣了")
        # only withdraws: its record states nothing of its own
        only_withdraws = bool(
            (cand.metadata or {}).get("takes_back_message") or (cand.metadata or {}).get("lifted")
        )
        # Meaning before strings: another spelling of a stored value, a switch, a new favourite.
        await resolve_values(self.repo, cand)
        if cand.trigger == "extraction" and cand.metadata:
            # what a fact stands instead of (the words its turn names as replaced) served the
            # reading above, which takes it from a keyed value it reads and leaves it where it
            # returns early (a value said again): it is no part of the memory
            cand.metadata.pop("instead_of", None)
        spec = key_spec(cand.key)  # after: a moved appointment keeps the key of what it moves,
        # a duty beside a role loses its key there
        if not cand.content_hash:
            cand.content_hash, cand.search_text = fingerprint(cand.content, cand.sealed)
        chash = cand.content_hash

        # Rule 1: duplicate -> refresh.
        value = stored_value(cand.value, cand.sealed)
        # a secret's mask says nothing of which secret it is: its twin is found by hash
        dup_value = cand.value if value == cand.value else None
        dup = await self.repo.active_duplicate(
            chash, cand.scope, cand.scope_id, cand.key, dup_value
        )
        if dup is not None and not cand.promote and dup.scope_id != cand.scope_id:
            dup = None  # a session twin counts toward promotion only; here it cannot happen
        if dup is None and cand.scope == "session" and cand.promote:
            # Already long-term knowledge: said again tentatively, it confirms the user's row.
            dup = await self.repo.active_duplicate(chash, "user", "", cand.key, dup_value)
            if dup is None and cand.promote_now:
                cand.scope, cand.scope_id = "user", ""  # "remember this": long-term at once
            elif dup is None:
                await self._confirmed_in_ended_sessions(cand, chash)
        if dup is not None:
            await self._refresh(dup, cand, out)
            await self._withdrawn_beside(dup, cand, out)
            return out

        single = spec is not None and spec.cardinality == "single"
        same_key: list[Memory] = []
        if spec is not None and (single or cand.value is not None):
            # The active rows of the key in the exact scope the new row takes (the lookup of
            # rule 1 may have passed a twin over: another session's, a value-less one). The
            # same value is this fact again: refreshed. Of a single-valued key, every other
            # row — a value-less one too — is a conflict: none may stay active beside the new
            # row (uq_memories_active_single_key; uq_memories_active_value for the others).
            same_key = await self.repo.active_with_keys([spec.name], cand.scope, cand.scope_id)
            twin = next(
                (m for m in same_key if same_value(stored_value(m.value, m.sealed), value)), None
            )
            if twin is not None:
                await self._refresh(twin, cand, out)
                await self._withdrawn_beside(twin, cand, out)
                return out
        new = self._new_memory(cand, chash, single=single)
        conflicts: list[Memory] = list(same_key) if single else []
        if cand.value is None and cand.retracts and cand.metadata.get("retraction"):
            # a withdrawal that names what it withdraws ("I'm not vegan" with "vegetarian"
            # stored) conflicts with that only: matched by value below
            conflicts = []
        if spec is not None and spec.opposes and cand.value is not None:
            conflicts += await self.repo.active_with_keys(
                list(spec.opposes), cand.scope, cand.scope_id, cand.value
            )
        if cand.is_correction and cand.retracts:
            norm = [r for r in cand.retracts if r]
            # a withdrawal does not withdraw what its own turn states ("我不是北京人，只是在北京
            # 上班" keeps 北京 as the work place)
            said_now = (
                set((cand.origin or {}).get("message_ids") or []) if cand.value is None else set()
            )
            conflicts += [
                m
                for m in await self.repo.active_with_values(norm)
                if m not in conflicts
                and not said_now & set((m.origin or {}).get("message_ids") or [])
                # what can be had again was avoided or disliked, not liked ("I eat pork now")
                and (m.key in LIFTED_KEYS or not (cand.metadata or {}).get("lifted"))
                and not (cand.key in PLACE_KEYS and m.key in PLACE_KEYS and m.key != cand.key)
            ]
            if spec is not None and spec.type == "constraint":
                # a rule-like key ("not allergic to penicillin after all") withdraws its own
                # values only; other constraints never match a retraction by value
                own = await self.repo.active_with_keys([spec.name], cand.scope, cand.scope_id)
                conflicts += [
                    m
                    for m in own
                    if any(same_value(m.value, r) for r in norm) and m not in conflicts
                ]
        if cand.is_correction:
            conflicts += [
                m for m in await self._active_by_id(cand.retract_ids) if m not in conflicts
            ]
        if cand.is_correction and cand.corrects is not None:
            named = await self.repo.get(cand.corrects, for_update=True)
            if named is not None and named.status == "active" and named not in conflicts:
                conflicts.append(named)

        if cand.is_correction:
            conflicts += [m for m in await self._pet_kinds(conflicts, cand) if m not in conflicts]

        new_loses_to: Memory | None = None
        lost_by = ""
        losers: list[tuple[Memory, str, str]] = []
        for old in conflicts:
            rule, winner_is_new, reason = self._decide(cand, old, spec)
            if rule == "range":
                merged = self._range_value(old, cand)
                if merged is not None:
                    new.value, new.content = merged
                    new.content_hash, new.search_text = fingerprint(new.content, new.sealed)
                    new.entities = memory_entities(new.content)
            if winner_is_new:
                losers.append((old, rule, reason))
            else:
                new_loses_to, lost_by = old, rule
                losers.clear()
                self._audit(out, new, old, rule, "new_frozen", reason)
                break

        # Freeze the losers before inserting the winner: the single-key unique index only
        # admits the new active row once the old one is frozen.
        for old, rule, reason in losers:
            await self._freeze(old, new, rule, reason, out, flush=False)
        if losers:
            new.supersedes = losers[0][0].id
            self._file_withdrawal(new, [old for old, _, _ in losers])
            await self.repo.flush()

        if new_loses_to is not None:
            new.status = "frozen"
            new.superseded_by = new_loses_to.id
            new.superseded_at = utcnow()
            new.valid_to = max(new_loses_to.valid_from, new.valid_from)
            if single and lost_by == "newer_wins" and new.key and new_loses_to.key == new.key:
                # an earlier value of the key told late: it takes its place in the timeline
                await self._fit_earlier(new, new.key, out)
        elif (
            (not conflicts or only_withdraws or new.key is None or await self._said_beside(new))
            and new.value is None
            and (cand.metadata or {}).get("retraction")
        ):
            # a withdrawal that found nothing to withdraw, or that only withdraws, says nothing
            # of its own: kept for the record, not listed as active nor recalled (the turn's
            # episode holds its words) — no empty liking or avoidance stays beside the facts;
            # nor one with no key to file it under ("sold the guitar" after "plays the guitar")
            new.status = "archived"
            if not conflicts:
                self._audit(
                    out, new, None, "no_conflict", "stored", "nothing to withdraw: archived"
                )
        elif not conflicts:
            self._audit(
                out, new, None, "no_conflict", "stored", "no active memory conflicts with it"
            )
        self.repo.add(new)
        self._history(new, "create", None)
        await self.repo.flush()
        out.memories.insert(0, new)
        return out

    async def supersede(self, old: Memory, cand: Candidate) -> Outcome:
        """The user corrected ``old`` itself (a new version of it): ``old`` is frozen and
        superseded by what ``cand`` becomes — a new memory, or the active one that already
        says the same (refreshed). Rule ``user_correction``; audited like ``apply``."""
        before = snapshot(old)
        now = utcnow()
        old.status, old.superseded_at, old.updated_at = "frozen", now, now
        old.valid_to = max(cand.valid_from, old.valid_from)
        await self.repo.flush()  # frozen before the new version takes its unique slot
        out = await self.apply(cand)
        winner = next((m for m in out.memories if m.status == "active"), out.memories[0])
        old.superseded_by = winner.id
        if winner.supersedes is None and winner.created_at >= now:
            winner.supersedes = old.id
        self._history(old, "supersede", before)
        self._audit(out, winner, old, "user_correction", "superseded", "the user edited the memory")
        out.memories.append(old)
        await self.repo.flush()
        return out

    async def restore(
        self,
        cand: Candidate,
        *,
        memory_id: uuid.UUID,
        superseded_by: uuid.UUID | None,
        supersedes: uuid.UUID | None,
        superseded_at: datetime | None,
        confirmations: int,
    ) -> Outcome:
        """Store a retired memory as it was recorded elsewhere: frozen, with the given id and
        links, not arbitrated (rule ``import_chain``, outcome ``superseded``)."""
        self.trigger = cand.trigger
        out = Outcome()
        if not cand.content_hash:
            cand.content_hash, cand.search_text = fingerprint(cand.content, cand.sealed)
        spec = key_spec(cand.key)
        new = self._new_memory(
            cand, cand.content_hash, single=spec is not None and spec.cardinality == "single"
        )
        new.id, new.status = memory_id, "frozen"
        new.superseded_by, new.supersedes = superseded_by, supersedes
        new.superseded_at = superseded_at or utcnow()
        new.confirmations = max(1, confirmations)
        self.repo.add(new)
        self._history(new, "create", None)
        observe_arbitration("import_chain", "superseded")
        out.arbitrations.append(
            self.repo.add_arbitration(
                new_memory_id=superseded_by,
                existing_memory_id=new.id,
                trigger=self.trigger,
                rule="import_chain",
                outcome="superseded",
                reason="restored as recorded: superseded"
                + (" by a memory imported with it" if superseded_by else ""),
                actor=self.actor,
                request_id=self.request_id,
            )
        )
        out.memories.append(new)
        await self.repo.flush()
        return out

    def _decide(self, cand: Candidate, old: Memory, spec: Any) -> tuple[str, bool, str]:
        """(rule, does the new fact win, reason) for one conflict."""
        if cand.is_correction:
            return "user_correction", True, "the user explicitly corrected the earlier statement"
        new_rank, old_rank = SOURCE_RANK.get(cand.source, 0), SOURCE_RANK.get(old.source, 0)
        if new_rank != old_rank:
            wins = new_rank > old_rank
            return (
                "source_priority",
                wins,
                f"source {cand.source} {'outranks' if wins else 'ranks below'} {old.source}",
            )
        if spec is not None and spec.policy == "range" and old.key == cand.key:
            return "range", True, "numeric key with range policy: values widen into a range"
        wins = cand.valid_from >= old.valid_from
        return (
            "newer_wins",
            wins,
            "same source; the later occurred_at wins"
            + ("" if wins else " (the new fact describes an earlier time)"),
        )

    def _range_value(self, old: Memory, cand: Candidate) -> tuple[str, str] | None:
        a, b = _parse_amount(old.value), _parse_amount(cand.value)
        if a is None or b is None:
            return None
        prior = (old.metadata_ or {}).get("range")
        lo_hi = [a[0], b[0]] + ([float(prior[0]), float(prior[1])] if prior else [])
        lo, hi = min(lo_hi), max(lo_hi)
        unit = b[1] or a[1]
        if lo == hi:
            return None
        value = f"{_format_amount(lo, unit)}–{_format_amount(hi, unit)}"
        label = (
            cand.content.split(str(cand.value))[0]
            if cand.value and cand.value in cand.content
            else ""
        )
        label = re.sub(r"(最多|最少|至少|大概|大约|约)$", "", label).strip() or (cand.key or "")
        cand.metadata["range"] = [lo, hi]
        return value, f"{label}{value}"

    async def _confirmed_in_ended_sessions(self, cand: Candidate, chash: str) -> None:
        """A tentative fact whose earlier statements were archived with their ended sessions
        (POST …/sessions/{id}/end) counts those sessions as confirmations: ``origin.sessions``
        lists them, and at ``promote_after`` sessions the fact is stored in user scope, where it
        is arbitrated against the user's value like any new statement (newer wins)."""
        earlier = await self.repo.ended_session_twins(chash, cand.key, cand.value)
        if not earlier:
            return
        sessions = list(dict.fromkeys([*earlier, *cand.origin.get("sessions", []), cand.scope_id]))
        cand.origin = {**cand.origin, "sessions": sessions}
        if len(sessions) >= self.promote_after:
            cand.scope, cand.scope_id = "user", ""

    async def _said_beside(self, new: Memory) -> bool:
        """True if the message of withdrawal ``new`` also states a value under its key ("No, I
        don't use Vim, I use Emacs"): what holds now is that value, the record says nothing
        more."""
        if new.key is None:
            return False
        for message_id in (new.origin or {}).get("message_ids") or []:
            formed = await self.repo.active_formed_from(message_id)
            if any(m.key == new.key and m.value is not None and m.id != new.id for m in formed):
                return True
        return False

    def _history(self, row: Memory, action: str, before: dict[str, Any] | None) -> None:
        """One history row for ``row``: its state ``before`` the change (None when created)
        and now, by this service's actor and request."""
        self.repo.add_history(
            row, action, old=before, new=snapshot(row), actor=self.actor, request_id=self.request_id
        )

    async def _freeze(
        self, old: Memory, winner: Memory, rule: str, reason: str, out: Outcome, flush: bool = True
    ) -> None:
        """Retire ``old`` in favour of ``winner``: frozen, never deleted, valid until the winner
        began."""
        before = snapshot(old)
        now = utcnow()
        old.status, old.superseded_by, old.superseded_at, old.updated_at = (
            "frozen",
            winner.id,
            now,
            now,
        )
        old.valid_to = max(winner.valid_from, old.valid_from)
        self._history(old, "supersede", before)
        self._audit(out, winner, old, rule, "superseded", reason)
        out.memories.append(old)
        if flush:
            await self.repo.flush()

    async def _fit_earlier(self, new: Memory, key: str, out: Outcome) -> None:
        """Place ``new``, a value of its single-valued ``key`` that began before the active one
        and arrives late (stored frozen, rule ``newer_wins``), in the key's timeline, so no
        two values hold at one time (docs/time.md):

        - it holds until the next value of the key began — the earliest later ``valid_from``
          among the key's rows in its scope, not necessarily the active one's
          ("Hamburg" from March, "Cologne" from January, then "Bonn" from February: Bonn
          ends in March);
        - the frozen value it began inside ends where it begins and is superseded by it
          (Cologne: valid until February, ``superseded_by`` Bonn), with a ``supersede``
          history row and a ``newer_wins / superseded`` decision.

        ``new`` is not yet added to the session; the frozen rows it cuts are locked."""
        ends = await self.repo.next_valid_from(key, new.scope, new.scope_id, after=new.valid_from)
        if ends is not None:
            new.valid_to = ends
        now = utcnow()
        for old in await self.repo.frozen_holding(key, new.scope, new.scope_id, at=new.valid_from):
            before = snapshot(old)
            old.valid_to, old.superseded_by, old.updated_at = new.valid_from, new.id, now
            if new.supersedes is None:
                new.supersedes = old.id
            self._history(old, "supersede", before)
            self._audit(
                out,
                new,
                old,
                "newer_wins",
                "superseded",
                "same source; a value told later began while this one held: "
                "this one held until it began",
            )
            out.memories.append(old)

    async def _active_by_id(self, ids: Sequence[uuid.UUID]) -> list[Memory]:
        """The active memories of ``ids`` (each once, in order), locked for update."""
        found = [await self.repo.get(i, for_update=True) for i in dict.fromkeys(ids)]
        return [m for m in found if m is not None and m.status == "active"]

    async def _withdrawn_beside(self, kept: Memory, cand: Candidate, out: Outcome) -> None:
        """A correction that states a value already held still withdraws what it names ("not
        writing Go anymore, Python is still my main thing" with Python and Go held: Go is
        frozen, superseded by the Python row it confirmed): the active memories of the same
        key whose value it retracts, and those it names by id (``retract_ids``)."""
        if not cand.is_correction or not (cand.retracts or cand.retract_ids):
            return
        norm = [r for r in cand.retracts if r]
        named = [
            m
            for m in (await self.repo.active_with_values(norm) if norm else [])
            if m.key == kept.key
        ]
        named += await self._active_by_id(cand.retract_ids)
        done: set[uuid.UUID] = {kept.id}
        for old in named:
            if old.id in done:
                continue
            done.add(old.id)
            await self._freeze(
                old,
                kept,
                "user_correction",
                "the user explicitly corrected the earlier statement",
                out,
            )

    async def _refresh(self, dup: Memory, cand: Candidate, out: Outcome) -> None:
        before = snapshot(dup)
        dup.confirmations += 1
        dup.confidence = min(
            MAX_CONFIDENCE, max(dup.confidence, cand.confidence) + CONFIRMATION_BOOST
        )
        dup.updated_at = utcnow()
        dropped: list[str] = []
        if cand.metadata:
            # The same fact said again with more context: the newer metadata is kept too,
            # within the limit of one memory's metadata (the newest keys win).
            dup.metadata_, dropped = merge_metadata(dup.metadata_, cand.metadata)
        if (dup.metadata_ or {}).get("formed_by") and not (cand.metadata or {}).get("formed_by"):
            # A guess (formed_by: classifier) said again in words a rule reads is no guess now.
            dup.metadata_ = {k: v for k, v in dup.metadata_.items() if k != "formed_by"}
        sessions = list(
            dict.fromkeys(
                [
                    *dup.origin.get("sessions", []),
                    *([dup.scope_id] if dup.scope == "session" else []),
                    *cand.origin.get("sessions", []),
                    *([cand.scope_id] if cand.scope == "session" else []),
                ]
            )
        )
        dup.origin = {
            **dup.origin,
            "sessions": sessions,
            "message_ids": list(
                dict.fromkeys(
                    [*dup.origin.get("message_ids", []), *cand.origin.get("message_ids", [])]
                )
            ),
        }
        rule, reason = "duplicate", "the same fact was already known; confirmed again"
        if SOURCE_RANK.get(cand.source, 0) > SOURCE_RANK.get(dup.source, 0):
            # Confirmed by a better source (a user confirming an inferred fact): it now rests
            # on that source.
            reason = f"the same fact, now from {cand.source} (was {dup.source}); source raised"
            dup.source = cand.source
            dup.metadata_ = {k: v for k, v in (dup.metadata_ or {}).items() if k != "inferred"}
        held = (
            await self.repo.active_with_keys([dup.key], "user", "")
            if cand.promote and dup.scope == "session" and dup.single_valued and dup.key
            else []
        )
        said_last = max(dup.valid_from, cand.valid_from)
        if (
            cand.promote
            and dup.scope == "session"
            and (len(sessions) >= self.promote_after or cand.promote_now)
            # Newer wins (rule 4) across the layers too: a user-scope value stated after every
            # statement of the session fact is the user's later word; it stays, and so does
            # the session fact, in its session.
            and not any(old.valid_from > said_last for old in held)
        ):
            if dup.key is not None:
                # The promoted value replaces the user-scope value of the same key; of a key
                # that holds several values, the user-scope row of the same value (one active
                # row per value: uq_memories_active_value).
                for old in await self.repo.active_with_keys([dup.key], "user", ""):
                    if old.id != dup.id and (dup.single_valued or same_value(old.value, dup.value)):
                        await self._freeze(
                            old, dup, "session_layer", "replaced by a promoted session fact", out
                        )
            dup.scope, dup.scope_id = "user", ""
            rule, reason = (
                "session_layer",
                f"confirmed in {len(sessions)} sessions: promoted to user scope"
                if len(sessions) >= self.promote_after
                else "the user asked to remember it: promoted to user scope",
            )
        if dropped:
            reason += (
                f"; merged metadata over {MAX_METADATA_BYTES} characters: older keys dropped: "
                + ", ".join(dropped)
            )[:1000]
        self._history(dup, "refresh", before)
        self._audit(out, None, dup, rule, "refreshed", reason)
        out.memories.append(dup)
        await self.repo.flush()

    def new_row(self, cand: Candidate) -> Memory:
        """The active row ``cand`` becomes when it is stored as it is, not arbitrated (an
        episode: a verbatim turn holds no key to conflict on). Not yet added to the session."""
        return self._new_memory(cand, cand.content_hash, single=False)

    async def _pet_kinds(self, conflicts: Sequence[Memory], cand: Candidate) -> list[Memory]:
        """The kind of each pet whose name a correction gives up ("we had to put Biscuit down"
        after "my dog Biscuit is 14"): the active ``pets.kind`` memories formed by the message
        that named it: the kind said with the name (``metadata["kind"]``: "a dog named Rex"),
        else any kind when that message named one pet only — not the kind the candidate itself
        states. A pet named anew ("打错了，是 Mocha，not Mochi") gives up no pet: none."""
        if cand.key == "pets.name" and cand.value is not None:
            return []
        out: list[Memory] = []
        for named in conflicts:
            if named.key != "pets.name" or not (named.origin or {}).get("message_ids"):
                continue
            formed = await self.repo.active_formed_from(
                str(named.origin["message_ids"][0]), first=True, for_update=True
            )
            kind = (named.metadata_ or {}).get("kind")
            alone = len([m for m in formed if m.key == "pets.name"]) <= 1
            out += [
                m
                for m in formed
                if m.key == "pets.kind"
                and not same_value(m.value, cand.value)
                and (same_value(m.value, kind) if kind else alone)
            ]
        return out

    @staticmethod
    def _file_withdrawal(new: Memory, withdrawn: list[Memory]) -> None:
        """A record that only withdraws ("the Japan trip is off", "that was a lie, I don't use
        Vim") takes the key of what it withdrew when that is one key, so the key's history
        reads as the value followed by its withdrawal; it keeps no value, and its words are
        the user's; of two keys of one family (a pet's name and kind), the first it named;
        keyless memories beside them count for none. Withdrawals of several families stay
        keyless. A withdrawal keyed by the verb
        that gave the value up ("gave up keto" → ``diet.avoid``) that withdrew a value of one
        other key of the same family ("keto" under ``diet.style``) takes that key."""
        if new.value is not None:
            return
        if new.key is not None and not (new.metadata_ or {}).get("retraction"):
            return
        # a keyless memory has no history of its own to file under ("son Leo started school"
        # beside the son's name), and one thing seen under two keys of a family (a pet's name
        # and kind) is filed under the key the withdrawal named first
        keys = {m.key for m in withdrawn if m.key is not None}
        if len({k.split(".")[0] for k in keys}) != 1 or new.key in keys:
            return
        key = next(m.key for m in withdrawn if m.key is not None)
        if (
            new.key is not None
            and key.split(".")[0] != new.key.split(".")[0]
            and key not in _LEFT_KEYS
        ):
            # "don't use Jenkins" (tech) that froze a liking stays the tool's; one that froze
            # an employer, a city or a school ("Left Netflix last year") files under it
            return
        spec = key_spec(key)
        if spec is None:
            return
        new.key, new.type, new.single_valued = key, spec.type, spec.cardinality == "single"

    def _new_memory(self, cand: Candidate, chash: str, *, single: bool) -> Memory:
        now = utcnow()
        return Memory(
            tenant_id=self.repo.tenant_id,
            id=uuid.uuid4(),
            user_id=self.repo.user_id,
            scope=cand.scope,
            scope_id=cand.scope_id,
            type=cand.type,
            key=cand.key,
            value=cand.value,
            content=cand.content,
            search_text=cand.search_text,
            entities=memory_entities(cand.content),
            source=cand.source,
            confidence=cand.confidence,
            status="active",
            single_valued=single,
            confirmations=1,
            half_life_days=cand.half_life_days,
            embedding=cand.embedding,
            embedding_model=cand.embedding_model,
            content_hash=chash,
            origin=cand.origin,
            metadata_=cand.metadata,
            sealed=cand.sealed,
            valid_from=cand.valid_from,
            valid_to=cand.valid_to,
            created_at=now,
            updated_at=now,
            access_count=0,
        )

    def _audit(
        self,
        out: Outcome,
        new: Memory | None,
        old: Memory | None,
        rule: str,
        outcome: str,
        reason: str,
    ) -> None:
        observe_arbitration(rule, outcome)
        out.arbitrations.append(
            self.repo.add_arbitration(
                new_memory_id=new.id if new is not None else None,
                existing_memory_id=old.id if old is not None else None,
                trigger=self.trigger,
                rule=rule,
                outcome=outcome,
                reason=reason,
                actor=self.actor,
                request_id=self.request_id,
            )
        )
