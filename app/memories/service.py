"""Memory rules: write intake, reads, edits and real deletion, in the request's unit of work.

Every method works in the session the endpoint's unit of work hands it (``app.kit.deps``) and
only flushes; the endpoint commits before the response is sent. Every change of a memory goes
through the memory writer (``app/memories/writer.py``).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Arbitration, Job, Memory
from app.jobs import kinds
from app.jobs.intake import JobIntake
from app.jobs.repository import JobRepository
from app.kit.errors import InvalidRequest, NotFound, SessionEnded
from app.kit.pagination import decode_cursor, encode_cursor
from app.kit.time import utcnow
from app.memories.repository import MemoryRepository
from app.memories.schemas import (
    ArbitrationList,
    ArbitrationRead,
    HistoryEntry,
    MemoryBatchCreate,
    MemoryCreate,
    MemoryHistoryRead,
    MemoryList,
    MemoryRead,
    MemoryUpdate,
    RevealedSecret,
    RevealResponse,
    SecretRef,
)
from app.memories.writer import MemoryDraft, MemoryWriter
from app.privacy.protect import Privacy, owner_of, reveal_json

if TYPE_CHECKING:
    from app.arbitration.service import Outcome
    from app.runtime import Runtime

MAX_RESULT_DECISIONS = 500


def writer_for(
    rt: Runtime,
    session: AsyncSession,
    tenant_id: uuid.UUID,
    user_id: str,
    actor: str,
    request_id: str | None,
) -> MemoryWriter:
    """The memory writer of one user in ``session``, with the process's privacy and embedder."""
    return MemoryWriter(
        session,
        tenant_id=tenant_id,
        user_id=user_id,
        privacy=rt.privacy,
        embedder=rt.embedder,
        actor=actor,
        request_id=request_id,
        promote_after_sessions=rt.settings.promote_after_sessions,
    )


def to_read(m: Memory, privacy: Privacy) -> MemoryRead:
    """The owner's view of a memory: personal values revealed, secrets masked."""
    owner = owner_of(m.tenant_id, m.user_id)
    return MemoryRead(
        id=m.id,
        user_id=m.user_id,
        content=privacy.reveal_personal(m.content, m.sealed, owner) or "",
        type=m.type,  # type: ignore[arg-type]
        key=m.key,
        value=privacy.reveal_personal(m.value, m.sealed, owner),
        source=m.source,  # type: ignore[arg-type]
        confidence=m.confidence,
        status=m.status,  # type: ignore[arg-type]
        scope=m.scope,  # type: ignore[arg-type]
        scope_id=m.scope_id or None,
        supersedes=m.supersedes,
        superseded_by=m.superseded_by,
        confirmations=m.confirmations,
        metadata=reveal_json(privacy, m.metadata_ or {}, m.sealed, owner),
        origin=m.origin or {},
        occurred_at=m.valid_from,
        valid_from=m.valid_from,
        valid_to=m.valid_to,
        created_at=m.created_at,
        updated_at=m.updated_at,
        superseded_at=m.superseded_at,
        last_accessed_at=m.last_accessed_at,
        access_count=m.access_count,
        embedding_model=m.embedding_model,
        secrets=[
            SecretRef(kind=e["kind"], mask=e["mask"])
            for e in m.sealed
            if e.get("level") == "secret"
        ],
    )


def arbitration_read(a: Arbitration) -> ArbitrationRead:
    return ArbitrationRead.model_validate(a, from_attributes=True)


def outcome_result(outcomes: Iterable[Outcome]) -> dict[str, Any]:
    """A job result: ids of the memories touched and the decisions, JSON-able. At most
    ``MAX_RESULT_DECISIONS`` decisions are listed (``arbitrations_total`` counts them all;
    the audit at GET …/arbitrations has every one)."""
    memory_ids: dict[str, None] = {}
    arbitrations: list[dict[str, Any]] = []
    total = 0
    for o in outcomes:
        memory_ids.update((str(m.id), None) for m in o.memories)
        total += len(o.arbitrations)
        room = MAX_RESULT_DECISIONS - len(arbitrations)
        arbitrations += [arbitration_read(a).model_dump(mode="json") for a in o.arbitrations[:room]]
    return {
        "memory_ids": list(memory_ids),
        "arbitrations": arbitrations,
        "arbitrations_total": total,
    }


