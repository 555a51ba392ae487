"""A ``?wait=true`` write whose wait fails with an error after its intake committed (its
database reads, the completion watcher) is answered 202 with its job, as a wait past its
timeout is: the write is accepted and its job runs. Through the HTTP API."""

from __future__ import annotations

from typing import Any

import pytest

import app.memories.endpoints as endpoints
from tests.conftest import TenantCtx


async def test_a_failed_wait_answers_202_and_the_write_is_stored(
    tenant: TenantCtx, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken_wait(*args: Any, **kwargs: Any) -> Any:
        raise ConnectionError("the completion watcher was closed")

    monkeypatch.setattr(endpoints, "wait_for_job", broken_wait)
    r = await tenant.client.post(
        f"{tenant.user('u')}/memories",
        params={"wait": "true"},
        json={"content": "My umbrella is yellow"},
        headers=tenant.headers,
    )
    assert r.status_code == 202, r.text
    assert r.json()["status"] == "queued"
    monkeypatch.undo()
    job = await tenant.finished_job(r.json()["job_id"])
    assert job["status"] == "done"
    stored = await tenant.memories("u")
    assert [m["content"] for m in stored] == ["My umbrella is yellow"]
