"""Recall ranking: relevance × confidence × recency × scope weight, with explain
(docs/recall.md, "Ranking formula")."""

from __future__ import annotations

import asyncio

import pytest

from app.config import Settings
from app.recall.repository import RecallRepository
from tests.conftest import TenantCtx

AT = "2026-06-01T12:00:00+00:00"


async def test_fresher_memory_beats_equally_similar_older_one(tenant: TenantCtx) -> None:
    await tenant.remember(
        "u", "I am training for a marathon", type="fact", occurred_at="2026-01-01T00:00:00+00:00"
    )
    await tenant.remember(
        "u", "I am training for a triathlon", type="fact", occurred_at="2026-05-30T00:00:00+00:00"
    )
    r = await tenant.recall("u", "what sport am I training for", at=AT, explain=True)
    first, second = r["memories"][:2]
    assert first["content"] == "I am training for a triathlon"
    assert first["decay"] > second["decay"]
    assert abs(first["similarity"] - second["similarity"]) < 0.05


async def test_confident_memory_beats_an_inferred_one(tenant: TenantCtx) -> None:
    await tenant.remember(
        "u", "My favourite colour is green", source="model_inferred", occurred_at=AT
    )
    await tenant.remember(
        "u", "My favourite colour is blue", source="user_declared", occurred_at=AT
    )
    r = await tenant.recall("u", "favourite colour", at=AT)
    assert r["memories"][0]["content"] == "My favourite colour is blue"
    assert r["memories"][0]["confidence"] == 0.9
    assert r["memories"][1]["confidence"] == 0.5


async def test_explain_returns_every_factor_and_they_multiply(
    tenant: TenantCtx, settings: Settings
) -> None:
    await tenant.remember(
        "u", "I have a cat called Miso", type="profile", occurred_at="2026-04-02T12:00:00+00:00"
    )
    [m] = (await tenant.recall("u", "pet name", at=AT, explain=True))["memories"]
    e = m["explain"]
    assert e["half_life_days"] == 60 and round(e["age_days"]) == 60
    assert abs(e["decay"] - 0.6) < 1e-6  # 0.5 after one half-life, lifted to the profile floor
    # age lowers the score by at most the recency weight: × (1 - w·(1 - decay))
    recency = 1 - settings.recall_recency_weight * (1 - e["decay"])
    assert abs(e["recency"] - recency) < 1e-9  # the factor is shown, not left to be derived
    product = e["relevance"] * e["confidence"] * e["recency"] * e["scope_weight"] * e["type_weight"]
    assert abs(e["score"] - product) < 1e-9
    assert 0 < e["relevance"] <= 1 and 0 < e["similarity"] < 1
    plain = (await tenant.recall("u", "pet name", at=AT))["memories"][0]
    assert plain["explain"] is None


async def test_an_old_relevant_memory_outranks_fresh_unrelated_ones(tenant: TenantCtx) -> None:
    """LoCoMo (docs/benchmarks.md): with the plain × decay, any fresh memory outranked a
    months-old relevant one, whose decay sat at the fact floor (0.3)."""
    await tenant.remember(
        "u", "My sister Lena lives in Vancouver", occurred_at="2025-06-01T12:00:00+00:00"
    )
    for text in (
        "I had pasta for dinner",
        "I went jogging this morning",
        "I am reading a book about the Roman empire",
        "My laptop battery is almost dead",
        "I watched a documentary about whales",
    ):
        await tenant.remember("u", text, occurred_at="2026-05-31T12:00:00+00:00")
    r = await tenant.recall("u", "where does my sister live", at=AT, explain=True)
    first = r["memories"][0]
    assert first["content"] == "My sister Lena lives in Vancouver"
    assert first["decay"] == 0.3  # a year old: at the fact floor, yet first


async def test_decay_floor_keeps_old_profile_fact_but_event_fades(tenant: TenantCtx) -> None:
    await tenant.remember(
        "u", "I was born in Porto", type="profile", occurred_at="2024-01-01T00:00:00+00:00"
    )
    await tenant.remember(
        "u",
        "Dentist appointment on Friday in Porto",
        type="event",
        occurred_at="2026-03-01T00:00:00+00:00",
    )
    r = await tenant.recall("u", "Porto", at=AT, explain=True)
    assert [m["content"] for m in r["memories"]] == ["I was born in Porto"]
    assert r["memories"][0]["decay"] == 0.6


async def test_at_replays_history(tenant: TenantCtx) -> None:
    await tenant.remember(
        "u", "Dinner with Sam tonight", type="event", occurred_at="2026-05-01T18:00:00+00:00"
    )
    same_day = await tenant.recall("u", "dinner", at="2026-05-01T20:00:00+00:00", explain=True)
    assert same_day["memories"][0]["decay"] > 0.9
    month_later = await tenant.recall("u", "dinner", at="2026-06-01T20:00:00+00:00")
    assert month_later["memories"] == []


async def test_constraints_come_back_outside_top_k(tenant: TenantCtx) -> None:
    await tenant.remember("u", "Never answer in more than three sentences", type="constraint")
    for i in range(3):
        await tenant.remember("u", f"I visited city number {i}")
    r = await tenant.recall("u", "cities I visited", top_k=1)
    assert len(r["memories"]) == 1
    assert [c["content"] for c in r["constraints"]] == ["Never answer in more than three sentences"]


