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


async def test_the_reads_that_need_no_vector_run_while_the_query_is_embedded(
    tenant: TenantCtx, app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The user's policy, the scope reach and the constraints are read while the query is
    embedded: here the embedding cannot finish before the constraints are read, and the recall
    still gets its vector (not degraded) and its constraints."""
    from app.recall.repository import RecallRepository

    await tenant.remember("u", "Never book flights before 9am", type="constraint")
    await tenant.remember("u", "I keep bees on the roof of my flat")
    rt = app.state.memlane
    real_embed, real_constraints = rt.embedder.embed_query, RecallRepository.constraints
    reads_done = asyncio.Event()
    read_while_embedding: list[bool] = []

    async def constraints(self: RecallRepository, **kw: Any) -> Any:
        rows = await real_constraints(self, **kw)
        read_while_embedding.append(not reads_done.is_set())
        reads_done.set()
        return rows

    async def held(text: str) -> list[float]:
        await reads_done.wait()  # the model's call outlasts the reads
        return await real_embed(text)

    monkeypatch.setattr(RecallRepository, "constraints", constraints)
    monkeypatch.setattr(rt.embedder, "embed_query", held)
    opened = recall_transactions(rt, monkeypatch)
    r = await tenant.recall("u", "bees on the roof")
    assert read_while_embedding == [True]
    assert len(opened) == 2  # the reads' transaction ended before the ranking's began
    assert r["mode"] == "hybrid" and r["degraded"] is False
    assert [m["content"] for m in r["memories"]] == ["I keep bees on the roof of my flat"]
    assert [c["content"] for c in r["constraints"]] == ["Never book flights before 9am"]


def recall_transactions(rt: Any, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The users of the transactions ``RecallService._recall`` opens from now on (not those of
    background work such as access recording)."""
    import sys

    real = rt.scoped
    opened: list[str] = []

    def counting(tenant_id: Any, user_id: str) -> Any:
        if sys._getframe(1).f_code.co_name == "_recall":
            opened.append(user_id)
        return real(tenant_id, user_id)

    monkeypatch.setattr(rt, "scoped", counting)
    return opened


async def test_a_cached_query_is_ranked_in_the_transaction_of_its_reads(
    tenant: TenantCtx, app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    await tenant.remember("u", "I keep bees on the roof of my flat")
    await tenant.recall("u", "bees on the roof")  # its embedding is cached now
    opened = recall_transactions(app.state.memlane, monkeypatch)
    r = await tenant.recall("u", "bees on the roof")
    assert opened == ["u"]
    assert r["mode"] == "hybrid" and r["degraded"] is False
    assert [m["content"] for m in r["memories"]] == ["I keep bees on the roof of my flat"]
