"""Task working memory: slots, steps, and a sealed conclusion that stays in its task."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Task
from app.kit.errors import Conflict, InvalidRequest, NotFound
from app.kit.time import utcnow
from app.memories.service import to_read, writer_for
from app.memories.writer import MemoryDraft
from app.privacy.protect import (
    SECRET_KEYS,
    Privacy,
    embedding_text,
    merge_sealed,
    owner_of,
    protect_json,
    reveal_json,
)
from app.tasks.repository import TaskRepository
from app.tasks.schemas import (
    MAX_SLOTS,
    MAX_STEPS,
    TaskCreate,
    TaskFinish,
    TaskFinished,
    TaskRead,
    TaskUpdate,
)

if TYPE_CHECKING:
    from app.runtime import Runtime


def task_read(t: Task, privacy: Privacy, owner: str) -> TaskRead:
    """The owner's view of a task: personal values revealed, secrets masked (as memories)."""
    return TaskRead(
        id=t.id,
        name=privacy.reveal_personal(t.name, t.sealed, owner) or "",
        status=t.status,  # type: ignore[arg-type]
        required_slots=list(t.required_slots),
        slots=reveal_json(privacy, dict(t.slots), t.sealed, owner),
        missing_slots=[s for s in t.required_slots if t.slots.get(s) in (None, "")],
        steps=reveal_json(privacy, list(t.steps), t.sealed, owner),
        conclusion=t.conclusion,
        created_at=t.created_at,
        updated_at=t.updated_at,
        finished_at=t.finished_at,
    )


def slot_for_key(task: Task, key: str | None) -> str | None:
    """The required slot an extracted fact's key fills: the slot named like the key, or like
    its last segment (slot ``budget`` takes ``project.budget``)."""
    if key is None:
        return None
    for slot in task.required_slots:
        if slot == key or key.rsplit(".", 1)[-1] == slot:
            return slot
    return None


class SlotsMissing(Conflict):
    """A task cannot finish while required slots are empty."""

    slug, title = "task-slots-missing", "Required slots are missing"


def protect_task(privacy: Privacy, task: Task, owner: str, fields: Any) -> Any:
    """``fields`` (parts of a task's name, slots, steps) protected like a memory's text
    (``protect_json``: secrets masked, personal values tokenised); their sealed entries are
    added to ``task.sealed``. Every task write passes here before it is stored."""
    p = protect_json(privacy, owner, fields)
    task.sealed = merge_sealed(task.sealed or [], p.sealed)
    return p.value


async def fill_task_slots(
    session: AsyncSession,
    privacy: Privacy,
    tenant_id: uuid.UUID,
    user_id: str,
    task_id: str,
    facts: Sequence[tuple[str | None, str | None]],
) -> None:
    """Facts ``(key, clear value)`` whose key names a required slot of the open task fill that
    slot, protected (in the caller's transaction; flushes nothing itself)."""
    task = await TaskRepository(session, tenant_id, user_id).get(task_id, for_update=True)
    if task is None or task.status != "open":
        return
    owner = owner_of(tenant_id, user_id)
    filled: dict[str, Any] = {}
    for key, value in facts:
        slot = slot_for_key(task, key)
        if slot is not None and value:
            # the value of a secret key (account.password) is secret as a whole, as in memories
            filled[slot] = privacy.protect(value, owner, whole_secret=SECRET_KEYS.get(key or ""))
    if not filled:
        return
    slots = {**task.slots, **{slot: p.text for slot, p in filled.items()}}
    if slots != task.slots:
        task.slots = slots
        task.sealed = merge_sealed(task.sealed or [], *(p.sealed for p in filled.values()))
        task.updated_at = utcnow()


