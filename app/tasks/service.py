"""Task working memory: slots, steps, and a sealed conclusion that stays in its task."""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import IntegrityError

from app.arbitration.service import ArbitrationService, Candidate
from app.db.models import Task
from app.kit.errors import Conflict, NotFound
from app.kit.time import utcnow
from app.memories.repository import MemoryRepository
from app.memories.service import base_confidence, to_read
from app.tasks.repository import TaskRepository
from app.tasks.schemas import TaskCreate, TaskFinish, TaskFinished, TaskRead, TaskUpdate

if TYPE_CHECKING:
    from app.runtime import Runtime


def task_read(t: Task) -> TaskRead:
    return TaskRead(
        id=t.id,
        name=t.name,
        status=t.status,  # type: ignore[arg-type]
        required_slots=list(t.required_slots),
        slots=dict(t.slots),
        missing_slots=[s for s in t.required_slots if t.slots.get(s) in (None, "")],
        steps=list(t.steps),
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


class TaskService:
    def __init__(self, rt: Runtime, tenant_id: uuid.UUID, user_id: str):
        self.rt = rt
        self.tenant_id = tenant_id
        self.user_id = user_id

    async def create(self, body: TaskCreate) -> TaskRead:
        """Raises Conflict (409) if the task id exists."""
        now = utcnow()
        task = Task(
            tenant_id=self.tenant_id,
            user_id=self.user_id,
            id=body.id or uuid.uuid4().hex,
            name=body.name,
            required_slots=list(dict.fromkeys(body.required_slots)),
            slots={},
            steps=[],
            status="open",
            created_at=now,
            updated_at=now,
        )
        async with self.rt.scoped(self.tenant_id, self.user_id) as session:
            TaskRepository(session, self.tenant_id, self.user_id).add(task)
            try:
                await session.commit()
            except IntegrityError as exc:
                raise Conflict(f"task {task.id!r} exists") from exc
        return task_read(task)

    async def get(self, task_id: str) -> TaskRead:
        async with self.rt.scoped(self.tenant_id, self.user_id) as session:
            task = await TaskRepository(session, self.tenant_id, self.user_id).get(task_id)
        if task is None:
            raise NotFound("no such task")
        return task_read(task)

    async def list_tasks(self, status: str | None, limit: int) -> list[TaskRead]:
        async with self.rt.scoped(self.tenant_id, self.user_id) as session:
            tasks = await TaskRepository(session, self.tenant_id, self.user_id).list_tasks(
                status, limit
            )
        return [task_read(t) for t in tasks]

    async def update(self, task_id: str, body: TaskUpdate) -> TaskRead:
        """Fill slots and append steps. Raises NotFound, Conflict (409) for a finished task."""
        async with self.rt.scoped(self.tenant_id, self.user_id) as session:
            task = await TaskRepository(session, self.tenant_id, self.user_id).get(
                task_id, for_update=True
            )
            if task is None:
                raise NotFound("no such task")
            if task.status == "finished":
                raise Conflict("the task is finished; its working memory is sealed")
            if body.name:
                task.name = body.name
            slots: dict[str, Any] = dict(task.slots)
            for name, value in body.slots.items():
                if value is None:
                    slots.pop(name, None)
                else:
                    slots[name] = value
            task.slots = slots
            now = utcnow()
            task.steps = [
                *task.steps,
                *({**s.model_dump(), "at": now.isoformat()} for s in body.steps),
            ]
            task.updated_at = now
            await session.commit()
        return task_read(task)

    async def finish(self, task_id: str, body: TaskFinish, request_id: str | None) -> TaskFinished:
        """Seal the task. Its conclusion becomes a task-scoped memory, and a user-scoped one
        too only when ``promote`` is set (arbitration trigger ``promotion``, audited)."""
        embedding = None
        if body.conclusion:
            [embedding] = await self.rt.embedder.embed_passages([body.conclusion])
        async with self.rt.scoped(self.tenant_id, self.user_id) as session:
            task = await TaskRepository(session, self.tenant_id, self.user_id).get(
                task_id, for_update=True
            )
            if task is None:
                raise NotFound("no such task")
            if task.status == "finished":
                raise Conflict("the task is already finished")
            now = utcnow()
            task.status, task.finished_at, task.updated_at = "finished", now, now
            task.conclusion = body.conclusion
            memories = []
            if body.conclusion:
                arbiter = ArbitrationService(
                    MemoryRepository(session, self.tenant_id, self.user_id),
                    actor="api",
                    request_id=request_id,
                )
                scopes = [("task", task.id, "explicit")] + (
                    [("user", "", "promotion")] if body.promote else []
                )
                for scope, scope_id, trigger in scopes:
                    outcome = await arbiter.apply(
                        Candidate(
                            content=body.conclusion,
                            type="fact",
                            key=body.key,
                            source="user_declared",
                            confidence=base_confidence("user_declared"),
                            scope=scope,
                            scope_id=scope_id,
                            valid_from=now,
                            trigger=trigger,
                            origin={"task_id": task.id},
                            metadata={"task_conclusion": True},
                            embedding=embedding,
                            embedding_model=self.rt.embedder.model,
                        )
                    )
                    memories += outcome.memories[:1]
            await session.commit()
        return TaskFinished(
            task=task_read(task), memories=[to_read(m, self.rt.privacy) for m in memories]
        )
