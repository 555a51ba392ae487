"""Recall does not wait on a late query embedding: past ``recall_embed_timeout_s`` it answers
from full-text search and says so (docs/recall.md)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.conftest import TenantCtx


async def test_a_late_query_embedding_degrades_recall_to_full_text(
    tenant: TenantCtx, app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    await tenant.remember("u", "I keep bees on the roof of my flat")
    rt = app.state.memlane
    real = rt.embedder.embed_query

    async def late(text: str) -> list[float]:
        await asyncio.sleep(1.0)  # busy behind a long passage batch, say
        return await real(text)

    monkeypatch.setattr(rt.settings, "recall_embed_timeout_s", 0.2)
    monkeypatch.setattr(rt.embedder, "embed_query", late)
    loop = asyncio.get_running_loop()
    started = loop.time()
    r = await tenant.recall("u", "bees on the roof")
    assert loop.time() - started < 0.9
    assert r["mode"] == "text" and r["degraded"] is True
    assert [m["content"] for m in r["memories"]] == ["I keep bees on the roof of my flat"]
    monkeypatch.undo()
    r = await tenant.recall("u", "bees on the roof")
    assert r["mode"] == "hybrid" and r["degraded"] is False