async def test_task_scope_is_seen_only_in_its_task(tenant: TenantCtx) -> None:
    await tenant.remember("u", "We use Redis for caching", scope="task", scope_id="proj-a")
    assert (await tenant.recall("u", "cache", task_id="proj-b"))["memories"] == []
    assert (await tenant.recall("u", "cache"))["memories"] == []
    got = await tenant.recall("u", "cache", task_id="proj-a")
    assert [m["content"] for m in got["memories"]] == ["We use Redis for caching"]


async def test_a_query_of_stop_words_only_says_it_ranked_by_vector(tenant: TenantCtx) -> None:
    await tenant.remember("u", "I collect vintage radios")
    await tenant.remember("u", "My sister lives in Porto")
    r = await tenant.recall("u", "the", explain=True, top_k=2)
    assert (r["mode"], r["degraded"]) == ("vector", False)
    assert len(r["memories"]) == 2
    for m in r["memories"]:
        assert m["explain"]["text_rank"] is None and m["explain"]["similarity"] is not None
    words = await tenant.recall("u", "radios", explain=True)
    assert (words["mode"], words["degraded"]) == ("hybrid", False)


async def test_recall_validates_input(tenant: TenantCtx) -> None:
    url = f"{tenant.user('u')}/recall"
    for body in (
        {"query": ""},
        {"query": "x", "top_k": 0},
        {"query": "x", "top_k": 101},
        {"query": "x", "at": "2026-01-01T00:00:00"},
        {"query": "x", "unknown": 1},
    ):
        r = await tenant.client.post(url, json=body, headers=tenant.headers)
        assert r.status_code == 422, body
        assert r.headers["content-type"] == "application/problem+json"
        assert r.json()["type"] == "urn:memlane:problem:validation-error"


@pytest.mark.parametrize("flag", [True, False, "2", "8"])
async def test_a_boolean_or_a_string_top_k_is_refused_not_read_as_a_number(
    tenant: TenantCtx, flag: bool | str
) -> None:
    # pydantic's lax mode read "top_k": true as 1 (and false as 0, refused only as too small),
    # and "top_k": "8" as 8
    for content in ("I collect vintage radios", "I repair vintage radios", "I sell old radios"):
        await tenant.remember("u", content)
    r = await tenant.client.post(
        f"{tenant.user('u')}/recall",
        json={"query": "radios", "top_k": flag},
        headers=tenant.headers,
    )
    assert r.status_code == 422, r.text
    assert r.headers["content-type"] == "application/problem+json"
    problem = r.json()
    assert problem["type"] == "urn:memlane:problem:validation-error"
    assert [e["loc"] for e in problem["errors"]] == [["body", "top_k"]]
    # a JSON number still is one, written with a fraction of zero too (JSON Schema's integer)
    assert len((await tenant.recall("u", "radios", top_k=2))["memories"]) == 2
    assert len((await tenant.recall("u", "radios", top_k=2.0))["memories"]) == 2


async def test_recall_counts_accesses_off_the_request_path(tenant: TenantCtx, app: object) -> None:
    [m] = (await tenant.remember("u", "I collect vintage radios"))["memories"]
    for _ in range(3):
        await tenant.recall("u", "radios")
    await app.state.memlane.extras["access"].flush()  # type: ignore[attr-defined]
    got = (
        await tenant.client.get(f"{tenant.user('u')}/memories/{m['id']}", headers=tenant.headers)
    ).json()
    assert got["access_count"] == 3 and got["last_accessed_at"] is not None


async def test_a_flush_waits_for_the_flush_under_way(
    tenant: TenantCtx, app: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The periodic flush may have taken some counts and not written them yet when another
    # flush is asked for (shutdown, a test): that flush returns only once they are written.
    [m] = (await tenant.remember("u", "I collect vintage radios"))["memories"]
    recorder = app.state.memlane.extras["access"]  # type: ignore[attr-defined]
    await recorder.flush()
    slow_once = asyncio.Event()
    real = RecallRepository.record_access

    async def slow(self: RecallRepository, *args: object, **kw: object) -> None:
        if not slow_once.is_set():
            slow_once.set()
            await asyncio.sleep(0.5)
        await real(self, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(RecallRepository, "record_access", slow)
    await tenant.recall("u", "radios")
    await tenant.recall("u", "radios")
    under_way = asyncio.create_task(recorder.flush())
    await slow_once.wait()
    await tenant.recall("u", "radios")
    await recorder.flush()
    got = (
        await tenant.client.get(f"{tenant.user('u')}/memories/{m['id']}", headers=tenant.headers)
    ).json()
    assert got["access_count"] == 3
    await under_way


async def test_constraints_are_read_without_the_search_columns(
    app: object, tenant: TenantCtx
) -> None:
    import uuid

    from sqlalchemy.exc import InvalidRequestError

    await tenant.remember("u", "Always answer in Portuguese", type="constraint")
    tenant_id = uuid.UUID(tenant.id)
    async with app.state.memlane.scoped(tenant_id, "u") as session:  # type: ignore[attr-defined]
        rows = await RecallRepository(session, tenant_id, "u").constraints(
            task_id=None, session_id=None
        )
        assert [(c.content, c.type, c.status) for c in rows] == [
            ("Always answer in Portuguese", "constraint", "active")
        ]
        # The embedding (and tsv, search_text, entities) never left the database: reading it
        # raises instead of quietly querying again.
        for column in ("embedding", "tsv", "search_text", "entities"):
            with pytest.raises(InvalidRequestError):
                getattr(rows[0], column)
    r = await tenant.recall("u", "which language")
    assert [c["content"] for c in r["constraints"]] == ["Always answer in Portuguese"]
