"""Time the offline extractor per user turn on the dev split's turns (no database).

    python bench/formation_speed.py [--runs 3]

Each turn of tests/data/extraction/dev.jsonl goes through ``extract_turn`` once per run, after
one warm-up pass (model load, prototype matrix, jieba dictionary). Prints p50/p95/mean ms per
turn for each run and the 1-minute load average before and after (the reference machine's two
cores are shared, so read the figures with the load).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.ingest.extraction.base import Turn  # noqa: E402
from app.ingest.extraction.rules import extract_turn  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    path = ROOT / "tests/data/extraction/dev.jsonl"
    turns = [t for line in path.read_text().splitlines() for t in json.loads(line)["turns"]]
    at = datetime(2026, 1, 1, tzinfo=UTC)
    for text in turns:  # warm-up
        extract_turn(Turn("m", "user", text, at))
    print(f"{len(turns)} turns; load average before: {os.getloadavg()[0]:.2f}")
    for run in range(args.runs):
        ms = []
        for text in turns:
            start = time.perf_counter()
            extract_turn(Turn("m", "user", text, at))
            ms.append((time.perf_counter() - start) * 1000)
        ms.sort()
        p95 = ms[int(len(ms) * 0.95) - 1]
        print(
            f"run {run + 1}: p50 {statistics.median(ms):.1f} ms, p95 {p95:.1f} ms, "
            f"mean {statistics.fmean(ms):.1f} ms per turn"
        )
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
