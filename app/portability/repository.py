"""All SQL of export and import: keyset pages of one user's rows, and the import's lookups."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import func, or_, select, tuple_, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import defer

from app.db.models import ChatSession, Memory, MemoryHistory, Message
from app.db.repository import UserScopedRepository
from app.ingest.repository import offset_minutes
from app.kit.time import utcnow

MessageCursor = tuple[str, datetime, int]


class PortabilityRepository(UserScopedRepository):
    def _mine(self) -> Any:
        return self.mine(Memory)

    async def begin_snapshot(self) -> None:
        """Start a read-only REPEATABLE READ transaction: every page of an export reads the same
        snapshot, so supersession chains are consistent even while the user keeps writing."""
        await self.session.connection(
            execution_options={"isolation_level": "REPEATABLE READ", "postgresql_readonly": True}
        )

    # --- export ----------------------------------------------------------------------------

    async def count_memories(self) -> int:
        """How many memories an export holds (every status but deleted)."""
        stmt = select(func.count()).where(self._mine(), Memory.status != "deleted")
        return int((await self.session.execute(stmt)).scalar_one())

    async def memory_page(
        self, after: tuple[datetime, uuid.UUID] | None, limit: int
    ) -> list[Memory]:
        """Up to ``limit`` memories after the keyset ``(created_at, id)``, oldest first, not
        deleted, without their embeddings (ix_memories_tenant_user_created)."""
        stmt = (
            select(Memory)
            .options(defer(Memory.embedding))
            .where(self._mine(), Memory.status != "deleted")
        )
        if after is not None:
            stmt = stmt.where(tuple_(Memory.created_at, Memory.id) > tuple_(*after))
        stmt = stmt.order_by(Memory.created_at, Memory.id).limit(limit)
        return list((await self.session.scalars(stmt)).all())

    async def history_of(self, memory_ids: Sequence[uuid.UUID]) -> list[MemoryHistory]:
        """Every history row of these memories, oldest first (ix_memory_history_memory)."""
        if not memory_ids:
            return []
        stmt = (
            select(MemoryHistory)
            .where(
                MemoryHistory.tenant_id == self.tenant_id,
                MemoryHistory.user_id == self.user_id,
                MemoryHistory.memory_id.in_(list(memory_ids)),
            )
            .order_by(MemoryHistory.memory_id, MemoryHistory.id)
        )
        return list((await self.session.scalars(stmt)).all())

    async def message_page(self, after: MessageCursor | None, limit: int) -> list[Message]:
        """Up to ``limit`` messages after the keyset ``(session_id, occurred_at, seq)``, by
        session and time (ix_messages_session)."""
        stmt = select(Message).where(
            Message.tenant_id == self.tenant_id, Message.user_id == self.user_id
        )
        if after is not None:
            stmt = stmt.where(
                tuple_(Message.session_id, Message.occurred_at, Message.seq) > tuple_(*after)
            )
        stmt = stmt.order_by(Message.session_id, Message.occurred_at, Message.seq).limit(limit)
        return list((await self.session.scalars(stmt)).all())

    async def ended_sessions(self) -> dict[str, datetime]:
        """``{session id: ended_at}`` of the user's ended sessions."""
        stmt = select(ChatSession.id, ChatSession.ended_at).where(
            ChatSession.tenant_id == self.tenant_id,
            ChatSession.user_id == self.user_id,
            ChatSession.ended_at.is_not(None),
        )
        return {s: at for s, at in (await self.session.execute(stmt)).all() if at is not None}

    # --- import ----------------------------------------------------------------------------

    async def imported_ids(self, document_ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, uuid.UUID]:
        """``{document id: memory id here}`` for the entries already here: a memory of that very
        id (the user's own export), or one imported from it (``origin.imported_from``), in any
        status but deleted."""
        if not document_ids:
            return {}
        wanted = [str(i) for i in document_ids]
        imported_from = Memory.origin["imported_from"]["memory_id"].astext
        stmt = select(Memory.id, imported_from).where(
            self._mine(),
            Memory.status != "deleted",
            or_(Memory.id.in_(list(document_ids)), imported_from.in_(wanted)),
        )
        ids = set(document_ids)
        out: dict[uuid.UUID, uuid.UUID] = {}
        for mine, source in (await self.session.execute(stmt)).all():
            if source and uuid.UUID(source) in ids:
                out.setdefault(uuid.UUID(source), mine)
            if mine in ids:
                out[mine] = mine
        return out

    async def link_supersedes(self, memory_id: uuid.UUID, supersedes: uuid.UUID) -> None:
        """Point an imported memory back at the one it superseded, unless it points already."""
        await self.session.execute(
            update(Memory)
            .where(self._mine(), Memory.id == memory_id, Memory.supersedes.is_(None))
            .values(supersedes=supersedes)
        )

    async def superseded(self, memory_ids: Sequence[uuid.UUID]) -> set[uuid.UUID]:
        """Which of ``memory_ids`` a memory of the user already names in ``supersedes``."""
        if not memory_ids:
            return set()
        stmt = select(Memory.supersedes).where(
            self._mine(), Memory.supersedes.in_(list(memory_ids))
        )
        return {i for i in (await self.session.scalars(stmt)).all() if i is not None}

    async def known_messages(
        self, session_ids: Iterable[str], times: Iterable[datetime]
    ) -> set[tuple[str, datetime, str, str]]:
        """``(session_id, occurred_at, role, content)`` of the user's messages in these sessions
        at these times: what an import must not write twice."""
        stmt = select(Message.session_id, Message.occurred_at, Message.role, Message.content).where(
            Message.tenant_id == self.tenant_id,
            Message.user_id == self.user_id,
            Message.session_id.in_(list(set(session_ids))),
            Message.occurred_at.in_(list(set(times))),
        )
        return {(s, at, r, c) for s, at, r, c in (await self.session.execute(stmt)).all()}

    async def add_messages(self, rows: Sequence[dict[str, Any]]) -> None:
        """Insert messages (``session_id, task_id, role, content, occurred_at, metadata``,
        optionally ``name``) and create their sessions when new."""
        now = utcnow()
        self.session.add_all(
            Message(
                tenant_id=self.tenant_id,
                id=uuid.uuid4(),
                user_id=self.user_id,
                session_id=r["session_id"],
                task_id=r["task_id"],
                job_id=None,
                role=r["role"],
                content=r["content"],
                occurred_at=r["occurred_at"],
                utc_offset_minutes=offset_minutes(r["occurred_at"]),
                metadata_=r["metadata"],
                sealed=r.get("sealed", []),
                name=r.get("name"),
                created_at=now,
            )
            for r in rows
        )
        session_ids = sorted({r["session_id"] for r in rows})
        if session_ids:
            stmt = insert(ChatSession).values(
                [
                    {
                        "tenant_id": self.tenant_id,
                        "user_id": self.user_id,
                        "id": s,
                        "created_at": now,
                        "updated_at": now,
                    }
                    for s in session_ids
                ]
            )
            await self.session.execute(stmt.on_conflict_do_nothing())
        ended: dict[str, datetime] = {}
        for r in rows:
            if r.get("session_ended_at") is not None:
                ended.setdefault(r["session_id"], r["session_ended_at"])
        for session_id, ended_at in ended.items():
            # An ended session stays ended; one ended here already keeps its first end.
            await self.session.execute(
                update(ChatSession)
                .where(
                    ChatSession.tenant_id == self.tenant_id,
                    ChatSession.user_id == self.user_id,
                    ChatSession.id == session_id,
                    ChatSession.ended_at.is_(None),
                )
                .values(ended_at=ended_at, updated_at=now)
            )
        await self.session.flush()
