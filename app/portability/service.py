"""Export and import of one user's memories.

Export streams one JSON document in keyset pages from one read-only snapshot: the server never
holds the whole user in memory. Import restores the document's supersession chains as they
are (after checking they hold no self-link and no cycle), arbitrates the document's current
memories against the target user's own, and writes everything through the memory writer in
the request's one transaction. docs/portability.md explains the format and every decision.
"""

from __future__ import annotations

import json
import uuid
from collections import Counter, defaultdict
from collections.abc import AsyncIterator, Iterator, Sequence
from datetime import datetime, timedelta, timezone
from graphlib import CycleError, TopologicalSorter
from typing import TYPE_CHECKING, Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Arbitration, Memory, MemoryHistory, Message
from app.kit.errors import InvalidRequest, ServiceUnavailable
from app.kit.time import utcnow
from app.memories.service import writer_for
from app.memories.writer import MemoryDraft, Restore
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
from app.privacy.protect import Privacy, owner_of
from app.providers.embeddings import EmbeddingError
from app.users.service import UserService

if TYPE_CHECKING:
    from app.runtime import Runtime

EXPORT_PAGE_SIZE = 500
IMPORT_MESSAGE_BATCH_SIZE = 1000
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


def exported_message(
    m: Message, privacy: Privacy, ended: dict[str, datetime] | None = None
) -> ExportedMessage:
    """``ended``: ``{session id: ended_at}`` of the user's ended sessions."""
    return ExportedMessage.model_construct(
        session_id=m.session_id,
        task_id=m.task_id,
        role=m.role,
        content=privacy.reveal_personal(m.content, m.sealed, owner_of(m.tenant_id, m.user_id))
        or "",
        # In the sender's own offset: "tomorrow at 3" keeps meaning where the user was.
        occurred_at=m.occurred_at.astimezone(timezone(timedelta(minutes=m.utc_offset_minutes))),
        metadata=m.metadata_ or {},
        name=m.name,
        session_ended_at=(ended or {}).get(m.session_id),
    )


