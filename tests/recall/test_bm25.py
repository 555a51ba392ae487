"""BM25 inside PostgreSQL: the postings and statistics follow every write, ranking by BM25,
row-level security on the postings, the entity signal and the fused relevance's components
(docs/recall.md, "BM25" and "Ranking formula")."""

from __future__ import annotations

import math
import uuid

import asyncpg

from app.config import Settings
from app.db.setup import Database
from app.recall.entities import entities
from tests.conftest import TenantCtx
from tests.recall.support import ranked

AT = "2026-06-01T12:00:00+00:00"

# What the postings of a user must be: recomputed from the memories themselves.
EXPECTED_POSTINGS = """
SELECT u.lexeme AS term, m.id AS memory_id, m.status,
       coalesce(array_length(u.positions, 1), 1) AS tf,
       (SELECT coalesce(sum(coalesce(array_length(x.positions, 1), 1)), 0)
          FROM unnest(m.tsv) x) AS doc_len
  FROM memories m, unnest(m.tsv) u
 WHERE m.tenant_id = $1 AND m.user_id = $2 AND m.status IN ('active', 'frozen')
UNION ALL
SELECT '@' || e, m.id, m.status, 1,
       (SELECT coalesce(sum(coalesce(array_length(x.positions, 1), 1)), 0)
          FROM unnest(m.tsv) x)
  FROM memories m, unnest(m.entities) e
 WHERE m.tenant_id = $1 AND m.user_id = $2 AND m.status IN ('active', 'frozen')
"""
STORED_POSTINGS = """
SELECT term, memory_id, status, tf, doc_len FROM memory_terms
 WHERE tenant_id = $1 AND user_id = $2
"""
EXPECTED_STATS = """
SELECT m.status, count(*) AS docs,
       sum((SELECT coalesce(sum(coalesce(array_length(x.positions, 1), 1)), 0)
              FROM unnest(m.tsv) x)) AS total_len
  FROM memories m
 WHERE m.tenant_id = $1 AND m.user_id = $2 AND m.status IN ('active', 'frozen')
 GROUP BY m.status
"""
STORED_STATS = """
SELECT status, docs, total_len FROM memory_term_stats
 WHERE tenant_id = $1 AND user_id = $2 AND docs > 0
"""


async def _index_state(database: Database, tenant_id: str, user: str) -> tuple[int, int]:
    """Asserts the stored postings and statistics equal those recomputed from the memories;
    returns (postings, indexed memories)."""
    conn = await asyncpg.connect(database.asyncpg_dsn)
    try:
        t = uuid.UUID(tenant_id)
        expected = sorted(tuple(r) for r in await conn.fetch(EXPECTED_POSTINGS, t, user))
        stored = sorted(tuple(r) for r in await conn.fetch(STORED_POSTINGS, t, user))
        assert stored == expected
        expected_stats = {tuple(r) for r in await conn.fetch(EXPECTED_STATS, t, user)}
        stored_stats = {tuple(r) for r in await conn.fetch(STORED_STATS, t, user)}
        assert stored_stats == expected_stats
        return len(stored), sum(r[1] for r in stored_stats)
    finally:
        await conn.close()


async def _patch(tenant: TenantCtx, user: str, memory_id: str, body: dict) -> None:
    r = await tenant.client.patch(
        f"{tenant.user(user)}/memories/{memory_id}", json=body, headers=tenant.headers
    )
    assert r.status_code == 200, r.text


