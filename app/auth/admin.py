"""The admin key: from settings, or generated once and kept in the data directory."""

from __future__ import annotations

import os
import sys

from app.auth.keys import ADMIN_KEY_PREFIX, new_api_key
from app.config import Settings

ADMIN_KEY_FILE = "admin_key"


def resolve_admin_key(settings: Settings) -> str:
    """``MEMLANE_ADMIN_KEY`` if set; else the key in ``data_dir/admin_key`` (mode 0600),
    generated and printed to stderr the first time."""
    if settings.admin_key is not None:
        return settings.admin_key.get_secret_value()
    path = settings.data_dir / ADMIN_KEY_FILE
    if path.exists():
        return path.read_text().strip()
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    key = new_api_key(ADMIN_KEY_PREFIX)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(key + "\n")
    print(
        f"\nMemlane admin key (shown once; kept in {path}):\n\n    {key}\n",
        file=sys.stderr,
        flush=True,
    )
    return key
