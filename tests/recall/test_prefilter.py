"""The vector pre-filter of large users (docs/recall.md, "Query plan"): above
``recall_prefilter_min_rows`` memories the vector ranking re-ranks by exact cosine only the rows
the sign-bit estimate puts first; below it, and with the pre-filter off, the exact scan."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

import asyncpg
import numpy as np

from app.db.setup import Database
from app.recall.repository import RankedRow, RecallRepository, prefilter_binds, vector_literal
from app.recall.service import RANKED_TYPES, RecallService
from tests.conftest import TenantCtx

DIM = 384
BIG = 400  # memories of the large user


def _unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v, axis=-1, keepdims=True)


async def _store(
    database: Database, tenant: TenantCtx, user: str, vectors: np.ndarray, model: str
) -> list[uuid.UUID]:
    """Rows of ``user`` with these embeddings, written as the owner (the triggers keep the
    postings and statistics, as for any write); returns their ids in order."""
    ids = [uuid.uuid4() for _ in range(len(vectors))]
    conn = await asyncpg.connect(database.asyncpg_dsn)
    try:
        await conn.executemany(
            "INSERT INTO memories (tenant_id, id, user_id, type, content, source, confidence,"
            " embedding, embedding_model, content_hash, search_text, valid_from)"
            " VALUES ($1, $2, $3, 'fact', $4, 'import', 0.9, $5::text::halfvec, $6, $7, $4,"
            " now())",
            [
                (
                    uuid.UUID(tenant.id),
                    ids[i],
                    user,
                    f"note {user} {i}",
                    vector_literal([float(x) for x in vectors[i]]),
                    model,
                    uuid.uuid4().hex,
                )
                for i in range(len(vectors))
            ],
        )
    finally:
        await conn.close()
    return ids


async def _ranked(
    app: Any, tenant: TenantCtx, user: str, query: np.ndarray, **params: float
) -> list[RankedRow]:
    """The vector ranking of ``user`` as the service runs it, its parameters changed by
    ``params``; 8 rows, candidate lists of 20."""
    rt = app.state.memlane
    tenant_id = uuid.UUID(tenant.id)
    async with rt.scoped(tenant_id, user) as session:
        return await RecallRepository(session, tenant_id, user).ranked(
            query_embedding=[float(x) for x in query],
            query_terms=[],
            mode="vector",
            model=rt.embedder.model,
            at=datetime.now(UTC),
            types=list(RANKED_TYPES),
            task_id=None,
            session_id=None,
            status="active",
            top_k=8,
            candidates=20,
            params=RecallService(rt, tenant_id, user)._params() | params,
        )


def _clustered(rng: np.random.Generator, n: int, centroids: np.ndarray) -> np.ndarray:
    """Unit vectors around the given centroids (the shape of the recall benchmark's data)."""
    pick = rng.integers(0, len(centroids), size=n)
    return _unit(centroids[pick] + rng.standard_normal((n, DIM)) / np.sqrt(DIM)).astype(np.float32)


async def test_prefilter_returns_the_exact_top_results_and_never_another_users_rows(
    tenant: TenantCtx, app: Any, database: Database
) -> None:
    rng = np.random.default_rng(18)
    model = app.state.memlane.embedder.model
    centroids = _unit(rng.standard_normal((4, DIM)))
    await _store(database, tenant, "big", _clustered(rng, BIG, centroids), model)
    queries = _clustered(rng, 5, centroids)
    # Another user of the tenant holds the queries themselves: the nearest rows there are.
    other = set(await _store(database, tenant, "other", queries, model))
    prefilter = {"prefilter_min_rows": 100, "prefilter_candidates": 150}
    for q in queries:
        exact = await _ranked(app, tenant, "big", q, prefilter_candidates=0)
        pre = await _ranked(app, tenant, "big", q, **prefilter)
        assert [r.memory.id for r in pre] == [r.memory.id for r in exact]
        assert [r.similarity for r in pre] == [r.similarity for r in exact]
        assert all(r.memory.user_id == "big" for r in pre)
        assert not other & {r.memory.id for r in pre}


async def test_the_row_threshold_decides_between_prefilter_and_exact_scan(
    tenant: TenantCtx, app: Any, database: Database
) -> None:
    model = app.state.memlane.embedder.model
    rng = np.random.default_rng(7)
    # The query: one large component and small positive others. ``far`` is the nearest row by
    # cosine (~0.92) but has every other sign opposite to the query's, so its bits are the
    # farthest; the decoys share the query's signs and are less similar (cosine ~0.7).
    query = np.full(DIM, 0.02, dtype=np.float32)
    query[0] = 1.0
    far = np.full(DIM, -0.001, dtype=np.float32)
    far[0] = 1.0
    decoys = np.abs(rng.standard_normal((150, DIM))).astype(np.float32) * 0.06
    decoys[:, 0] = 0.6
    ids = await _store(database, tenant, "big", _unit(np.vstack([far, decoys])), model)
    far_id = ids[0]
    # Sanity of the construction: the estimate ranks ``far`` last of the 151 rows.
    b = prefilter_binds([float(x) for x in query])
    assert b["qbits"][0] == "1" and set(b["qbits"][1:]) == {"1"}

    def top(rows: list[RankedRow]) -> uuid.UUID:
        return rows[0].memory.id

    # 151 memories: above a threshold of 100 the pre-filter keeps the 20 best by bits, and
    # ``far`` is not among them.
    above = await _ranked(
        app, tenant, "big", query, prefilter_min_rows=100, prefilter_candidates=20
    )
    assert far_id not in {r.memory.id for r in above} and len(above) == 8
    # The same user under a threshold of 1,000: the exact scan, and ``far`` comes first.
    below = await _ranked(
        app, tenant, "big", query, prefilter_min_rows=1000, prefilter_candidates=20
    )
    assert top(below) == far_id
    assert below[0].similarity is not None and below[0].similarity > 0.9
    # The pre-filter off: the exact scan whatever the user's size.
    off = await _ranked(app, tenant, "big", query, prefilter_min_rows=0, prefilter_candidates=0)
    assert top(off) == far_id
    # The threshold counts the user's memories: exactly at it, the pre-filter is used.
    at = await _ranked(app, tenant, "big", query, prefilter_min_rows=151, prefilter_candidates=20)
    assert far_id not in {r.memory.id for r in at}
    over = await _ranked(app, tenant, "big", query, prefilter_min_rows=152, prefilter_candidates=20)
    assert top(over) == far_id


def test_prefilter_binds_split_the_query_at_its_median_magnitude() -> None:
    q = [0.5, -0.1, 0.2, -0.4]  # |q| sorted: 0.1 0.2 | 0.4 0.5
    b = prefilter_binds(q)
    assert b["qbits"] == "1010"
    # the larger half (dims 0 and 3): their signs; elsewhere 0 (lo) or 1 (hi)
    assert b["qbits_lo"] == "1000" and b["qbits_hi"] == "1110"
    # w / 2 with w = (v_hi - v_lo) / v_lo = (0.45 - 0.15) / 0.15 = 2
    assert abs(b["qbits_w"] - 1.0) < 1e-12
