"""Forgetting: archive what decayed, enforce the per-user capacity, keep what must stay."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from app.config import Settings
from app.lifecycle import forget as forget_module
from app.lifecycle.forget import (
    DatabaseRuntime,
    ForgetScheduler,
    ForgetSummary,
    forget_pass,
    pass_lock,
    value_score,
)
from app.runtime import Runtime
from tests.conftest import TenantCtx

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
PROJECT_ROOT = Path(__file__).resolve().parents[2]


def ago(days: float) -> str:
    return (NOW - timedelta(days=days)).isoformat()


def runtime(app: Any, **overrides: Any) -> DatabaseRuntime:
    """The test app's database with some settings changed."""
    rt: Runtime = app.state.memlane
    return DatabaseRuntime(rt.settings.model_copy(update=overrides), rt.engine, rt.sessionmaker)


async def forget(app: Any, tenant: TenantCtx, **overrides: Any) -> ForgetSummary:
    """One pass at NOW over this test's tenant only (other tests' tenants stay untouched)."""
    return await forget_pass(
        runtime(app, **overrides), now=NOW, only_tenants=[uuid.UUID(tenant.id)]
    )


async def remember(tenant: TenantCtx, content: str, **fields: Any) -> dict[str, Any]:
    [memory] = (await tenant.remember("u", content, **fields))["memories"]
    return memory


async def memory(tenant: TenantCtx, memory_id: str) -> dict[str, Any]:
    r = await tenant.client.get(f"{tenant.user('u')}/memories/{memory_id}", headers=tenant.headers)
    assert r.status_code == 200, r.text
    return r.json()


async def statuses(tenant: TenantCtx, *memories: dict[str, Any]) -> list[str]:
    return [(await memory(tenant, m["id"]))["status"] for m in memories]


async def test_decay_archives_an_old_event_in_every_tenant_and_keeps_the_rest(
    app: Any, tenant: TenantCtx, other_tenant: TenantCtx
) -> None:
    event = await remember(
        tenant, "Dentist appointment on Friday", type="event", occurred_at=ago(60)
    )
    other_event = await other_tenant.remember(
        "u", "Dinner with Sam tonight", type="event", occurred_at=ago(60)
    )
    fact = await remember(tenant, "I am training for a marathon", occurred_at=ago(400))
    constraint = await remember(
        tenant,
        "Never answer in more than three sentences",
        type="constraint",
        occurred_at=ago(1000),
    )
    profile = await remember(tenant, "I was born in Porto", type="profile", occurred_at=ago(1000))

    # every tenant, no filter: the pass reads the tenants table
    summary = await forget_pass(runtime(app), now=NOW)

    assert not summary.skipped and summary.tenants_failed == 0
    assert summary.tenants >= 2 and summary.users_scanned >= 2
    assert summary.archived_by_decay >= 2
    assert await statuses(tenant, event, fact, constraint, profile) == [
        "archived",
        "active",  # a fact never falls below its floor (0.3)
        "active",
        "active",
    ]
    [other] = other_event["memories"]
    assert await statuses(other_tenant, other) == ["archived"]


async def test_constraints_and_confirmed_profile_facts_are_never_archived_by_decay(
    app: Any, tenant: TenantCtx
) -> None:
    constraint = await remember(
        tenant, "Always answer in bullet points", type="constraint", occurred_at=ago(1000)
    )
    declared = await remember(tenant, "I was born in Porto", type="profile", occurred_at=ago(1000))
    said_twice = await remember(
        tenant, "My name is Ana", type="profile", source="model_inferred", occurred_at=ago(1000)
    )
    again = await remember(
        tenant, "My name is Ana", type="profile", source="model_inferred", occurred_at=ago(1000)
    )
    assert again["id"] == said_twice["id"] and again["confirmations"] == 2
    inferred = await remember(
        tenant,
        "I probably own a bike",
        type="profile",
        source="model_inferred",
        occurred_at=ago(1000),
    )
    fact = await remember(tenant, "I am training for a marathon", occurred_at=ago(400))

    # without floors every one of them has decayed far below the threshold: only the rules keep
    # the constraint and the confirmed profile facts
    summary = await forget(app, tenant, decay_floor_profile=0.0, decay_floor_fact=0.0)

    assert (summary.archived_by_decay, summary.archived_by_capacity) == (2, 0)
    assert await statuses(tenant, constraint, declared, said_twice, inferred, fact) == [
        "active",
        "active",
        "active",
        "archived",
        "archived",
    ]


