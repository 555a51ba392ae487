"""A ``?wait=true`` write whose wait fails with an error after its intake committed (its
database reads, the completion watcher) is answered 202 with its job, as a wait past its
timeout is: the write is accepted and its job runs. Through the HTTP API."""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import httpx
import pytest
import uvicorn

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


async def test_a_wait_cancelled_by_the_servers_shutdown_answers_202(
    app: object, tenant: TenantCtx, monkeypatch: pytest.MonkeyPatch
) -> None:
    """uvicorn cancels the requests still running when its graceful shutdown times out; a
    write waiting then was answered a plain-text 500 although it was stored."""
    waiting = asyncio.Event()

    async def endless_wait(*args: Any, **kwargs: Any) -> Any:
        waiting.set()
        await asyncio.Event().wait()

    monkeypatch.setattr(endpoints, "wait_for_job", endless_wait)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(
        app,  # type: ignore[arg-type]
        lifespan="off",
        log_config=None,
        timeout_graceful_shutdown=0.5,
    )
    server = uvicorn.Server(config)
    serving = asyncio.create_task(server.serve(sockets=[sock]))
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
            while not server.started:  # noqa: ASYNC110 (uvicorn offers only this flag)
                await asyncio.sleep(0.02)
            request = asyncio.create_task(
                http.post(
                    f"{tenant.user('u')}/memories",
                    params={"wait": "true"},
                    json={"content": "My bicycle is green"},
                    headers=tenant.headers,
                )
            )
            await asyncio.wait_for(waiting.wait(), 30)
            server.should_exit = True
            r = await request
    finally:
        server.should_exit = True
        await serving
        sock.close()
    assert r.status_code == 202, r.text
    assert r.json()["status"] == "queued"
    monkeypatch.undo()
    job = await tenant.finished_job(r.json()["job_id"])
    assert job["status"] == "done"
    assert [m["content"] for m in await tenant.memories("u")] == ["My bicycle is green"]
