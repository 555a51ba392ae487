"""Parallel identical writes against a real `memlane serve` process (its own event loop,
worker and connection pool): the database keeps one active row per fact."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx

from tests.e2e.server import ServeProcess

COFFEE = {
    "content": "I really like coffee",
    "type": "preference",
    "key": "preference.likes",
    "value": "coffee",
}


def test_parallel_identical_writes_to_a_real_server_leave_one_memory(tmp_path: Path) -> None:
    server = ServeProcess(tmp_path / "memlane")
    server.start()
    try:
        with server.client() as c:
            r = c.post(
                "/v1/tenants",
                json={"name": "parallel"},
                headers={"Authorization": f"Bearer {server.admin_key}"},
            )
            assert r.status_code == 201, r.text
            tenant = r.json()
        headers = {"Authorization": f"Bearer {tenant['api_key']}"}
        base = f"/v1/tenants/{tenant['id']}/users/u"

        async def run() -> list[int]:
            async with httpx.AsyncClient(base_url=server.base_url, timeout=60) as client:

                async def write() -> int:
                    r = await client.post(
                        f"{base}/memories?wait=true", json=COFFEE, headers=headers
                    )
                    return r.status_code

                async def say(i: int) -> int:
                    r = await client.post(
                        f"{base}/sessions/s{i}/messages?wait=true",
                        json={"messages": [{"role": "user", "content": COFFEE["content"]}]},
                        headers=headers,
                    )
                    return r.status_code

                return await asyncio.gather(
                    *(write() for _ in range(20)), *(say(i) for i in range(10))
                )

        assert asyncio.run(run()) == [201] * 30
        with server.client() as c:
            r = c.get(f"{base}/memories", params={"status": "active"}, headers=headers)
            assert r.status_code == 200, r.text
            coffee = [m for m in r.json()["items"] if m["value"] == "coffee"]
            assert len(coffee) == 1, coffee
            assert coffee[0]["confirmations"] == 30
    finally:
        server.stop()
