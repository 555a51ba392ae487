"""The connection pool replaces a connection the server dropped, without a ping per checkout."""

from __future__ import annotations

import uuid
from typing import Any

import asyncpg
import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

import app.db.session as db_session
from app.config import Settings
from app.db.session import create_engine, create_sessionmaker, scoped_session
from app.db.setup import Database
from tests.conftest import TenantCtx


async def _terminate(database: Database, pid: int) -> None:
    """End the server process behind one connection, as an administrator or a restart would,
    and wait until it is gone (``pg_terminate_backend`` with a timeout waits for the exit)."""
    owner = await asyncpg.connect(database.owner_url.replace("postgresql+asyncpg", "postgresql"))
    try:
        assert await owner.fetchval("SELECT pg_terminate_backend($1, 5000)", pid) is True
    finally:
        await owner.close()


async def _pooled_pid(engine: object) -> int:
    """The server pid of the connection the pool hands out next (the pool is LIFO: the one
    just returned)."""
    async with engine.connect() as conn:  # type: ignore[attr-defined]
        return int((await conn.exec_driver_sql("SELECT pg_backend_pid()")).scalar_one())


async def test_a_request_after_its_connection_was_terminated_succeeds(
    tenant: TenantCtx, app: object, database: Database
) -> None:
    job = await tenant.remember("u1", "I moved to Lyon in March")
    await tenant.finished_job(job["job_id"])
    first = await tenant.recall("u1", "where do I live")
    assert [m["content"] for m in first["memories"]] == ["I moved to Lyon in March"]

    engine = app.state.memlane.engine  # type: ignore[attr-defined]
    pid = await _pooled_pid(engine)
    await _terminate(database, pid)

    # The next request is handed that same connection first; it must get a live one instead.
    second = await tenant.recall("u1", "where do I live")
    assert [m["content"] for m in second["memories"]] == ["I moved to Lyon in March"]
    assert await _pooled_pid(engine) != pid


async def test_an_idle_connection_is_pinged_and_a_dead_one_replaced(
    database: Database, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every checkout counts as idle: the dialect's ping runs, and its failure on a connection
    # the driver has not yet seen closing replaces it (and the rest of the pool).
    monkeypatch.setattr(db_session, "PING_IDLE_AFTER_S", -1.0)
    engine = create_engine(database.app_url(settings), pool_size=2)
    maker = create_sessionmaker(engine)
    pings: list[object] = []
    real_ping = engine.sync_engine.dialect.do_ping

    def counting_ping(dbapi_connection: Any) -> bool:
        pings.append(dbapi_connection.driver_connection)
        return real_ping(dbapi_connection)

    monkeypatch.setattr(engine.sync_engine.dialect, "do_ping", counting_ping)
    tenant_id = uuid.uuid4()
    try:
        pid = await _pooled_pid(engine)
        # Cut the socket under the driver without letting it notice: the next use fails.
        async with engine.connect() as conn:
            raw = (await conn.get_raw_connection()).driver_connection
            assert raw.get_server_pid() == pid
            raw._transport.pause_reading()  # asyncpg reads nothing more from the socket
        await _terminate(database, pid)
        assert not raw.is_closed()  # the driver has not seen the end of the stream
        async with scoped_session(maker, tenant_id, "u1") as session:
            row = (
                await session.execute(
                    text("SELECT pg_backend_pid(), current_setting('memlane.user_id')")
                )
            ).one()
        assert row[0] != pid and row[1] == "u1"
        assert raw in pings  # the dead connection was pinged, and replaced
    finally:
        await engine.dispose()


async def test_a_connection_in_steady_use_is_not_pinged(
    database: Database, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = create_engine(database.app_url(settings), pool_size=2)
    pings: list[object] = []
    real_ping = engine.sync_engine.dialect.do_ping
    monkeypatch.setattr(
        engine.sync_engine.dialect, "do_ping", lambda c: pings.append(c) or real_ping(c)
    )
    maker = create_sessionmaker(engine)
    try:
        for _ in range(5):
            async with scoped_session(maker, uuid.uuid4(), "u1") as session:
                await session.execute(text("SELECT 1"))
        assert pings == []
    finally:
        await engine.dispose()


async def test_a_connection_that_dies_unnoticed_fails_one_transaction_cleanly(
    database: Database, settings: Settings
) -> None:
    # The window no check closes: the server went away and neither the driver nor the idle
    # ping could know. The transaction's first message fails as a disconnect (the API answers
    # 503 with Retry-After for it), the connection is discarded, and the next one works.
    engine = create_engine(database.app_url(settings), pool_size=1)
    maker = create_sessionmaker(engine)
    tenant_id = uuid.uuid4()
    try:
        pid = await _pooled_pid(engine)
        async with engine.connect() as conn:
            raw = (await conn.get_raw_connection()).driver_connection
            raw._transport.pause_reading()
        await _terminate(database, pid)
        with pytest.raises(DBAPIError) as failed:
            async with scoped_session(maker, tenant_id, "u1") as session:
                await session.execute(text("SELECT 1"))
        assert failed.value.connection_invalidated and failed.value.statement == "BEGIN"
        async with scoped_session(maker, tenant_id, "u1") as session:
            row = (
                await session.execute(
                    text("SELECT pg_backend_pid(), current_setting('memlane.user_id')")
                )
            ).one()
        assert row[0] != pid and row[1] == "u1"
    finally:
        await engine.dispose()
