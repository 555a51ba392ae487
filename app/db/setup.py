"""Find the database (configured or embedded), migrate it, check it is at head."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.ext.asyncio import AsyncEngine

from app.config import Settings
from app.db.embedded import EmbeddedPostgres, start_embedded

PROJECT_ROOT = Path(__file__).resolve().parents[2]
ALEMBIC_INI = PROJECT_ROOT / "alembic.ini"


@dataclass
class Database:
    owner_url: str
    embedded: EmbeddedPostgres | None = None

    @property
    def asyncpg_dsn(self) -> str:
        """The same URL for plain asyncpg (pgqueuer's listener connection)."""
        return self.owner_url.replace("postgresql+asyncpg://", "postgresql://", 1)


def locate_database(settings: Settings) -> Database:
    """``MEMLANE_DATABASE_URL`` if set, else the embedded server (started if needed)."""
    if settings.database_url is not None:
        url = settings.database_url.get_secret_value()
        if url.startswith("postgresql://") or url.startswith("postgres://"):
            url = "postgresql+asyncpg://" + url.split("://", 1)[1]
        return Database(owner_url=url)
    pg = start_embedded(settings.data_dir)
    return Database(owner_url=pg.owner_url, embedded=pg)


def alembic_config(url: str) -> Config:
    cfg = Config(str(ALEMBIC_INI))
    cfg.attributes["url"] = url
    return cfg


def migrate(url: str) -> None:
    """``alembic upgrade head`` on ``url`` (as the database owner). Blocking."""
    command.upgrade(alembic_config(url), "head")


async def migrate_async(url: str) -> None:
    # env.py runs its own event loop: give it a thread.
    await asyncio.to_thread(migrate, url)


def head_revision() -> str | None:
    return ScriptDirectory.from_config(Config(str(ALEMBIC_INI))).get_current_head()


async def current_revision(engine: AsyncEngine) -> str | None:
    """The revision the database is at (None before the first migration)."""
    async with engine.connect() as conn:
        return await conn.run_sync(lambda c: MigrationContext.configure(c).get_current_revision())
