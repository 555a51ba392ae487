"""All SQL on memories, their history and the arbitration audit."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import and_, func, or_, select, update

from app.db.models import Arbitration, ChatSession, Memory, MemoryHistory
from app.db.models import memory_snapshot as snapshot
from app.db.repository import UserScopedRepository
from app.kit.chinese import spellings
from app.kit.time import utcnow

__all__ = ["MemoryRepository", "snapshot"]


class MemoryRepository(UserScopedRepository):
    def _mine(self) -> Any:
        return self.mine(Memory)

    async def get(self, memory_id: uuid.UUID, *, for_update: bool = False) -> Memory | None:
        """The memory (any status), or None. ``for_update`` locks its row and reloads it from
        the database: a row this session read before the lock was taken may have been changed
        by a transaction that held the lock first, and its state is what the caller checks."""
        stmt = select(Memory).where(self._mine(), Memory.id == memory_id)
        if for_update:
            stmt = stmt.with_for_update().execution_options(populate_existing=True)
        return (await self.session.scalars(stmt)).first()

    async def lock_active(self, ids: Sequence[uuid.UUID]) -> list[Memory]:
        """The rows of ``ids`` that are still active, locked for update, by id."""
        if not ids:
            return []
        stmt = (
            select(Memory)
            .where(self._mine(), Memory.id.in_(list(ids)), Memory.status == "active")
            .order_by(Memory.id)
            .with_for_update()
        )
        return list((await self.session.scalars(stmt)).all())

    async def active_ids_in_scope(self, scope: str, scope_id: str) -> list[uuid.UUID]:
        """Ids of the active memories (episodes too) of one scope, e.g. one session's."""
        stmt = (
            select(Memory.id)
            .where(
                self._mine(),
                Memory.status == "active",
                Memory.scope == scope,
                Memory.scope_id == scope_id,
            )
            .order_by(Memory.id)
        )
        return list((await self.session.scalars(stmt)).all())

    async def ended_sessions(self, session_ids: Sequence[str]) -> list[str]:
        """Those of ``session_ids`` that were ended (POST …/sessions/{id}/end)."""
        if not session_ids:
            return []
        stmt = select(ChatSession.id).where(
            self.mine(ChatSession),
            ChatSession.id.in_(list(session_ids)),
            ChatSession.ended_at.is_not(None),
        )
        return list((await self.session.scalars(stmt)).all())

    async def active_formed_from(
        self, message_id: str, *, first: bool = False, for_update: bool = False
    ) -> list[Memory]:
        """The active facts (not episodes) formed from one message (``origin.message_ids``
        holds its id; with ``first``, as the first of them: formed by that message, not only
        said again in it), oldest first; locked with ``for_update``."""
        formed = (
            Memory.origin["message_ids"][0].astext == message_id
            if first
            else Memory.origin["message_ids"].contains([message_id])
        )
        stmt = (
            select(Memory)
            .where(self._mine(), Memory.status == "active", Memory.type != "episode", formed)
            .order_by(Memory.created_at)
        )
        if for_update:
            stmt = stmt.with_for_update()
        return list((await self.session.scalars(stmt)).all())

    async def get_many(self, ids: Sequence[uuid.UUID]) -> list[Memory]:
        if not ids:
            return []
        stmt = select(Memory).where(self._mine(), Memory.id.in_(list(ids)))
        rows = {m.id: m for m in (await self.session.scalars(stmt)).all()}
        return [rows[i] for i in ids if i in rows]

    async def list_page(
        self,
        *,
        limit: int,
        after: tuple[datetime, uuid.UUID] | None,
        filters: dict[str, Any],
    ) -> list[Memory]:
        """Newest first; ``status`` None lists every status but deleted. ``valid_at`` keeps the
        memories valid then (``valid_from <= valid_at < valid_to``, open-ended when
        ``valid_to`` is NULL) and, without ``status``, only active and frozen ones: what was
        true then, as point-in-time recall reads it (docs/time.md)."""
        stmt = select(Memory).where(self._mine())
        status = filters.pop("status", None)
        valid_at = filters.pop("valid_at", None)
        if status:
            stmt = stmt.where(Memory.status == status)
        elif valid_at is not None:
            stmt = stmt.where(Memory.status.in_(("active", "frozen")))
        else:
            stmt = stmt.where(Memory.status != "deleted")
        if valid_at is not None:
            stmt = stmt.where(
                Memory.valid_from <= valid_at,
                or_(Memory.valid_to.is_(None), Memory.valid_to > valid_at),
            )
        for name, value in filters.items():
            if value is not None:
                stmt = stmt.where(getattr(Memory, name) == value)
        if after is not None:
            at, row_id = after
            stmt = stmt.where(
                or_(Memory.created_at < at, and_(Memory.created_at == at, Memory.id < row_id))
            )
        stmt = stmt.order_by(Memory.created_at.desc(), Memory.id.desc()).limit(limit)
        return list((await self.session.scalars(stmt)).all())

    async def active_duplicate(
        self, content_hash: str, scope: str, scope_id: str, key: str | None, value: str | None
    ) -> Memory | None:
        """An active memory in the same scope saying the same thing (same text, or same key and
        value), locked for update. A session-scoped fact matches its twin in any session (the
        session layer counts confirmations across sessions)."""
        same = Memory.content_hash == content_hash
        if key is not None and value is not None:
            # The value compared as the unique index uq_memories_active_value normalises it, in
            # either Chinese script ("鸡蛋" is the "雞蛋" stored)
            forms = [v.lower() for v in spellings(value)]
            same = or_(same, and_(Memory.key == key, func.lower(Memory.value).in_(forms)))
        stmt = (
            select(Memory)
            .where(
                self._mine(),
                Memory.status == "active",
                # An episode is the turn a fact came from, never a twin of the fact.
                Memory.type != "episode",
                Memory.scope == scope,
                same if scope == "session" else and_(Memory.scope_id == scope_id, same),
            )
            .order_by(Memory.created_at)
            .limit(1)
            .with_for_update()
        )
        return (await self.session.scalars(stmt)).first()

    async def ended_session_twins(
        self, content_hash: str, key: str | None, value: str | None
    ) -> list[str]:
        """The ended sessions (oldest first) whose scope held a memory saying the same thing
        (same text, or same key and value), archived when the session ended."""
        same = Memory.content_hash == content_hash
        if key is not None and value is not None:
            same = or_(same, and_(Memory.key == key, func.lower(Memory.value) == value.lower()))
        stmt = (
            select(Memory.scope_id, func.min(Memory.created_at))
            .join(
                ChatSession,
                and_(
                    ChatSession.tenant_id == Memory.tenant_id,
                    ChatSession.user_id == Memory.user_id,
                    ChatSession.id == Memory.scope_id,
                ),
            )
            .where(
                self._mine(),
                Memory.status == "archived",
                Memory.type != "episode",
                Memory.scope == "session",
                ChatSession.ended_at.is_not(None),
                same,
            )
            .group_by(Memory.scope_id)
            .order_by(func.min(Memory.created_at))
        )
        return [s for s, _ in (await self.session.execute(stmt)).all()]

    async def active_episode(self, content_hash: str, speaker: str | None = None) -> Memory | None:
        """The user's active episode with this content hash said by ``speaker`` (None: by no
        named speaker) — the same turn said before —, locked for update."""
        said_by = Memory.origin["speaker"].astext
        stmt = (
            select(Memory)
            .where(
                self._mine(),
                Memory.status == "active",
                Memory.type == "episode",
                Memory.content_hash == content_hash,
                said_by.is_(None) if speaker is None else said_by == speaker,
            )
            .order_by(Memory.created_at)
            .limit(1)
            .with_for_update()
        )
        return (await self.session.scalars(stmt)).first()

    async def active_with_keys(
        self,
        keys: Sequence[str],
        scope: str,
        scope_id: str,
        value: str | None = None,
        *,
        lock: bool = True,
    ) -> list[Memory]:
        """Active memories of these keys in one scope (optionally of one value), oldest first;
        locked for update unless ``lock=False`` (a read before the write lock is taken)."""
        if not keys:
            return []
        stmt = select(Memory).where(
            self._mine(),
            Memory.status == "active",
            Memory.scope == scope,
            Memory.scope_id == scope_id,
            Memory.key.in_(list(keys)),
        )
        if value is not None:
            stmt = stmt.where(Memory.value.in_(spellings(value)))
        stmt = stmt.order_by(Memory.created_at)
        if lock:
            stmt = stmt.with_for_update()
        return list((await self.session.scalars(stmt)).all())

    async def frozen_holding(
        self, key: str, scope: str, scope_id: str, at: datetime
    ) -> list[Memory]:
        """The frozen memories of ``key`` in one scope that were valid at ``at``
        (``valid_from <= at < valid_to``, open-ended when ``valid_to`` is NULL), oldest first,
        locked for update: the value(s) a fact that began at ``at`` took over from."""
        stmt = (
            select(Memory)
            .where(
                self._mine(),
                Memory.status == "frozen",
                Memory.scope == scope,
                Memory.scope_id == scope_id,
                Memory.key == key,
                Memory.valid_from <= at,
                or_(Memory.valid_to.is_(None), Memory.valid_to > at),
            )
            .order_by(Memory.valid_from, Memory.id)
            .with_for_update()
        )
        return list((await self.session.scalars(stmt)).all())

    async def next_valid_from(
        self, key: str, scope: str, scope_id: str, after: datetime
    ) -> datetime | None:
        """The earliest ``valid_from`` later than ``after`` among the active and frozen
        memories of ``key`` in one scope that held for a while (a value that lost on arrival
        has an empty interval: it never began to hold), or None: when the value that began
        at ``after`` was next replaced."""
        stmt = select(func.min(Memory.valid_from)).where(
            self._mine(),
            Memory.status.in_(("active", "frozen")),
            Memory.scope == scope,
            Memory.scope_id == scope_id,
            Memory.key == key,
            Memory.valid_from > after,
            or_(Memory.valid_to.is_(None), Memory.valid_to > Memory.valid_from),
        )
        return (await self.session.execute(stmt)).scalar_one_or_none()

    async def active_keyless(self, scope: str, scope_id: str) -> list[Memory]:
        """Active memories with no key in one scope — facts, not constraints or the episodes
        that keep what was said — oldest first."""
        stmt = (
            select(Memory)
            .where(
                self._mine(),
                Memory.status == "active",
                Memory.scope == scope,
                Memory.scope_id == scope_id,
                Memory.key.is_(None),
                Memory.type.not_in(("constraint", "episode")),
            )
            .order_by(Memory.created_at)
        )
        return list((await self.session.scalars(stmt)).all())

    async def active_with_values(self, values: Sequence[str]) -> list[Memory]:
        """Active non-constraint memories whose value is one of ``values`` (any scope, compared
        case-insensitively, in either Chinese script: ``kit.chinese.spellings``), locked."""
        if not values:
            return []
        stmt = (
            select(Memory)
            .where(
                self._mine(),
                Memory.status == "active",
                Memory.type != "constraint",
                func.lower(Memory.value).in_({f.lower() for v in values for f in spellings(v)}),
            )
            .with_for_update()
        )
        return list((await self.session.scalars(stmt)).all())

    async def held_before(self, keys: Sequence[str]) -> bool:
        """True if a frozen or archived memory of one of ``keys`` holds a value: the key had a
        value that has ended since."""
        stmt = (
            select(Memory.id)
            .where(
                self._mine(),
                Memory.status.in_(("frozen", "archived")),
                Memory.key.in_(list(keys)),
                Memory.value.is_not(None),
            )
            .limit(1)
        )
        return (await self.session.scalar(stmt)) is not None

    async def frozen_reminders(self, ids_or_none: None = None, limit: int = 5) -> list[Memory]:
        stmt = (
            select(Memory)
            .where(self._mine(), Memory.status == "frozen")
            .order_by(Memory.superseded_at.desc().nulls_last())
            .limit(limit)
        )
        return list((await self.session.scalars(stmt)).all())

    def add(self, memory: Memory) -> None:
        self.session.add(memory)

    def add_history(
        self,
        memory: Memory,
        action: str,
        *,
        old: dict[str, Any] | None,
        new: dict[str, Any] | None,
        actor: str,
        request_id: str | None,
    ) -> None:
        self.session.add(
            MemoryHistory(
                tenant_id=self.tenant_id,
                user_id=self.user_id,
                memory_id=memory.id,
                action=action,
                old=old,
                new=new,
                actor=actor,
                request_id=request_id,
                created_at=utcnow(),
            )
        )

    def add_arbitration(self, **fields: Any) -> Arbitration:
        row = Arbitration(
            tenant_id=self.tenant_id,
            id=uuid.uuid4(),
            user_id=self.user_id,
            created_at=utcnow(),
            **fields,
        )
        self.session.add(row)
        return row

    async def history(self, memory_ids: Sequence[uuid.UUID]) -> list[MemoryHistory]:
        stmt = (
            select(MemoryHistory)
            .where(
                MemoryHistory.tenant_id == self.tenant_id,
                MemoryHistory.user_id == self.user_id,
                MemoryHistory.memory_id.in_(list(memory_ids)),
            )
            .order_by(MemoryHistory.id)
        )
        return list((await self.session.scalars(stmt)).all())

    async def scrub_history(self, memory_id: uuid.UUID) -> None:
        """Forget what a deleted memory said: keep that it existed and when."""
        await self.session.execute(
            update(MemoryHistory)
            .where(
                MemoryHistory.tenant_id == self.tenant_id,
                MemoryHistory.user_id == self.user_id,
                MemoryHistory.memory_id == memory_id,
            )
            .values(old=None, new=None)
        )

    async def arbitrations(
        self,
        *,
        memory_id: uuid.UUID | None,
        outcome: str | None,
        since: datetime | None,
        until: datetime | None,
        limit: int,
    ) -> list[Arbitration]:
        stmt = select(Arbitration).where(
            Arbitration.tenant_id == self.tenant_id, Arbitration.user_id == self.user_id
        )
        if memory_id is not None:
            stmt = stmt.where(
                or_(
                    Arbitration.new_memory_id == memory_id,
                    Arbitration.existing_memory_id == memory_id,
                )
            )
        if outcome is not None:
            stmt = stmt.where(Arbitration.outcome == outcome)
        if since is not None:
            stmt = stmt.where(Arbitration.created_at >= since)
        if until is not None:
            stmt = stmt.where(Arbitration.created_at < until)
        stmt = stmt.order_by(Arbitration.created_at.desc()).limit(limit)
        return list((await self.session.scalars(stmt)).all())
