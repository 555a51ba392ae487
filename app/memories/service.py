"""Memory rules: write intake, reads, edits and real deletion."""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Awaitable, Callable, Iterable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.arbitration.service import content_hash
from app.db.models import Arbitration, Job, Memory
from app.jobs.repository import JobRepository
from app.kit.errors import Conflict, IdempotencyKeyReused, NotFound
from app.kit.pagination import decode_cursor, encode_cursor
from app.kit.time import utcnow
from app.memories.repository import MemoryRepository, snapshot
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
from app.privacy.protect import SECRET_KEYS, Privacy, embedding_text, merge_sealed, owner_of
from app.recall.text import index_text

if TYPE_CHECKING:
    from app.arbitration.service import Outcome
    from app.runtime import Runtime

BASE_CONFIDENCE = {
    "user_declared": 0.9,
    "form": 0.9,
    "import": 0.8,
    "behavior_observed": 0.7,
    "model_inferred": 0.5,
}
WAIT_POLL_S = 0.02
MAX_RESULT_DECISIONS = 500
KIND_WRITE = "memory.write"
KIND_WRITE_BATCH = "memory.write_batch"
Prepare = Callable[[AsyncSession, uuid.UUID], Awaitable[dict[str, Any]]]


def base_confidence(source: str) -> float:
    """Default confidence (0..1) of a memory from ``source`` (DESIGN.md)."""
    return BASE_CONFIDENCE.get(source, 0.5)


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
        metadata=m.metadata_ or {},
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


