"""The behaviour scenarios of ../shared/data/scenarios/public.json, end to end through the HTTP
API of a real `memlane serve` (restart steps restart the process, same database)."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.server import ServeProcess

SCENARIOS_PATH = Path(
    os.environ.get(
        "MEMLANE_SCENARIOS",
        Path(__file__).resolve().parents[3] / "shared" / "data" / "scenarios" / "public.json",
    )
)
METRICS_TOKEN = "metrics-" + "x" * 24
PENDING: dict[str, str] = {}  # scenario id -> reason, for scenarios not passing yet


def _params() -> list[Any]:
    if not SCENARIOS_PATH.exists():
        if os.environ.get("CI"):
            raise FileNotFoundError(f"scenario file not found: {SCENARIOS_PATH}")
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"no {SCENARIOS_PATH}"))]
    return [
        pytest.param(s, id=s["id"], marks=[pytest.mark.xfail(strict=True, reason=PENDING[s["id"]])])
        if s["id"] in PENDING
        else pytest.param(s, id=s["id"])
        for s in json.loads(SCENARIOS_PATH.read_text())
    ]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    # with a metrics token, /metrics is closed and may name tenants
    proc = ServeProcess(
        tmp_path_factory.mktemp("scenarios"), env={"MEMLANE_METRICS_TOKEN": METRICS_TOKEN}
    )
    proc.start()
    yield proc
    if proc.proc is not None:
        proc.stop()


class Runner:
    """Maps scenario steps onto Memlane's API for one tenant."""

    def __init__(self, server: ServeProcess, http: httpx.Client, scenario_id: str):
        self.server, self.http = server, http
        r = http.post(
            "/v1/tenants",
            json={"name": scenario_id},
            headers={"Authorization": f"Bearer {server.admin_key}"},
        )
        assert r.status_code == 201, r.text
        self.tenant = r.json()
        self.headers = {"Authorization": f"Bearer {self.tenant['api_key']}"}

    def url(self, user: str) -> str:
        return f"/v1/tenants/{self.tenant['id']}/users/{user}"

    def send(self, step: dict[str, Any], contents: list[str]) -> None:
        start = datetime.fromisoformat(step["at"])
        messages = [
            {
                "role": "user",
                "content": c,
                "occurred_at": (start + timedelta(seconds=i)).isoformat(),
            }
            for i, c in enumerate(contents)
        ]
        for i in range(0, len(messages), 100):
            body: dict[str, Any] = {"messages": messages[i : i + 100]}
            if step.get("task"):
                body["task_id"] = step["task"]
            r = self.http.post(
                f"{self.url(step['user'])}/sessions/{step['session']}/messages?wait=true",
                json=body,
                headers=self.headers,
            )
            assert r.status_code == 201, r.text

    def recall_texts(self, step: dict[str, Any]) -> list[str]:
        body = {"query": step["recall"], "session_id": step["session"], "at": step["at"]}
        if step.get("task"):
            body["task_id"] = step["task"]
        r = self.http.post(f"{self.url(step['user'])}/recall", json=body, headers=self.headers)
        assert r.status_code == 200, r.text
        out = r.json()
        return [m["content"] for m in out["memories"]] + [c["content"] for c in out["constraints"]]

    def context(self, step: dict[str, Any]) -> tuple[str, int]:
        params = {
            "query": step["context"]["query"],
            "token_budget": step["context"]["token_budget"],
        }
        if step.get("task"):
            params["task_id"] = step["task"]
        r = self.http.get(
            f"{self.url(step['user'])}/sessions/{step['session']}/context",
            params=params,
            headers=self.headers,
        )
        assert r.status_code == 200, r.text
        return r.json()["text"], r.json()["tokens"]

    def run(self, step: dict[str, Any]) -> None:
        if step.get("restart"):
            self.server.restart()
            return
        if "say" in step:
            self.send(step, [step["say"]])
        elif "say_many" in step:
            spec = step["say_many"]
            self.send(
                step, [spec["template"].replace("{n}", str(n)) for n in range(1, spec["count"] + 1)]
            )
        elif "remember" in step:
            body = {**step["remember"], "occurred_at": step["at"]}
            r = self.http.post(
                f"{self.url(step['user'])}/memories?wait=true", json=body, headers=self.headers
            )
            assert r.status_code == 201, r.text
        elif "recall" in step:
            texts = self.recall_texts(step)
            check(step, texts)
        elif "context" in step:
            text, tokens = self.context(step)
            check(step, [text])
            if "max_tokens" in step:
                assert tokens <= step["max_tokens"], f"context used {tokens} tokens"
        elif step.get("inspect"):
            rows = self.server.dump_database()
            log = self.server.log_path.read_text()
            for s in step.get("stored_none", []):
                leaked = [r for r in rows if s in r]
                assert not leaked, f"{s!r} stored in plain text: {leaked[:3]}"
                assert s not in log, f"{s!r} in the server log"
        else:
            raise AssertionError(f"unknown step {step}")


