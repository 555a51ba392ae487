"""The behaviour scenarios of ../shared/data/scenarios/public.json, end to end through the HTTP
API of a real `memlane serve` (restart steps restart the process, same database)."""

from __future__ import annotations

import json
import os
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
PENDING = {
    "sensitive-id": "sensitive-value encryption and masking is not built yet",
}


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
    proc = ServeProcess(tmp_path_factory.mktemp("scenarios"))
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
            raise NotImplementedError("inspect steps need the privacy work")
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