class PortabilityService:
    """Export (its own read-only snapshot, streamed) and import (in the request's session,
    which it only flushes) of one user."""

    def __init__(self, rt: Runtime, session: AsyncSession, tenant_id: uuid.UUID, user_id: str):
        self.rt = rt
        self.session = session
        self.tenant_id = tenant_id
        self.user_id = user_id
        self.dry_run = False

    # --- export ----------------------------------------------------------------------------

    async def count_memories(self) -> int:
        return await PortabilityRepository(
            self.session, self.tenant_id, self.user_id
        ).count_memories()

    async def export_chunks(self, *, include_messages: bool) -> AsyncIterator[bytes]:
        """The export document as UTF-8 chunks, one per page of EXPORT_PAGE_SIZE rows.

        Shape: ``{"schema_version": 1, "exported_at", "tenant_id", "user_id", "memories": [
        one memory per line ], "messages": [one per line]}`` (messages only when asked).
        """
        async with self.rt.scoped(self.tenant_id, self.user_id) as session:
            repo = PortabilityRepository(session, self.tenant_id, self.user_id)
            await repo.begin_snapshot()
            # The user's memory settings, from the same snapshot as the memories.
            user_settings = await UserService(
                self.rt, session, self.tenant_id, self.user_id
            ).get_settings()
            header = {
                "schema_version": SCHEMA_VERSION,
                "exported_at": utcnow().isoformat(),
                "tenant_id": str(self.tenant_id),
                "user_id": self.user_id,
                "settings": user_settings.model_dump(include={"memory_mode", "retention_days"}),
            }
            yield (json.dumps(header, ensure_ascii=False)[:-1] + ',"memories":[').encode()
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
                ended = await repo.ended_sessions()
                cursor: MessageCursor | None = None
                while True:
                    messages = await repo.message_page(cursor, EXPORT_PAGE_SIZE)
                    if not messages:
                        break
                    parts = []
                    for msg in messages:
                        parts.append(
                            ("\n" if first else ",\n")
                            + exported_message(msg, self.rt.privacy, ended).model_dump_json()
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
        """Import the document's memories and messages into this user, in the request's one
        transaction (a dry run does the same work without embedding; the endpoint rolls it
        back).

        Every memory is written for ``(self.tenant_id, self.user_id)`` by the memory writer;
        the document's own tenant and user are not used. The document's supersession chains
        are restored as they are (``validate_chains`` refuses self-links and cycles first):
        its active entries are arbitrated against the user's own active memories, oldest
        ``valid_from`` first, and its frozen entries are stored frozen, linked to what their
        successors became (rule ``import_chain``). An entry imported before (same document id)
        is not imported again: a second import of one document changes nothing. The links stored
        are checked again on the result, once duplicates collapsed (``_result_links``): no
        self-link, no branch, no cycle.

        Raises InvalidChains (422), ServiceUnavailable (503) when the embedding provider failed.
        """
        validate_chains(doc.memories)
        session = self.session
        repo = PortabilityRepository(session, self.tenant_id, self.user_id)
        writer = writer_for(self.rt, session, self.tenant_id, self.user_id, ACTOR, request_id)
        self.dry_run = dry_run
        entries = [m for m in doc.memories if m.status in ("active", "frozen")]
        # Protect and embed before the write lock is taken: no lock waits on the model. (An
        # entry a concurrent import of the same document stores meanwhile is found known
        # below and left alone; only its embedding was spent.)
        seen = await repo.imported_ids([m.id for m in entries])
        prepared = {m.id: writer.protect(self._draft(m)) for m in entries if m.id not in seen}
        if not dry_run:
            try:
                await writer.embed(list(prepared.values()))
            except EmbeddingError as exc:
                raise ServiceUnavailable(
                    f"the embedding provider failed ({exc}); nothing was imported: run it again"
                ) from exc
        # Take the write lock before looking for earlier imports: two imports of one
        # document are taken in turn, and the second finds the first's rows.
        await writer.repo.lock_writes()
        known = await repo.imported_ids([m.id for m in entries])
        todo = [m for m in entries if m.id not in known]
        mapping: dict[uuid.UUID, uuid.UUID] = dict(known)
        for m in todo:
            if m.status == "frozen":
                mapping[m.id] = uuid.uuid4()
        created: set[uuid.UUID] = set()
        decisions: list[ImportDecision] = []

        current = sorted(
            (m for m in todo if m.status == "active"), key=lambda m: (m.valid_from, m.created_at)
        )
        drafts = [prepared.get(m.id) or self._draft(m) for m in current]
        try:
            outcomes = await writer.write(drafts, embed=not dry_run)
        except EmbeddingError as exc:
            raise ServiceUnavailable(
                f"the embedding provider failed ({exc}); nothing was imported: run it again"
            ) from exc
        for entry, outcome in zip(current, outcomes, strict=True):
            refreshed = next((a for a in outcome.arbitrations if a.outcome == "refreshed"), None)
            if refreshed is not None and refreshed.existing_memory_id is not None:
                mapping[entry.id] = refreshed.existing_memory_id
            else:
                new = outcome.memories[0]
                # How often the user confirmed it travels with it (forgetting spares confirmed
                # memories).
                new.confirmations = max(new.confirmations, entry.confirmations)
                mapping[entry.id] = new.id
                created.add(new.id)
            decisions += [_decision(entry.id, a) for a in outcome.arbitrations]

        frozen = [m for m in todo if m.status == "frozen"]
        links = await self._result_links(repo, doc.memories, mapping, frozen, current, created)
        restored = await writer.restore(
            [
                (
                    prepared.get(m.id) or self._draft(m),
                    Restore(
                        memory_id=mapping[m.id],
                        superseded_by=links[mapping[m.id]][0],
                        supersedes=links[mapping[m.id]][1],
                        superseded_at=m.superseded_at,
                        confirmations=m.confirmations,
                    ),
                )
                for m in frozen
            ],
            embed=not dry_run,
        )
        for entry, outcome in zip(frozen, restored, strict=True):
            created.add(mapping[entry.id])
            decisions += [_decision(entry.id, a) for a in outcome.arbitrations]
        # Episodes and the facts formed from them point at each other by their ids here.
        await writer.relink(sorted(created), mapping)
        # The document's current entries point back at the frozen ones they superseded,
        # unless another memory here already does (a chain stays linear).
        wanted = {
            mine: target
            for mine, (_, target) in links.items()
            if target is not None and mine not in {mapping[m.id] for m in frozen}
        }
        taken = await repo.superseded(list(wanted.values()))
        for mine, target in wanted.items():
            if target not in taken:
                await repo.link_supersedes(mine, target)
                taken.add(target)

        messages = doc.messages or []
        messages_imported = 0
        for start in range(0, len(messages), IMPORT_MESSAGE_BATCH_SIZE):
            chunk = messages[start : start + IMPORT_MESSAGE_BATCH_SIZE]
            messages_imported += await self._write_messages(repo, chunk)
        settings_imported = doc.settings is not None and not dry_run
        if doc.settings is not None and not dry_run:
            # The document's memory settings go to the target user, audited, in this unit.
            await UserService(self.rt, session, self.tenant_id, self.user_id).put_settings(
                doc.settings, actor=ACTOR, request_id=request_id
            )
        await session.flush()

        outcomes_count = Counter(d.outcome for d in decisions)
        return ImportResult(
            dry_run=dry_run,
            memories_in_document=len(doc.memories),
            imported=len(entries),
            created=len(created),
            unchanged=len(entries) - len(todo),
            skipped=len(doc.memories) - len(entries),
            outcomes=OutcomeCounts.model_validate(dict(outcomes_count)),
            rules=dict(Counter(d.rule for d in decisions)),
            decisions=decisions,
            messages_in_document=len(messages),
            messages_imported=messages_imported,
            settings_imported=settings_imported,
        )

    async def _result_links(
        self,
        repo: PortabilityRepository,
        memories: Sequence[ExportedMemory],
        mapping: dict[uuid.UUID, uuid.UUID],
        frozen: Sequence[ExportedMemory],
        current: Sequence[ExportedMemory],
        created: set[uuid.UUID],
    ) -> dict[uuid.UUID, tuple[uuid.UUID | None, uuid.UUID | None]]:
        """The links the import stores, by memory id here: ``{id: (superseded_by,
        supersedes)}`` for the frozen entries restored and the current entries created.

        Checked on the RESULT, after duplicates collapsed (two document entries may have
        become one memory here), not only on the document:

        - a link to an entry not imported (archived, skipped) follows that entry's own link
          on to the first one that was: a frozen entry whose successor was archived is
          superseded by its successor's successor, and is never left unlinked when one exists;
        - a link between two entries that became one memory is dropped: that collapse is the
          ``duplicate / refreshed`` decision already recorded, not a supersession;
        - a memory is superseded (``supersedes``) by one memory at most, here or already
          stored: when several claim it, the one it names as ``superseded_by`` keeps the link,
          else the first in the document; the others keep theirs ``null``;
        - the links must not run in a cycle (``graphlib``); if they still would, InvalidChains
          (422) names the document ids involved and nothing is written.
        """
        by_id = {m.id: m for m in memories}

        def here(doc_id: uuid.UUID | None, step: str) -> uuid.UUID | None:
            seen: set[uuid.UUID] = set()
            while doc_id is not None and doc_id not in mapping and doc_id not in seen:
                seen.add(doc_id)
                nxt = by_id.get(doc_id)
                doc_id = getattr(nxt, step) if nxt is not None else None
            return mapping.get(doc_id) if doc_id is not None else None

        links: dict[uuid.UUID, tuple[uuid.UUID | None, uuid.UUID | None]] = {}
        docs_of: dict[uuid.UUID, list[uuid.UUID]] = defaultdict(list)
        for m in memories:
            if m.id in mapping:
                docs_of[mapping[m.id]].append(m.id)
        for m in frozen:
            mine = mapping[m.id]
            by = here(m.superseded_by, "superseded_by")
            sup = here(m.supersedes, "supersedes")
            links[mine] = (None if by == mine else by, None if sup == mine else sup)
        for m in current:
            mine = mapping[m.id]
            if mine in created and mine not in links:
                sup = here(m.supersedes, "supersedes")
                links[mine] = (None, None if sup == mine else sup)
        # One successor per memory: the claims of `supersedes`, within the import and stored.
        claims: dict[uuid.UUID, list[uuid.UUID]] = defaultdict(list)
        for mine, (_, sup) in links.items():
            if sup is not None:
                claims[sup].append(mine)
        stored = await repo.superseded([t for t in claims if t not in links])
        for target, claimants in claims.items():
            named = links.get(target, (None, None))[0]
            keep = None if target in stored else named if named in claimants else claimants[0]
            for mine in claimants:
                if mine != keep:
                    links[mine] = (links[mine][0], None)
        graph: dict[uuid.UUID, set[uuid.UUID]] = defaultdict(set)
        for mine, (by, sup) in links.items():
            if by is not None:
                graph[by].add(mine)  # a memory comes after the one it superseded
            if sup is not None:
                graph[mine].add(sup)
        try:
            TopologicalSorter(graph).prepare()
        except CycleError as exc:
            doc_ids = sorted({d for n in exc.args[1] for d in docs_of.get(n, [])}, key=str)
            raise InvalidChains(
                "the document's supersession links would run in a cycle once its duplicate "
                "entries are merged, for memories " + ", ".join(str(i) for i in doc_ids),
                errors=[
                    {
                        "loc": ["body", "memories", str(i)],
                        "msg": "is part of a supersession cycle once duplicates are merged",
                        "type": "supersession",
                    }
                    for i in doc_ids
                ],
            ) from exc
        return links

    def _draft(self, m: ExportedMemory) -> MemoryDraft:
        """The writer's draft of a document entry (clear text, as the owner saw it)."""
        return MemoryDraft(
            content=m.content,
            type=m.type,
            kind="episode" if m.type == "episode" else "fact",
            key=m.key,
            value=m.value,
            source=m.source,
            confidence=m.confidence,
            scope=m.scope,
            scope_id=m.scope_id or "",
            valid_from=m.valid_from,
            valid_to=m.valid_to,
            trigger="import",
            origin={
                # An imported episode is indexed as its text alone: the context it was indexed
                # with there (origin.context) is not recorded as this row's.
                **{
                    k: v
                    for k, v in m.origin.items()
                    if not (m.type == "episode" and k == "context")
                },
                "imported_from": {"memory_id": str(m.id), "created_at": m.created_at.isoformat()},
            },
            metadata=dict(m.metadata),
        )

    async def _write_messages(
        self, repo: PortabilityRepository, chunk: list[ExportedMessage]
    ) -> int:
        """Write the messages the user does not have yet (same session, time, role, text);
        returns how many. They are not extracted again: their facts travel as memories."""
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
        return len(rows)


def _decision(document_memory_id: uuid.UUID, a: Arbitration) -> ImportDecision:
    return ImportDecision(
        document_memory_id=document_memory_id,
        new_memory_id=a.new_memory_id,
        existing_memory_id=a.existing_memory_id,
        rule=a.rule,
        outcome=a.outcome,  # type: ignore[arg-type]
        reason=a.reason,
    )


class InvalidChains(InvalidRequest):
    """The document's supersession links contradict themselves."""

    slug, title = "invalid-supersession-chain", "Invalid supersession chain"


def validate_chains(memories: Sequence[ExportedMemory]) -> None:
    """Refuse a document whose supersession links point at their own entry or run in a cycle
    (``supersedes`` read as the reverse of ``superseded_by``). Raises InvalidChains (422)
    whose ``errors`` list every offending entry id; links to ids not in the document are
    ignored (the chain was cut at export)."""
    ids = {m.id for m in memories}
    successors: dict[uuid.UUID, set[uuid.UUID]] = defaultdict(set)
    bad: dict[uuid.UUID, str] = {}
    for m in memories:
        if m.supersedes == m.id or m.superseded_by == m.id:
            bad[m.id] = "supersedes itself"
            continue
        if m.superseded_by is not None and m.superseded_by in ids:
            successors[m.id].add(m.superseded_by)
        if m.supersedes is not None and m.supersedes in ids:
            successors[m.supersedes].add(m.id)
    # Iterative three-colour depth-first search; every node on a cycle is reported.
    state: dict[uuid.UUID, int] = {}
    for root in ids:
        if state.get(root):
            continue
        path: list[uuid.UUID] = []
        stack: list[tuple[uuid.UUID, Iterator[uuid.UUID]]] = [(root, iter(successors[root]))]
        state[root] = 1
        path.append(root)
        while stack:
            node, children = stack[-1]
            child = next(children, None)
            if child is None:
                stack.pop()
                path.pop()
                state[node] = 2
            elif state.get(child) == 1:
                for n in path[path.index(child) :]:
                    bad.setdefault(n, "is part of a supersession cycle")
            elif not state.get(child):
                state[child] = 1
                path.append(child)
                stack.append((child, iter(successors[child])))
    if bad:
        listed = sorted(bad, key=str)
        raise InvalidChains(
            "the document's supersession links are invalid for memories "
            + ", ".join(str(i) for i in listed),
            errors=[
                {"loc": ["body", "memories", str(i)], "msg": bad[i], "type": "supersession"}
                for i in listed
            ],
        )