class MemoryService:
    def __init__(self, rt: Runtime, tenant_id: uuid.UUID, user_id: str):
        self.rt = rt
        self.tenant_id = tenant_id
        self.user_id = user_id

    def protected_write(self, body: MemoryCreate, received_at: datetime) -> dict[str, Any]:
        """The job payload of one explicit write, ``{body, sealed, occurred_at}``: ``body`` is
        the request with its sensitive values sealed (the payload never holds the clear ones),
        ``sealed`` their encrypted entries, ``occurred_at`` the write's own time or
        ``received_at`` (ISO-8601)."""
        privacy = self.rt.privacy
        owner = owner_of(self.tenant_id, self.user_id)
        content = privacy.protect(body.content, owner)
        value = (
            privacy.protect(body.value, owner, whole_secret=SECRET_KEYS.get(body.key or ""))
            if body.value
            else None
        )
        protected = {
            **body.model_dump(mode="json"),
            "content": content.text,
            "value": value.text if value else None,
        }
        return {
            "body": protected,
            "sealed": merge_sealed(content.sealed, value.sealed if value else []),
            "occurred_at": (body.occurred_at or received_at).isoformat(),
        }

    async def submit(
        self, body: MemoryCreate, *, idempotency_key: str | None, request_id: str | None
    ) -> tuple[Job, bool]:
        """Queue an explicit write (``protected_write`` is its payload). Returns (job, created);
        see ``enqueue`` for idempotency."""
        return await self.enqueue(
            KIND_WRITE,
            self.protected_write(body, utcnow()),
            # The body alone identifies a retry (not defaults such as the arrival time).
            digest=request_digest(self.rt.privacy, body.model_dump(mode="json")),
            idempotency_key=idempotency_key,
            request_id=request_id,
        )

    async def submit_batch(
        self, batch: MemoryBatchCreate, *, idempotency_key: str | None, request_id: str | None
    ) -> tuple[Job, bool]:
        """Queue explicit writes as one job whose payload is ``{items: [protected_write, …]}``
        in request order; items without ``occurred_at`` take the arrival time. Returns (job,
        created); see ``enqueue`` for idempotency."""
        received_at = utcnow()
        return await self.enqueue(
            KIND_WRITE_BATCH,
            {"items": [self.protected_write(m, received_at) for m in batch.memories]},
            digest=request_digest(self.rt.privacy, batch.model_dump(mode="json")),
            idempotency_key=idempotency_key,
            request_id=request_id,
        )

    async def enqueue(
        self,
        kind: str,
        payload: dict[str, Any],
        *,
        digest: str,
        idempotency_key: str | None,
        request_id: str | None,
        prepare: Prepare | None = None,
    ) -> tuple[Job, bool]:
        """Persist the intake and enqueue its job in one transaction; commit before returning.

        ``prepare(session, job_id)`` stores intake rows (e.g. messages) in that transaction and
        returns what to add to the payload. ``digest`` identifies the request body. Returns
        (job, created): a retry with the same Idempotency-Key and digest returns the first job
        (created=False); another body raises IdempotencyKeyReused (409).
        """
        for _ in range(2):
            async with self.rt.scoped(self.tenant_id, self.user_id) as session:
                jobs = JobRepository(session, self.tenant_id)
                if idempotency_key is not None:
                    existing = await jobs.by_idempotency_key(self.user_id, idempotency_key)
                    if existing is not None:
                        if existing.request_hash != digest:
                            raise IdempotencyKeyReused(
                                "this Idempotency-Key was used with a different request body"
                            )
                        return existing, False
                job_id = uuid.uuid4()
                extra = await prepare(session, job_id) if prepare is not None else {}
                try:
                    job = await jobs.add_and_enqueue(
                        user_id=self.user_id,
                        kind=kind,
                        payload={**payload, **extra},
                        idempotency_key=idempotency_key,
                        request_hash=digest,
                        request_id=request_id,
                        job_id=job_id,
                    )
                except IntegrityError:
                    if idempotency_key is None:
                        raise
                    continue  # a concurrent retry with the same key won: read its job
                await session.commit()
                return job, True
        raise IdempotencyKeyReused("concurrent requests with the same Idempotency-Key")

    async def wait(self, job_id: uuid.UUID, timeout_s: float) -> Job:
        """Poll the job until done or failed, or ``timeout_s`` passed; returns its last state."""
        deadline = asyncio.get_running_loop().time() + timeout_s
        while True:
            async with self.rt.scoped(self.tenant_id, self.user_id) as session:
                job = await JobRepository(session, self.tenant_id).get(job_id)
            if job is None:
                raise NotFound("no such job")
            if job.status in ("done", "failed") or asyncio.get_running_loop().time() >= deadline:
                return job
            await asyncio.sleep(WAIT_POLL_S)

    async def result_of(self, job: Job) -> tuple[list[MemoryRead], list[ArbitrationRead]]:
        """The memories (current state) and decisions of a finished job."""
        result = job.result or {}
        ids = [uuid.UUID(i) for i in result.get("memory_ids", [])]
        async with self.rt.scoped(self.tenant_id, self.user_id) as session:
            memories = await MemoryRepository(session, self.tenant_id, self.user_id).get_many(ids)
        arbitrations = [ArbitrationRead.model_validate(a) for a in result.get("arbitrations", [])]
        return [to_read(m, self.rt.privacy) for m in memories], arbitrations

    async def list_page(
        self, *, limit: int, cursor: str | None, filters: dict[str, Any]
    ) -> MemoryList:
        after = decode_cursor(cursor) if cursor else None
        async with self.rt.scoped(self.tenant_id, self.user_id) as session:
            rows = await MemoryRepository(session, self.tenant_id, self.user_id).list_page(
                limit=limit + 1, after=after, filters=filters
            )
        more = len(rows) > limit
        rows = rows[:limit]
        next_cursor = encode_cursor(rows[-1].created_at, rows[-1].id) if more and rows else None
        return MemoryList(
            items=[to_read(m, self.rt.privacy) for m in rows], next_cursor=next_cursor
        )

    async def get(self, memory_id: uuid.UUID) -> MemoryRead:
        async with self.rt.scoped(self.tenant_id, self.user_id) as session:
            m = await MemoryRepository(session, self.tenant_id, self.user_id).get(memory_id)
        if m is None or m.status == "deleted":
            raise NotFound("no such memory")
        return to_read(m, self.rt.privacy)

    async def update(
        self, memory_id: uuid.UUID, patch: MemoryUpdate, request_id: str | None
    ) -> MemoryRead:
        """Apply ``patch``; new content is protected and re-embedded. Raises NotFound."""
        changes = patch.model_dump(exclude_unset=True)
        privacy, owner = self.rt.privacy, owner_of(self.tenant_id, self.user_id)
        content = privacy.protect(changes["content"], owner) if changes.get("content") else None
        value = privacy.protect(changes["value"], owner) if changes.get("value") else None
        embedding = None
        if content is not None:
            [embedding] = await self.rt.embedder.embed_passages([embedding_text(content.text)])
        async with self.rt.scoped(self.tenant_id, self.user_id) as session:
            repo = MemoryRepository(session, self.tenant_id, self.user_id)
            m = await repo.get(memory_id, for_update=True)
            if m is None or m.status == "deleted":
                raise NotFound("no such memory")
            before = snapshot(m)
            if content is not None:
                m.content = content.text
                m.content_hash = content_hash(m.content)
                m.search_text = index_text(m.content)
                m.embedding, m.embedding_model = embedding, self.rt.embedder.model
            if "value" in changes:
                m.value = value.text if value is not None else None
            new_sealed = (content.sealed if content else []) + (value.sealed if value else [])
            if new_sealed:
                m.sealed = merge_sealed(m.sealed, new_sealed)
            if changes.get("confidence") is not None:
                m.confidence = changes["confidence"]
            if changes.get("metadata") is not None:
                m.metadata_ = changes["metadata"]
            if changes.get("status") is not None:
                m.status = changes["status"]
            m.updated_at = utcnow()
            repo.add_history(
                m, "update", old=before, new=snapshot(m), actor="api", request_id=request_id
            )
            try:
                await session.commit()
            except IntegrityError as exc:
                raise Conflict(
                    "another active memory holds this single-valued key; supersede it instead"
                ) from exc
        return to_read(m, self.rt.privacy)

    async def delete(self, memory_id: uuid.UUID, request_id: str | None) -> None:
        """Real deletion: content, value, embedding and metadata are erased; the history keeps
        that the memory existed and when, not what it said. Raises NotFound."""
        async with self.rt.scoped(self.tenant_id, self.user_id) as session:
            repo = MemoryRepository(session, self.tenant_id, self.user_id)
            m = await repo.get(memory_id, for_update=True)
            if m is None or m.status == "deleted":
                raise NotFound("no such memory")
            origin = m.origin or {}
            job_id, item = origin.get("job_id"), origin.get("item")
            m.status, m.content, m.value, m.embedding, m.metadata_ = "deleted", "", None, None, {}
            m.content_hash, m.origin, m.updated_at = "", {}, utcnow()
            if job_id:
                # an explicit write's request still held the words: erase them there too
                await JobRepository(session, self.tenant_id).scrub_write(uuid.UUID(job_id), item)
            m.search_text, m.sealed = "", []
            await repo.scrub_history(m.id)
            repo.add_history(m, "delete", old=None, new=None, actor="api", request_id=request_id)
            await session.commit()

    async def history(self, memory_id: uuid.UUID) -> MemoryHistoryRead:
        """Walk ``supersedes`` back and ``superseded_by`` forward from ``memory_id``."""
        async with self.rt.scoped(self.tenant_id, self.user_id) as session:
            repo = MemoryRepository(session, self.tenant_id, self.user_id)
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
        async with self.rt.scoped(self.tenant_id, self.user_id) as session:
            rows = await MemoryRepository(session, self.tenant_id, self.user_id).arbitrations(
                **filters
            )
        return ArbitrationList(items=[arbitration_read(a) for a in rows])

    async def reveal(self, memory_id: uuid.UUID, request_id: str | None) -> RevealResponse:
        """Open the memory's secret values for its owner; the reveal is recorded in the
        memory's history (who, when, which kinds — never the values). Raises NotFound."""
        async with self.rt.scoped(self.tenant_id, self.user_id) as session:
            repo = MemoryRepository(session, self.tenant_id, self.user_id)
            m = await repo.get(memory_id)
            if m is None or m.status == "deleted":
                raise NotFound("no such memory")
            secrets = self.rt.privacy.open_secrets(m.sealed, owner_of(m.tenant_id, m.user_id))
            kinds = [s["kind"] for s in secrets]
            repo.add_history(
                m, "reveal", old=None, new={"revealed": kinds}, actor="api", request_id=request_id
            )
            await session.commit()
        return RevealResponse(memory_id=memory_id, secrets=[RevealedSecret(**s) for s in secrets])