async def test_archived_memory_leaves_recall_and_stays_readable(
    app: Any, tenant: TenantCtx
) -> None:
    event = await remember(
        tenant, "Dentist appointment on Friday", type="event", occurred_at=ago(60)
    )
    at = ago(59.9)  # a couple of hours after: fresh, recall returns it while it is active
    before = await tenant.recall("u", "dentist appointment", at=at)
    assert [m["id"] for m in before["memories"]] == [event["id"]]

    summary = await forget(app, tenant)
    assert summary.archived_by_decay == 1

    after = await tenant.recall("u", "dentist appointment", at=at)
    assert after["memories"] == []

    read = await memory(tenant, event["id"])
    assert read["status"] == "archived"
    assert read["content"] == "Dentist appointment on Friday"
    assert datetime.fromisoformat(read["updated_at"]) > datetime.fromisoformat(event["updated_at"])

    base = f"{tenant.user('u')}/memories"
    archived = await tenant.client.get(base, params={"status": "archived"}, headers=tenant.headers)
    assert [m["id"] for m in archived.json()["items"]] == [event["id"]]
    active = await tenant.client.get(base, params={"status": "active"}, headers=tenant.headers)
    assert active.json()["items"] == []

    history = await tenant.client.get(f"{base}/{event['id']}/history", headers=tenant.headers)
    [entry] = [e for e in history.json()["entries"] if e["action"] == "archive"]
    assert entry["actor"] == "forgetting"
    assert entry["old"]["status"] == "active" and entry["new"]["status"] == "archived"
    assert entry["new"]["reason"] == "decay"
    assert entry["new"]["forgetting"]["decay"] < 0.02
    assert entry["new"]["content"] == "Dentist appointment on Friday"


def decay(memory_type: str, age_days: float, settings: Settings) -> float:
    half_life = settings.half_life_days(memory_type)
    if half_life is None:
        return 1.0
    return max(settings.decay_floor(memory_type), 0.5 ** (age_days / half_life))


async def test_capacity_archives_the_lowest_value_memories(app: Any, tenant: TenantCtx) -> None:
    specs = {  # name: (content, type, source, age in days)
        "fresh_fact": ("I work at Acme", "fact", "user_declared", 1),
        "old_fact": ("I am training for a marathon", "fact", "user_declared", 400),
        "old_inferred_fact": ("I might like jazz", "fact", "model_inferred", 400),
        "preference": ("I prefer window seats", "preference", "behavior_observed", 100),
        "event": ("Dinner with Sam last week", "event", "user_declared", 10),
        "recalled_event": ("Concert with Lea last week", "event", "user_declared", 10),
        "constraint": ("Never book red-eye flights", "constraint", "model_inferred", 1000),
        "inferred_profile": ("I probably have a dog", "profile", "model_inferred", 1000),
    }
    made = {
        name: await remember(tenant, content, type=kind, source=source, occurred_at=ago(age))
        for name, (content, kind, source, age) in specs.items()
    }
    rt: Runtime = app.state.memlane
    async with rt.scoped(uuid.UUID(tenant.id), "u") as session:
        await session.execute(
            text("UPDATE memories SET access_count = 100 WHERE id = :id"),
            {"id": uuid.UUID(made["recalled_event"]["id"])},
        )
        await session.commit()

    values = {
        name: value_score(
            decay=decay(specs[name][1], specs[name][3], rt.settings),
            access_count=100 if name == "recalled_event" else 0,
            confidence=made[name]["confidence"],
        )
        for name in specs
        if name != "constraint"
    }
    expected = sorted(values, key=values.__getitem__)[:3]
    # by the formula: 0.5·decay + 0.2·frequency + 0.3·confidence
    assert expected == ["old_inferred_fact", "event", "old_fact"]  # 0.30, 0.32, 0.42

    summary = await forget(app, tenant, max_active_memories_per_user=5)

    assert (summary.archived_by_decay, summary.archived_by_capacity) == (0, 3)
    archived = {
        name for name, m in made.items() if (await memory(tenant, m["id"]))["status"] == "archived"
    }
    assert archived == set(expected)
    history = await tenant.client.get(
        f"{tenant.user('u')}/memories/{made['event']['id']}/history", headers=tenant.headers
    )
    [entry] = [e for e in history.json()["entries"] if e["action"] == "archive"]
    assert entry["new"]["reason"] == "capacity"
    assert abs(entry["new"]["forgetting"]["value_score"] - values["event"]) < 1e-9
    # the pass is idempotent: at capacity, nothing more goes
    assert (await forget(app, tenant, max_active_memories_per_user=5)).archived_by_capacity == 0


