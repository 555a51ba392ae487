"""SQL on tasks."""

from __future__ import annotations

import uuid

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Task


class TaskRepository:
    def __init__(self, session: AsyncSession, tenant_id: uuid.UUID, user_id: str):
        self.session = session
        self.tenant_id = tenant_id
        self.user_id = user_id

    async def get(self, task_id: str, *, for_update: bool = False) -> Task | None:
        stmt = select(Task).where(
            Task.tenant_id == self.tenant_id, Task.user_id == self.user_id, Task.id == task_id
        )
        if for_update:
            stmt = stmt.with_for_update()
        return (await self.session.scalars(stmt)).first()

    async def list_tasks(self, status: str | None, limit: int) -> list[Task]:
        stmt = select(Task).where(Task.tenant_id == self.tenant_id, Task.user_id == self.user_id)
        if status:
            stmt = stmt.where(Task.status == status)
        stmt = stmt.order_by(Task.created_at.desc()).limit(limit)
        return list((await self.session.scalars(stmt)).all())

    def add(self, task: Task) -> None:
        self.session.add(task)
