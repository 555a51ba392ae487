"""The ranking statement of the working tree against that of an earlier commit, side by side:
the same answers, row for row.

    python bench/recall_plan.py --rows 30000 --runs 1 --queries 10 --no-compare --data-dir D
    python bench/same_ranking.py --data-dir D --against HEAD~1 [--queries 20]

For a change to the SQL of ``ranked_sql`` that must not change the ranking (a plan or a
planning-time change). On the database that ``bench/recall_plan.py`` loaded into ``D``, it runs
``RecallRepository.ranked`` twice per query and configuration — once with the statement built by
the working tree's ``ranked_sql``, once with the one built by ``app/recall/repository.py`` at
``--against`` (loaded from git, with the working tree's other modules) — in the same transaction,
and compares the rows: ids in order and every score factor, exactly. Configurations: the modes
(vector, text, hybrid), fusions (minmax, rrf), vector relevance (rank, cosine), full-text
ranking (bm25, ts_rank), the entity and speaker signals, top_k 1 / 12 / 50, statuses (active;
active and frozen at a point in time; frozen with an end date), with and without the
tenant-wide range, at each user size. Prints the number of compared answers and rows and every
difference; exits 1 on a difference.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import itertools
import subprocess
import sys
import tempfile
from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np
from sqlalchemy import bindparam, text

BENCH_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH_DIR.parent))
sys.path.insert(0, str(BENCH_DIR))

import recall_plan as rp  # noqa: E402

from app.config import get_settings  # noqa: E402
from app.db.embedded import start_embedded  # noqa: E402
from app.db.session import scoped_session  # noqa: E402
from app.db.setup import Database  # noqa: E402
from app.recall import repository  # noqa: E402
from app.recall.repository import RecallRepository, ScopeReach  # noqa: E402
from app.recall.service import RANKED_TYPES  # noqa: E402
from app.tenantwide.templates import EVERY_USER  # noqa: E402

FIELDS = (
    "similarity", "text_rank", "vector_score", "text_score", "entity_score", "speaker_score",
    "relevance", "confidence", "decay", "scope_weight", "type_weight", "age_days",
    "half_life_days", "decay_floor", "score", "base_half_life_days",
)  # fmt: skip


def old_module(rev: str) -> Any:
    """``app/recall/repository.py`` at ``rev``, imported under another name."""
    source = subprocess.run(
        ["git", "show", f"{rev}:app/recall/repository.py"],
        cwd=BENCH_DIR.parent,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    path = Path(tempfile.mkdtemp()) / "old_repository.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("old_repository", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["old_repository"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def statement_of(sql_of: Any) -> Any:
    def build(*variant: Any) -> Any:
        return (
            text(sql_of(*variant))
            .bindparams(bindparam("types", expanding=False))
            .columns(**repository._SHOWN_TYPES)
        )

    return build


def configurations() -> list[dict[str, Any]]:
    out = []
    for mode, fusion, relevance, text_rank, signals in itertools.product(
        ("vector", "text", "hybrid"),
        ("minmax", "rrf"),
        ("rank", "cosine"),
        ("bm25", "ts_rank"),
        ("none", "entity", "speaker"),
    ):
        if mode != "hybrid" and (fusion == "rrf" or signals != "none"):
            continue  # the same statement as another configuration
        if mode == "text" and relevance == "cosine":
            continue
        if mode == "vector" and text_rank == "ts_rank" and signals == "none":
            continue
        out.append(
            {
                "mode": mode,
                "fusion": fusion,
                "vector_relevance": relevance,
                "text_rank": text_rank,
                "signals": signals,
            }
        )
    return out


async def compare(args: argparse.Namespace, pg: Any) -> int:
    settings = get_settings()
    owner = await rp.connect_owner(pg.socket_dir)
    layout = await rp.existing_layout(owner)
    if layout is None:
        raise SystemExit(f"no data in {args.data_dir}: load it with bench/recall_plan.py first")
    at = await owner.fetchval("SELECT max(created_at) FROM memories")
    await owner.close()
    runner = rp.Runner(Database(owner_url=pg.owner_url, embedded=pg), settings, at, "hybrid")
    world = rp.World(args.seed)
    new_statement = repository._ranked_statement
    old_statement = statement_of(old_module(args.against).ranked_sql)
    answers = rows = 0
    differences: list[str] = []
    configs = configurations()
    for size in rp.USER_SIZES:
        rng = np.random.default_rng([args.seed, 3, size])
        queries = rp.make_queries(world, layout, size, args.queries, rng)
        for i, q in enumerate(queries):
            config = configs[i % len(configs)] if args.rotate else None
            for c in [config] if config else configs:
                top_k = (1, 12, 50)[(i + answers) % 3]
                status, when = (
                    ("active", {}),
                    (("active", "frozen"), {"valid_at": at - timedelta(days=30)}),
                    ("frozen", {"ended_by": at}),
                )[(i + answers) % 3]
                params = dict(runner.params)
                if c["signals"] == "entity":
                    params["w_entity"] = 0.3
                if c["signals"] == "speaker":
                    params["w_speaker"] = 0.2
                kwargs = {
                    "query_embedding": q.vector if c["mode"] != "text" else None,
                    "query_terms": q.terms,
                    "mode": c["mode"],
                    "model": settings.embedding_model,
                    "at": at,
                    "types": list(RANKED_TYPES),
                    "task_id": q.task_id,
                    "session_id": q.session_id,
                    "status": status,
                    "top_k": top_k,
                    "params": params,
                    "vector_relevance": c["vector_relevance"],
                    "candidates": settings.recall_candidates,
                    "reach": ScopeReach(templates=(EVERY_USER,)) if i % 2 else None,
                    "text_rank": c["text_rank"],
                    "fusion": c["fusion"],
                    "query_entities": q.text.split()[:2] if c["signals"] != "none" else (),
                    **when,
                }
                got = []
                async with scoped_session(runner.maker, rp.TENANT_ID, q.user_id) as session:
                    repo = RecallRepository(session, rp.TENANT_ID, q.user_id)
                    for build in (new_statement, old_statement):
                        repository._ranked_statement = build  # type: ignore[assignment]
                        try:
                            got.append(await repo.ranked(**kwargs))
                        finally:
                            repository._ranked_statement = new_statement
                new, old = (
                    [(r.memory.id, *(getattr(r, f) for f in FIELDS)) for r in a] for a in got
                )
                answers += 1
                rows += len(new)
                if new != old:
                    differences.append(f"size {size} query {i} {c} top_k {top_k} {status}")
    print(
        f"{answers} answers, {rows} rows compared ({len(configs)} configurations, sizes "
        f"{rp.USER_SIZES}, {args.queries} queries each): {len(differences)} differ"
    )
    for d in differences:
        print("DIFFERENT:", d)
    return 1 if differences else 0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    p.add_argument("--data-dir", type=Path, required=True, help="loaded by bench/recall_plan.py")
    p.add_argument("--against", default="HEAD", help="the commit whose ranked_sql is compared")
    p.add_argument("--queries", type=int, default=20, help="queries per user size")
    p.add_argument("--seed", type=int, default=11)
    p.add_argument(
        "--rotate",
        action="store_true",
        help="one configuration per query in turn (faster) instead of every one",
    )
    args = p.parse_args()
    pg = start_embedded(args.data_dir)
    try:
        return asyncio.run(compare(args, pg))
    finally:
        pg.stop()


if __name__ == "__main__":
    raise SystemExit(main())
