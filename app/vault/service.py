"""What the vault pages show, composed from the services of the REST API (no rules of its own:
memories, arbitration, recall, settings, export and erase are those of the API)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.kit.errors import NotFound
from app.memories.schemas import ArbitrationRead, MemoryRead, is_blank
from app.memories.service import MemoryService
from app.recall.schemas import RecallRequest, RecallResponse
from app.recall.service import RecallService
from app.users.confirm import ConfirmService
from app.users.schemas import UserActivity, UserSettingsRead
from app.users.service import UserService

if TYPE_CHECKING:
    from app.runtime import Runtime

# The page lists at most this many current and frozen memories (newest first); the REST list
# (GET …/memories, cursor pagination) has every one.
PAGE_MEMORIES = 200
PAGE_FROZEN = 100
PAGE_ARBITRATIONS = 500
SEARCH_TOP_K = 10
TYPE_ORDER = ("profile", "fact", "preference", "event")


@dataclass
class FrozenView:
    """A frozen memory, what superseded it and the arbitration that decided it."""

    memory: MemoryRead
    superseded_by: MemoryRead | None
    arbitration: ArbitrationRead | None


@dataclass
class UserPage:
    user_id: str
    settings: UserSettingsRead
    groups: list[tuple[str, list[MemoryRead]]]
    constraints: list[MemoryRead]
    to_confirm: list[MemoryRead]
    frozen: list[FrozenView]
    decay: dict[uuid.UUID, float]
    activity: UserActivity
    search: RecallResponse | None = None
    query: str = ""
    more: dict[str, Any] = field(default_factory=dict)


class VaultService:
    """One user's vault page, read in the request's session (recall reads in its own)."""

    def __init__(
        self,
        rt: Runtime,
        session: AsyncSession,
        tenant_id: uuid.UUID,
        user_id: str,
        request_id: str | None = None,
    ):
        self.rt = rt
        self.tenant_id = tenant_id
        self.user_id = user_id
        self.memories = MemoryService(rt, session, tenant_id, user_id, request_id)
        self.users = UserService(rt, session, tenant_id, user_id)
        self.confirm = ConfirmService(rt, session, tenant_id, user_id, request_id)

    async def user_page(self, query: str | None) -> UserPage:
        """Everything the user page shows; with ``query``, the recall of it too."""
        active = await self.memories.list_page(
            limit=PAGE_MEMORIES, cursor=None, filters={"status": "active"}
        )
        frozen = await self.memories.list_page(
            limit=PAGE_FROZEN, cursor=None, filters={"status": "frozen"}
        )
        audit = await self.memories.arbitrations(
            memory_id=None, outcome=None, since=None, until=None, limit=PAGE_ARBITRATIONS
        )
        # The decision that retired each frozen memory: it lost as the existing side
        # ("superseded") or as the new side ("new_frozen").
        decided: dict[uuid.UUID, ArbitrationRead] = {}
        for a in audit.items:
            if a.outcome == "superseded" and a.existing_memory_id is not None:
                decided.setdefault(a.existing_memory_id, a)
            elif a.outcome == "new_frozen" and a.new_memory_id is not None:
                decided.setdefault(a.new_memory_id, a)
        known = {m.id: m for m in [*active.items, *frozen.items]}
        winners = [
            m.superseded_by
            for m in frozen.items
            if m.superseded_by is not None and m.superseded_by not in known
        ]
        for memory_id in dict.fromkeys(winners):
            try:
                known[memory_id] = await self.memories.get(memory_id)
            except NotFound:  # deleted since: shown as gone
                continue
        groups = [
            (t, [m for m in active.items if m.type == t])
            for t in TYPE_ORDER
            if any(m.type == t for m in active.items)
        ]
        search = None
        if query and not is_blank(query):
            search = await RecallService(self.rt, self.tenant_id, self.user_id).recall(
                RecallRequest(query=query, top_k=SEARCH_TOP_K, include_reminders=True)
            )
        return UserPage(
            user_id=self.user_id,
            settings=await self.users.get_settings(),
            groups=groups,
            constraints=[m for m in active.items if m.type == "constraint"],
            to_confirm=(await self.confirm.pending()).items,
            frozen=[
                FrozenView(
                    memory=m,
                    superseded_by=known.get(m.superseded_by) if m.superseded_by else None,
                    arbitration=decided.get(m.id),
                )
                for m in frozen.items
            ],
            decay=await self.users.decay_of([m.id for m in active.items]),
            activity=await self.users.activity(),
            search=search,
            query=query or "",
        )

    async def arbitrations_of(self, memory_id: uuid.UUID) -> list[ArbitrationRead]:
        """The decisions that name the memory, newest first."""
        audit = await self.memories.arbitrations(
            memory_id=memory_id, outcome=None, since=None, until=None, limit=100
        )
        return audit.items
