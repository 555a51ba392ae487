"""Crash safety on a real `memlane serve`: SIGKILL at random moments under a stream of
writes, and a PostgreSQL restart under load. Every write acknowledged with 202 ends as exactly
one stored memory (or a visible failed job), and no job is left behind."""

from __future__ import annotations

import os
import random
import threading
import time
import uuid
from pathlib import Path

import httpx

from tests.e2e.server import ServeProcess

WRITES = int(os.environ.get("MEMLANE_CRASH_WRITES", "90"))
KILLS = int(os.environ.get("MEMLANE_CRASH_KILLS", "3"))
CLIENTS = 3
SETTLE_S = 90.0


class Writer:
    """Sends numbered writes, each with its own Idempotency-Key, retrying until acknowledged."""

    def __init__(
        self, server: ServeProcess, base: str, headers: dict[str, str], first: int, count: int
    ):
        self.server, self.base, self.headers = server, base, headers
        self.todo = list(range(first, first + count))
        self.acked: dict[int, str] = {}  # write number -> job id
        self.errors = 0

    def run(self) -> None:
        with httpx.Client(timeout=10) as http:
            for n in self.todo:
                body = {"content": f"crash-test note number {n}", "metadata": {"n": n}}
                key = f"crash-{n}"
                while n not in self.acked:
                    try:
                        r = http.post(
                            f"{self.server.base_url}{self.base}/memories",
                            json=body,
                            headers={**self.headers, "Idempotency-Key": key},
                        )
                        if r.status_code == 202:
                            self.acked[n] = r.json()["job_id"]
                        else:
                            self.errors += 1
                            time.sleep(0.2)
                    except httpx.HTTPError:
                        self.errors += 1  # the server is down: retry with the same key
                        time.sleep(0.2)


def _settle(http: httpx.Client, headers: dict[str, str], job_ids: set[str]) -> dict[str, dict]:
    deadline = time.monotonic() + SETTLE_S
    states: dict[str, dict] = {}
    while time.monotonic() < deadline:
        for job_id in job_ids - {j for j, s in states.items() if s["status"] in ("done", "failed")}:
            states[job_id] = http.get(f"/v1/jobs/{job_id}", headers=headers).json()
        if all(s["status"] in ("done", "failed") for s in states.values()) and len(states) == len(
            job_ids
        ):
            break
        time.sleep(0.5)
    return states


def test_sigkill_under_writes_loses_nothing(tmp_path: Path) -> None:
    rng = random.Random(int(os.environ.get("MEMLANE_CRASH_SEED", "20261129")))
    server = ServeProcess(tmp_path / "memlane", env={"MEMLANE_JOB_HEARTBEAT_TIMEOUT_S": "3"})
    server.start()
    try:
        with server.client() as http:
            t = http.post(
                "/v1/tenants",
                json={"name": "crash"},
                headers={"Authorization": f"Bearer {server.admin_key}"},
            ).json()
            headers = {"Authorization": f"Bearer {t['api_key']}"}
            base = f"/v1/tenants/{t['id']}/users/u"
            per = WRITES // CLIENTS
            writers = [Writer(server, base, headers, i * per, per) for i in range(CLIENTS)]
            threads = [threading.Thread(target=w.run) for w in writers]
            for th in threads:
                th.start()
            for _ in range(KILLS):
                time.sleep(rng.uniform(0.3, 2.0))  # a random moment in the stream
                server.kill()
                time.sleep(rng.uniform(0.0, 0.5))
                server.start()
            for th in threads:
                th.join(timeout=300)
            acked = {n: j for w in writers for n, j in w.acked.items()}
            assert len(acked) == per * CLIENTS
            # the kills did land in the middle of the stream: requests failed and were retried
            assert sum(w.errors for w in writers) > 0

            states = _settle(http, headers, set(acked.values()))
            stuck = [
                j
                for j in acked.values()
                if states.get(j, {}).get("status") not in ("done", "failed")
            ]
            assert not stuck, f"jobs not finished: {stuck[:5]}"
            failed = [s for s in states.values() if s["status"] == "failed"]
            assert all(s["error"] for s in failed)

            contents: list[str] = []
            cursor = None
            while True:
                page = http.get(
                    f"{base}/memories",
                    params={"limit": 200, **({"cursor": cursor} if cursor else {})},
                    headers=headers,
                ).json()
                contents += [m["content"] for m in page["items"]]
                cursor = page["next_cursor"]
                if not cursor:
                    break
            done = [n for n, j in acked.items() if states[j]["status"] == "done"]
            for n in done:
                assert contents.count(f"crash-test note number {n}") == 1, n
            assert len(contents) == len(done)
            assert len(done) + len(failed) == len(acked)
            retried = sum(w.errors for w in writers)
            print(
                f"writes={len(acked)} kills={KILLS} retried_requests={retried}"
                f" done={len(done)} failed={len(failed)} lost=0"
            )
    finally:
        if server.proc is not None:
            server.stop()


def test_postgres_restart_under_load(tmp_path: Path) -> None:
    server = ServeProcess(tmp_path / "memlane", env={"MEMLANE_JOB_HEARTBEAT_TIMEOUT_S": "3"})
    server.start()
    try:
        with server.client() as http:
            t = http.post(
                "/v1/tenants",
                json={"name": "pg"},
                headers={"Authorization": f"Bearer {server.admin_key}"},
            ).json()
            headers = {"Authorization": f"Bearer {t['api_key']}"}
            base = f"/v1/tenants/{t['id']}/users/u"
            before = [
                http.post(
                    f"{base}/memories", json={"content": f"before the outage {i}"}, headers=headers
                ).json()["job_id"]
                for i in range(10)
            ]
            server.stop_database()
            assert http.get("/readyz").status_code == 503
            r = http.post(
                f"{base}/memories",
                json={"content": "during the outage"},
                headers={**headers, "Idempotency-Key": str(uuid.uuid4())},
            )
            assert r.status_code == 503 and r.headers["content-type"] == "application/problem+json"
            assert r.headers["retry-after"]
            server.start_database()
            deadline = time.monotonic() + 60
            while http.get("/readyz").status_code != 200:
                assert time.monotonic() < deadline, "the service did not reconnect"
                time.sleep(0.5)
            after = http.post(
                f"{base}/memories?wait=true", json={"content": "after the outage"}, headers=headers
            )
            assert after.status_code == 201
            states = _settle(http, headers, set(before))
            assert all(s["status"] == "done" for s in states.values()), states
            listed = http.get(f"{base}/memories", params={"limit": 100}, headers=headers).json()[
                "items"
            ]
            assert sorted(m["content"] for m in listed) == sorted(
                [f"before the outage {i}" for i in range(10)] + ["after the outage"]
            )
    finally:
        if server.proc is not None:
            server.stop()
