"""Find the database (configured or embedded), migrate it, check it is at head."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from app.config import Settings
from app.db.embedded import EmbeddedPostgres, start_embedded
from app.db.roles import app_role

PROJECT_ROOT = Path(__file__).resolve().parents[2]
ALEMBIC_INI = PROJECT_ROOT / "alembic.ini"


@dataclass
class Database:
    """Where the data lives. The owner URL runs migrations; the service logs in as the
    application role (``app_url``), never as the owner."""

    owner_url: str
    embedded: EmbeddedPostgres | None = None

    def app_url(self, settings: Settings) -> str:
        """The owner's URL with the application role's name and password (no password for
        the embedded server, which trusts its local socket)."""
        url = make_url(self.owner_url).set(username=settings.app_role)
        password = settings.app_role_password
        url = url.set(password=password.get_secret_value() if password is not None else None)
        return url.render_as_string(hide_password=False)

    def app_dsn(self, settings: Settings) -> str:
        """``app_url`` for plain asyncpg (pgqueuer's listener connection)."""
        return self.app_url(settings).replace("postgresql+asyncpg://", "postgresql://", 1)

    @property
    def asyncpg_dsn(self) -> str:
        """The owner's URL for plain asyncpg (tests and tools that inspect every row)."""
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


def migrate(url: str, settings: Settings | None = None) -> None:
    """``alembic upgrade head`` on ``url`` (as the database owner), then give the application
    role its configured password. Blocking."""
    command.upgrade(alembic_config(url), "head")
    if settings is not None and settings.app_role_password is not None:
        asyncio.run(_set_app_password(url, settings))


async def _set_app_password(url: str, settings: Settings) -> None:
    engine = create_async_engine(url)
    try:
        async with engine.begin() as conn:
            # ALTER ROLE takes no bind parameters: quote the literal with Postgres itself.
            password = settings.app_role_password.get_secret_value()  # type: ignore[union-attr]
            quoted = (
                await conn.execute(text("SELECT quote_literal(:p)"), {"p": password})
            ).scalar_one()
            await conn.execute(text(f"ALTER ROLE {app_role()} PASSWORD {quoted}"))
    finally:
        await engine.dispose()


async def migrate_async(url: str) -> None:
    # env.py runs its own event loop: give it a thread.
    await asyncio.to_thread(migrate, url)


def head_revision() -> str | None:
    return ScriptDirectory.from_config(Config(str(ALEMBIC_INI))).get_current_head()


async def current_revision(engine: AsyncEngine) -> str | None:
    """The revision the database is at (None before the first migration)."""
    async with engine.connect() as conn:
        return await conn.run_sync(lambda c: MigrationContext.configure(c).get_current_revision())
