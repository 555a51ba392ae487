"""The embedded server's memory settings follow the machine's RAM (docs/scaling.md)."""

from __future__ import annotations

import asyncpg

from app.db.embedded import machine_memory_bytes, memory_settings
from app.db.setup import Database

GB = 1024**3


def test_memory_settings_are_a_quarter_of_ram_within_bounds() -> None:
    assert memory_settings(23 * GB) == {
        "shared_buffers": "5888MB",  # 23 GB / 4
        "work_mem": "58MB",  # (23,552 - 5,888) MB / 300
        "effective_cache_size": "17664MB",
    }
    small = memory_settings(GB // 4)  # 256 MB: PostgreSQL's own defaults are the floor
    assert small["shared_buffers"] == "128MB" and small["work_mem"] == "4MB"
    large = memory_settings(512 * GB)
    assert large["shared_buffers"] == "8192MB" and large["work_mem"] == "64MB"


async def test_the_embedded_server_runs_with_them(database: Database) -> None:
    wanted = memory_settings(machine_memory_bytes())
    conn = await asyncpg.connect(database.asyncpg_dsn)
    try:
        for name in wanted:
            raw = await conn.fetchval(
                "SELECT setting::bigint * (CASE unit WHEN '8kB' THEN 8 ELSE 1 END) / 1024"
                " FROM pg_settings WHERE name = $1",
                name,
            )
            assert f"{raw}MB" == wanted[name], name
    finally:
        await conn.close()
