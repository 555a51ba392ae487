"""Retrieval quality on LoCoMo: recall@k of the gold evidence turns, through the real HTTP API.

    python bench/locomo.py [--data ../shared/data/locomo/locomo5-public.json]
                           [--mode vector hybrid text] [--variant NAME ...] [--infer]
                           [--max-convs N] [--bm25] [--out FILE] [--data-dir DIR]

Starts a real ``memlane serve`` (embedded PostgreSQL, fresh data dir), creates a tenant and runs
the LoCoMo harness (``../shared/tools/locomo_recall.py``: ``evaluate(add, search, data)``) with
the adapter of ``bench/locomo_adapter.py``: every turn is one ``POST …/memories`` (``infer=false``,
type ``fact``, ``occurred_at`` = its session time read as UTC, the turn's ``dia_id`` in the
metadata); every question one ``POST …/recall`` with ``top_k=10`` and ``at`` = the
conversation's last session time. With ``--infer`` the turns go through extraction instead
(``POST …/sessions/session-<n>/messages``), in a second data dir.

Turns are ingested once per kind (raw, infer). The recall mode (``MEMLANE_RECALL_MODE``) and the
ranking settings are server settings that do not change stored data, so each further
(mode, variant) restarts the same data dir with other settings and only searches. ``text`` is
the degraded mode: the server is restarted with an embedder that cannot be reached, and recall
falls back to full-text search (each answer says ``mode: text``).

Prints the harness' table per run and a summary, writes JSON (settings, every run's result with
its per-question rows, timings, the machine) to ``bench/results/locomo-<UTC time>.json``
(or ``--out``). See docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import os
import platform
import re
import shutil
import signal
import sys
import tempfile
import time
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx

BENCH_DIR = Path(__file__).resolve().parent
ROOT = BENCH_DIR.parent
RESULTS_DIR = BENCH_DIR / "results"
sys.path[:0] = [str(ROOT), str(BENCH_DIR)]

from locomo_adapter import Ingest, MemlaneLoCoMo, UserState  # noqa: E402

from tests.e2e.server import ServeProcess, free_port  # noqa: E402

DEFAULT_DATA = ROOT.parent / "shared" / "data" / "locomo" / "locomo5-public.json"
DEFAULT_HARNESS = ROOT.parent / "shared" / "tools" / "locomo_recall.py"
KS = (5, 10)
STATE_FILE = "locomo_state.json"

# Settings every run shares: no forgetting pass may archive rows between runs (LoCoMo's turns
# are years old by the wall clock), quiet logs.
BASE_ENV = {"MEMLANE_FORGET_INTERVAL_S": "0", "MEMLANE_LOG_LEVEL": "WARNING"}

# Ranking variants: server settings only (see docs/recall.md, "Ranking formula"). Each one
# spells out the decay settings it measures, so its numbers stay reproducible when the
# defaults move.
_HALF_LIVES = {
    "MEMLANE_HALF_LIFE_PROFILE_DAYS": "60",
    "MEMLANE_HALF_LIFE_PREFERENCE_DAYS": "14",
    "MEMLANE_HALF_LIFE_FACT_DAYS": "30",
    "MEMLANE_HALF_LIFE_EVENT_DAYS": "3",
}


def _floors(profile: float, preference: float, fact: float, event: float) -> dict[str, str]:
    return {
        "MEMLANE_DECAY_FLOOR_PROFILE": str(profile),
        "MEMLANE_DECAY_FLOOR_PREFERENCE": str(preference),
        "MEMLANE_DECAY_FLOOR_FACT": str(fact),
        "MEMLANE_DECAY_FLOOR_EVENT": str(event),
    }


def _ranking(relevance: str, recency_weight: float, rank_k: float = 60) -> dict[str, str]:
    return {
        "MEMLANE_RECALL_VECTOR_RELEVANCE": relevance,
        "MEMLANE_RECALL_RECENCY_WEIGHT": str(recency_weight),
        "MEMLANE_RECALL_RANK_K": str(rank_k),
    }


_OLD_FLOORS = _HALF_LIVES | _floors(0.6, 0.5, 0.3, 0.0)

VARIANTS: dict[str, dict[str, str]] = {
    # whatever app/config.py says today
    "default": {},
    # the formula before this benchmark: cosine × confidence × decay × scope weight, and
    # the same with the decay floors raised or decay switched off (floors 1: nothing fades)
    "floors-0.3": _OLD_FLOORS | _ranking("cosine", 1.0),
    "floors-raised": _HALF_LIVES | _floors(0.8, 0.7, 0.6, 0.0) | _ranking("cosine", 1.0),
    "floors-0.8": _HALF_LIVES | _floors(0.9, 0.85, 0.8, 0.0) | _ranking("cosine", 1.0),
    "decay-off": _HALF_LIVES | _floors(1.0, 1.0, 1.0, 1.0) | _ranking("cosine", 1.0),
    # the full-text rank and the fusion (docs/recall.md, "BM25"): ts_rank and reciprocal rank
    # fusion (the ranking before BM25), BM25 with reciprocal rank fusion, BM25 with min-max
    # fusion and no entity signal
    "tsrank-rrf": {"MEMLANE_RECALL_TEXT_RANK": "ts_rank", "MEMLANE_RECALL_FUSION": "rrf"},
    "bm25-rrf": {"MEMLANE_RECALL_TEXT_RANK": "bm25", "MEMLANE_RECALL_FUSION": "rrf"},
    "minmax-plain": {
        "MEMLANE_RECALL_TEXT_RANK": "bm25",
        "MEMLANE_RECALL_FUSION": "minmax",
        "MEMLANE_RECALL_FUSION_SPREAD_VECTOR": "0",
        "MEMLANE_RECALL_FUSION_SPREAD_TEXT": "0",
    },
    "bm25-minmax-no-entity": {
        "MEMLANE_RECALL_TEXT_RANK": "bm25",
        "MEMLANE_RECALL_FUSION": "minmax",
        "MEMLANE_RECALL_FUSION_WEIGHT_ENTITY": "0",
    },
}
# ...and "<relevance>-k<K>-w<W>", e.g. "rank-k60-w0.1": the old floors and half-lives with
# MEMLANE_RECALL_VECTOR_RELEVANCE=<relevance> (rank | cosine), MEMLANE_RECALL_RANK_K=<K>,
# MEMLANE_RECALL_RECENCY_WEIGHT=<W> (score × (1 - W·(1 - decay)); W=1 is the plain × decay).
_RANKING_VARIANT = re.compile(r"(rank|cosine)-k(\d+(?:\.\d+)?)-w(\d+(?:\.\d+)?)")


def variant_env(name: str, custom: dict[str, str]) -> dict[str, str]:
    if name == "custom":
        return custom
    if name in VARIANTS:
        return VARIANTS[name]
    m = _RANKING_VARIANT.fullmatch(name)
    if m is None:
        raise SystemExit(
            f"unknown variant {name!r}: one of {', '.join(VARIANTS)}, custom (= --env), "
            "or <rank|cosine>-k<K>-w<W>"
        )
    return _OLD_FLOORS | _ranking(m.group(1), float(m.group(3)), float(m.group(2)))


# ----------------------------------------------------------------------------- helpers
def load_harness(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location("locomo_recall", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load the harness from {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def machine() -> dict[str, Any]:
    cpu = "unknown"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    return {
        "nproc": os.cpu_count(),
        "cpu": cpu,
        "platform": platform.platform(),
        "python": platform.python_version(),
    }


def load1() -> float:
    return os.getloadavg()[0]


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def parse_env(items: list[str]) -> dict[str, str]:
    env = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.startswith("MEMLANE_"):
            raise SystemExit(f"--env wants MEMLANE_NAME=VALUE, got {item!r}")
        env[name] = value
    return env


def mode_env(mode: str) -> tuple[dict[str, str], str]:
    """Server settings for a recall mode, and the mode recall answers must report."""
    if mode == "text":
        # The degraded path: no embedder answers, recall falls back to full-text search.
        dead = f"http://127.0.0.1:{free_port()}/v1"
        return {
            "MEMLANE_RECALL_MODE": "vector",
            "MEMLANE_EMBEDDING_PROVIDER": "openai",
            "MEMLANE_EMBEDDING_BASE_URL": dead,
            "MEMLANE_EMBEDDING_TIMEOUT_S": "1",
        }, "text"
    return {"MEMLANE_RECALL_MODE": mode}, mode


def summary_table(runs: list[dict[str, Any]]) -> str:
    cats = ["1:multi-hop", "2:temporal", "3:open-domain", "4:single-hop", "5:adversarial"]
    head = (
        "| run | R@5 (1-4) | R@10 (1-4) | hit@10 (1-4) | "
        + " | ".join(f"R@10 {c.split(':')[1]}" for c in cats)
        + " |"
    )
    lines = [head, "|---|" + "---:|" * (3 + len(cats))]
    for run in runs:
        res, o = run["result"], run["result"]["overall(1-4)"]
        by = res["by_category"]
        cells = [f"{o['recall@5']:.3f}", f"{o['recall@10']:.3f}", f"{o['hit@10']:.3f}"]
        cells += [f"{by[c]['recall@10']:.3f}" if c in by else "-" for c in cats]
        lines.append(f"| {run['name']} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


# ----------------------------------------------------------------------------- server
class Server:
    """One data dir; ``start(env)`` (re)starts ``memlane serve`` on it with those settings."""

    def __init__(self, data_dir: Path):
        self.data_dir = data_dir
        self.proc: ServeProcess | None = None

    def start(self, env: dict[str, str]) -> ServeProcess:
        self.stop()
        proc = ServeProcess(self.data_dir, env=BASE_ENV | env)
        proc.start()
        self.proc = proc
        return proc

    def stop(self) -> None:
        if self.proc is not None and self.proc.proc is not None:
            try:
                self.proc.stop()
            except Exception:
                self.proc.kill()
        self.proc = None


def create_tenant(proc: ServeProcess, name: str) -> dict[str, str]:
    r = httpx.post(
        f"{proc.base_url}/v1/tenants",
        json={"name": name},
        headers={"Authorization": f"Bearer {proc.admin_key}"},
        timeout=30,
    )
    r.raise_for_status()
    body = r.json()
    return {"id": body["id"], "api_key": body["api_key"]}


def read_state(data_dir: Path) -> dict[str, Any] | None:
    path = data_dir / STATE_FILE
    return json.loads(path.read_text()) if path.exists() else None


def write_state(data_dir: Path, state: dict[str, Any]) -> None:
    (data_dir / STATE_FILE).write_text(json.dumps(state, indent=1))


# ----------------------------------------------------------------------------- runs
def run_ingest_kind(
    harness: ModuleType,
    data: list[dict[str, Any]],
    ingest: Ingest,
    data_dir: Path,
    combos: list[tuple[str, str, dict[str, str]]],
    args: argparse.Namespace,
) -> list[dict[str, Any]]:
    """Every (mode, variant, env) of ``combos`` on one data dir holding ``ingest`` turns."""
    server = Server(data_dir)
    runs: list[dict[str, Any]] = []
    state = read_state(data_dir)
    wanted = [f"locomo-{s['sample_id']}" for s in data[: args.max_convs]]
    if state is not None and state.get("ingest") != ingest:
        raise SystemExit(f"{data_dir} holds {state.get('ingest')} turns, not {ingest}")
    if state is not None and not set(wanted) <= set(state["users"]):
        raise SystemExit(f"{data_dir} lacks some conversations; use a fresh --data-dir")
    try:
        for mode, variant, env in combos:
            menv, expect = mode_env(mode)
            name = f"{ingest}/{mode}/{variant}"
            log(f"== {name}: starting memlane serve on {data_dir}")
            proc = server.start(menv | env)
            replay = state is not None
            if state is None:
                tenant = create_tenant(proc, f"locomo-{ingest}")
                users: dict[str, UserState] = {}
            else:
                tenant = state["tenant"]
                users = {u: UserState(**v) for u, v in state["users"].items()}
            adapter = MemlaneLoCoMo(
                proc.base_url,
                tenant["id"],
                tenant["api_key"],
                ingest=ingest,
                expect_mode=expect,
                state=users,
                replay=replay,
                log=log,
            )
            if not replay:
                for u in wanted:
                    adapter.users[u] = UserState()

            def hook(msg: str, adapter: MemlaneLoCoMo = adapter) -> None:
                # The harness logs "[conv-26] ingested 419 turns in …" right before it asks
                # that conversation's questions: wait for its jobs here, so that the waiting
                # does not count as search latency.
                log(msg)
                m = re.match(r"\[(\S+)\] ingested", msg)
                if m:
                    adapter.flush(f"locomo-{m.group(1)}")

            load_before, started = load1(), time.monotonic()
            try:
                result = harness.evaluate(
                    adapter.add,
                    adapter.search,
                    data,
                    ks=KS,
                    max_convs=args.max_convs,
                    log=hook,
                )
            finally:
                adapter.close()
            elapsed = time.monotonic() - started
            if not replay:
                state = {
                    "ingest": ingest,
                    "tenant": tenant,
                    "users": {u: asdict(s) for u, s in adapter.users.items()},
                    "data": str(args.data),
                    "ingest_s": round(elapsed, 1),
                    "ingest_stats": dict(adapter.stats),
                }
                write_state(data_dir, state)
            result["system"] = f"memlane {name}"
            table = harness.format_table(result, KS)
            print(f"\n### {name}  ({elapsed:.0f}s{', with ingest' if not replay else ''})")
            print(table)
            print("stats:", json.dumps(result["stats"]), "latency_ms:", result["latency_ms"])
            print("adapter:", json.dumps(dict(adapter.stats)), "modes:", dict(adapter.mode_seen))
            sys.stdout.flush()
            runs.append(
                {
                    "name": name,
                    "ingest": ingest,
                    "mode": mode,
                    "variant": variant,
                    "server_env": menv | env,
                    "replayed_ingest": replay,
                    "elapsed_s": round(elapsed, 1),
                    "load1_before_after": [round(load_before, 2), round(load1(), 2)],
                    "adapter_stats": dict(adapter.stats),
                    "ingest_stats": (state or {}).get("ingest_stats"),
                    "recall_modes_seen": dict(adapter.mode_seen),
                    "markdown": table,
                    "result": result,
                }
            )
    finally:
        server.stop()
    return runs


def _interrupt(signum: int, frame: object) -> None:
    """SIGTERM stops the servers like Ctrl-C does (the ``finally`` blocks run)."""
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA, help="locomo10.json-like file")
    ap.add_argument("--harness", type=Path, default=DEFAULT_HARNESS, help="locomo_recall.py")
    ap.add_argument(
        "--mode",
        nargs="+",
        choices=["vector", "hybrid", "text"],
        default=["vector", "hybrid"],
        help="recall modes to measure (text: the degraded full-text fallback)",
    )
    ap.add_argument(
        "--variant",
        nargs="+",
        default=["default"],
        help=f"ranking settings to measure: {', '.join(VARIANTS)}, <rank|cosine>-k<K>-w<W> "
        "(e.g. rank-k60-w0.1) or custom (= --env)",
    )
    ap.add_argument(
        "--env", action="append", default=[], metavar="MEMLANE_X=V", help="the 'custom' variant"
    )
    ap.add_argument("--infer", action="store_true", help="also send turns through extraction")
    ap.add_argument(
        "--infer-only", action="store_true", help="only the extraction runs (no raw turns)"
    )
    ap.add_argument(
        "--infer-variant",
        nargs="+",
        default=None,
        help="variants for the extraction runs (default: --variant)",
    )
    ap.add_argument("--infer-mode", nargs="+", default=["vector"], help="modes for --infer")
    ap.add_argument("--max-convs", type=int, default=None)
    ap.add_argument("--bm25", action="store_true", help="also run the harness' BM25 baseline")
    ap.add_argument("--out", type=Path, help="result JSON (default bench/results/locomo-*.json)")
    ap.add_argument(
        "--data-dir",
        type=Path,
        help="keep the ingested databases here (raw/ and infer/) and reuse them next time",
    )
    args = ap.parse_args(argv)
    custom = parse_env(args.env)
    for v in [*args.variant, *(args.infer_variant or [])]:
        variant_env(v, custom)  # fail early on an unknown name

    signal.signal(signal.SIGTERM, _interrupt)
    harness = load_harness(args.harness)
    data = harness.load_locomo(str(args.data))
    started_at = datetime.now(UTC)
    report: dict[str, Any] = {
        "benchmark": "locomo",
        "command": "python bench/locomo.py " + " ".join(sys.argv[1:] if argv is None else argv),
        "started_at": started_at.isoformat(timespec="seconds"),
        "machine": machine(),
        "data": str(args.data),
        "harness": str(args.harness),
        "conversations": [s["sample_id"] for s in data[: args.max_convs]],
        "timestamps": "LoCoMo session times (no timezone) read as UTC",
        "at": "recall at = the conversation's last session time",
        "base_env": BASE_ENV,
        "runs": [],
    }
    runs: list[dict[str, Any]] = []
    if args.bm25:
        mem = harness.BM25Memory()
        res = harness.evaluate(mem.add, mem.search, data, ks=KS, max_convs=args.max_convs, log=log)
        res["system"] = "bm25"
        table = harness.format_table(res, KS)
        print("\n### bm25 (the harness' baseline, rank_bm25 BM25Okapi)")
        print(table)
        runs.append({"name": "bm25", "markdown": table, "result": res})

    tmp = None if args.data_dir else Path(tempfile.mkdtemp(prefix="memlane-locomo-"))
    root = args.data_dir or tmp
    assert root is not None
    kinds: list[tuple[Ingest, list[str], list[str]]] = []
    if not args.infer_only:
        kinds.append(("raw", args.mode, args.variant))
    if args.infer or args.infer_only:
        kinds.append(("infer", args.infer_mode, args.infer_variant or args.variant))
    try:
        for ingest, modes, variants in kinds:
            combos = [(m, v, variant_env(v, custom)) for m in modes for v in variants]
            runs += run_ingest_kind(harness, data, ingest, root / ingest, combos, args)
    except KeyboardInterrupt:
        log("interrupted; servers stopped")
        return 130
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)

    report["runs"] = runs
    report["finished_at"] = datetime.now(UTC).isoformat(timespec="seconds")
    summary = summary_table(runs)
    report["summary_markdown"] = summary
    print("\n### summary (recall = share of gold evidence turns in the top k)")
    print(summary)
    out = args.out
    if out is None:
        RESULTS_DIR.mkdir(parents=True, exist_ok=True)
        out = RESULTS_DIR / f"locomo-{started_at.strftime('%Y%m%dT%H%M%SZ')}.json"
    out.write_text(json.dumps(report, indent=1, default=str))
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
