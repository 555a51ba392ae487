"""Operating a real deployment: structured request logs, and API and workers as separate
processes."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from tests.e2e.server import ServeProcess


def test_one_json_log_line_per_request_with_the_request_id(tmp_path: Path) -> None:
    server = ServeProcess(tmp_path / "memlane")
    server.start()
    try:
        with server.client() as http:
            t = http.post(
                "/v1/tenants",
                json={"name": "logs"},
                headers={"Authorization": f"Bearer {server.admin_key}"},
            ).json()
            r = http.post(
                f"/v1/tenants/{t['id']}/users/u/memories?wait=true",
                json={"content": "My favourite secret spot is the old lighthouse"},
                headers={
                    "Authorization": f"Bearer {t['api_key']}",
                    "X-Request-ID": "trace-abc-123",
                },
            )
            assert r.status_code == 201 and r.headers["x-request-id"] == "trace-abc-123"
            generated = http.get("/healthz").headers["x-request-id"]
            assert len(generated) == 32
    finally:
        server.stop()
    lines = [
        json.loads(line)
        for line in server.log_path.read_text().splitlines()
        if line.startswith("{")
    ]
    [request] = [
        x for x in lines if x.get("request_id") == "trace-abc-123" and x["msg"] == "request"
    ]
    assert request["route"] == "/v1/tenants/{tenant_id}/users/{user_id}/memories"
    assert (
        request["status"] == 201 and request["tenant_id"] == t["id"] and request["duration_ms"] > 0
    )
    assert request["level"] == "INFO"
    log = server.log_path.read_text()
    assert "old lighthouse" not in log and t["api_key"] not in log and server.admin_key not in log


def test_api_without_workers_and_a_separate_worker_process(tmp_path: Path) -> None:
    server = ServeProcess(tmp_path / "memlane", env={"MEMLANE_RUN_WORKER": "false"})
    server.start()
    worker = None
    try:
        with server.client() as http:
            assert http.get("/readyz").json()["checks"]["worker"] is True  # none expected here
            t = http.post(
                "/v1/tenants",
                json={"name": "split"},
                headers={"Authorization": f"Bearer {server.admin_key}"},
            ).json()
            h = {"Authorization": f"Bearer {t['api_key']}"}
            job = http.post(
                f"/v1/tenants/{t['id']}/users/u/memories",
                json={"content": "queued before any worker"},
                headers=h,
            ).json()["job_id"]
            time.sleep(1)
            assert http.get(f"/v1/jobs/{job}", headers=h).json()["status"] == "queued"
            worker = subprocess.Popen(
                [sys.executable, "-m", "app.cli", "worker"],
                env=server.env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            deadline = time.monotonic() + 60
            while http.get(f"/v1/jobs/{job}", headers=h).json()["status"] != "done":
                assert time.monotonic() < deadline, "the worker process did not run the job"
                time.sleep(0.3)
            got = http.post(
                f"/v1/tenants/{t['id']}/users/u/recall", json={"query": "queued"}, headers=h
            ).json()
            assert [m["content"] for m in got["memories"]] == ["queued before any worker"]
    finally:
        if worker is not None:
            worker.terminate()
            assert worker.wait(timeout=30) == 0
        server.stop()
