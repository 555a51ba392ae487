"""Fixtures of the database tests."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from app.config import Settings
from app.db.session import create_engine
from app.db.setup import Database


@pytest.fixture
async def engine(database: Database, settings: Settings) -> AsyncIterator[AsyncEngine]:
    """An engine of the app role with a pool of one connection, so every session reuses it."""
    engine = create_engine(database.app_url(settings), pool_size=1)
    yield engine
    await engine.dispose()
