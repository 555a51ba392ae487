"""SIGTERM stops `memlane serve` and its embedded PostgreSQL, as Ctrl-C does.

uvicorn handles SIGTERM with a graceful shutdown and then raises the signal again with the
handler it found; with Python's default handler the process died there, before stopping the
database, and left a postgres (in its own session, so not reached by the process group's
signal) holding the data directory.
"""

from __future__ import annotations

import time
from pathlib import Path

from tests.e2e.server import ServeProcess


def postgres_of(pgdata: Path) -> set[int]:
    """Live processes of the server on ``pgdata``: the postmaster named in postmaster.pid (if
    any), every process whose command line names the directory, and their children."""
    roots: set[int] = set()
    pidfile = pgdata / "postmaster.pid"
    if pidfile.exists():
        roots.add(int(pidfile.read_text().split()[0]))
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            status = (entry / "status").read_text()
        except OSError:
            continue  # exited while we looked
        if "State:\tZ" in status:
            continue  # a zombie holds nothing
        ppid = next(
            int(line.split()[1]) for line in status.splitlines() if line.startswith("PPid:")
        )
        parents[int(entry.name)] = ppid
        if str(pgdata) in cmdline and "postgres" in cmdline:
            roots.add(int(entry.name))
    alive = {pid for pid in roots if pid in parents}
    return alive | {pid for pid, ppid in parents.items() if ppid in alive}


def test_sigterm_stops_the_embedded_postgres_and_the_next_start_works(tmp_path: Path) -> None:
    server = ServeProcess(tmp_path / "memlane")
    pgdata = server.data_dir / "pgdata"
    server.start()
    try:
        with server.client() as http:
            admin = {"Authorization": f"Bearer {server.admin_key}"}
            tenant = http.post("/v1/tenants", json={"name": "acme"}, headers=admin).json()
            headers = {"Authorization": f"Bearer {tenant['api_key']}"}
            url = f"/v1/tenants/{tenant['id']}/users/ann"
            r = http.post(
                f"{url}/memories?wait=true",
                json={"content": "ann lives in Oslo", "type": "profile"},
                headers=headers,
            )
            assert r.status_code == 201, r.text
        running = postgres_of(pgdata)
        postmaster = int((pgdata / "postmaster.pid").read_text().split()[0])
        assert postmaster in running and len(running) > 1  # the postmaster and its children

        code = server.terminate()
        # the stop is synchronous (pg_ctl -w) before the process exits; allow the children a
        # moment to be reaped
        deadline = time.monotonic() + 10
        while postgres_of(pgdata) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert postgres_of(pgdata) == set(), "SIGTERM left postgres running"
        assert not (pgdata / "postmaster.pid").exists()
        assert "stopping embedded postgres" in server.log_path.read_text()
        assert code == 0  # a requested stop, as with Ctrl-C

        # the next start finds a cleanly stopped database and serves what was written
        server.start()
        with server.client() as http:
            r = http.post(f"{url}/recall", json={"query": "where does ann live?"}, headers=headers)
            assert r.status_code == 200, r.text
            assert [m["content"] for m in r.json()["memories"]] == ["ann lives in Oslo"]
        assert server.terminate() == 0
        assert postgres_of(pgdata) == set()
    finally:
        if server.proc is not None:
            server.kill()
        if postgres_of(pgdata):
            server.stop_database()  # leave no server behind, whatever failed
