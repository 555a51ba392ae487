"""To confirm: memories formed with low confidence, confirmed or rejected by the user.

Confirming is an explicit write of the same content, key and value in the same scope with
``source=user_declared``, through the write path and arbitration: the duplicate rule refreshes
the stored memory and raises its source (app/arbitration/service.py), and the audit records
the decision. Rejecting is a real deletion (``MemoryService.delete``).
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING

from app.kit.errors import Conflict, NotFound
from app.memories.schemas import MemoryCreate, MemoryRead
from app.memories.service import MemoryService, to_read
from app.users.policy import to_confirm
from app.users.repository import UserRepository
from app.users.schemas import ToConfirmList

if TYPE_CHECKING:
    from app.runtime import Runtime

MAX_TO_CONFIRM = 200


class ConfirmService:
    def __init__(self, rt: Runtime, tenant_id: uuid.UUID, user_id: str):
        self.rt = rt
        self.tenant_id = tenant_id
        self.user_id = user_id
        self.memories = MemoryService(rt, tenant_id, user_id)

    async def pending(self, limit: int = MAX_TO_CONFIRM) -> ToConfirmList:
        """Active memories from model_inferred or behavior_observed sources, newest first."""
        async with self.rt.scoped(self.tenant_id, self.user_id) as session:
            rows = await UserRepository(session, self.tenant_id).to_confirm(self.user_id, limit)
        return ToConfirmList(items=[to_read(m, self.rt.privacy) for m in rows])

    async def _pending_one(self, memory_id: uuid.UUID) -> MemoryRead:
        memory = await self.memories.get(memory_id)
        if memory.status != "active" or not to_confirm(memory.source):
            raise Conflict("this memory is not waiting for confirmation")
        return memory

    async def confirm(self, memory_id: uuid.UUID, request_id: str | None) -> MemoryRead:
        """Write the memory again as ``user_declared`` and wait for arbitration; returns the
        memory as stored then. Raises NotFound (404), Conflict (409) when the memory is not
        waiting for confirmation or the write did not finish in ``job_wait_timeout_s``."""
        memory = await self._pending_one(memory_id)
        write = MemoryCreate(
            content=memory.content,
            type=memory.type,
            key=memory.key,
            value=memory.value,
            source="user_declared",
            scope=memory.scope,
            scope_id=memory.scope_id,
            occurred_at=memory.valid_from,
            metadata={k: v for k, v in memory.metadata.items() if k != "inferred"},
        )
        job, _ = await self.memories.submit(write, idempotency_key=None, request_id=request_id)
        done = await self.memories.wait(job.id, self.rt.settings.job_wait_timeout_s)
        if done.status != "done":
            raise Conflict(f"the confirmation is still {done.status}; see /v1/jobs/{job.id}")
        stored, _ = await self.memories.result_of(done)
        for m in stored:
            if m.id == memory_id:
                return m
        if stored:
            return stored[0]
        raise NotFound("no such memory")

    async def reject(self, memory_id: uuid.UUID, request_id: str | None) -> None:
        """Delete the memory for real. Raises NotFound (404), Conflict (409) when it is not
        waiting for confirmation."""
        await self._pending_one(memory_id)
        await self.memories.delete(memory_id, request_id)
