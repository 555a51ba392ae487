"""Conversation intake: turns and their extraction job, stored in the request's transaction."""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING

from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Job
from app.ingest.repository import ConversationRepository
from app.ingest.schemas import MessagesCreate, SessionEndRead
from app.jobs import kinds
from app.jobs.intake import JobIntake
from app.kit.errors import NotFound, SecretInName, SessionEnded
from app.kit.time import utcnow
from app.memories.service import request_digest, writer_for
from app.privacy.protect import merge_sealed, owner_of, protect_json

if TYPE_CHECKING:
    from app.runtime import Runtime


class IngestService:
    """One user's conversation intake in the request's session (it only flushes)."""

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

    async def add_messages(
        self, session_id: str, body: MessagesCreate, *, idempotency_key: str | None
    ) -> Job:
        """Store the turns and enqueue one extraction job, in the request's transaction.

        Returns the job: a retry with the same Idempotency-Key and body returns the first
        request's (``JobIntake.replay``); another body raises IdempotencyKeyReused (409); a session
        that was ended raises SessionEnded (409). Turns without ``occurred_at`` take the
        arrival time.
        """
        received_at = utcnow()
        privacy, owner = self.rt.privacy, owner_of(self.tenant_id, self.user_id)
        digest = request_digest(privacy, {"session_id": session_id, **body.model_dump(mode="json")})
        intake = JobIntake(self.session, self.tenant_id, self.user_id)
        existing = await intake.replay(idempotency_key, digest)
        if existing is not None:
            return existing
        # Sensitive values are sealed before the turns are stored (messages keep tokens/masks).
        # A name is stored in clear: one that would be sealed is refused.
        for i, m in enumerate(body.messages):
            if m.name is not None and privacy.protect(m.name, owner).text != m.name:
                raise SecretInName(
                    f"messages[{i}].name holds a value Memlane seals (a card number, a key, an "
                    "e-mail…); a name is kept in clear: send the person's name only"
                )
        protected = [privacy.protect(m.content, owner) for m in body.messages]
        metadata = [protect_json(privacy, owner, m.metadata) for m in body.messages]
        job_id = uuid.uuid4()
        conv = ConversationRepository(self.session, self.tenant_id, self.user_id)
        if await conv.touch_session(session_id) is not None:
            raise SessionEnded(
                f"session {session_id!r} has ended: it takes no more turns; "
                "continue the conversation in a new session"
            )
        rows = conv.add_messages(
            session_id,
            body.task_id,
            job_id,
            [
                (
                    m.role,
                    p.text,
                    m.occurred_at or received_at,
                    meta.value,
                    merge_sealed(p.sealed, meta.sealed),
                )
                for m, p, meta in zip(body.messages, protected, metadata, strict=True)
            ],
            names=[m.name for m in body.messages],
            tool_call_ids=[m.tool_call_id for m in body.messages],
        )
        await self.session.flush()
        job = await intake.submit(
            kinds.INGEST,
            {
                "session_id": session_id,
                "task_id": body.task_id,
                "received_at": received_at.isoformat(),
                "message_ids": [str(r.id) for r in rows],
            },
            digest=digest,
            idempotency_key=idempotency_key,
            request_id=self.request_id,
            job_id=job_id,
        )
        return job

    async def end_session(self, session_id: str) -> SessionEndRead:
        """End the session: it takes no more turns (``add_messages`` raises SessionEnded), its
        window leaves the context and every memory still in its scope — tentative facts that
        were not promoted, their turns — is archived through the memory writer (history row
        ``archive``, reason ``session_ended``). Ending an ended session archives what is left
        and keeps the first ``ended_at``. Raises NotFound when the session has neither turns nor
        memories in its scope."""
        conv = ConversationRepository(self.session, self.tenant_id, self.user_id)
        if await conv.get_session(session_id) is None:
            # Explicit writes into a session's scope make no session row: that scope is still
            # a session to end; a session with neither turns nor memories is not.
            writer = writer_for(
                self.rt, self.session, self.tenant_id, self.user_id, "session_end", None
            )
            if not await writer.repo.active_ids_in_scope("session", session_id):
                raise NotFound("no such session")
            await conv.touch_session(session_id)
        chat = await conv.end_session(session_id, utcnow())
        if chat is None or chat.ended_at is None:
            raise NotFound("no such session")
        archived = await archive_session_scope(
            self.rt, self.session, self.tenant_id, self.user_id, session_id, self.request_id
        )
        return SessionEndRead(session_id=session_id, ended_at=chat.ended_at, archived=archived)


async def archive_session_scope(
    rt: Runtime,
    session: AsyncSession,
    tenant_id: uuid.UUID,
    user_id: str,
    session_id: str,
    request_id: str | None,
) -> int:
    """Archive the active memories in the scope of an ended session (reason
    ``session_ended``); returns how many."""
    writer = writer_for(rt, session, tenant_id, user_id, "session_end", request_id)
    return await writer.archive_scope(
        "session", session_id, {"reason": "session_ended", "session_id": session_id}
    )
