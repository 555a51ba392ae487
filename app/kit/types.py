"""Validated field types shared by request schemas."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Annotated, Any

from pydantic import AfterValidator, AwareDatetime, BeforeValidator
from pydantic_core import PydanticCustomError

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


def _json_only(error_type: str, kind: str) -> Callable[[Any], Any]:
    """A before-validator refusing what pydantic's lax mode would read as a number but JSON
    does not: true/false (bool is an int in Python: "top_k": true was recall's top 1) and a
    string of digits ("top_k": "8", "confidence": "0.5"). ``error_type`` and ``kind`` name the
    number in pydantic's words ("int_type", "a valid integer")."""

    def check(value: Any) -> Any:
        if isinstance(value, bool):
            raise PydanticCustomError(error_type, f"Input should be {kind}, not a boolean")
        if isinstance(value, str):
            raise PydanticCustomError(error_type, "Input should be a JSON number, not a string")
        return value

    return check


JsonNumber = BeforeValidator(_json_only("float_type", "a valid number"))
"""``JsonInteger`` for a number with a fraction (``confidence``): ``"0.5"`` and ``true`` are
refused (422)."""

JsonInteger = BeforeValidator(_json_only("int_type", "a valid integer"))
"""Marks an integer field of a JSON body (``Annotated[int | None, JsonInteger] = Field(ge=…)``):
a JSON number without a fraction is read as before (``8``, and ``8.0`` as 8: JSON Schema's
``integer``); ``true``/``false`` and ``"8"`` are refused (422) instead of read as 1/0 and 8.
Not ``StrictInt``, which would also refuse ``8.0``, a valid ``integer`` in the published
OpenAPI schema. It wraps the whole annotation so that ``Field``'s bounds stay
``minimum``/``maximum`` in that schema. Query parameters are strings by nature and keep
FastAPI's own parsing."""
