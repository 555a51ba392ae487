"""Engine, sessions and the per-transaction isolation context (row-level security).

Every user-owned table has a policy that admits a row only when its ``tenant_id`` and
``user_id`` equal the transaction settings ``memlane.tenant_id`` / ``memlane.user_id``.
The service connects with ``role`` set to the application role, which is neither superuser
nor owner nor BYPASSRLS, so a query that forgets its WHERE still sees one user's rows.
``memlane.user_id = '*'`` opens every user of the one tenant (tenant-wide lookups such as a job
by id, or the forgetting job); there is no setting that opens another tenant.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from sqlalchemy import Connection, event, exc, text
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.orm import Session
from sqlalchemy.util import await_only

ALL_USERS = "*"


# A pooled connection idle for longer than this is pinged before it is handed out.
PING_IDLE_AFTER_S = 10.0
_CHECKED_IN = "memlane_checked_in"


def create_engine(url: str, *, pool_size: int = 10) -> AsyncEngine:
    """An asyncpg engine on ``url`` (the application role's URL: ``Database.app_url``).

    Dead connections are replaced at checkout (``_check_alive``) without a round trip for a
    connection in steady use: SQLAlchemy's ``pool_pre_ping`` would cost three per checkout
    (the asyncpg dialect pings with BEGIN, ``;``, ROLLBACK), i.e. three of the five round trips
    a recall's ranking call made besides its statement (docs/benchmarks.md). The pool is LIFO
    so that the connections a quiet service keeps using stay warm and the rest age into the
    ping (SQLAlchemy, "Dealing with Disconnects" and "Using FIFO vs. LIFO").
    """
    engine = create_async_engine(
        url,
        pool_size=pool_size,
        max_overflow=pool_size,
        pool_pre_ping=False,
        pool_use_lifo=True,
        pool_recycle=1800,
        # SQL parameters (memory content) never reach error messages or logs
        hide_parameters=True,
    )
    pool, dialect = engine.sync_engine.pool, engine.sync_engine.dialect

    @event.listens_for(pool, "connect")
    @event.listens_for(pool, "checkin")
    def _stamp(dbapi_connection: Any, record: Any) -> None:
        record.info[_CHECKED_IN] = time.monotonic()

    @event.listens_for(pool, "checkout")
    def _check_alive(dbapi_connection: Any, record: Any, proxy: Any) -> None:
        # Raising DisconnectionError makes the pool discard this connection and check out
        # another (a new one if need be), up to three times (SQLAlchemy PoolEvents.checkout).
        # A backend that was terminated or a server that restarted closed the socket: asyncpg
        # has seen the end of the stream and reports the connection closed, locally. A
        # connection idle for a while may have been dropped without a word (a firewall, a
        # network failure): it gets the dialect's real ping first.
        if dbapi_connection.driver_connection.is_closed():
            raise exc.DisconnectionError("the pooled connection was closed by the server")
        idle = time.monotonic() - record.info.get(_CHECKED_IN, 0.0)
        if idle > PING_IDLE_AFTER_S:
            try:
                dialect.do_ping(dbapi_connection)
            except Exception as error:
                # A connection lost this way suggests the others went with it: the pool
                # replaces every connection older than now as it hands them out.
                raise exc.InvalidatePoolError("the pooled connection did not answer") from error

    return engine


def create_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False, autoflush=False)


_ISOLATION = "memlane_isolation"
_SET_ISOLATION = text(
    "SELECT set_config('memlane.tenant_id', :t, true), set_config('memlane.user_id', :u, true)"
)


def escape_literal(value: str) -> str:
    """``value`` as a PostgreSQL escape string constant ``E'…'``: every backslash and quote
    escaped, read the same whatever ``standard_conforming_strings`` is (PostgreSQL manual,
    4.1.2.2 "String Constants with C-Style Escapes"). Raises ValueError for a NUL character,
    which no PostgreSQL string holds."""
    if "\x00" in value:
        raise ValueError("a PostgreSQL string cannot hold a NUL character")
    return "E'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


class _Begun:
    """The transaction of an asyncpg connection that ``_begin_isolated`` opened, in the place
    SQLAlchemy's asyncpg adapter keeps asyncpg's own ``Transaction``: the adapter ends it with
    ``commit()`` or ``rollback()``."""

    def __init__(self, driver: Any):
        self.driver = driver

    async def commit(self) -> None:
        await self.driver.execute("COMMIT;")

    async def rollback(self) -> None:
        await self.driver.execute("ROLLBACK;")


def _begin_isolated(connection: Connection, tenant_id: uuid.UUID, user_id: str) -> bool:
    """Open the connection's transaction and set its isolation in one round trip: ``BEGIN;
    SELECT set_config(…), set_config(…)`` as one simple-protocol message, in which PostgreSQL
    runs the settings inside the transaction before anything else. False (nothing sent) when
    the connection is not an idle asyncpg connection at the default isolation level, or a value
    cannot be a literal: the caller then sets them with bind parameters after SQLAlchemy's own
    BEGIN (two round trips)."""
    adapter: Any = connection.connection.dbapi_connection
    driver = getattr(adapter, "driver_connection", None)
    if (
        driver is None
        or getattr(adapter, "_transaction", True) is not None
        or getattr(adapter, "isolation_level", True) is not None
        or getattr(adapter, "readonly", True)
        or getattr(adapter, "deferrable", True)
        or "\x00" in user_id
    ):
        return False
    sql = (
        "BEGIN; SELECT set_config('memlane.tenant_id', "
        f"{escape_literal(str(uuid.UUID(str(tenant_id))))}, true),"
        f" set_config('memlane.user_id', {escape_literal(user_id)}, true)"
    )
    # Marked begun before sending: whatever happens to the message, the adapter's commit or
    # rollback ends it, and the adapter never sends a BEGIN of its own inside it.
    adapter._transaction = _Begun(driver)
    try:
        await_only(driver.execute(sql))
    except Exception as error:
        # As SQLAlchemy reports a failed statement: a DBAPIError (the API maps it to a
        # problem response), the connection invalidated when the server is gone.
        gone = bool(driver.is_closed())
        if gone:
            connection.invalidate(error)
        raise exc.DBAPIError("BEGIN", None, error, connection_invalidated=gone) from error
    return True


@event.listens_for(Session, "after_begin")
def _apply_isolation(session: Session, transaction: object, connection: Connection) -> None:
    # Every transaction of a scoped session starts with its settings: they are transaction-local
    # (is_local => true), so a pooled connection never carries one request's identity into the
    # next, and a commit in the middle of a unit of work cannot drop them.
    scope = session.info.get(_ISOLATION)
    if scope is not None and not _begin_isolated(connection, scope[0], scope[1]):
        connection.execute(_SET_ISOLATION, {"t": str(scope[0]), "u": scope[1]})


def set_isolation(session: AsyncSession, tenant_id: uuid.UUID, user_id: str) -> None:
    """Scope every transaction of ``session`` to one tenant and one user.

    ``user_id=ALL_USERS`` opens every user of that one tenant. Call before the first query.
    """
    if session.in_transaction():
        raise RuntimeError("set_isolation must be called before the session's first query")
    session.info[_ISOLATION] = (tenant_id, user_id)


@asynccontextmanager
async def single_read_session(
    maker: async_sessionmaker[AsyncSession],
) -> AsyncIterator[AsyncSession]:
    """A session for one read statement, run outside an explicit transaction (autocommit): the
    statement is its own transaction, as consistent as inside ``BEGIN … ROLLBACK``, without
    those two round trips. For a lookup of its own, such as an API key on every request
    (docs/benchmarks.md, "The database stage of a recall"); never for writes or for several
    statements that must see one snapshot. Unscoped: no isolation settings are applied, so it
    reads only tables without a row-level security policy for the application role.

    The asyncpg adapter begins its transaction lazily, on the first statement, and not at all
    in autocommit; the connection is put back at the default (transactions) before it returns
    to the pool, without a round trip either way."""
    async with maker() as session:
        connection = await session.connection()  # procured, nothing sent yet
        adapter: Any = (await connection.get_raw_connection()).dbapi_connection
        if getattr(adapter, "_transaction", True) is not None or adapter.isolation_level:
            # not an idle asyncpg connection at the default level: keep the transaction
            yield session
            return
        adapter.autocommit = True
        try:
            yield session
        finally:
            adapter.autocommit = False


@asynccontextmanager
async def scoped_session(
    maker: async_sessionmaker[AsyncSession], tenant_id: uuid.UUID, user_id: str
) -> AsyncIterator[AsyncSession]:
    """A session whose transaction is scoped to (tenant, user); rolled back unless committed."""
    async with maker() as session:
        set_isolation(session, tenant_id, user_id)
        yield session
