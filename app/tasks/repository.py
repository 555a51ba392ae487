"""SQL on tasks."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert

from app.db.models import Task
from app.db.repository import UserScopedRepository


class TaskRepository(UserScopedRepository):
    async def get(self, task_id: str, *, for_update: bool = False) -> Task | None:
        stmt = select(Task).where(self.mine(Task), Task.id == task_id)
        if for_update:
            stmt = stmt.with_for_update()
        return (await self.session.scalars(stmt)).first()

    async def list_tasks(self, status: str | None, limit: int) -> list[Task]:
        stmt = select(Task).where(self.mine(Task))
        if status:
            stmt = stmt.where(Task.status == status)
        stmt = stmt.order_by(Task.created_at.desc()).limit(limit)
        return list((await self.session.scalars(stmt)).all())

    async def insert(self, task: Task) -> bool:
        """Insert the task; False when one of that id exists (nothing written)."""
        values = {
            c.key: getattr(task, c.key)
            for c in Task.__mapper__.column_attrs
            if getattr(task, c.key) is not None
        }
        stmt = insert(Task).values(values).on_conflict_do_nothing().returning(Task.id)
        return (await self.session.execute(stmt)).first() is not None
