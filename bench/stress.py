"""Crash-safety stress: the CI test with larger counts.

    python bench/stress.py [--writes 600] [--kills 10] [--seed N]

Runs tests/e2e/test_crash.py (SIGKILL of a real `memlane serve` at random moments under a
stream of idempotent writes, then a PostgreSQL restart under load) and prints its figures:
writes acknowledged, kills survived, requests retried, writes lost (must be 0).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--writes", type=int, default=600)
    ap.add_argument("--kills", type=int, default=10)
    ap.add_argument("--seed", type=int, default=20261129)
    args = ap.parse_args()
    env = {
        **os.environ,
        "MEMLANE_CRASH_WRITES": str(args.writes),
        "MEMLANE_CRASH_KILLS": str(args.kills),
        "MEMLANE_CRASH_SEED": str(args.seed),
    }
    cmd = [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-s",
        "-p",
        "no:cacheprovider",
        "tests/e2e/test_crash.py",
    ]
    return subprocess.call(cmd, cwd=ROOT, env=env)


if __name__ == "__main__":
    sys.exit(main())
