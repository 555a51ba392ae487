"""The optional reranker in recall, against a real local HTTP server speaking the rerank wire
format: off by default, it reorders the best candidates when configured, and when it fails
the answer is recall's own ranking, counted and said in ``explain`` (docs/recall.md,
Reranking)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from prometheus_client import REGISTRY

from app.providers.rerank import RerankClient
from app.recall.rerank import RERANKER_KEY
from tests.conftest import TenantCtx
from tests.support.openai_server import FakeOpenAIServer, start_openai_server, word_overlap

FACTS = [
    "I keep bees on the roof of my flat",
    "My sister Ana lives in Porto",
    "I grow tomatoes and basil on the balcony",
    "The roof of my building leaks when it rains",
]
QUERY = "where does my sister live"


@pytest.fixture(scope="module")
def _server() -> Iterator[FakeOpenAIServer]:
    with start_openai_server() as server:
        yield server


@pytest.fixture
def server(_server: FakeOpenAIServer) -> Iterator[FakeOpenAIServer]:
    _server.reset()
    yield _server
    _server.reset()


@pytest.fixture
async def reranking(
    app: Any, server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[Any]:
    """Recall with the reranker pointed at ``server`` (weight 1: its score replaces the
    relevance); the settings object is returned for the test to change."""
    rt = app.state.memlane
    monkeypatch.setattr(rt.settings, "rerank_base_url", f"http://127.0.0.1:{server.port}")
    monkeypatch.setattr(rt.settings, "rerank_weight", 1.0)
    client = RerankClient(rt.settings)
    monkeypatch.setitem(rt.extras, RERANKER_KEY, client)
    yield rt.settings
    await client.aclose()


def failed_count() -> float:
    return REGISTRY.get_sample_value("memlane_recall_rerank_total", {"outcome": "failed"}) or 0.0


async def store(tenant: TenantCtx) -> None:
    for content in FACTS:
        await tenant.remember("u", content, occurred_at="2026-11-01T10:00:00+00:00")


def contents(answer: dict[str, Any]) -> list[str]:
    return [m["content"] for m in answer["memories"]]


async def test_off_by_default_no_request_and_explain_says_off(
    tenant: TenantCtx, app: Any, server: FakeOpenAIServer
) -> None:
    assert RERANKER_KEY not in app.state.memlane.extras
    await store(tenant)
    answer = await tenant.recall("u", QUERY, explain=True)
    assert answer["memories"]
    assert {m["explain"]["rerank"] for m in answer["memories"]} == {"off"}
    assert {m["explain"]["rerank_score"] for m in answer["memories"]} == {None}
    assert server.requests_to("/rerank") == []


async def test_the_reranker_reorders_the_best_candidates(
    tenant: TenantCtx, server: FakeOpenAIServer, reranking: Any
) -> None:
    await store(tenant)
    # recall's own order first (a failing reranker leaves it unchanged)
    server.fail_mode = "500"
    own = contents(await tenant.recall("u", "the roof", explain=True))
    assert own[0] != "I grow tomatoes and basil on the balcony"
    server.fail_mode = None
    # a reranker that prefers the tomatoes puts them first, whatever recall thought
    server.rerank_rule = lambda q, d: 1.0 if "tomatoes" in d else 0.1
    answer = await tenant.recall("u", "the roof", explain=True)
    got = contents(answer)
    assert got[0] == "I grow tomatoes and basil on the balcony"
    assert sorted(got) == sorted(own)  # the same memories, another order
    top = answer["memories"][0]["explain"]
    assert top["rerank"] == "applied" and top["rerank_score"] == 1.0
    assert top["relevance"] == pytest.approx(1.0)  # weight 1: min-max of the reranker's scores
    req = server.requests_to("/v1/rerank")[-1]  # the first one failed (500)
    assert req.body["query"] == "the roof" and sorted(req.body["documents"]) == sorted(own)


async def test_with_the_word_overlap_rule_the_order_follows_its_scores(
    tenant: TenantCtx, server: FakeOpenAIServer, reranking: Any
) -> None:
    await store(tenant)
    answer = await tenant.recall("u", QUERY, explain=True)
    scores = [word_overlap(QUERY, c) for c in contents(answer)]
    # same type, source and time: only the reranker's score orders them
    assert scores == sorted(scores, reverse=True)
    assert contents(answer)[0] == "My sister Ana lives in Porto"
    assert [m["explain"]["rerank_score"] for m in answer["memories"]] == pytest.approx(scores)


async def test_a_blend_keeps_part_of_recalls_relevance(
    tenant: TenantCtx, server: FakeOpenAIServer, reranking: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    await store(tenant)
    server.fail_mode = "500"
    own = {
        m["id"]: m["explain"] for m in (await tenant.recall("u", QUERY, explain=True))["memories"]
    }
    server.fail_mode = None
    monkeypatch.setattr(reranking, "rerank_weight", 0.5)
    answer = await tenant.recall("u", QUERY, explain=True)
    scores = [m["explain"]["rerank_score"] for m in answer["memories"]]
    lo, hi = min(scores), max(scores)
    for m in answer["memories"]:
        norm = (m["explain"]["rerank_score"] - lo) / (hi - lo)
        expected = 0.5 * own[m["id"]]["relevance"] + 0.5 * norm
        assert m["explain"]["relevance"] == pytest.approx(expected)
        assert m["explain"]["score"] == pytest.approx(
            own[m["id"]]["score"] * expected / own[m["id"]]["relevance"]
        )


@pytest.mark.parametrize("mode", ["500", "timeout", "garbage", "bad_shape"])
async def test_a_failing_reranker_leaves_recalls_own_ranking(
    tenant: TenantCtx,
    app: Any,
    server: FakeOpenAIServer,
    reranking: Any,
    monkeypatch: pytest.MonkeyPatch,
    mode: str,
) -> None:
    await store(tenant)
    extras = app.state.memlane.extras
    # recalls here leave the access counts (and so the decay's half-life) as they are, so the
    # two answers are scored on the same memories
    monkeypatch.delitem(extras, "access", raising=False)
    # recall's own ranking, asked with the reranker out of the way
    client = extras.pop(RERANKER_KEY)
    own = await tenant.recall("u", QUERY, explain=True)
    extras[RERANKER_KEY] = client
    monkeypatch.setattr(reranking, "rerank_timeout_s", 0.3)
    server.fail_mode, server.delay_s = mode, 1.5
    before = failed_count()
    answer = await tenant.recall("u", QUERY, explain=True)
    assert contents(answer) == contents(own)
    # (the same scores, up to the seconds the memories aged between the two calls)
    assert [m["score"] for m in answer["memories"]] == pytest.approx(
        [m["score"] for m in own["memories"]], rel=1e-6
    )
    assert {m["explain"]["rerank"] for m in answer["memories"]} == {"failed"}
    assert {m["explain"]["rerank_score"] for m in answer["memories"]} == {None}
    assert failed_count() == before + 1
    assert len(server.requests_to("/v1/rerank")) == 1