def request_digest(privacy: Privacy, body: dict[str, Any]) -> str:
    """Identifies a request body for idempotency (keyed: it may hold sensitive values)."""
    return privacy.digest(json.dumps(body, sort_keys=True, default=str))


def draft_of_body(body: MemoryCreate, occurred_at: datetime) -> MemoryDraft:
    """The writer's draft of an explicit write (clear text)."""
    return MemoryDraft(
        content=body.content,
        type=body.type,
        key=body.key,
        value=body.value,
        source=body.source,
        confidence=body.confidence,
        scope=body.scope,
        scope_id=body.scope_id or "",
        valid_from=occurred_at,
        trigger="explicit",
        is_correction=body.corrects is not None,
        corrects=body.corrects,
        metadata=dict(body.metadata),
    )


def draft_of_write(
    write: dict[str, Any], job_id: uuid.UUID, item: int | None = None
) -> MemoryDraft:
    """The protected draft of one explicit write's job payload (``{body, sealed,
    occurred_at}``, see ``MemoryService.protected_write``); ``item`` is its position in a batch
    and is kept in the memory's origin (a deletion erases that item from the job's payload)."""
    body = write["body"]
    origin: dict[str, Any] = {"job_id": str(job_id)}
    if item is not None:
        origin["item"] = item
    return MemoryDraft(
        content=body["content"],
        type=body["type"],
        key=body.get("key"),
        value=body.get("value"),
        source=body["source"],
        confidence=body.get("confidence"),
        scope=body["scope"],
        scope_id=body.get("scope_id") or "",
        valid_from=datetime.fromisoformat(write["occurred_at"]),
        trigger="explicit",
        # A correction of a named memory (MemoryCreate.corrects): arbitration freezes that one.
        is_correction=body.get("corrects") is not None,
        corrects=uuid.UUID(body["corrects"]) if body.get("corrects") else None,
        metadata=body.get("metadata") or {},
        sealed=write.get("sealed", []),
        origin=origin,
        protected=True,
    )


