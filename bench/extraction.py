"""Memory formation on the extraction corpus: precision, recall and F1 of the facts formed,
and how well corrections supersede, through the real extractor, arbitration and database.

    python bench/extraction.py [--split dev|test|all] [--extractor rules|llm|cascade]
                               [--json OUT] [--limit N] [--concurrency N]
                               [--script traditional]

Starts the embedded PostgreSQL in a fresh temporary directory, migrates it and runs the app
in-process (``create_app`` + its lifespan, ``httpx.ASGITransport``), as tests/conftest.py does.
One tenant; every case gets a fresh user: each turn is one
``POST /v1/tenants/{t}/users/{u}/sessions/{s}/messages?wait=true`` (role ``user``,
``occurred_at`` one minute apart), then ``GET …/memories`` (every status but deleted, all pages)
is compared with the case's label (tests/data/extraction/README.md). Secret values, masked in
the listing, are opened with ``POST …/memories/{id}/reveal``.

``--extractor llm`` and ``cascade`` use the ``MEMLANE_LLM_*`` settings (any OpenAI-compatible
endpoint).

Prints per-language and per-family tables. ``--json`` writes every figure; per-case failures
(turns, label, memories formed) are written for the dev split only — for ``test`` only
aggregate figures, so the test sentences never leave the corpus file. The matching rule and
the definitions of each figure are in bench/README.md (section extraction.py).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
import unicodedata
import uuid
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx

BENCH_DIR = Path(__file__).resolve().parent
ROOT = BENCH_DIR.parent
CORPUS_DIR = ROOT / "tests" / "data" / "extraction"
RESULTS_DIR = BENCH_DIR / "results"
sys.path.insert(0, str(ROOT))

ADMIN_KEY = "mla_bench-admin-key-" + uuid.uuid4().hex
SPLIT_SEED = "memlane-extraction-corpus-1"


def is_test_case(case_id: str) -> bool:
    """The corpus split: ``sha256(seed + id) mod 100 < 50`` is ``test``."""
    digest = hashlib.sha256((SPLIT_SEED + case_id).encode("utf-8")).hexdigest()
    return int(digest, 16) % 100 < 50


HALF_SEED = "memlane-dev-half-1"


def dev_half(case_id: str) -> str:
    """Half ``a`` or ``b`` of the dev split, by a seeded hash of the case id: a classifier
    trained without one half (``bench/train_family.py --hold-out-half``) is measured on it."""
    digest = hashlib.sha256((HALF_SEED + case_id).encode("utf-8")).hexdigest()
    return "a" if int(digest, 16) % 2 == 0 else "b"


def load_cases(split: str, corpus: Path | None = None) -> list[dict[str, Any]]:
    """The cases of ``split`` (``all``: every file of the corpus), or of the file ``corpus``
    (split name ``own``)."""
    names = ["dev", "dev2", "test"] if split == "all" else [split]
    files = [(n, CORPUS_DIR / f"{n}.jsonl") for n in names] if corpus is None else [("own", corpus)]
    cases: list[dict[str, Any]] = []
    for name, path in files:
        with path.open(encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    case = json.loads(line)
                    case["split"] = name
                    cases.append(case)
    return cases


def in_traditional(case: dict[str, Any]) -> dict[str, Any]:
    """``case`` with its turns and every labelled value written in traditional Chinese as
    Taiwan writes it (OpenCC's ``s2twp``: characters and usual words, 软件 -> 軟體); text in
    other scripts is left as it is. How the extractor reads what traditional-script users say
    is measured on the same labels (``--script traditional``)."""
    import opencc

    convert = opencc.OpenCC("s2twp").convert

    def values(specs: list[dict[str, Any]]) -> list[dict[str, Any]]:
        out = []
        for spec in specs:
            spec = dict(spec)
            if isinstance(spec.get("value"), str):
                spec["value"] = convert(spec["value"])
            if spec.get("value_aliases"):
                spec["value_aliases"] = [convert(v) for v in spec["value_aliases"]]
            out.append(spec)
        return out

    labels = ("expected", "optional", "frozen", "still_active")
    return (
        case
        | {"turns": [convert(t) for t in case["turns"]]}
        | {k: values(case[k]) for k in labels if k in case}
    )


# --- matching ----------------------------------------------------------------------------------


def norm(text: str | None) -> str:
    """NFKC, case-folded, with every punctuation (P*), symbol (S*), separator (Z*) and control
    (C*) character removed: "Quill & Co." -> "quillco", "$12,000" -> "12000"."""
    if not text:
        return ""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return "".join(ch for ch in folded if unicodedata.category(ch)[0] not in "PSZC")


def value_matches(spec: dict[str, Any], texts: Iterable[str | None]) -> bool:
    """Equal after ``norm``, or one contains the other, for the spec's value or an alias."""
    wanted = [norm(v) for v in [spec["value"], *spec.get("value_aliases", [])]]
    wanted = [w for w in wanted if w]
    for text in texts:
        got = norm(text)
        if not got:
            continue
        if any(w == got or w in got or got in w for w in wanted):
            return True
    return False


def memory_texts(m: dict[str, Any]) -> list[str | None]:
    """What a memory's value is compared with: its value; for a keyless fact its content as
    well (it often carries its meaning there). A memory of a key with no value (the record of
    a withdrawal, "不当老师了…") states no value: nothing, so the words it quotes never count
    as the fact they withdraw."""
    if m.get("key") is None:
        return [m.get("value"), m.get("content")]
    return [m.get("value")]


def spec_matches(spec: dict[str, Any], m: dict[str, Any], *, exact: bool = False) -> bool:
    """Key (or, keyless, type) equal and value matching; ``exact``: the memory's value equals
    the spec's value or an alias after ``norm`` (no containment, content not used)."""
    if spec["key"] is not None:
        if m.get("key") != spec["key"]:
            return False
    elif m.get("key") is not None or m.get("type") != spec["type"]:
        return False
    if exact:
        got = norm(m.get("value"))
        return bool(got) and any(
            norm(v) == got for v in [spec["value"], *spec.get("value_aliases", [])]
        )
    return value_matches(spec, memory_texts(m))


def max_matching(specs: list[dict[str, Any]], mems: list[dict[str, Any]]) -> dict[int, int]:
    """Maximum bipartite matching spec -> memory (each memory matches at most one spec);
    returns {spec index: memory index}. Kuhn's augmenting paths (sizes are tiny)."""
    adj = [[j for j, m in enumerate(mems) if spec_matches(s, m)] for s in specs]
    owner: dict[int, int] = {}

    def augment(i: int, seen: set[int]) -> bool:
        for j in adj[i]:
            if j in seen:
                continue
            seen.add(j)
            if j not in owner or augment(owner[j], seen):
                owner[j] = i
                return True
        return False

    for i in range(len(specs)):
        augment(i, set())
    return {i: j for j, i in owner.items()}


@dataclass
class CaseResult:
    tp: int = 0
    fn: int = 0
    fp: int = 0
    frozen_expected: int = 0
    frozen_hit: int = 0
    frozen_formed: int = 0  # memories frozen in the run, merges with a kept value excluded
    frozen_correct: int = 0
    has_still_active: bool = False
    wrong_supersession: bool = False
    # matched / unexpected per reading that formed the memory (``metadata.formed_by``)
    by_reading: Counter[tuple[str, str]] = field(default_factory=Counter)
    missed: list[dict[str, Any]] = field(default_factory=list)
    extra: list[dict[str, Any]] = field(default_factory=list)
    not_frozen: list[dict[str, Any]] = field(default_factory=list)
    wrongly_frozen: list[dict[str, Any]] = field(default_factory=list)
    # every active fact with what scoring made of it: "tp" (a match), "fp" (unexpected),
    # "optional" (allowed, not counted) or "withdrawal" (the record of an ending asked for)
    labelled: list[tuple[dict[str, Any], str]] = field(default_factory=list)


def superseded_by_active(m: dict[str, Any], by_id: dict[str, dict[str, Any]]) -> bool:
    """Whether following ``superseded_by`` from ``m`` reaches an active memory, or a
    withdrawal record (no value) archived as it states nothing of its own."""
    cur, hops = m, 0
    while cur.get("superseded_by") and hops < 10:
        cur = by_id.get(str(cur["superseded_by"]), {})
        if cur.get("status") == "active" or (
            cur.get("status") == "archived" and cur.get("value") is None
        ):
            return True
        hops += 1
    return False


def reading(m: dict[str, Any]) -> str:
    """Which reading formed a memory: its ``metadata.formed_by`` ("classifier": the key-family
    guess), or "rule" for the extractor's own patterns."""
    return str((m.get("metadata") or {}).get("formed_by") or "rule")


def score_case(case: dict[str, Any], memories: list[dict[str, Any]]) -> CaseResult:
    """Compare the memories of one case's user with its label (rules in bench/README.md)."""
    res = CaseResult()
    # an episode is the user's turn kept verbatim, not a formed fact: it is not scored
    memories = [m for m in memories if m.get("type") != "episode"]
    active = [m for m in memories if m["status"] == "active"]
    frozen = [m for m in memories if m["status"] == "frozen"]
    by_id = {str(m["id"]): m for m in memories}

    expected = case["expected"]
    matched = max_matching(expected, active)
    res.tp = len(matched)
    res.fn = len(expected) - res.tp
    res.missed = [s for i, s in enumerate(expected) if i not in matched]
    used = set(matched.values())
    for j in used:
        res.by_reading[(reading(active[j]), "tp")] += 1
        res.labelled.append((active[j], "tp"))
    frozen_keys = {s["key"] for s in case.get("frozen", [])}
    for j, m in enumerate(active):
        if j in used:
            continue
        if any(spec_matches(s, m) for s in case.get("optional", [])):
            res.labelled.append((m, "optional"))
            continue
        if m.get("value") is None and m.get("key") is not None and m["key"] in frozen_keys:
            res.labelled.append((m, "withdrawal"))
            continue  # the record of a withdrawal the label asks for
        res.labelled.append((m, "fp"))
        res.fp += 1
        res.by_reading[(reading(m), "fp")] += 1
        res.extra.append(m)

    for spec in case.get("frozen", []):
        res.frozen_expected += 1
        # the old value itself still active ("拿铁" must not count as kept by "燕麦拿铁")
        still = any(spec_matches(spec, m, exact=True) for m in active)
        hit = not still and any(
            spec_matches(spec, m) and superseded_by_active(m, by_id) for m in frozen
        )
        if hit:
            res.frozen_hit += 1
        else:
            res.not_frozen.append(spec)

    for m in frozen:
        if any(spec_matches(s, m) for s in case.get("frozen", [])):
            res.frozen_formed += 1
            res.frozen_correct += 1
            continue
        kept = any(
            a.get("key") == m.get("key")
            and value_matches({"value": m.get("value") or m.get("content") or ""}, [a.get("value")])
            for a in active
        )
        if kept:
            continue  # a duplicate merged into a row that keeps the same value
        res.frozen_formed += 1

    still_specs = case.get("still_active", [])
    res.has_still_active = bool(still_specs)
    for spec in still_specs:
        if not any(spec_matches(spec, m) for m in active) and any(
            spec_matches(spec, m) for m in frozen
        ):
            res.wrong_supersession = True
            res.wrongly_frozen.append(spec)
    return res


# --- aggregation -------------------------------------------------------------------------------


def ratio(a: int, b: int) -> float | None:
    return round(a / b, 3) if b else None


def figures(results: list[CaseResult]) -> dict[str, Any]:
    tp = sum(r.tp for r in results)
    fn = sum(r.fn for r in results)
    fp = sum(r.fp for r in results)
    p, r = ratio(tp, tp + fp), ratio(tp, tp + fn)
    f1 = round(2 * p * r / (p + r), 3) if p is not None and r is not None and p + r else None
    fe = sum(x.frozen_expected for x in results)
    fh = sum(x.frozen_hit for x in results)
    ff = sum(x.frozen_formed for x in results)
    fc = sum(x.frozen_correct for x in results)
    sa = sum(x.has_still_active for x in results)
    ws = sum(x.wrong_supersession for x in results)
    return {
        "cases": len(results),
        "expected": tp + fn,
        "tp": tp,
        "fp": fp,
        "fn": fn,
        "precision": p,
        "recall": r,
        "f1": f1,
        "supersession_expected": fe,
        "supersession_recall": ratio(fh, fe),
        "supersession_formed": ff,
        "supersession_precision": ratio(fc, ff),
        "still_active_cases": sa,
        "wrong_supersessions": ws,
        "wrong_supersession_rate": ratio(ws, sa),
    }


def by_reading(results: list[CaseResult]) -> dict[str, dict[str, Any]]:
    """Matched and unexpected memories per reading, with that reading's precision."""
    total: Counter[tuple[str, str]] = Counter()
    for r in results:
        total.update(r.by_reading)
    out: dict[str, dict[str, Any]] = {}
    for name in sorted({k for k, _ in total}):
        tp, fp = total[(name, "tp")], total[(name, "fp")]
        out[name] = {"tp": tp, "fp": fp, "precision": ratio(tp, tp + fp)}
    return out


def fmt(x: float | None) -> str:
    return "–" if x is None else f"{x:.2f}"


def table(title: str, groups: dict[str, list[CaseResult]]) -> str:
    lines = [
        f"\n{title}\n",
        "| group | cases | expected | matched | unexpected | P | R | F1 "
        "| sup. R | sup. P | wrong sup. |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, results in groups.items():
        f = figures(results)
        wrong = (
            f"{f['wrong_supersessions']}/{f['still_active_cases']}"
            if f["still_active_cases"]
            else "–"
        )
        lines.append(
            f"| {name} | {f['cases']} | {f['expected']} | {f['tp']} | {f['fp']} | "
            f"{fmt(f['precision'])} | "
            f"{fmt(f['recall'])} | {fmt(f['f1'])} | {fmt(f['supersession_recall'])} | "
            f"{fmt(f['supersession_precision'])} | {wrong} |"
        )
    return "\n".join(lines)


# --- running -----------------------------------------------------------------------------------


async def list_memories(
    client: httpx.AsyncClient, base: str, headers: dict[str, str]
) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    cursor: str | None = None
    while True:
        params: dict[str, Any] = {"limit": 200}
        if cursor:
            params["cursor"] = cursor
        r = await client.get(f"{base}/memories", params=params, headers=headers)
        r.raise_for_status()
        body = r.json()
        items.extend(body["items"])
        cursor = body.get("next_cursor")
        if not cursor:
            return items


async def reveal_secrets(
    client: httpx.AsyncClient, base: str, headers: dict[str, str], m: dict[str, Any]
) -> None:
    """Put the clear secret values back in place of their masks in ``m`` (value and content)."""
    r = await client.post(f"{base}/memories/{m['id']}/reveal", headers=headers)
    r.raise_for_status()
    for s in r.json()["secrets"]:
        for f in ("value", "content"):
            if m.get(f) and s["mask"] in m[f]:
                m[f] = m[f].replace(s["mask"], s["value"])


async def run_case(
    client: httpx.AsyncClient,
    tenant: dict[str, str],
    case: dict[str, Any],
    index: int,
    start: datetime,
) -> tuple[list[dict[str, Any]], float, int]:
    headers = {"Authorization": f"Bearer {tenant['key']}"}
    base = f"/v1/tenants/{tenant['id']}/users/case-{index}"
    t0 = time.perf_counter()
    failed_jobs = 0
    for n, text in enumerate(case["turns"]):
        at = (start + timedelta(minutes=n)).isoformat()
        r = await client.post(
            f"{base}/sessions/s-{index}/messages",
            params={"wait": "true"},
            json={"messages": [{"role": "user", "content": text, "occurred_at": at}]},
            headers=headers,
        )
        if r.status_code == 202:  # not done within the wait: follow the job to its end
            job = await finished_job(client, r.json()["job_id"], headers)
            if job.get("status") != "done":
                failed_jobs += 1
        elif r.status_code != 201:
            raise RuntimeError(f"case {case['id']}: POST messages -> {r.status_code}")
    memories = await list_memories(client, base, headers)
    for m in memories:
        if m.get("secrets"):
            await reveal_secrets(client, base, headers, m)
    return memories, time.perf_counter() - t0, failed_jobs


async def finished_job(
    client: httpx.AsyncClient, job_id: str, headers: dict[str, str], timeout_s: float = 300
) -> dict[str, Any]:
    """``GET /v1/jobs/{job_id}`` until it is done or failed (or ``timeout_s`` passed)."""
    deadline = time.monotonic() + timeout_s
    while True:
        r = await client.get(f"/v1/jobs/{job_id}", headers=headers)
        r.raise_for_status()
        job: dict[str, Any] = r.json()
        if job["status"] in ("done", "failed") or time.monotonic() > deadline:
            return job
        await asyncio.sleep(0.5)


async def run(
    args: argparse.Namespace, cases: list[dict[str, Any]], data_dir: Path, database: Any
) -> dict[str, Any]:
    from app.config import Settings
    from app.main import create_app

    t0 = time.perf_counter()
    settings = Settings(data_dir=data_dir, admin_key=ADMIN_KEY, extractor=args.extractor)
    app = create_app(settings, database)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(
            transport=transport, base_url="http://memlane.bench", timeout=120
        ) as client:
            r = await client.post(
                "/v1/tenants",
                json={"name": "extraction-bench"},
                headers={"Authorization": f"Bearer {ADMIN_KEY}"},
            )
            r.raise_for_status()
            tenant = {"id": r.json()["id"], "key": r.json()["api_key"]}
            start = datetime.now(UTC).replace(microsecond=0) - timedelta(hours=1)
            sem = asyncio.Semaphore(args.concurrency)
            done = 0

            async def one(i: int, case: dict[str, Any]) -> Any:
                nonlocal done
                async with sem:
                    out = await run_case(client, tenant, case, i, start)
                done += 1
                if done % 50 == 0:
                    print(f"  {done}/{len(cases)} cases", file=sys.stderr, flush=True)
                return out

            setup_s = time.perf_counter() - t0
            t1 = time.perf_counter()
            outs = await asyncio.gather(*(one(i, c) for i, c in enumerate(cases)))
            run_s = time.perf_counter() - t1
    return {
        "memories": [o[0] for o in outs],
        "case_seconds": [o[1] for o in outs],
        "failed_jobs": sum(o[2] for o in outs),
        "setup_s": setup_s,
        "run_s": run_s,
        "model": settings.llm_model if args.extractor != "rules" else None,
    }


def run_on_embedded(args: argparse.Namespace, cases: list[dict[str, Any]]) -> dict[str, Any]:
    """Start the embedded PostgreSQL in a fresh temporary directory, migrate it (blocking, as
    tests/conftest.py does), run every case on one app, stop the server."""
    from app.db.embedded import start_embedded
    from app.db.setup import Database, migrate

    with tempfile.TemporaryDirectory(prefix="memlane-bench-extraction-") as tmp:
        data_dir = Path(tmp)
        t0 = time.perf_counter()
        pg = start_embedded(data_dir)
        try:
            migrate(pg.owner_url)
            database = Database(owner_url=pg.owner_url, embedded=pg)
            db_s = time.perf_counter() - t0
            out = asyncio.run(run(args, cases, data_dir, database))
            out["setup_s"] += db_s
            return out
        finally:
            pg.stop()


def git_commit() -> str | None:
    with contextlib.suppress(OSError, subprocess.CalledProcessError):
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, check=True
        )
        return out.stdout.decode().strip()
    return None


def write_facts(
    path: Path,
    cases: list[dict[str, Any]],
    results: list[CaseResult],
    memories: list[list[dict[str, Any]]],
) -> None:
    """One line per active fact of every case outside the test split: the case, the turn the
    fact was formed from (its first episode), the fact and its label (``CaseResult.labelled``)."""
    with path.open("w", encoding="utf-8") as out:
        for c, r, mems in zip(cases, results, memories, strict=True):
            if c["split"] == "test":
                continue  # never the test split's texts or per-case outcomes
            turns = {str(m["id"]): m.get("content") for m in mems if m.get("type") == "episode"}
            for m, label in r.labelled:
                episodes = ((m.get("origin") or {}).get("episode_ids")) or []
                turn = next((turns[str(e)] for e in episodes if str(e) in turns), None)
                row = {"case": c["id"], "lang": c["lang"], "kind": c["kind"], "turn": turn}
                out.write(json.dumps(row | public_memory(m) | {"label": label}) + "\n")


def public_memory(m: dict[str, Any]) -> dict[str, Any]:
    keep = ("type", "key", "value", "content", "status", "source")
    return {k: m.get(k) for k in keep} | {"formed_by": reading(m)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--split", choices=["dev", "dev2", "test", "all"], default="dev")
    ap.add_argument("--extractor", choices=["rules", "llm", "cascade"], default="rules")
    ap.add_argument(
        "--json",
        type=Path,
        help="write every figure (and dev failures) here "
        "(default bench/results/extraction-<split>-<UTC time>.json)",
    )
    ap.add_argument(
        "--corpus",
        type=Path,
        help="a file of cases of your own, in the corpus format, instead of a split",
    )
    ap.add_argument(
        "--facts-out",
        type=Path,
        help="write every active fact formed, with its turn and what scoring made of it "
        "(tp, fp, optional, withdrawal), one JSON object per line; never for the test split",
    )
    ap.add_argument(
        "--script",
        choices=["traditional"],
        help="every case's Chinese (turns and labels) in traditional characters (OpenCC s2twp)",
    )
    ap.add_argument("--limit", type=int, help="only the first N cases of the split")
    ap.add_argument("--concurrency", type=int, default=4, help="cases in flight at once")
    ap.add_argument(
        "--dev-half",
        choices=["a", "b"],
        help="only this half of the dev split (with --family-model trained without it)",
    )
    ap.add_argument(
        "--family-model",
        type=Path,
        help="key-family classifier weights to use instead of the shipped family_model.npz",
    )
    args = ap.parse_args(argv)
    if args.dev_half and args.split != "dev":
        raise SystemExit("--dev-half needs --split dev")
    if args.family_model:
        from app.ingest.extraction import semantic

        semantic.FAMILY_MODEL = args.family_model

    from pydantic import ValidationError

    from app.config import Settings

    try:  # a missing MEMLANE_LLM_BASE_URL is reported before any server starts
        Settings(extractor=args.extractor)
    except ValidationError as exc:
        raise SystemExit(f"settings: {exc.errors()[0]['msg']}") from None

    if args.corpus is not None:
        args.split = "own"
    cases = load_cases(args.split, args.corpus)
    if args.dev_half:
        cases = [c for c in cases if dev_half(c["id"]) == args.dev_half]
    if args.script == "traditional":
        cases = [in_traditional(c) for c in cases]
    if args.limit:
        cases = cases[: args.limit]
    print(
        f"extraction corpus: {len(cases)} cases ({args.split}), extractor {args.extractor}",
        file=sys.stderr,
        flush=True,
    )
    commit = git_commit()
    t0 = time.perf_counter()
    out = run_on_embedded(args, cases)
    wall = time.perf_counter() - t0
    results = [score_case(c, mems) for c, mems in zip(cases, out["memories"], strict=True)]

    by_lang: dict[str, list[CaseResult]] = defaultdict(list)
    by_family: dict[str, list[CaseResult]] = defaultdict(list)
    by_kind: dict[str, list[CaseResult]] = defaultdict(list)
    by_split: dict[str, list[CaseResult]] = defaultdict(list)
    for c, r in zip(cases, results, strict=True):
        by_lang[c["lang"]].append(r)
        by_family[c["family"]].append(r)
        by_kind[c["kind"]].append(r)
        by_split[c["split"]].append(r)
    order = ("en", "zh", "mixed")
    langs = {k: by_lang[k] for k in order if k in by_lang}
    families = dict(sorted(by_family.items()))
    kinds = dict(sorted(by_kind.items()))
    overall = {f"all ({args.split})": results} | (
        {f"split {k}": v for k, v in sorted(by_split.items())} if len(by_split) > 1 else {}
    )
    print(table("Overall", overall))
    print(table("Per language", langs))
    print(table("Per kind", kinds))
    print(table("Per key family", families))
    print("\nPer reading (what formed each memory)\n")
    print("| reading | matched | unexpected | P |\n|---|---:|---:|---:|")
    readings = by_reading(results)
    for name, f in readings.items():
        print(f"| {name} | {f['tp']} | {f['fp']} | {fmt(f['precision'])} |")
    print(
        f"\n{len(cases)} cases in {wall:.0f} s (setup {out['setup_s']:.0f} s, cases "
        f"{out['run_s']:.0f} s, concurrency {args.concurrency}); load average "
        f"{os.getloadavg()[0]:.2f}; commit {commit}"
    )
    if out["failed_jobs"]:
        print(f"{out['failed_jobs']} extraction jobs failed (their turns formed nothing)")

    if args.facts_out:
        write_facts(args.facts_out, cases, results, out["memories"])

    if args.json is None:
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        script = f"-{args.script}" if args.script else ""
        args.json = RESULTS_DIR / f"extraction-{args.split}{script}-{stamp}.json"
    if args.json:
        report: dict[str, Any] = {
            "command": "python bench/extraction.py " + " ".join(argv or sys.argv[1:]),
            "date": datetime.now(UTC).isoformat(timespec="seconds"),
            "commit": commit,
            "split": args.split,
            "script": args.script or "as written",
            "extractor": args.extractor,
            "llm_model": out["model"],
            "machine": {
                "nproc": os.cpu_count(),
                "platform": platform.platform(),
                "python": platform.python_version(),
                "load1": os.getloadavg()[0],
            },
            "seconds": {"wall": wall, "setup": out["setup_s"], "cases": out["run_s"]},
            "failed_jobs": out["failed_jobs"],
            "overall": {k: figures(v) for k, v in overall.items()},
            "per_language": {k: figures(v) for k, v in langs.items()},
            "per_kind": {k: figures(v) for k, v in kinds.items()},
            "per_family": {k: figures(v) for k, v in families.items()},
            "per_reading": readings,
        }
        failures = []
        for c, r, mems in zip(cases, results, out["memories"], strict=True):
            if c["split"] == "test":
                continue  # never the test split's texts or per-case outcomes
            if r.missed or r.extra or r.not_frozen or r.wrongly_frozen:
                failures.append(
                    {
                        "id": c["id"],
                        "lang": c["lang"],
                        "family": c["family"],
                        "kind": c["kind"],
                        "turns": c["turns"],
                        "missed": r.missed,
                        "unexpected": [public_memory(m) for m in r.extra],
                        "not_frozen": r.not_frozen,
                        "wrongly_frozen": r.wrongly_frozen,
                        "memories": [public_memory(m) for m in mems],
                    }
                )
        report["dev_failures"] = failures
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, ensure_ascii=False, indent=1, default=str))
        print(f"wrote {args.json}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
