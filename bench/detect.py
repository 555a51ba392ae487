"""What sensitive-value detection costs per text (app/privacy/detect.py).

Every stored text (memory content and value, each conversation turn) goes through ``detect()``
before it is written; this measures one call on typical texts, in Chinese and English, with
and without digits (text with fewer than ``MIN_PHONE_DIGITS`` digits skips the phone matcher).
No database. Prints a markdown table and writes bench/results/detect-<UTC timestamp>.json.

    python bench/detect.py [--runs 5] [--calls 200]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

from app.privacy.detect import detect

TEXTS = {
    "zh, email + phone (60 chars)": (
        "我的邮箱是liming@example.com，手机13812345678，我住在上海，喜欢喝咖啡。"
    ),
    "en, no digits (70 chars)": (
        "I moved to Shanghai last year and I work at Acme as a backend engineer."
    ),
    "en, a date and an amount (80 chars)": "On 2026-12-01 we agreed on a budget of 500000 "
    "for the new warehouse in Lisbon.",
    "en, no digits (3,600 chars)": (
        "I moved to Shanghai last year and I work at Acme as a backend engineer. " * 50
    )[:3600],
    "zh+en with numbers (3,600 chars)": (
        "订单号 202612011234567 已发货，预计3天到达。My phone is 415-555-0100. " * 80
    )[:3600],
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--calls", type=int, default=200, help="calls per run and text")
    args = parser.parse_args()
    rows = []
    for name, text in TEXTS.items():
        detect(text)  # warm the matchers' caches
        per_run_ms = []
        for _ in range(args.runs):
            start = time.perf_counter()
            for _ in range(args.calls):
                detect(text)
            per_run_ms.append((time.perf_counter() - start) / args.calls * 1000)
        rows.append(
            {
                "text": name,
                "chars": len(text),
                "findings": len(detect(text)),
                "ms_per_call_median_of_runs": round(statistics.median(per_run_ms), 3),
                "ms_per_call_runs": [round(x, 3) for x in per_run_ms],
            }
        )
    print("| text | chars | findings | ms per call (median of runs) | runs |")
    print("|---|---|---|---|---|")
    for r in rows:
        print(
            f"| {r['text']} | {r['chars']} | {r['findings']} | "
            f"{r['ms_per_call_median_of_runs']} | {r['ms_per_call_runs']} |"
        )
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    out = Path("bench/results") / f"detect-{stamp}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(
        json.dumps(
            {
                "command": " ".join([sys.executable, *sys.argv]),
                "machine": {
                    "cpus": os.cpu_count(),
                    "processor": platform.processor(),
                    "python": platform.python_version(),
                    "load_1m": os.getloadavg()[0],
                },
                "rows": rows,
            },
            indent=2,
            ensure_ascii=False,
        )
    )
    print(f"\nwrote {out} (1-minute load average {os.getloadavg()[0]:.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
