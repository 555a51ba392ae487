"""Time helpers: every time in Memlane is timezone-aware UTC."""

from __future__ import annotations

from datetime import UTC, datetime


def utcnow() -> datetime:
    """The current time, timezone-aware UTC."""
    return datetime.now(UTC)