async def test_capacity_spares_constraints_and_takes_confirmed_profiles_last(
    app: Any, tenant: TenantCtx
) -> None:
    constraint = await remember(
        tenant, "Never book red-eye flights", type="constraint", occurred_at=ago(1000)
    )
    profile = await remember(tenant, "I was born in Porto", type="profile", occurred_at=ago(1000))
    fact = await remember(tenant, "I might like jazz", source="model_inferred", occurred_at=ago(0))
    # the confirmed profile fact is worth less (0.5·0.6 + 0.3·0.9 = 0.57) than the fresh
    # inferred fact (0.5·1 + 0.3·0.5 = 0.65), yet the fact goes first
    first = await forget(app, tenant, max_active_memories_per_user=2)
    assert first.archived_by_capacity == 1
    assert await statuses(tenant, constraint, profile, fact) == ["active", "active", "archived"]
    # nothing else left: the profile fact goes, the constraint never does
    second = await forget(app, tenant, max_active_memories_per_user=1)
    assert second.archived_by_capacity == 1
    assert await statuses(tenant, constraint, profile) == ["active", "archived"]
    # only constraints left, still over a capacity of 1: they stay
    await remember(tenant, "Always answer in English", type="constraint")
    third = await forget(app, tenant, max_active_memories_per_user=1)
    assert third.archived_by_capacity == 0


async def test_a_pass_skips_while_another_holds_the_lock(app: Any, tenant: TenantCtx) -> None:
    event = await remember(
        tenant, "Dentist appointment on Friday", type="event", occurred_at=ago(60)
    )
    rt: Runtime = app.state.memlane
    async with pass_lock(rt.engine) as conn:
        assert conn is not None
        async with pass_lock(rt.engine) as second:
            assert second is None  # another connection cannot take it
        skipped = await forget(app, tenant)
    assert skipped.skipped and skipped.archived_by_decay == 0
    assert await statuses(tenant, event) == ["active"]
    # released on exit
    assert (await forget(app, tenant)).archived_by_decay == 1


async def test_concurrent_passes_do_not_double_archive(app: Any, tenant: TenantCtx) -> None:
    events = [
        await remember(
            tenant, f"Meeting number {i} with the team", type="event", occurred_at=ago(60)
        )
        for i in range(3)
    ]
    results = await asyncio.gather(forget(app, tenant), forget(app, tenant), forget(app, tenant))
    assert sum(r.archived_by_decay for r in results) == 3
    for e in events:
        history = await tenant.client.get(
            f"{tenant.user('u')}/memories/{e['id']}/history", headers=tenant.headers
        )
        assert [x["action"] for x in history.json()["entries"]].count("archive") == 1


async def test_scheduler_runs_passes_every_interval_and_stops(
    app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[float] = []

    async def fake_pass(rt: Any) -> ForgetSummary:
        calls.append(asyncio.get_running_loop().time())
        return ForgetSummary()

    monkeypatch.setattr(forget_module, "forget_pass", fake_pass)
    scheduler = ForgetScheduler(runtime(app, forget_interval_s=0.05))
    await scheduler.start()
    await asyncio.sleep(0.3)
    await scheduler.stop()
    ran = len(calls)
    assert ran >= 2
    await asyncio.sleep(0.1)
    assert len(calls) == ran  # stopped
    disabled = ForgetScheduler(runtime(app, forget_interval_s=0))
    await disabled.start()
    await asyncio.sleep(0.1)
    await disabled.stop()
    assert len(calls) == ran
    # the test app runs workers, so it runs forgetting too (first pass after one interval)
    assert isinstance(app.state.memlane.extras["forgetting"], ForgetScheduler)


def test_cli_forget_runs_one_pass(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMLANE_")}
    env |= {"MEMLANE_DATA_DIR": str(tmp_path), "MEMLANE_LOG_LEVEL": "WARNING"}
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", "forget"],
        cwd=PROJECT_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    assert summary == {
        "tenants": 0,
        "users_scanned": 0,
        "archived_by_decay": 0,
        "archived_by_capacity": 0,
        "tenants_failed": 0,
        "skipped": False,
    }
