"""To confirm: memories formed with low confidence, confirmed or rejected by the user.

Confirming states the memory again as ``user_declared`` through the memory writer
(``MemoryWriter.restate``): arbitration finds the duplicate, refreshes it and raises its
source (app/arbitration/service.py, rule ``duplicate``), and the audit records the decision.
Rejecting is a real deletion (``MemoryService.delete``). Both in the request's unit of work.
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING

from sqlalchemy.ext.asyncio import AsyncSession

from app.kit.errors import Conflict
from app.memories.schemas import MemoryRead
from app.memories.service import MemoryService, to_read
from app.users.policy import to_confirm
from app.users.repository import UserRepository
from app.users.schemas import ToConfirmList

if TYPE_CHECKING:
    from app.runtime import Runtime

MAX_TO_CONFIRM = 200


class ConfirmService:
    """One user's memories waiting for confirmation, in the request's session (it only
    flushes)."""

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
        self.memories = MemoryService(rt, session, tenant_id, user_id, request_id)

    async def pending(self, limit: int = MAX_TO_CONFIRM) -> ToConfirmList:
        """Active memories from model_inferred or behavior_observed sources, newest first."""
        rows = await UserRepository(self.session, self.tenant_id).to_confirm(self.user_id, limit)
        return ToConfirmList(items=[to_read(m, self.rt.privacy) for m in rows])

    async def _pending_one(self, memory_id: uuid.UUID) -> MemoryRead:
        memory = await self.memories.get(memory_id)
        if memory.status != "active" or not to_confirm(memory.source):
            raise Conflict("this memory is not waiting for confirmation")
        return memory

    async def confirm(self, memory_id: uuid.UUID, actor: str = "api") -> MemoryRead:
        """The memory stated again by the user (``user_declared``) through the writer; returns
        it as stored then. Raises NotFound (404), Conflict (409) when the memory is not
        waiting for confirmation."""
        await self._pending_one(memory_id)
        outcome = await self.memories.writer(actor).restate(memory_id, source="user_declared")
        stored = next((m for m in outcome.memories if m.id == memory_id), outcome.memories[0])
        return to_read(stored, self.rt.privacy)

    async def reject(self, memory_id: uuid.UUID) -> None:
        """Delete the memory for real. Raises NotFound (404), Conflict (409) when it is not
        waiting for confirmation."""
        await self._pending_one(memory_id)
        await self.memories.delete(memory_id)
