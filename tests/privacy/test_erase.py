"""Erasing a user removes every row of that user, in every table, and nothing else."""

from __future__ import annotations

import asyncpg

from app.db.setup import Database
from tests.conftest import TenantCtx

MARK = "zebra-crossing-7731"


async def _rows_naming(database: Database, *needles: str) -> list[str]:
    conn = await asyncpg.connect(database.asyncpg_dsn)
    try:
        tables = [
            r[0]
            for r in await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        ]
        found = []
        for t in tables:
            for r in await conn.fetch(f'SELECT x::text FROM "{t}" x'):
                if all(n in r[0] for n in needles):
                    found.append(f"{t}: {r[0][:120]}")
        for r in await conn.fetch(
            "SELECT convert_from(payload, 'UTF8') FROM pgqueuer WHERE payload IS NOT NULL"
        ):
            if all(n in r[0] for n in needles):
                found.append(f"pgqueuer: {r[0]}")
        return found
    finally:
        await conn.close()


async def test_erase_user_leaves_nothing_and_is_idempotent(
    tenant: TenantCtx, database: Database
) -> None:
    user = "erase-me"
    await tenant.say(
        user, "s1", f"I live in Oslo near the {MARK}.", "Please always answer in bullet points."
    )
    await tenant.remember(user, f"My locker is next to the {MARK}", key="place.locker", value=MARK)
    await tenant.client.post(
        f"{tenant.user(user)}/tasks",
        json={"id": "t1", "name": f"task {MARK}"},
        headers=tenant.headers,
    )
    await tenant.remember("keep-me", f"Unrelated note {MARK}")
    assert await _rows_naming(database, tenant.id, user)

    r = await tenant.client.delete(tenant.user(user), headers=tenant.headers)
    assert r.status_code == 200
    receipt = r.json()
    assert receipt["user_id"] == user
    assert receipt["deleted"]["messages"] == 2 and receipt["deleted"]["sessions"] == 1
    assert receipt["deleted"]["tasks"] == 1 and receipt["deleted"]["memories"] >= 3
    assert receipt["deleted"]["memory_history"] >= 3 and receipt["deleted"]["arbitrations"] >= 3
    # the turns' ingest job and the write's job (two turns inside the window queue no compression)
    assert receipt["deleted"]["jobs"] == 2

    assert await _rows_naming(database, tenant.id, user) == []
    assert [r for r in await _rows_naming(database, MARK) if "keep-me" not in r] == []
    again = (await tenant.client.delete(tenant.user(user), headers=tenant.headers)).json()
    assert set(again["deleted"].values()) == {0}
    # the other user of the tenant is untouched
    assert [m["content"] for m in (await tenant.recall("keep-me", "note"))["memories"]] == [
        f"Unrelated note {MARK}"
    ]


async def test_erase_needs_the_tenants_own_key(
    tenant: TenantCtx, other_tenant: TenantCtx, admin_headers: dict
) -> None:
    await tenant.remember("u", "stays")
    assert (
        await other_tenant.client.delete(tenant.user("u"), headers=other_tenant.headers)
    ).status_code == 404
    assert (await tenant.client.delete(tenant.user("u"), headers=admin_headers)).status_code == 403
    assert [m["content"] for m in (await tenant.recall("u", "stays"))["memories"]] == ["stays"]


async def test_erase_during_queued_writes_leaves_nothing(
    tenant: TenantCtx, database: Database
) -> None:
    import asyncio

    user = "racing"
    for round_ in range(5):
        jobs = []
        for i in range(4):
            r = await tenant.client.post(
                f"{tenant.user(user)}/sessions/s{round_}/messages",
                json={
                    "messages": [{"role": "user", "content": f"I have a dog named Rex{round_}{i}."}]
                },
                headers=tenant.headers,
            )
            jobs.append(r.json()["job_id"])
        await asyncio.sleep(0.01 * round_)
        assert (
            await tenant.client.delete(tenant.user(user), headers=tenant.headers)
        ).status_code == 200
        # A job already running when the erase came ends without writing; its queue entry
        # goes when it finishes.
        for _ in range(100):
            left = await _rows_naming(database, tenant.id, f'"{user}"')
            if not left:
                break
            assert all(r.startswith("pgqueuer:") for r in left), left
            await asyncio.sleep(0.1)
        assert left == [], round_
        for job_id in jobs:
            assert (
                await tenant.client.get(f"/v1/jobs/{job_id}", headers=tenant.headers)
            ).status_code == 404