class MemoryService:
    """One user's memories in the request's session (it only flushes)."""

    def __init__(
        self,
        rt: Runtime,
        session: AsyncSession,
        tenant_id: uuid.UUID,
        user_id: str,
        request_id: str | None = None,
    ):
        self.rt = rt
        self.session = session
        self.tenant_id = tenant_id
        self.user_id = user_id
        self.request_id = request_id
        self.repo = MemoryRepository(session, tenant_id, user_id)

    def writer(self, actor: str = "api") -> MemoryWriter:
        return writer_for(
            self.rt, self.session, self.tenant_id, self.user_id, actor, self.request_id
        )

    def protected_write(self, body: MemoryCreate, received_at: datetime) -> dict[str, Any]:
        """The job payload of one explicit write, ``{body, sealed, occurred_at}``: ``body`` is
        the request with its sensitive values sealed by the writer's protect step (the payload
        never holds the clear ones), ``sealed`` their encrypted entries, ``occurred_at`` the
        write's own time or ``received_at`` (ISO-8601)."""
        occurred_at = body.occurred_at or received_at
        draft = self.writer().protect(draft_of_body(body, occurred_at))
        protected = {
            **body.model_dump(mode="json"),
            "content": draft.content,
            "value": draft.value,
            "metadata": draft.metadata,
        }
        return {"body": protected, "sealed": draft.sealed, "occurred_at": occurred_at.isoformat()}

    async def _submit(
        self, kind: str, payload: dict[str, Any], digest: str, idempotency_key: str | None
    ) -> Job:
        intake = JobIntake(self.session, self.tenant_id, self.user_id)
        existing = await intake.replay(idempotency_key, digest)
        if existing is not None:
            return existing
        job = await intake.submit(
            kind,
            payload,
            digest=digest,
            idempotency_key=idempotency_key,
            request_id=self.request_id,
        )
        return job

    async def submit(self, body: MemoryCreate, *, idempotency_key: str | None) -> Job:
        """Queue an explicit write (``protected_write`` is its payload; with ``infer=true`` an
        extraction job). Returns the job: a retry with the same Idempotency-Key and body
        returns the first request's (``JobIntake.replay``); another body raises
        IdempotencyKeyReused; a write into the scope of an ended session raises SessionEnded
        (409)."""
        await self._check_writes([body])
        return await self._submit(
            kinds.INFER if body.infer else kinds.WRITE,
            self.protected_write(body, utcnow()),
            # The body alone identifies a retry (not defaults such as the arrival time).
            request_digest(self.rt.privacy, body.model_dump(mode="json")),
            idempotency_key,
        )

    async def submit_batch(self, batch: MemoryBatchCreate, *, idempotency_key: str | None) -> Job:
        """Queue explicit writes as one job whose payload is ``{items: [protected_write, …]}``
        in request order; items without ``occurred_at`` take the arrival time. Returns the job;
        see ``submit`` for idempotency."""
        received_at = utcnow()
        await self._check_writes(batch.memories)
        return await self._submit(
            kinds.WRITE_BATCH,
            {"items": [self.protected_write(m, received_at) for m in batch.memories]},
            request_digest(self.rt.privacy, batch.model_dump(mode="json")),
            idempotency_key,
        )

    async def _open_session_of(self, memory_id: uuid.UUID) -> None:
        """Raise SessionEnded when the memory is in the scope of an ended session: reviving or
        revising it would write into that scope again."""
        m = await self.repo.get(memory_id)
        if m is None or m.scope != "session" or not m.scope_id:
            return
        if await self.repo.ended_sessions([m.scope_id]):
            raise SessionEnded(
                f"session {m.scope_id!r} has ended: its memories stay archived; write the "
                "fact to user scope or to a new session"
            )

    async def _check_writes(self, bodies: Iterable[MemoryCreate]) -> None:
        """Raise SessionEnded when a body writes into the scope of an ended session, and
        InvalidRequest when a body ``corrects`` a memory this user does not have (none by that
        id, another user's, or deleted): such a write would land as a new fact and correct
        nothing, which is not what its caller asked for."""
        bodies = list(bodies)
        named = list(dict.fromkeys(b.corrects for b in bodies if b.corrects is not None))
        found = {m.id for m in await self.repo.get_many(named) if m.status != "deleted"}
        missing = [i for i in named if i not in found]
        if missing:
            raise InvalidRequest(
                f"corrects: no memory {missing[0]} of this user to correct; send the id of one of "
                "the user's memories (GET …/users/{user_id}/memories), or leave corrects out "
                "to write a new fact"
            )
        ids = [b.scope_id for b in bodies if b.scope == "session" and b.scope_id]
        ended = await self.repo.ended_sessions(list(dict.fromkeys(ids)))
        if ended:
            raise SessionEnded(
                f"session {ended[0]!r} has ended: its scope takes no more memories; write to "
                "user scope or to a new session"
            )

    async def result_of(self, job: Job) -> tuple[list[MemoryRead], list[ArbitrationRead]]:
        """The memories (current state) and decisions of a finished job (its episodes are
        listed apart, ``result["episode_ids"]``)."""
        result = job.result or {}
        ids = [uuid.UUID(i) for i in result.get("memory_ids", [])]
        memories = await self.repo.get_many(ids)
        arbitrations = [ArbitrationRead.model_validate(a) for a in result.get("arbitrations", [])]
        return [to_read(m, self.rt.privacy) for m in memories], arbitrations

    async def list_page(
        self, *, limit: int, cursor: str | None, filters: dict[str, Any]
    ) -> MemoryList:
        after = decode_cursor(cursor) if cursor else None
        rows = await self.repo.list_page(limit=limit + 1, after=after, filters=filters)
        more = len(rows) > limit
        rows = rows[:limit]
        next_cursor = encode_cursor(rows[-1].created_at, rows[-1].id) if more and rows else None
        return MemoryList(
            items=[to_read(m, self.rt.privacy) for m in rows], next_cursor=next_cursor
        )

    async def get(self, memory_id: uuid.UUID) -> MemoryRead:
        m = await self.repo.get(memory_id)
        if m is None or m.status == "deleted":
            raise NotFound("no such memory")
        return to_read(m, self.rt.privacy)

    async def update(self, memory_id: uuid.UUID, patch: MemoryUpdate) -> MemoryRead:
        """Apply ``patch``. A new ``content`` or ``value`` is a new version of the memory,
        written through the writer as the user's correction (the old one frozen, superseded
        by it); the answer is the new version. ``confidence``, ``metadata`` and archiving
        (``status: archived``) change the memory itself, recorded in its history.

        Raises NotFound, Conflict (409) when content or value change on a memory that is not
        active (a frozen memory is history: write a new memory instead), SessionEnded (409)
        when it would revive or revise a memory in the scope of an ended session.
        """
        changes = patch.model_dump(exclude_unset=True)
        if (
            changes.get("status") == "active"
            or changes.get("content") is not None
            or ("value" in changes)
        ):
            await self._open_session_of(memory_id)
        writer = self.writer()
        if changes.get("content") is not None or "value" in changes:
            outcome = await writer.revise(
                memory_id,
                content=changes.get("content"),
                value=changes.get("value"),
                value_set="value" in changes,
                metadata=changes.get("metadata"),
                confidence=changes.get("confidence"),
            )
            old = outcome.memories[-1]  # MemoryWriter.revise lists the old version last
            current = next(m for m in outcome.memories if m.id == old.superseded_by)
            if changes.get("status") == "archived":
                current = await writer.annotate(current.id, status="archived")
            return to_read(current, self.rt.privacy)
        m = await writer.annotate(
            memory_id,
            confidence=changes.get("confidence"),
            metadata=changes.get("metadata"),
            status=changes.get("status"),
        )
        return to_read(m, self.rt.privacy)

    async def delete(self, memory_id: uuid.UUID) -> None:
        """Real deletion (``MemoryWriter.delete``); the explicit write's request that still held
        the words is scrubbed too. Raises NotFound."""
        origin = await self.writer().delete(memory_id)
        job_id, item = origin.get("job_id"), origin.get("item")
        if job_id:
            await JobRepository(self.session, self.tenant_id).scrub_write(uuid.UUID(job_id), item)

    async def history(self, memory_id: uuid.UUID) -> MemoryHistoryRead:
        """Walk ``supersedes`` back and ``superseded_by`` forward from ``memory_id``."""
        repo = self.repo
        start = await repo.get(memory_id)
        if start is None:
            raise NotFound("no such memory")
        chain = [start]
        seen = {start.id}
        for direction in ("supersedes", "superseded_by"):
            cur = start
            while (next_id := getattr(cur, direction)) is not None and next_id not in seen:
                nxt = await repo.get(next_id)
                if nxt is None:
                    break
                seen.add(nxt.id)
                chain = [nxt, *chain] if direction == "supersedes" else [*chain, nxt]
                cur = nxt
        entries = await repo.history([m.id for m in chain])
        return MemoryHistoryRead(
            memory_id=memory_id,
            chain=[to_read(m, self.rt.privacy) for m in chain],
            entries=[HistoryEntry.model_validate(e, from_attributes=True) for e in entries],
        )

    async def arbitrations(self, **filters: Any) -> ArbitrationList:
        rows = await self.repo.arbitrations(**filters)
        return ArbitrationList(items=[arbitration_read(a) for a in rows])

    async def reveal(self, memory_id: uuid.UUID) -> RevealResponse:
        """Open the memory's secret values for its owner; the reveal is recorded in the
        memory's history (who, when, which kinds — never the values). Raises NotFound."""
        m = await self.repo.get(memory_id)
        if m is None or m.status == "deleted":
            raise NotFound("no such memory")
        secrets = self.rt.privacy.open_secrets(m.sealed, owner_of(m.tenant_id, m.user_id))
        kinds_ = [s["kind"] for s in secrets]
        self.repo.add_history(
            m, "reveal", old=None, new={"revealed": kinds_}, actor="api", request_id=self.request_id
        )
        await self.repo.flush()
        return RevealResponse(memory_id=memory_id, secrets=[RevealedSecret(**s) for s in secrets])