async def test_postings_follow_every_write_supersede_status_change_delete_and_erase(
    tenant: TenantCtx, database: Database
) -> None:
    user = "bm25-writes"
    await tenant.remember(
        user, "I live in Lisbon", type="profile", key="residence.city", value="Lisbon"
    )
    [jazz] = (await tenant.remember(user, "Melanie and I play jazz on Fridays"))["memories"]
    assert await _index_state(database, tenant.id, user) > (0, 0)
    # A new home city supersedes the old one: the old row's postings become frozen ones.
    await tenant.remember(
        user, "I live in Porto now", type="profile", key="residence.city", value="Porto"
    )
    postings, docs = await _index_state(database, tenant.id, user)
    assert docs == 3
    # Archived: out of recall, out of the index; back to active: back in.
    await _patch(tenant, user, jazz["id"], {"status": "archived"})
    assert (await _index_state(database, tenant.id, user))[1] == 2
    await _patch(tenant, user, jazz["id"], {"status": "active"})
    assert await _index_state(database, tenant.id, user) == (postings, docs)
    # Deleted: its words leave the index with it.
    r = await tenant.client.delete(
        f"{tenant.user(user)}/memories/{jazz['id']}", headers=tenant.headers
    )
    assert r.status_code == 204
    assert (await _index_state(database, tenant.id, user))[1] == 2
    # A batch and a conversation turn go through the same write path.
    await tenant.say(user, "s1", "Yesterday Caroline showed me her painting of a sunrise.")
    assert (await _index_state(database, tenant.id, user))[1] >= 3
    # Erased: nothing of the user is left, statistics included.
    r = await tenant.client.delete(tenant.user(user), headers=tenant.headers)
    assert r.status_code == 200
    conn = await asyncpg.connect(database.asyncpg_dsn)
    try:
        t = uuid.UUID(tenant.id)
        for table in ("memory_terms", "memory_term_stats"):
            left = await conn.fetchval(
                f"SELECT count(*) FROM {table} WHERE tenant_id = $1 AND user_id = $2", t, user
            )
            assert left == 0, table
    finally:
        await conn.close()


async def test_bm25_prefers_the_rare_term_and_stems(
    app: object, tenant: TenantCtx, database: Database
) -> None:
    user = "bm25-rank"
    await tenant.remember(user, "We went to the group meeting and the group dinner", occurred_at=AT)
    await tenant.remember(user, "The group talked about the weather", occurred_at=AT)
    await tenant.remember(user, "Caroline joined a support group", occurred_at=AT)
    await tenant.remember(user, "She runs every morning before work", occurred_at=AT)
    rows = await ranked(app, tenant, ["caroline", "group"], user_id=user, mode="text", top_k=10)
    # "caroline" occurs once in the user's memories, "group" in three: its idf decides.
    assert rows[0].memory.content == "Caroline joined a support group"
    assert len(rows) == 3 and rows[0].text_rank is not None
    assert rows[0].text_rank > rows[1].text_rank  # type: ignore[operator]
    # Snowball stemming on both sides: "running" finds "runs".
    [row] = await ranked(app, tenant, ["running"], user_id=user, mode="text", top_k=10)
    assert row.memory.content == "She runs every morning before work"
    # The score is Okapi BM25 with the settings' k1 and b: one term, tf 1, N = 4, df = 1.
    rt = app.state.memlane  # type: ignore[attr-defined]
    k1, b = rt.settings.recall_bm25_k1, rt.settings.recall_bm25_b
    conn = await asyncpg.connect(database.asyncpg_dsn)
    try:
        t = uuid.UUID(tenant.id)
        dl = await conn.fetchval(
            "SELECT doc_len FROM memory_terms WHERE tenant_id = $1 AND user_id = $2"
            " AND memory_id = $3 LIMIT 1",
            t,
            user,
            row.memory.id,
        )
        docs, total = await conn.fetchrow(
            "SELECT docs, total_len FROM memory_term_stats WHERE tenant_id = $1"
            " AND user_id = $2 AND status = 'active'",
            t,
            user,
        )
    finally:
        await conn.close()
    assert docs == 4
    idf = math.log(1 + (4 - 1 + 0.5) / (1 + 0.5))
    expected = idf * (k1 + 1) / (1 + k1 * (1 - b + b * dl / (total / docs)))
    assert row.text_rank is not None and abs(row.text_rank - expected) < 1e-9


