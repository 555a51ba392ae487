"""The rerank client against a real local HTTP server speaking the rerank wire format."""

from __future__ import annotations

import math

import pytest
from pydantic import SecretStr

from app.config import Settings
from app.providers.rerank import RerankClient, RerankError, build_reranker
from tests.support.openai_server import FakeOpenAIServer


def settings_for(server: FakeOpenAIServer, **fields: object) -> Settings:
    return Settings(
        rerank_base_url=f"http://127.0.0.1:{server.port}",
        _env_file=None,  # type: ignore[call-arg]
        **fields,  # type: ignore[arg-type]
    )


def test_reranking_is_off_by_default() -> None:
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert settings.rerank_base_url is None
    assert build_reranker(settings) is None


async def test_scores_come_back_in_the_documents_order(openai_server: FakeOpenAIServer) -> None:
    client = RerankClient(settings_for(openai_server, rerank_model="bge-reranker"))
    try:
        scores = await client.rerank(
            "where does Ana live", ["Ana lives in Porto", "the weather", "where Ana does live"]
        )
    finally:
        await client.aclose()
    # word overlap with {where, does, ana, live}: 1/4, 0, 4/4 — the server answers best first
    assert scores == [0.25, 0.0, 1.0]
    [req] = openai_server.requests_to("/v1/rerank")
    assert req.body == {
        "model": "bge-reranker",
        "query": "where does Ana live",
        "documents": ["Ana lives in Porto", "the weather", "where Ana does live"],
        "top_n": 3,
    }


async def test_no_model_is_sent_unless_set_and_the_key_is_a_bearer(
    openai_server: FakeOpenAIServer,
) -> None:
    client = RerankClient(settings_for(openai_server, rerank_api_key=SecretStr("sk-rr")))
    try:
        await client.rerank("q", ["q"])
    finally:
        await client.aclose()
    [req] = openai_server.requests_to("/v1/rerank")
    assert "model" not in req.body
    assert req.headers["authorization"] == "Bearer sk-rr"


async def test_a_configured_path_is_used(openai_server: FakeOpenAIServer) -> None:
    client = RerankClient(settings_for(openai_server, rerank_path="v1/rerank/"))
    assert client.url.endswith("/v1/rerank/")
    await client.aclose()
    client = RerankClient(settings_for(openai_server, rerank_path="/nowhere"))
    try:
        with pytest.raises(RerankError, match="HTTP 404"):
            await client.rerank("q", ["a"])
    finally:
        await client.aclose()


async def test_a_document_left_out_by_top_n_scores_minus_infinity(
    openai_server: FakeOpenAIServer,
) -> None:
    openai_server.rerank_rule = lambda q, d: {"a": 0.9, "b": 0.1, "c": 0.5}[d]
    client = RerankClient(settings_for(openai_server))
    try:
        # the server truncates to top_n; a server that returns fewer is handled the same way
        scores = client._scores({"results": [{"index": 0, "relevance_score": 0.9}]}, 3)
        assert scores[0] == 0.9 and scores[1:] == [-math.inf, -math.inf]
        assert await client.rerank("q", ["a", "b", "c"]) == [0.9, 0.1, 0.5]
    finally:
        await client.aclose()


async def test_a_bare_list_with_score_is_accepted(openai_server: FakeOpenAIServer) -> None:
    client = RerankClient(settings_for(openai_server))
    try:
        assert client._scores([{"index": 1, "score": 2.5}, {"index": 0, "score": -1}], 2) == [
            -1.0,
            2.5,
        ]
    finally:
        await client.aclose()


@pytest.mark.parametrize(
    ("mode", "match"),
    [("500", "HTTP 500"), ("garbage", "not JSON"), ("bad_shape", "'results'")],
)
async def test_failures_raise_rerank_error(
    openai_server: FakeOpenAIServer, mode: str, match: str
) -> None:
    openai_server.fail_mode = mode
    client = RerankClient(settings_for(openai_server, rerank_api_key=SecretStr("sk-secret")))
    try:
        with pytest.raises(RerankError, match=match) as info:
            await client.rerank("q", ["a", "b"])
    finally:
        await client.aclose()
    assert "sk-secret" not in str(info.value)


async def test_a_late_server_times_out(openai_server: FakeOpenAIServer) -> None:
    openai_server.fail_mode, openai_server.delay_s = "timeout", 1.0
    client = RerankClient(settings_for(openai_server, rerank_timeout_s=0.2))
    try:
        with pytest.raises(RerankError, match="timed out"):
            await client.rerank("q", ["a"])
    finally:
        await client.aclose()


@pytest.mark.parametrize(
    "payload",
    [
        {"results": [{"index": 5, "relevance_score": 0.1}]},
        {"results": [{"index": 0, "relevance_score": "high"}]},
        {"results": [{"index": 0, "relevance_score": 0.1}, {"index": 0, "relevance_score": 0.2}]},
        {"results": []},
        {"results": [{"index": True, "relevance_score": 0.1}]},
    ],
)
async def test_answers_of_the_wrong_shape_are_refused(payload: object) -> None:
    client = RerankClient(
        Settings(rerank_base_url="http://127.0.0.1:9", _env_file=None)  # type: ignore[call-arg]
    )
    try:
        with pytest.raises(RerankError):
            client._scores(payload, 2)
    finally:
        await client.aclose()
