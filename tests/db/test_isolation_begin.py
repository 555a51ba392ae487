"""A scoped transaction opens with its isolation settings in the same message as its BEGIN."""

from __future__ import annotations

import uuid

import pytest
from sqlalchemy import text
from sqlalchemy.dialects.postgresql.asyncpg import AsyncAdapt_asyncpg_connection
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.session import create_sessionmaker, escape_literal, scoped_session

SETTINGS_SQL = text(
    "SELECT current_setting('memlane.tenant_id', true), current_setting('memlane.user_id', true)"
)


@pytest.fixture
def begins(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Every BEGIN that SQLAlchemy's asyncpg adapter sends itself."""
    seen: list[object] = []
    real = AsyncAdapt_asyncpg_connection._start_transaction

    async def counting(self: AsyncAdapt_asyncpg_connection) -> None:
        seen.append(self)
        await real(self)

    monkeypatch.setattr(AsyncAdapt_asyncpg_connection, "_start_transaction", counting)
    return seen


@pytest.mark.parametrize(
    "user_id", ["u1", "*", "o'brien", "back\\slash\\'", "'); SELECT 1; --", "用户 ü"]
)
async def test_the_settings_are_exactly_the_scope_and_local_to_the_transaction(
    engine: AsyncEngine, begins: list[object], user_id: str
) -> None:
    maker = create_sessionmaker(engine)
    async with maker() as warm:  # the engine's first connection runs its own setup queries
        await warm.execute(text("SELECT 1"))
    begins.clear()
    tenant_id = uuid.uuid4()
    async with scoped_session(maker, tenant_id, user_id) as session:
        first = (await session.execute(SETTINGS_SQL)).one()
        assert tuple(first) == (str(tenant_id), user_id)
        pid = (await session.execute(text("SELECT pg_backend_pid()"))).scalar_one()
        # only this connection's BEGINs count: other tests' apps may still run background work
        adapter = (await (await session.connection()).get_raw_connection()).dbapi_connection
        await session.commit()
        # the next transaction of the same session starts with them again
        assert tuple((await session.execute(SETTINGS_SQL)).one()) == (str(tenant_id), user_id)
    mine = [b for b in begins if b is adapter]
    assert mine == []  # no BEGIN of the adapter's own: the settings came with ours
    # The same pooled connection, no scope: the settings ended with their transaction.
    async with maker() as plain:
        row = (
            await plain.execute(
                text(
                    "SELECT pg_backend_pid(), current_setting('memlane.tenant_id', true),"
                    " current_setting('memlane.user_id', true)"
                )
            )
        ).one()
    assert row[0] == pid and not row[1] and not row[2]
    assert len([b for b in begins if b is adapter]) == 1


async def test_a_rolled_back_transaction_leaves_nothing_and_the_next_one_is_scoped(
    engine: AsyncEngine,
) -> None:
    maker = create_sessionmaker(engine)
    tenant_id = uuid.uuid4()
    async with scoped_session(maker, tenant_id, "u1") as session:
        await session.execute(text("SELECT set_config('memlane.probe', 'x', false)"))
        await session.rollback()
        row = (
            await session.execute(
                text(
                    "SELECT current_setting('memlane.probe', true),"
                    " current_setting('memlane.user_id')"
                )
            )
        ).one()
        # a session-level setting made inside the transaction was rolled back with it
        assert (row[0] or "") == "" and row[1] == "u1"


async def test_a_failed_statement_aborts_only_its_transaction(engine: AsyncEngine) -> None:
    maker = create_sessionmaker(engine)
    async with scoped_session(maker, uuid.uuid4(), "u1") as session:
        with pytest.raises(Exception, match="division by zero"):
            await session.execute(text("SELECT 1 / 0"))
        await session.rollback()
        assert (
            await session.execute(text("SELECT current_setting('memlane.user_id')"))
        ).scalar_one() == "u1"


async def test_another_isolation_level_keeps_the_bound_settings(engine: AsyncEngine) -> None:
    # A transaction with its own isolation level (the export's REPEATABLE READ, READ ONLY) is
    # begun by the adapter, and the settings follow with bind parameters.
    maker = create_sessionmaker(engine)
    tenant_id = uuid.uuid4()
    async with scoped_session(maker, tenant_id, "o'brien") as session:
        await session.connection(
            execution_options={"isolation_level": "REPEATABLE READ", "postgresql_readonly": True}
        )
        row = (
            await session.execute(
                text(
                    "SELECT current_setting('transaction_isolation'),"
                    " current_setting('transaction_read_only'),"
                    " current_setting('memlane.tenant_id'), current_setting('memlane.user_id')"
                )
            )
        ).one()
    assert tuple(row) == ("repeatable read", "on", str(tenant_id), "o'brien")


def test_escape_literal_round_trips_through_postgresql_syntax() -> None:
    assert escape_literal("a'b\\c") == "E'a\\'b\\\\c'"
    with pytest.raises(ValueError):
        escape_literal("a\x00b")
