"""A single read (the API key lookup) runs outside an explicit transaction, and its pooled
connection comes back to transactions for the next session."""

from __future__ import annotations

import uuid

import pytest
from sqlalchemy import event, text
from sqlalchemy.dialects.postgresql.asyncpg import AsyncAdapt_asyncpg_connection
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.session import create_sessionmaker, scoped_session, single_read_session

# Each statement of a transaction sees the transaction's id; outside one, each statement is
# its own transaction and gets a new id.
XID = text("SELECT txid_current()")


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch, engine: AsyncEngine) -> list[object]:
    """Every transaction SQLAlchemy's asyncpg adapter really begins (a BEGIN it sends) on a
    connection of ``engine``: the tests share one event loop, so another test's connections may
    still be at work in the background, and theirs are not counted."""
    seen: list[object] = []
    ours: list[object] = []
    real = AsyncAdapt_asyncpg_connection._start_transaction

    @event.listens_for(engine.sync_engine.pool, "connect")
    def _ours(dbapi_connection: object, record: object) -> None:
        ours.append(dbapi_connection)

    async def counting(self: AsyncAdapt_asyncpg_connection) -> None:
        await real(self)
        if self._transaction is not None and any(self is c for c in ours):
            seen.append(self)

    monkeypatch.setattr(AsyncAdapt_asyncpg_connection, "_start_transaction", counting)
    return seen


async def test_a_single_read_sends_no_begin_and_the_connection_comes_back_transactional(
    engine: AsyncEngine, started: list[object]
) -> None:
    maker = create_sessionmaker(engine)
    async with maker() as warm:  # the engine's first connection runs its own setup queries
        await warm.execute(text("SELECT 1"))
    started.clear()

    async with single_read_session(maker) as session:
        first = (await session.execute(XID)).scalar_one()
        second = (await session.execute(XID)).scalar_one()
        pid = (await session.execute(text("SELECT pg_backend_pid()"))).scalar_one()
    assert first != second  # no transaction around the statements
    assert started == []  # and no BEGIN was sent

    # The same pooled connection, an ordinary session: one transaction again.
    async with maker() as plain:
        row = (await plain.execute(text("SELECT pg_backend_pid(), txid_current()"))).one()
        again = (await plain.execute(XID)).scalar_one()
    assert row[0] == pid and row[1] == again
    assert len(started) == 1

    # A scoped session on it still opens with its settings in its own BEGIN message.
    started.clear()
    tenant_id = uuid.uuid4()
    async with scoped_session(maker, tenant_id, "u1") as scoped:
        got = (
            await scoped.execute(
                text(
                    "SELECT pg_backend_pid(), current_setting('memlane.tenant_id', true),"
                    " current_setting('memlane.user_id', true), txid_current()"
                )
            )
        ).one()
        same_xid = (await scoped.execute(XID)).scalar_one()
    assert tuple(got[:3]) == (pid, str(tenant_id), "u1") and got[3] == same_xid
    assert started == []  # the adapter sent no BEGIN of its own


async def test_a_failed_single_read_leaves_a_usable_connection(engine: AsyncEngine) -> None:
    maker = create_sessionmaker(engine)
    with pytest.raises(Exception, match="division by zero"):
        async with single_read_session(maker) as session:
            await session.execute(text("SELECT 1 / 0"))
    async with maker() as plain:
        first = (await plain.execute(XID)).scalar_one()
        assert (await plain.execute(XID)).scalar_one() == first
