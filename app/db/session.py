"""Engine, sessions and the per-transaction isolation context (row-level security).

Every user-owned table has a policy that admits a row only when its ``tenant_id`` and
``user_id`` equal the transaction settings ``memlane.tenant_id`` / ``memlane.user_id``.
The service connects with ``role`` set to the application role, which is neither superuser
nor owner nor BYPASSRLS, so a query that forgets its WHERE still sees one user's rows.
``memlane.user_id = '*'`` opens every user of the one tenant (tenant-wide lookups such as a job
by id, or the forgetting job); there is no setting that opens another tenant.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from sqlalchemy import Connection, event, text
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.orm import Session

ALL_USERS = "*"


def create_engine(url: str, *, pool_size: int = 10) -> AsyncEngine:
    """An asyncpg engine on ``url`` (the application role's URL: ``Database.app_url``)."""
    return create_async_engine(
        url,
        pool_size=pool_size,
        max_overflow=pool_size,
        pool_pre_ping=True,
        pool_recycle=1800,
        # SQL parameters (memory content) never reach error messages or logs
        hide_parameters=True,
    )


def create_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False, autoflush=False)


_ISOLATION = "memlane_isolation"
_SET_ISOLATION = text(
    "SELECT set_config('memlane.tenant_id', :t, true), set_config('memlane.user_id', :u, true)"
)


@event.listens_for(Session, "after_begin")
def _apply_isolation(session: Session, transaction: object, connection: Connection) -> None:
    # Every transaction of a scoped session starts with its settings: they are transaction-local
    # (is_local => true), so a pooled connection never carries one request's identity into the
    # next, and a commit in the middle of a unit of work cannot drop them.
    scope = session.info.get(_ISOLATION)
    if scope is not None:
        connection.execute(_SET_ISOLATION, {"t": str(scope[0]), "u": scope[1]})


def set_isolation(session: AsyncSession, tenant_id: uuid.UUID, user_id: str) -> None:
    """Scope every transaction of ``session`` to one tenant and one user.

    ``user_id=ALL_USERS`` opens every user of that one tenant. Call before the first query.
    """
    if session.in_transaction():
        raise RuntimeError("set_isolation must be called before the session's first query")
    session.info[_ISOLATION] = (tenant_id, user_id)


@asynccontextmanager
async def scoped_session(
    maker: async_sessionmaker[AsyncSession], tenant_id: uuid.UUID, user_id: str
) -> AsyncIterator[AsyncSession]:
    """A session whose transaction is scoped to (tenant, user); rolled back unless committed."""
    async with maker() as session:
        set_isolation(session, tenant_id, user_id)
        yield session
