"""Row-level security proven alone: no WHERE clause, only the transaction's settings."""

from __future__ import annotations

import uuid

import asyncpg

from app.config import Settings
from app.db.setup import Database
from tests.conftest import TenantCtx

SCOPE_SQL = (
    "SELECT set_config('memlane.tenant_id', $1, true), set_config('memlane.user_id', $2, true)"
)


async def _connect(database: Database) -> asyncpg.Connection:
    # the way the service connects: logged in as the application role itself
    return await asyncpg.connect(database.app_dsn(Settings(_env_file=None)))  # type: ignore[call-arg]


async def test_the_app_role_cannot_bypass_rls(database: Database) -> None:
    conn = await _connect(database)
    try:
        row = await conn.fetchrow(
            "SELECT current_user AS u, rolsuper, rolbypassrls"
            " FROM pg_roles WHERE rolname = current_user"
        )
        assert row["u"] == "memlane_app" and not row["rolsuper"] and not row["rolbypassrls"]
        owner = await conn.fetchval("SELECT tableowner FROM pg_tables WHERE tablename = 'memories'")
        assert owner != "memlane_app"
        # it cannot become the owner or a superuser to step around the policies
        for other in (owner, "postgres"):
            try:
                await conn.execute(f'SET ROLE "{other}"')
                raise AssertionError(f"memlane_app could SET ROLE {other}")
            except asyncpg.InsufficientPrivilegeError:
                pass
        try:
            await conn.execute("UPDATE alembic_version SET version_num = version_num")
            raise AssertionError("memlane_app could change the migration state")
        except asyncpg.InsufficientPrivilegeError:
            pass
    finally:
        await conn.close()


async def test_query_without_where_sees_only_one_users_rows(
    tenant: TenantCtx, other_tenant: TenantCtx, database: Database
) -> None:
    for t in (tenant, other_tenant):
        for user in ("u1", "u2"):
            await t.remember(user, f"note of {user}")
    conn = await _connect(database)
    try:
        async with conn.transaction():
            await conn.execute(SCOPE_SQL, tenant.id, "u1")
            rows = await conn.fetch("SELECT tenant_id, user_id, content FROM memories")
            assert {(str(r["tenant_id"]), r["user_id"]) for r in rows} == {(tenant.id, "u1")}
            hist = await conn.fetch("SELECT DISTINCT tenant_id, user_id FROM memory_history")
            assert {(str(r["tenant_id"]), r["user_id"]) for r in hist} == {(tenant.id, "u1")}
        async with conn.transaction():
            # '*' opens every user of one tenant, never another tenant.
            await conn.execute(SCOPE_SQL, tenant.id, "*")
            rows = await conn.fetch("SELECT DISTINCT tenant_id, user_id FROM memories")
            assert {(str(r["tenant_id"]), r["user_id"]) for r in rows} == {
                (tenant.id, "u1"),
                (tenant.id, "u2"),
            }
        # No settings at all: nothing.
        assert await conn.fetchval("SELECT count(*) FROM memories") == 0
        assert await conn.fetchval("SELECT count(*) FROM jobs") == 0
    finally:
        await conn.close()


async def test_writes_for_another_user_are_refused(tenant: TenantCtx, database: Database) -> None:
    conn = await _connect(database)
    try:
        async with conn.transaction():
            await conn.execute(SCOPE_SQL, tenant.id, "u1")
            try:
                await conn.execute(
                    "INSERT INTO sessions (tenant_id, user_id, id) VALUES ($1, 'intruder', 's')",
                    uuid.UUID(tenant.id),
                )
                raise AssertionError("insert for another user was accepted")
            except asyncpg.InsufficientPrivilegeError:
                pass
    finally:
        await conn.close()
