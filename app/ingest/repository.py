"""SQL on sessions and messages."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime, timedelta, timezone
from typing import Any, cast

from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert

from app.db.models import ChatSession, Message
from app.db.repository import UserScopedRepository
from app.ingest.extraction.base import Role, Turn
from app.kit.time import utcnow


def offset_minutes(at: datetime) -> int:
    """The UTC offset of an aware datetime, in minutes."""
    return int((at.utcoffset() or timedelta()).total_seconds() // 60)


def to_turn(m: Message) -> Turn:
    """A stored message as the extractor and summariser see it, in the sender's own UTC offset."""
    local = m.occurred_at.astimezone(timezone(timedelta(minutes=m.utc_offset_minutes)))
    return Turn(message_id=str(m.id), role=cast(Role, m.role), content=m.content, occurred_at=local)


class ConversationRepository(UserScopedRepository):
    async def get_session(self, session_id: str, *, for_update: bool = False) -> ChatSession | None:
        stmt = select(ChatSession).where(self.mine(ChatSession), ChatSession.id == session_id)
        if for_update:
            stmt = stmt.with_for_update()
        return (await self.session.scalars(stmt)).first()

    async def messages_after(self, session_id: str, seq: int) -> list[Message]:
        """The session's messages after ``seq``, oldest first."""
        stmt = (
            select(Message)
            .where(self.mine(Message), Message.session_id == session_id, Message.seq > seq)
            .order_by(Message.seq)
        )
        return list((await self.session.scalars(stmt)).all())

    async def previous_message(
        self, session_id: str, seq: int, role: str | None = None
    ) -> Message | None:
        """The session's message right before ``seq`` (arrival order), of ``role`` if given,
        or None."""
        stmt = select(Message).where(
            self.mine(Message), Message.session_id == session_id, Message.seq < seq
        )
        if role is not None:
            stmt = stmt.where(Message.role == role)
        return (await self.session.scalars(stmt.order_by(Message.seq.desc()).limit(1))).first()

    async def touch_session(self, session_id: str) -> datetime | None:
        """Create the session row if new, else bump its updated_at (the row stays locked until
        the transaction ends). Returns the session's ``ended_at`` (None while it is open)."""
        now = utcnow()
        stmt = (
            insert(ChatSession)
            .values(
                tenant_id=self.tenant_id,
                user_id=self.user_id,
                id=session_id,
                created_at=now,
                updated_at=now,
            )
            .on_conflict_do_update(
                index_elements=["tenant_id", "user_id", "id"], set_={"updated_at": now}
            )
            .returning(ChatSession.ended_at)
        )
        return (await self.session.execute(stmt)).scalar_one()

    def add_messages(
        self,
        session_id: str,
        task_id: str | None,
        job_id: uuid.UUID | None,
        turns: Sequence[tuple[str, str, datetime, dict[str, Any], list[dict[str, Any]]]],
        names: Sequence[str | None] | None = None,
        tool_call_ids: Sequence[str | None] | None = None,
    ) -> list[Message]:
        """New message rows (added to the session, not flushed); ``names[i]`` is turn i's
        tool name (``MessageIn.name``) and ``tool_call_ids[i]`` the call it answers
        (``MessageIn.tool_call_id``), None throughout when not given."""
        rows = [
            Message(
                tenant_id=self.tenant_id,
                id=uuid.uuid4(),
                user_id=self.user_id,
                session_id=session_id,
                task_id=task_id,
                job_id=job_id,
                role=role,
                name=names[i] if names is not None else None,
                tool_call_id=tool_call_ids[i] if tool_call_ids is not None else None,
                content=content,
                occurred_at=occurred_at,
                utc_offset_minutes=offset_minutes(occurred_at),
                metadata_=metadata,
                sealed=sealed,
                created_at=utcnow(),
            )
            for i, (role, content, occurred_at, metadata, sealed) in enumerate(turns)
        ]
        self.session.add_all(rows)
        return rows

    async def end_session(self, session_id: str, at: datetime) -> ChatSession | None:
        """Mark the session ended at ``at`` (locked for update; a session already ended keeps
        its first ``ended_at``). Returns the session, or None when there is none."""
        chat = await self.get_session(session_id, for_update=True)
        if chat is not None and chat.ended_at is None:
            chat.ended_at, chat.updated_at = at, at
            await self.session.flush()
        return chat

    async def messages(self, ids: Sequence[uuid.UUID]) -> list[Message]:
        stmt = (
            select(Message)
            .where(
                Message.tenant_id == self.tenant_id,
                Message.user_id == self.user_id,
                Message.id.in_(list(ids)),
            )
            .order_by(Message.occurred_at, Message.seq)
        )
        return list((await self.session.scalars(stmt)).all())