async def test_postings_are_under_row_level_security(
    tenant: TenantCtx, other_tenant: TenantCtx, database: Database
) -> None:
    for t in (tenant, other_tenant):
        for user in ("p1", "p2"):
            await t.remember(user, f"Paris notes of {user}")
    conn = await asyncpg.connect(database.app_dsn(Settings(_env_file=None)))  # type: ignore[call-arg]
    try:
        async with conn.transaction():
            await conn.execute(
                "SELECT set_config('memlane.tenant_id', $1, true),"
                " set_config('memlane.user_id', $2, true)",
                tenant.id,
                "p1",
            )
            for table in ("memory_terms", "memory_term_stats"):
                owners = await conn.fetch(f"SELECT DISTINCT tenant_id, user_id FROM {table}")
                assert {(str(r[0]), r[1]) for r in owners} == {(tenant.id, "p1")}, table
    finally:
        await conn.close()


def test_entities_of_english_and_chinese_text() -> None:
    assert entities(
        "Caroline: Thanks! I went to Paris with Melanie Smith and the LGBTQ group."
    ) == [
        "caroline",
        "paris",
        "melanie",
        "smith",
        "lgbtq",
    ]
    assert entities("What did I say? Yes, I did.") == []
    found = entities("我上个月和张伟去了北京")
    assert "北京" in found and "张伟" in found


async def test_a_query_naming_an_entity_lifts_the_memories_that_mention_it(
    tenant: TenantCtx, settings: Settings
) -> None:
    user = "bm25-entity"
    await tenant.remember(user, "Melanie painted a lake at sunrise last summer", occurred_at=AT)
    await tenant.remember(user, "I painted a lake at sunrise last summer", occurred_at=AT)
    r = await tenant.recall(user, "What did Melanie paint?", at=AT, explain=True)
    first, second = r["memories"]
    assert first["content"].startswith("Melanie")
    assert first["explain"]["entity_score"] == 1.0
    assert second["explain"]["entity_score"] is None
    # The fused relevance is the weighted mean of its components (minmax fusion).
    wv = settings.recall_fusion_weight_vector
    wt = settings.recall_fusion_weight_text
    we = settings.recall_fusion_weight_entity
    for m in (first, second):
        e = m["explain"]
        parts = wv * e["vector_score"] + wt * e["text_score"] + we * (e["entity_score"] or 0)
        assert abs(e["relevance"] - parts / (wv + wt + we)) < 1e-9
        assert 0 <= e["vector_score"] <= 1 and 0 <= e["text_score"] <= 1


async def test_the_migration_builds_the_postings_of_existing_rows(
    tenant: TenantCtx, database: Database
) -> None:
    """The backfill of alembic 20261202_bm25_postings, run again on emptied tables (inside a
    transaction rolled back), gives exactly what the trigger keeps."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).parents[2] / "alembic" / "versions" / "20261202_bm25_postings.py"
    spec = importlib.util.spec_from_file_location("bm25_migration", path)
    assert spec is not None and spec.loader is not None
    migration = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(migration)
    user = "bm25-backfill"
    await tenant.remember(user, "Caroline painted a sunrise in Paris", occurred_at=AT)
    await tenant.remember(
        user, "I live in Lisbon", type="profile", key="residence.city", value="Lisbon"
    )
    await tenant.remember(
        user, "I live in Porto now", type="profile", key="residence.city", value="Porto"
    )
    t = uuid.UUID(tenant.id)
    conn = await asyncpg.connect(database.asyncpg_dsn)
    try:
        kept = sorted(tuple(r) for r in await conn.fetch(STORED_POSTINGS, t, user))
        stats = sorted(tuple(r) for r in await conn.fetch(STORED_STATS, t, user))
        assert kept and len(stats) == 2  # active and frozen
        tr = conn.transaction()
        await tr.start()
        try:
            await conn.execute("DELETE FROM memory_terms")
            await conn.execute("DELETE FROM memory_term_stats")
            await conn.execute(migration.BACKFILL_POSTINGS)
            await conn.execute(migration.BACKFILL_STATS)
            rebuilt = sorted(tuple(r) for r in await conn.fetch(STORED_POSTINGS, t, user))
            rebuilt_stats = sorted(tuple(r) for r in await conn.fetch(STORED_STATS, t, user))
        finally:
            await tr.rollback()
    finally:
        await conn.close()
    assert rebuilt == kept and rebuilt_stats == stats
