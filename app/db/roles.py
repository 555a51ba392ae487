"""The application role name, shared by migrations and the engine."""

from __future__ import annotations

import re

from app.config import get_settings

_ROLE_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")


def app_role() -> str:
    """``settings.app_role``, checked to be a plain identifier (it is spliced into DDL)."""
    role = get_settings().app_role
    if not _ROLE_NAME.fullmatch(role):
        raise ValueError(f"MEMLANE_APP_ROLE must match {_ROLE_NAME.pattern}, got {role!r}")
    return role
