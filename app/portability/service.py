"""Export and import of one user's memories.

Export streams one JSON document in keyset pages from one read-only snapshot: the server never
holds the whole user in memory. Import replays the document's active and frozen memories
through arbitration (trigger ``import``), oldest ``valid_from`` first, so the rules decide
against the target user's own memories exactly as if the facts had arrived in their order.
Replaying history reproduces the document's supersession chains; what it cannot reproduce (a
frozen entry no rule would freeze here) is kept by a last pass, rule ``import_chain``.
docs/portability.md explains the format and every decision.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections import Counter, defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from functools import partial
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.arbitration.service import ArbitrationService, Candidate, content_hash
from app.db.models import Arbitration, Memory, MemoryHistory, Message
from app.kit.errors import Conflict, ServiceUnavailable
from app.kit.metrics import observe_arbitration
from app.kit.time import utcnow
from app.memories.repository import MemoryRepository, snapshot
from app.portability.repository import MessageCursor, PortabilityRepository
from app.portability.schemas import (
    SCHEMA_VERSION,
    ExportDocument,
    ExportedHistoryEntry,
    ExportedMemory,
    ExportedMessage,
    ImportDecision,
    ImportResult,
    OutcomeCounts,
)
from app.privacy.protect import (
    SECRET_KEYS,
    Privacy,
    embedding_text,
    merge_sealed,
    owner_of,
)
from app.providers.embeddings import EmbeddingError
from app.users.service import UserService

if TYPE_CHECKING:
    from app.runtime import Runtime

EXPORT_PAGE_SIZE = 500
# Memories arbitrated per transaction: small enough to keep locks and a retry short, large
# enough to embed in few calls.
IMPORT_BATCH_SIZE = 200
IMPORT_MESSAGE_BATCH_SIZE = 1000
RACE_RETRIES = 5
ACTOR = "import"


def exported_memory(
    m: Memory, history: Sequence[MemoryHistory], privacy: Privacy
) -> ExportedMemory:
    """The document entry of a stored memory, as its owner sees it: personal values in the
    clear (the import seals them again for its target), secrets masked. Built without
    validation: a row stored before a limit was tightened must not break an export half-way
    through its stream (the import validates)."""
    owner = owner_of(m.tenant_id, m.user_id)
    return ExportedMemory.model_construct(
        id=m.id,
        content=privacy.reveal_personal(m.content, m.sealed, owner) or "",
        type=m.type,
        key=m.key,
        value=privacy.reveal_personal(m.value, m.sealed, owner),
        source=m.source,
        confidence=m.confidence,
        status=m.status,
        scope=m.scope,
        scope_id=m.scope_id or None,
        supersedes=m.supersedes,
        superseded_by=m.superseded_by,
        confirmations=m.confirmations,
        metadata=m.metadata_ or {},
        origin=m.origin or {},
        valid_from=m.valid_from,
        valid_to=m.valid_to,
        created_at=m.created_at,
        updated_at=m.updated_at,
        superseded_at=m.superseded_at,
        history=[
            ExportedHistoryEntry.model_construct(
                action=h.action, old=h.old, new=h.new, actor=h.actor, created_at=h.created_at
            )
            for h in history
        ],
    )


def exported_message(m: Message, privacy: Privacy) -> ExportedMessage:
    return ExportedMessage.model_construct(
        session_id=m.session_id,
        task_id=m.task_id,
        role=m.role,
        content=privacy.reveal_personal(m.content, m.sealed, owner_of(m.tenant_id, m.user_id))
        or "",
        # In the sender's own offset: "tomorrow at 3" keeps meaning where the user was.
        occurred_at=m.occurred_at.astimezone(timezone(timedelta(minutes=m.utc_offset_minutes))),
        metadata=m.metadata_ or {},
    )


@dataclass
class _Progress:
    """What an import did so far; a batch works on a copy, kept only if it commits."""

    mapping: dict[uuid.UUID, uuid.UUID] = field(default_factory=dict)  # document id -> here
    created: set[uuid.UUID] = field(default_factory=set)  # memories this import wrote
    decisions: list[ImportDecision] = field(default_factory=list)
    messages_imported: int = 0

    def copy(self) -> _Progress:
        return _Progress(
            dict(self.mapping), set(self.created), list(self.decisions), self.messages_imported
        )


class PortabilityService:
    def __init__(self, rt: Runtime, tenant_id: uuid.UUID, user_id: str):
        self.rt = rt
        self.tenant_id = tenant_id
        self.user_id = user_id
        # A dry run leaves the arbitration metrics alone where this module writes them.
        self.dry_run = False

    # --- export ----------------------------------------------------------------------------

    async def count_memories(self) -> int:
        async with self.rt.scoped(self.tenant_id, self.user_id) as session:
            return await PortabilityRepository(
                session, self.tenant_id, self.user_id
            ).count_memories()

    async def export_chunks(self, *, include_messages: bool) -> AsyncIterator[bytes]:
        """The export document as UTF-8 chunks, one per page of EXPORT_PAGE_SIZE rows.

        Shape: ``{"schema_version": 1, "exported_at", "tenant_id", "user_id", "memories": [
        one memory per line ], "messages": [one per line]}`` (messages only when asked).
        """
        user_settings = await UserService(self.rt, self.tenant_id).get_settings(self.user_id)
        header = {
            "schema_version": SCHEMA_VERSION,
            "exported_at": utcnow().isoformat(),
            "tenant_id": str(self.tenant_id),
            "user_id": self.user_id,
            "settings": user_settings.model_dump(include={"memory_mode", "retention_days"}),
        }
        yield (json.dumps(header, ensure_ascii=False)[:-1] + ',"memories":[').encode()
        async with self.rt.scoped(self.tenant_id, self.user_id) as session:
            repo = PortabilityRepository(session, self.tenant_id, self.user_id)
            await repo.begin_snapshot()
            first = True
            after: tuple[datetime, uuid.UUID] | None = None
            while True:
                rows = await repo.memory_page(after, EXPORT_PAGE_SIZE)
                if not rows:
                    break
                history: dict[uuid.UUID, list[MemoryHistory]] = defaultdict(list)
                for h in await repo.history_of([m.id for m in rows]):
                    history[h.memory_id].append(h)
                parts = []
                # One memory per line, each line starting with schemas.MEMORY_MARKER.
                for m in rows:
                    parts.append(
                        ("\n" if first else ",\n")
                        + exported_memory(m, history[m.id], self.rt.privacy).model_dump_json()
                    )
                    first = False
                yield "".join(parts).encode()
                after = (rows[-1].created_at, rows[-1].id)
                session.expunge_all()  # keep one page in memory, not the user
                if len(rows) < EXPORT_PAGE_SIZE:
                    break
            yield b"\n]"
            if include_messages:
                yield b',"messages":['
                first = True
                cursor: MessageCursor | None = None
                while True:
                    messages = await repo.message_page(cursor, EXPORT_PAGE_SIZE)
                    if not messages:
                        break
                    parts = []
                    for msg in messages:
                        parts.append(
                            ("\n" if first else ",\n")
                            + exported_message(msg, self.rt.privacy).model_dump_json()
                        )
                        first = False
                    yield "".join(parts).encode()
                    last = messages[-1]
                    cursor = (last.session_id, last.occurred_at, last.seq)
                    session.expunge_all()
                    if len(messages) < EXPORT_PAGE_SIZE:
                        break
                yield b"\n]"
            await session.rollback()
        yield b"}\n"

    # --- import ----------------------------------------------------------------------------

    async def import_document(
        self, doc: ExportDocument, *, dry_run: bool, request_id: str | None
    ) -> ImportResult:
        """Arbitrate the document's memories into this user and write its messages.

        Every memory is written for ``(self.tenant_id, self.user_id)``; the document's own
        tenant and user are not used. With ``dry_run`` the same work runs in one transaction
        that is rolled back (and nothing is embedded). Otherwise each batch of
        IMPORT_BATCH_SIZE memories is its own transaction: an import that fails half-way can be
        run again, since importing known memories only refreshes them.

        Raises Conflict (409) when concurrent writes to the same keys kept winning, and
        ServiceUnavailable (503) when the embedding provider failed.
        """
        # Sensitive values are sealed for the target user before anything is written.
        privacy, owner = self.rt.privacy, owner_of(self.tenant_id, self.user_id)
        self.sealed: dict[uuid.UUID, list[dict[str, Any]]] = {}
        entries = []
        for m in doc.memories:
            if m.status not in ("active", "frozen"):
                continue
            content = privacy.protect(m.content, owner)
            value = (
                privacy.protect(m.value, owner, whole_secret=SECRET_KEYS.get(m.key or ""))
                if m.value
                else None
            )
            self.sealed[m.id] = merge_sealed(content.sealed, value.sealed if value else [])
            entries.append(
                m.model_copy(
                    update={"content": content.text, "value": value.text if value else None}
                )
            )
        entries.sort(key=lambda m: (m.valid_from, m.created_at))
        self.dry_run = dry_run
        progress = _Progress()
        async with self.rt.scoped(self.tenant_id, self.user_id) as session:
            for start in range(0, len(entries), IMPORT_BATCH_SIZE):
                batch = entries[start : start + IMPORT_BATCH_SIZE]
                embeddings = None if dry_run else await self._embed(batch)
                await self._unit(
                    session,
                    dry_run,
                    progress,
                    partial(self._arbitrate, session, batch, embeddings, request_id),
                )
            await self._unit(
                session, dry_run, progress, partial(self._keep_chains, session, entries, request_id)
            )
            messages = doc.messages or []
            for start in range(0, len(messages), IMPORT_MESSAGE_BATCH_SIZE):
                chunk = messages[start : start + IMPORT_MESSAGE_BATCH_SIZE]
                await self._unit(
                    session, dry_run, progress, partial(self._write_messages, session, chunk)
                )
            if dry_run:
                await session.rollback()
        if doc.settings is not None and not dry_run:
            await UserService(self.rt, self.tenant_id).put_settings(
                self.user_id, doc.settings, actor="import", request_id=request_id
            )

        outcomes = Counter(d.outcome for d in progress.decisions)
        return ImportResult(
            dry_run=dry_run,
            memories_in_document=len(doc.memories),
            imported=len(entries),
            created=len(progress.created),
            skipped=len(doc.memories) - len(entries),
            outcomes=OutcomeCounts.model_validate(dict(outcomes)),
            rules=dict(Counter(d.rule for d in progress.decisions)),
            decisions=progress.decisions,
            messages_in_document=len(messages),
            messages_imported=progress.messages_imported,
            settings_imported=doc.settings is not None and not dry_run,
        )

    async def _embed(self, batch: list[ExportedMemory]) -> list[list[float]]:
        try:
            return await self.rt.embedder.embed_passages([embedding_text(m.content) for m in batch])
        except EmbeddingError as exc:
            raise ServiceUnavailable(
                f"the embedding provider failed ({exc}); the batches before this one are "
                "imported: run the import again to finish it"
            ) from exc

    async def _unit(
        self,
        session: AsyncSession,
        dry_run: bool,
        progress: _Progress,
        work: Callable[[_Progress], Awaitable[None]],
    ) -> None:
        """Run ``work`` as one unit: committed (retried when a concurrent writer won a
        single-key race), or in a dry run only flushed into the one transaction."""
        for attempt in range(1 if dry_run else RACE_RETRIES):
            trial = progress.copy()
            try:
                await work(trial)
                await session.flush()
                if not dry_run:
                    await session.commit()
            except IntegrityError as exc:
                await session.rollback()
                if dry_run or attempt == RACE_RETRIES - 1:
                    raise Conflict(
                        "concurrent writes to this user's memories kept conflicting with the "
                        "import; run it again"
                    ) from exc
                await asyncio.sleep(0.01 * (attempt + 1))
                continue
            progress.mapping, progress.created = trial.mapping, trial.created
            progress.decisions, progress.messages_imported = (
                trial.decisions,
                trial.messages_imported,
            )
            session.expunge_all()  # keep one batch in memory, not the user
            return

    async def _arbitrate(
        self,
        session: AsyncSession,
        batch: list[ExportedMemory],
        embeddings: list[list[float]] | None,
        request_id: str | None,
        progress: _Progress,
    ) -> None:
        memories = MemoryRepository(session, self.tenant_id, self.user_id)
        repo = PortabilityRepository(session, self.tenant_id, self.user_id)
        arbiter = ArbitrationService(memories, actor=ACTOR, request_id=request_id)
        for i, entry in enumerate(batch):
            scope_id = entry.scope_id or ""
            chash = content_hash(entry.content)
            known = await repo.known_frozen(
                scope=entry.scope,
                scope_id=scope_id,
                content_hash=chash,
                key=entry.key,
                value=entry.value,
                valid_from=entry.valid_from,
            )
            if known is not None:
                # The same retired fact is already here (a second import of one document):
                # confirm it, leave it frozen. Arbitration only looks at active memories.
                progress.mapping[entry.id] = known.id
                progress.decisions.append(self._confirm_known(memories, known, entry, request_id))
                continue
            outcome = await arbiter.apply(
                Candidate(
                    content=entry.content,
                    type=entry.type,
                    source=entry.source,
                    confidence=entry.confidence,
                    scope=entry.scope,
                    scope_id=scope_id,
                    valid_from=entry.valid_from,
                    valid_to=entry.valid_to,
                    trigger="import",
                    key=entry.key,
                    value=entry.value,
                    origin={
                        **entry.origin,
                        "imported_from": {
                            "memory_id": str(entry.id),
                            "created_at": entry.created_at.isoformat(),
                        },
                    },
                    metadata=dict(entry.metadata),
                    sealed=self.sealed.get(entry.id, []),
                    embedding=embeddings[i] if embeddings is not None else None,
                    embedding_model=self.rt.embedder.model if embeddings is not None else None,
                )
            )
            refreshed = next((a for a in outcome.arbitrations if a.outcome == "refreshed"), None)
            if refreshed is not None and refreshed.existing_memory_id is not None:
                progress.mapping[entry.id] = refreshed.existing_memory_id
            else:
                new = outcome.memories[0]
                # How often the user confirmed it travels with it (forgetting spares confirmed
                # memories).
                new.confirmations = max(new.confirmations, entry.confirmations)
                progress.mapping[entry.id] = new.id
                progress.created.add(new.id)
            progress.decisions += [_decision(entry.id, a) for a in outcome.arbitrations]

    def _confirm_known(
        self,
        memories: MemoryRepository,
        known: Memory,
        entry: ExportedMemory,
        request_id: str | None,
    ) -> ImportDecision:
        before = snapshot(known)
        known.confirmations += 1
        known.updated_at = utcnow()
        memories.add_history(
            known, "refresh", old=before, new=snapshot(known), actor=ACTOR, request_id=request_id
        )
        rule, outcome = "duplicate", "refreshed"
        if not self.dry_run:
            observe_arbitration(rule, outcome)
        row = memories.add_arbitration(
            new_memory_id=None,
            existing_memory_id=known.id,
            trigger="import",
            rule=rule,
            outcome=outcome,
            reason="the same fact, true from the same time, is already known and retired: "
            "confirmed again, it stays frozen",
            actor=ACTOR,
            request_id=request_id,
        )
        return _decision(entry.id, row)

    async def _keep_chains(
        self,
        session: AsyncSession,
        entries: list[ExportedMemory],
        request_id: str | None,
        progress: _Progress,
    ) -> None:
        """Frozen entries end frozen, pointing at the memory their successor became.

        Only memories this import wrote are changed: the target's own memories change only
        through the arbitration rules.
        """
        memories = MemoryRepository(session, self.tenant_id, self.user_id)
        repo = PortabilityRepository(session, self.tenant_id, self.user_id)
        for entry in entries:
            if entry.status != "frozen":
                continue
            mine = progress.mapping.get(entry.id)
            if mine is None or mine not in progress.created:
                continue
            row = await repo.get_for_update(mine)
            if row is None or row.status != "active":
                continue  # arbitration already froze it
            successor_id = (
                progress.mapping.get(entry.superseded_by) if entry.superseded_by else None
            )
            successor = await repo.get_for_update(successor_id) if successor_id else None
            before = snapshot(row)
            now = utcnow()
            row.status, row.superseded_at, row.updated_at = "frozen", now, now
            row.superseded_by = successor.id if successor is not None else None
            row.valid_to = entry.valid_to or (
                max(successor.valid_from, row.valid_from) if successor is not None else None
            )
            memories.add_history(
                row, "supersede", old=before, new=snapshot(row), actor=ACTOR, request_id=request_id
            )
            if (
                successor is not None
                and successor.id in progress.created
                and successor.supersedes is None
            ):
                successor.supersedes = row.id
            rule, outcome = "import_chain", "superseded"
            if not self.dry_run:
                observe_arbitration(rule, outcome)
            audit = memories.add_arbitration(
                new_memory_id=successor.id if successor is not None else None,
                existing_memory_id=row.id,
                trigger="import",
                rule=rule,
                outcome=outcome,
                reason="the document records it as superseded"
                + (" by an entry imported with it" if successor is not None else ""),
                actor=ACTOR,
                request_id=request_id,
            )
            progress.decisions.append(_decision(entry.id, audit))

    async def _write_messages(
        self, session: AsyncSession, chunk: list[ExportedMessage], progress: _Progress
    ) -> None:
        """Write the messages the user does not have yet (same session, time, role, text).
        They are not extracted again: the facts they held travel as memories."""
        repo = PortabilityRepository(session, self.tenant_id, self.user_id)
        known = await repo.known_messages(
            (m.session_id for m in chunk), (m.occurred_at for m in chunk)
        )
        rows: list[dict[str, Any]] = []
        owner = owner_of(self.tenant_id, self.user_id)
        for m in chunk:
            protected = self.rt.privacy.protect(m.content, owner)
            ident = (m.session_id, m.occurred_at, m.role, protected.text)
            if ident in known:
                continue
            known.add(ident)
            rows.append({**m.model_dump(), "content": protected.text, "sealed": protected.sealed})
        if rows:
            await repo.add_messages(rows)
        progress.messages_imported += len(rows)


def _decision(document_memory_id: uuid.UUID, a: Arbitration) -> ImportDecision:
    return ImportDecision(
        document_memory_id=document_memory_id,
        new_memory_id=a.new_memory_id,
        existing_memory_id=a.existing_memory_id,
        rule=a.rule,
        outcome=a.outcome,  # type: ignore[arg-type]
        reason=a.reason,
    )
