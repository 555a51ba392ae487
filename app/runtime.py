"""What a running Memlane process holds: settings, database, providers. Built in lifespan."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.session import scoped_session
from app.privacy.crypto import load_cipher
from app.privacy.protect import Privacy
from app.providers.embeddings import Embedder

if TYPE_CHECKING:
    from app.ingest.extraction.base import Extractor


@dataclass
class Runtime:
    settings: Settings
    engine: AsyncEngine
    sessionmaker: async_sessionmaker[AsyncSession]
    embedder: Embedder
    extractor: Extractor
    admin_key: str
    asyncpg_dsn: str
    extras: dict[str, Any] = field(default_factory=dict)

    @cached_property
    def privacy(self) -> Privacy:
        """Seals and opens sensitive values (the key is loaded once per process)."""
        return Privacy(load_cipher(self.settings))

    @asynccontextmanager
    async def scoped(self, tenant_id: uuid.UUID, user_id: str) -> AsyncIterator[AsyncSession]:
        """A session whose every transaction sees only (tenant, user) rows."""
        async with scoped_session(self.sessionmaker, tenant_id, user_id) as session:
            yield session
