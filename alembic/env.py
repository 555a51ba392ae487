"""Alembic environment: async, reading the same settings as the app.

The URL comes from ``config.attributes["url"]`` (set by ``memlane migrate`` and the tests),
else from ``MEMLANE_DATABASE_URL``, else the embedded server under ``MEMLANE_DATA_DIR`` is
started. Migrations run as the database owner, never as the application role.
"""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy import pool, text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import create_async_engine

from app.config import get_settings
from app.db import models  # noqa: F401  (registers every table)
from app.db.base import Base

config = context.config
MIGRATION_LOCK_KEY = 0x6D656D6C616E65  # "memlane"
target_metadata = Base.metadata


def _url() -> str:
    url = config.attributes.get("url")
    if url:
        return str(url)
    settings = get_settings()
    if settings.database_url is not None:
        return settings.database_url.get_secret_value()
    from app.db.embedded import start_embedded

    return start_embedded(settings.data_dir).owner_url


def _include_object(
    obj: object, name: str | None, type_: str, reflected: bool, compare_to: object
) -> bool:
    # The queue's tables belong to pgqueuer (installed by our first migration), not to models.
    return not (
        type_ == "table"
        and reflected
        and compare_to is None
        and (name or "").startswith("pgqueuer")
    )


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        include_object=_include_object,
        compare_type=True,
    )
    with context.begin_transaction():
        # Replicas starting together migrate one at a time; the next finds the schema at head.
        connection.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": MIGRATION_LOCK_KEY})
        context.run_migrations()


async def _run_async() -> None:
    engine = create_async_engine(_url(), poolclass=pool.NullPool)
    async with engine.connect() as connection:
        await connection.run_sync(_run)
    await engine.dispose()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
    else:
        asyncio.run(_run_async())


if context.is_offline_mode():
    context.configure(url=_url(), target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()
else:
    run_migrations_online()