def check(step: dict[str, Any], texts: list[str]) -> None:
    joined = "\n".join(texts)
    for s in step.get("expect_any", []):
        assert any(s in t for t in texts), (
            f"{s!r} not recalled for {step.get('recall') or step.get('context')}; got {texts}"
        )
    for s in step.get("expect_none", []):
        assert s not in joined, f"{s!r} must not be recalled; got {texts}"
    if step.get("expect_empty"):
        assert texts == [], f"expected nothing, got {texts}"


@pytest.mark.parametrize("scenario", _params())
def test_scenario(scenario: dict[str, Any], server: ServeProcess) -> None:
    with server.client() as http:
        runner = Runner(server, http, scenario["id"])
        for step in scenario["steps"]:
            if server.proc is None:
                server.start()
            runner.run(step)


# Every metric the dashboards use, with a non-zero sample after the scenarios ran. Failure
# counters (job failures, provider errors, degraded recalls) are checked where failures are
# provoked: tests/e2e/test_failures.py.
SCRAPED_AFTER_SCENARIOS = (
    'memlane_http_requests_total{method="POST",route="/v1/tenants/{tenant_id}/users/{user_id}/recall",status="200"}',
    'memlane_http_request_duration_seconds_count{method="POST",route="/v1/tenants/{tenant_id}/users/{user_id}/recall"}',
    'memlane_job_duration_seconds_count{kind="messages.ingest",outcome="done"}',
    'memlane_job_duration_seconds_count{kind="session.compress",outcome="done"}',
    'memlane_recall_latency_seconds_count{stage="total"}',
    'memlane_recall_latency_seconds_count{stage="embed"}',
    'memlane_recall_latency_seconds_count{stage="db"}',
    'memlane_memory_recall_hit_total{hit="true"}',
    'memlane_memory_recall_hit_total{hit="false"}',
    "memlane_context_token_usage_count",
    'memlane_extract_fact_count_total{extractor="rules",type="constraint"}',
    'memlane_arbitration_outcomes_total{outcome="superseded",rule="user_correction"}',
    "memlane_memory_conflict_rate",
    'memlane_provider_latency_seconds_count{operation="query",provider="embedding:local"}',
    'memlane_provider_latency_seconds_count{operation="passages",provider="embedding:local"}',
    "memlane_long_term_mem_size{",
    'memlane_queue_depth{state="queued"}',
    "memlane_queue_lag_seconds",
)


@pytest.mark.skipif(
    not SCENARIOS_PATH.exists() and not os.environ.get("CI"),
    reason=f"no {SCENARIOS_PATH}: no scenario ran, so no metric of theirs to read",
)
def test_metrics_after_the_scenarios(server: ServeProcess) -> None:
    assert httpx.get(f"{server.base_url}/metrics", timeout=10).status_code == 401
    token = {"Authorization": f"Bearer {METRICS_TOKEN}"}
    deadline = time.monotonic() + 30
    while True:
        text = httpx.get(f"{server.base_url}/metrics", headers=token, timeout=10).text
        samples = {}
        for line in text.splitlines():
            if line and not line.startswith("#"):
                name, _, value = line.rpartition(" ")
                samples[name] = float(value)
        missing = [m for m in SCRAPED_AFTER_SCENARIOS if not any(k.startswith(m) for k in samples)]
        tenants = [k for k in samples if k.startswith("memlane_long_term_mem_size{")]
        if (not missing and len(tenants) >= 10) or time.monotonic() > deadline:
            break
        time.sleep(1)  # the queue and memory gauges are sampled every few seconds
    assert not missing, missing
    nonzero = [m for m in SCRAPED_AFTER_SCENARIOS if "queue" not in m]
    for m in nonzero:
        assert any(v > 0 for k, v in samples.items() if k.startswith(m)), m
    assert len(tenants) >= 10 and all('tenant_id="' in k and "user" not in k for k in tenants)
