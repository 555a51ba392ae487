"""What the cascade extractor would send a chat model, on an extraction corpus: the share of
user turns the offline rules cannot read (no key, no value withdrawn), and how many of the
rules' misses lie there.

    python bench/cascade_share.py --split dev [--result RESULT.json]
    python bench/cascade_share.py --corpus FILE [--result RESULT.json]

Each turn is read alone, as ``bench/extraction.py`` posts it (one message per request), by
``RuleExtractor``; a turn is *asked* when ``app.ingest.extraction.cascade.unread_turns`` says
so (a user turn no fact reads, neither a question nor small talk). With ``--result`` (the
JSON of ``bench/extraction.py`` on the same corpus, which lists per-case failures for every
split but ``test``), it also counts the missed facts of cases with an asked turn and the
memories left active (``not_frozen``) in cases whose last turn is asked: an upper bound on what
a model could add, reached only if it read every asked turn right. No model is called.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.ingest.extraction.base import Turn
from app.ingest.extraction.cascade import unread_turns
from app.ingest.extraction.rules import RuleExtractor
from bench.extraction import load_cases


async def asked_turns(case: dict[str, Any], rules: RuleExtractor) -> list[int]:
    """Indexes of the case's turns the cascade would ask a model about."""
    asked = []
    for i, text in enumerate(case["turns"]):
        turn = Turn(f"m{i}", "user", text, datetime(2026, 12, 1, 12, tzinfo=UTC))
        if unread_turns([turn], await rules.extract([turn])):
            asked.append(i)
    return asked


async def share(cases: list[dict[str, Any]], result: dict[str, Any] | None) -> dict[str, Any]:
    rules = RuleExtractor()
    turns = asked = 0
    failures = {f["id"]: f for f in (result or {}).get("dev_failures", [])}
    missed = missed_asked = left = left_asked = 0
    for case in cases:
        which = await asked_turns(case, rules)
        turns += len(case["turns"])
        asked += len(which)
        failure = failures.get(case["id"])
        if failure is not None:
            missed += len(failure["missed"])
            missed_asked += len(failure["missed"]) if which else 0
            left += len(failure["not_frozen"])
            last = len(case["turns"]) - 1 in which
            left_asked += len(failure["not_frozen"]) if last else 0
    out: dict[str, Any] = {
        "cases": len(cases),
        "user_turns": turns,
        "asked": asked,
        "asked_share": round(asked / turns, 3) if turns else None,
    }
    if result is not None:
        out |= {
            "missed": missed,
            "missed_in_cases_with_an_asked_turn": missed_asked,
            "not_frozen": left,
            "not_frozen_when_the_last_turn_is_asked": left_asked,
        }
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--split", choices=["dev", "dev2", "test", "all"])
    src.add_argument("--corpus", type=Path)
    ap.add_argument("--result", type=Path, help="bench/extraction.py JSON of the same cases")
    args = ap.parse_args(argv)
    cases = load_cases(args.split or "own", args.corpus)
    result = json.loads(args.result.read_text()) if args.result else None
    print(json.dumps(asyncio.run(share(cases, result)), indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
