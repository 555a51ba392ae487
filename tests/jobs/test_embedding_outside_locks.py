"""A write job embeds before its unit of work takes the user's locks: while its embedding is
still pending, an erase of that user and a write of another user go through."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.conftest import TenantCtx

HOLD = "hold-the-embedder"
# A deadlock guard, not a timing claim: with the lock held across the embedding, the erase
# waits for the released embedder and never finishes inside it.
GUARD_S = 30


class HeldEmbedder:
    """The runtime's embedder, except that a call embedding a text with HOLD waits until
    ``release`` is set (and says it started)."""

    def __init__(self, inner: Any):
        self.inner = inner
        self.started = asyncio.Event()
        self.release = asyncio.Event()
        self.finished = asyncio.Event()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def embed_passages(self, texts: list[str]) -> list[list[float]]:
        if any(HOLD in t for t in texts):
            self.started.set()
            await self.release.wait()
        vectors: list[list[float]] = await self.inner.embed_passages(texts)
        if HOLD in "".join(texts):
            self.finished.set()
        return vectors


async def test_erase_and_other_writes_do_not_wait_for_a_jobs_embedding(
    tenant: TenantCtx, app: Any, monkeypatch: Any
) -> None:
    rt = app.state.memlane
    held = HeldEmbedder(rt.embedder)
    monkeypatch.setattr(rt, "embedder", held)
    items = [{"content": f"{HOLD} item {i}: " + "words " * 50} for i in range(40)]
    r = await tenant.client.post(
        f"{tenant.user('big')}/memories/batch", json={"memories": items}, headers=tenant.headers
    )
    assert r.status_code == 202, r.text
    job_id = r.json()["job_id"]
    try:
        await asyncio.wait_for(held.started.wait(), GUARD_S)  # the job is embedding now

        other = asyncio.create_task(tenant.remember("small", "I like short notes"))
        erase = asyncio.create_task(
            tenant.client.delete(f"/v1/tenants/{tenant.id}/users/big", headers=tenant.headers)
        )
        done, _ = await asyncio.wait({other, erase}, timeout=GUARD_S)
        assert done == {other, erase}, "a unit of work waited for the pending embedding"
        assert not held.release.is_set()
        assert erase.result().status_code == 200, erase.result().text
        assert other.result()["memories"][0]["content"] == "I like short notes"
    finally:
        held.release.set()

        await asyncio.wait_for(held.finished.wait(), GUARD_S)

    # The job was erased with its user (docs/privacy.md).
    r = await tenant.client.get(f"/v1/jobs/{job_id}", headers=tenant.headers)
    assert r.status_code == 404
