"""Conversation intake: turns and their extraction job, stored in one transaction."""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Job
from app.ingest.repository import ConversationRepository
from app.ingest.schemas import MessagesCreate
from app.ingest.tasks import KIND
from app.kit.time import utcnow
from app.memories.service import MemoryService, request_digest
from app.privacy.protect import owner_of

if TYPE_CHECKING:
    from app.runtime import Runtime


class IngestService:
    def __init__(self, rt: Runtime, tenant_id: uuid.UUID, user_id: str):
        self.rt = rt
        self.tenant_id = tenant_id
        self.user_id = user_id
        self.memories = MemoryService(rt, tenant_id, user_id)

    async def add_messages(
        self,
        session_id: str,
        body: MessagesCreate,
        *,
        idempotency_key: str | None,
        request_id: str | None,
    ) -> tuple[Job, bool]:
        """Store the turns and enqueue one extraction job, atomically.

        Returns (job, created); see ``MemoryService.enqueue`` for idempotency. Turns without
        ``occurred_at`` take the arrival time.
        """
        received_at = utcnow()
        privacy, owner = self.rt.privacy, owner_of(self.tenant_id, self.user_id)
        # Sensitive values are sealed before the turns are stored (messages keep tokens/masks).
        protected = [privacy.protect(m.content, owner) for m in body.messages]

        async def store_turns(session: AsyncSession, job_id: uuid.UUID) -> dict[str, Any]:
            conv = ConversationRepository(session, self.tenant_id, self.user_id)
            await conv.touch_session(session_id)
            rows = conv.add_messages(
                session_id,
                body.task_id,
                job_id,
                [
                    (m.role, p.text, m.occurred_at or received_at, m.metadata, p.sealed)
                    for m, p in zip(body.messages, protected, strict=True)
                ],
            )
            await session.flush()
            return {"message_ids": [str(r.id) for r in rows]}

        return await self.memories.enqueue(
            KIND,
            {
                "session_id": session_id,
                "task_id": body.task_id,
                "received_at": received_at.isoformat(),
            },
            digest=request_digest(
                privacy, {"session_id": session_id, **body.model_dump(mode="json")}
            ),
            idempotency_key=idempotency_key,
            request_id=request_id,
            prepare=store_turns,
        )