class TaskService:
    """One user's tasks in the request's session (it only flushes)."""

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
        self.repo = TaskRepository(session, tenant_id, user_id)
        self.owner = owner_of(tenant_id, user_id)

    def _read(self, task: Task) -> TaskRead:
        return task_read(task, self.rt.privacy, self.owner)

    async def create(self, body: TaskCreate) -> TaskRead:
        """Raises Conflict (409) if the task id exists."""
        now = utcnow()
        task = Task(
            tenant_id=self.tenant_id,
            user_id=self.user_id,
            id=body.id or uuid.uuid4().hex,
            required_slots=list(dict.fromkeys(body.required_slots)),
            slots={},
            steps=[],
            sealed=[],
            status="open",
            created_at=now,
            updated_at=now,
        )
        task.name = protect_task(self.rt.privacy, task, self.owner, body.name)
        if not await self.repo.insert(task):
            raise Conflict(f"task {task.id!r} exists")
        return self._read(task)

    async def get(self, task_id: str) -> TaskRead:
        task = await self.repo.get(task_id)
        if task is None:
            raise NotFound("no such task")
        return self._read(task)

    async def list_tasks(self, status: str | None, limit: int) -> list[TaskRead]:
        return [self._read(t) for t in await self.repo.list_tasks(status, limit)]

    async def update(self, task_id: str, body: TaskUpdate) -> TaskRead:
        """Fill slots and append steps, protected (``protect_task``). Raises NotFound, Conflict
        (409) for a finished task, InvalidRequest (422) when the task would hold more than
        ``MAX_SLOTS`` slots or ``MAX_STEPS`` steps."""
        task = await self.repo.get(task_id, for_update=True)
        if task is None:
            raise NotFound("no such task")
        if task.status == "finished":
            raise Conflict("the task is finished; its working memory is sealed")
        slots: dict[str, Any] = dict(task.slots)
        filled: dict[str, Any] = {}
        for name, value in body.slots.items():
            if value is None:
                slots.pop(name, None)
            else:
                filled[name] = value
        if len(set(slots) | set(filled)) > MAX_SLOTS:
            raise InvalidRequest(f"a task holds at most {MAX_SLOTS} slots")
        if len(task.steps) + len(body.steps) > MAX_STEPS:
            raise InvalidRequest(f"a task holds at most {MAX_STEPS} steps")
        now = utcnow()
        # Only what this request sends is protected: stored values are protected already.
        changes: dict[str, Any] = {
            "slots": filled,
            "steps": [step.description for step in body.steps],
        }
        if body.name:
            changes["name"] = body.name
        protected = protect_task(self.rt.privacy, task, self.owner, changes)
        if "name" in protected:
            task.name = protected["name"]
        task.slots = {**slots, **protected["slots"]}
        task.steps = [
            *task.steps,
            *(
                {**step.model_dump(), "description": text, "at": now.isoformat()}
                for step, text in zip(body.steps, protected["steps"], strict=True)
            ),
        ]
        task.updated_at = now
        await self.session.flush()
        return self._read(task)

    async def finish(self, task_id: str, body: TaskFinish) -> TaskFinished:
        """Seal the task. Its conclusion becomes a task-scoped memory through the memory writer
        (protected like any write: a password in it is sealed), and a user-scoped one too only
        when ``promote`` is set (arbitration trigger ``promotion``, audited).

        Raises NotFound, Conflict (409) when the task is finished, SlotsMissing (409, type
        ``…:task-slots-missing``) while a required slot is empty; the task stays open.
        """
        task = self._check_finishable(await self.repo.get(task_id))  # again under the lock
        memories = []
        if body.conclusion:
            now = utcnow()
            scopes = [("task", task.id, "explicit")] + (
                [("user", "", "promotion")] if body.promote else []
            )
            drafts = [
                MemoryDraft(
                    content=body.conclusion,
                    type="fact",
                    key=body.key,
                    source="user_declared",
                    scope=scope,
                    scope_id=scope_id,
                    valid_from=now,
                    trigger=trigger,
                    origin={"task_id": task.id},
                    metadata={"task_conclusion": True},
                )
                for scope, scope_id, trigger in scopes
            ]
            writer = writer_for(
                self.rt, self.session, self.tenant_id, self.user_id, "api", self.request_id
            )
            # The writer takes the user's locks before the task row is locked below: every
            # unit of work takes them in that order.
            outcomes = await writer.write(drafts)
            memories = [o.memories[0] for o in outcomes]
        task = self._check_finishable(await self.repo.get(task_id, for_update=True))
        now = utcnow()
        task.status, task.finished_at, task.updated_at = "finished", now, now
        # The task keeps the conclusion as the writer stored it (secrets masked), with
        # personal values shown by kind: the memory holds them sealed.
        task.conclusion = embedding_text(memories[0].content) if memories else None
        await self.session.flush()
        return TaskFinished(
            task=self._read(task), memories=[to_read(m, self.rt.privacy) for m in memories]
        )

    @staticmethod
    def _check_finishable(task: Task | None) -> Task:
        if task is None:
            raise NotFound("no such task")
        if task.status == "finished":
            raise Conflict("the task is already finished")
        missing = [s for s in task.required_slots if task.slots.get(s) in (None, "")]
        if missing:
            raise SlotsMissing(
                f"required slots are missing: {', '.join(missing)}; fill them "
                "(PATCH …/tasks/{id}) before finishing",
                errors=[{"loc": ["slots", s], "msg": "required slot is empty"} for s in missing],
            )
        return task
