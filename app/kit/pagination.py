"""Opaque keyset cursors over (created_at, id)."""

from __future__ import annotations

import base64
import uuid
from datetime import datetime

from app.kit.errors import InvalidRequest
from app.kit.types import EARLIEST, LATEST


def encode_cursor(created_at: datetime, row_id: uuid.UUID) -> str:
    raw = f"{created_at.isoformat()}|{row_id}".encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[datetime, uuid.UUID]:
    """The (created_at, id) a cursor points after. Raises InvalidRequest if it is malformed."""
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        created, row_id = base64.urlsafe_b64decode(padded).decode().split("|")
        at = datetime.fromisoformat(created)
        if at.tzinfo is None or not EARLIEST <= at <= LATEST:
            raise ValueError("naive or out of range")
        return at, uuid.UUID(row_id)
    except (ValueError, UnicodeDecodeError) as exc:
        raise InvalidRequest("cursor is not a cursor this service issued") from exc
