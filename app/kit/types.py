"""Validated field types shared by request schemas."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Annotated, Any

from pydantic import AfterValidator, AwareDatetime, BeforeValidator

# Ids chosen by clients (users, sessions, tasks, scope ids).
ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._:@\-]{0,127}$"
# The owner (``user_id``) of a tenant's tenant-wide memories (docs/scopes.md): it starts with a
# character ID_PATTERN refuses, so no client-chosen user id is ever this one.
TENANT_WIDE_USER = "~tenant"

# Times Memlane accepts: wide enough for any history and any plan, narrow enough that every
# value survives conversion to UTC and the decay arithmetic.
EARLIEST = datetime(1900, 1, 1, tzinfo=UTC)
LATEST = datetime(2200, 1, 1, tzinfo=UTC)
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def _iso_string_only(value: Any) -> Any:
    # An integer would be read as a unix timestamp in UTC; say so instead of guessing.
    # A number sent as text (a query string is always text) would be read the same way.
    if (isinstance(value, int | float) and not isinstance(value, bool)) or (
        isinstance(value, str) and _NUMBER.fullmatch(value.strip())
    ):
        raise ValueError("give an ISO-8601 string with a UTC offset, not a number")
    return value


def _in_range(value: datetime) -> datetime:
    if not EARLIEST <= value <= LATEST:
        raise ValueError(
            f"must lie between {EARLIEST.date().isoformat()} and {LATEST.date().isoformat()} (UTC)"
        )
    return value


Timestamp = Annotated[AwareDatetime, BeforeValidator(_iso_string_only), AfterValidator(_in_range)]
"""An ISO-8601 time with a UTC offset (naive times are rejected), between 1900 and 2200."""
