"""Export and import through the HTTP API on the real database, and the CLI on `memlane serve`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from app.portability import service as portability_service
from app.portability.client import summary
from tests.conftest import TenantCtx
from tests.e2e.server import ServeProcess

CITY = {"type": "profile", "key": "residence.city"}
PROBLEM = "urn:memlane:problem:"


async def export(t: TenantCtx, user: str, **params: Any) -> dict[str, Any]:
    r = await t.client.get(f"{t.user(user)}/export", params=params, headers=t.headers)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("application/json")
    doc: dict[str, Any] = json.loads(r.content)  # the whole streamed body is one document
    assert int(r.headers["x-memlane-memory-count"]) == len(doc["memories"])
    return doc


async def import_(t: TenantCtx, user: str, doc: Any, dry_run: bool = False) -> dict[str, Any]:
    r = await t.client.post(
        f"{t.user(user)}/import",
        params={"dry_run": str(dry_run).lower()},
        content=json.dumps(doc),
        headers={**t.headers, "content-type": "application/json"},
    )
    assert r.status_code == 200, r.text
    result: dict[str, Any] = r.json()
    return result


async def memories(t: TenantCtx, user: str) -> list[dict[str, Any]]:
    r = await t.client.get(f"{t.user(user)}/memories", params={"limit": 200}, headers=t.headers)
    assert r.status_code == 200 and r.json()["next_cursor"] is None
    items: list[dict[str, Any]] = r.json()["items"]
    return items


async def arbitrations(t: TenantCtx, user: str) -> list[dict[str, Any]]:
    r = await t.client.get(f"{t.user(user)}/arbitrations", params={"limit": 500}, headers=t.headers)
    assert r.status_code == 200
    items: list[dict[str, Any]] = r.json()["items"]
    return items


def by_content(items: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {m["content"]: m for m in items}


async def seed(t: TenantCtx, user: str) -> None:
    """Lisbon, then Porto (Lisbon frozen, superseded), tea twice, and a deleted memory."""
    await t.remember(
        user, "I live in Lisbon", **CITY, value="Lisbon", occurred_at="2026-01-05T10:00:00+00:00"
    )
    await t.remember(
        user, "I live in Porto", **CITY, value="Porto", occurred_at="2026-04-01T10:00:00+01:00"
    )
    await t.remember(
        user, "I like green tea", type="preference", occurred_at="2026-02-01T08:00:00+00:00"
    )
    await t.remember(
        user, "I like green tea.", type="preference", occurred_at="2026-03-01T08:00:00+00:00"
    )
    gone = await t.remember(user, "My locker code is 4711", type="fact")
    r = await t.client.delete(
        f"{t.user(user)}/memories/{gone['memories'][0]['id']}", headers=t.headers
    )
    assert r.status_code == 204


async def test_export_holds_only_the_users_rows_with_history(
    tenant: TenantCtx, other_tenant: TenantCtx, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(portability_service, "EXPORT_PAGE_SIZE", 2)  # several keyset pages
    await seed(tenant, "ann")
    await tenant.remember("bob", "Bob lives in Lima", **CITY, value="Lima")
    await other_tenant.remember("ann", "The other Ann lives in Oslo", **CITY, value="Oslo")

    doc = await export(tenant, "ann")

    assert doc["schema_version"] == 1
    assert (doc["tenant_id"], doc["user_id"]) == (tenant.id, "ann")
    assert "messages" not in doc
    got = by_content(doc["memories"])
    assert set(got) == {"I live in Lisbon", "I live in Porto", "I like green tea"}
    lisbon, porto, tea = got["I live in Lisbon"], got["I live in Porto"], got["I like green tea"]
    assert (lisbon["status"], lisbon["superseded_by"]) == ("frozen", porto["id"])
    assert (porto["status"], porto["supersedes"]) == ("active", lisbon["id"])
    assert tea["confirmations"] == 2
    assert [h["action"] for h in lisbon["history"]] == ["create", "supersede"]
    assert [h["action"] for h in tea["history"]] == ["create", "refresh"]
    assert porto["valid_from"] == "2026-04-01T09:00:00Z"
    assert "embedding" not in porto and "embedding_model" not in porto
    assert set(porto) == {
        "id", "content", "type", "key", "value", "source", "confidence", "status", "scope",
        "scope_id", "supersedes", "superseded_by", "confirmations", "metadata", "origin",
        "valid_from", "valid_to", "created_at", "updated_at", "superseded_at", "history",
    }  # fmt: skip


async def test_round_trip_into_another_tenant_keeps_contents_and_chains(
    tenant: TenantCtx, other_tenant: TenantCtx
) -> None:
    await seed(tenant, "ann")
    doc = await export(tenant, "ann")

    result = await import_(other_tenant, "zoe", doc)

    assert result["dry_run"] is False
    assert (result["memories_in_document"], result["imported"], result["created"]) == (3, 3, 3)
    assert result["outcomes"] == {"stored": 2, "refreshed": 0, "superseded": 1, "new_frozen": 0}
    # The chain is restored as recorded, not decided again.
    assert result["rules"] == {"no_conflict": 2, "import_chain": 1}
    source = await memories(tenant, "ann")
    target = await memories(other_tenant, "zoe")
    assert {m["content"] for m in target if m["status"] == "active"} == {
        m["content"] for m in source if m["status"] == "active"
    }
    got = by_content(target)
    lisbon, porto, tea = got["I live in Lisbon"], got["I live in Porto"], got["I like green tea"]
    assert {m["user_id"] for m in target} == {"zoe"}
    assert (lisbon["status"], lisbon["superseded_by"]) == ("frozen", porto["id"])
    assert porto["supersedes"] == lisbon["id"]
    assert lisbon["valid_to"] == porto["valid_from"] == "2026-04-01T09:00:00Z"
    assert tea["confirmations"] == 2 and tea["source"] == "user_declared"
    assert all(m["embedding_model"] for m in target)  # re-embedded here
    assert {m["id"] for m in target}.isdisjoint({m["id"] for m in source})
    audit = await arbitrations(other_tenant, "zoe")
    assert audit and {a["trigger"] for a in audit} == {"import"}
    assert {a["actor"] for a in audit} == {"import"}
    recalled = await other_tenant.recall("zoe", "where do I live?")
    assert recalled["memories"][0]["content"] == "I live in Porto"
    # the source is untouched, and the target's tenant sees nothing of the source tenant
    assert len(await memories(tenant, "ann")) == 3


async def test_a_frozen_entry_stays_frozen_when_no_rule_would_freeze_it(
    tenant: TenantCtx, other_tenant: TenantCtx
) -> None:
    await tenant.remember(
        "ann", "I like jazz", type="preference", occurred_at="2026-01-01T00:00:00Z"
    )
    await tenant.remember(
        "ann", "I like opera", type="preference", occurred_at="2026-02-01T00:00:00Z"
    )
    doc = await export(tenant, "ann")
    jazz, opera = sorted(doc["memories"], key=lambda m: m["valid_from"])
    # A chain no rule reproduces (two keyless facts): the document's word is kept.
    jazz.update(status="frozen", superseded_by=opera["id"])
    opera["supersedes"] = jazz["id"]

    result = await import_(other_tenant, "zoe", doc)

    # The current entry is arbitrated; the retired one is restored as the document records it.
    assert result["rules"] == {"no_conflict": 1, "import_chain": 1}
    got = by_content(await memories(other_tenant, "zoe"))
    assert got["I like jazz"]["status"] == "frozen"
    assert got["I like jazz"]["superseded_by"] == got["I like opera"]["id"]
    assert got["I like opera"]["supersedes"] == got["I like jazz"]["id"]
    assert got["I like opera"]["status"] == "active"


async def test_import_arbitrates_against_the_targets_own_memories(
    tenant: TenantCtx, other_tenant: TenantCtx
) -> None:
    await tenant.remember(
        "ann", "I live in Lisbon", **CITY, value="Lisbon", occurred_at="2026-03-01T00:00:00Z"
    )
    doc = await export(tenant, "ann")
    # The target said Paris later than the document's Lisbon: Paris stays, Lisbon arrives frozen.
    paris = (
        await other_tenant.remember(
            "later", "I live in Paris", **CITY, value="Paris", occurred_at="2026-06-01T00:00:00Z"
        )
    )["memories"][0]
    result = await import_(other_tenant, "later", doc)
    [decision] = result["decisions"]
    assert (decision["rule"], decision["outcome"]) == ("newer_wins", "new_frozen")
    assert decision["existing_memory_id"] == paris["id"]
    got = by_content(await memories(other_tenant, "later"))
    assert got["I live in Paris"]["status"] == "active"
    assert got["I live in Lisbon"]["status"] == "frozen"
    assert got["I live in Lisbon"]["superseded_by"] == paris["id"]

    # The other way round: the target's Paris is older, the imported Lisbon supersedes it.
    await other_tenant.remember(
        "earlier", "I live in Paris", **CITY, value="Paris", occurred_at="2025-06-01T00:00:00Z"
    )
    result = await import_(other_tenant, "earlier", doc)
    [decision] = result["decisions"]
    assert (decision["rule"], decision["outcome"]) == ("newer_wins", "superseded")
    got = by_content(await memories(other_tenant, "earlier"))
    assert got["I live in Lisbon"]["status"] == "active"
    assert got["I live in Paris"]["status"] == "frozen"
    assert got["I live in Paris"]["superseded_by"] == got["I live in Lisbon"]["id"]
    audit = await arbitrations(other_tenant, "earlier")
    assert [a["trigger"] for a in audit if a["outcome"] == "superseded"] == ["import"]


async def test_importing_the_same_document_again_changes_nothing(
    tenant: TenantCtx, other_tenant: TenantCtx
) -> None:
    await seed(tenant, "ann")
    doc = await export(tenant, "ann")
    await import_(other_tenant, "zoe", doc)
    first = await memories(other_tenant, "zoe")
    audit_before = await arbitrations(other_tenant, "zoe")

    again = await import_(other_tenant, "zoe", doc)

    assert (again["created"], again["unchanged"], again["decisions"]) == (0, 3, [])
    assert again["outcomes"] == {"stored": 0, "refreshed": 0, "superseded": 0, "new_frozen": 0}
    # what `memlane import` prints accounts for every entry of the document
    assert f"(arbitrated {again['imported']}, unchanged 3, archived skipped" in summary(again)
    # Not one field moved: no confirmation counted twice, no new audit row.
    assert await memories(other_tenant, "zoe") == first
    assert by_content(first)["I like green tea"]["confirmations"] == 2
    assert len(await arbitrations(other_tenant, "zoe")) == len(audit_before)
    # Importing a user's export into that same user changes nothing either.
    source = await memories(tenant, "ann")
    back = await import_(tenant, "ann", doc)
    assert (back["created"], back["unchanged"]) == (0, 3)
    assert await memories(tenant, "ann") == source


async def test_dry_run_reports_the_real_run_and_writes_nothing(
    tenant: TenantCtx, other_tenant: TenantCtx
) -> None:
    await seed(tenant, "ann")
    await tenant.say("ann", "s1", "Hello! I'm planning a trip.", at="2026-05-01T09:00:00+02:00")
    doc = await export(tenant, "ann", include_messages="true")
    await other_tenant.remember(
        "zoe", "I live in Paris", **CITY, value="Paris", occurred_at="2026-02-01T00:00:00Z"
    )
    await other_tenant.remember("zoe", "I like green tea", type="preference")
    before = (await memories(other_tenant, "zoe"), await arbitrations(other_tenant, "zoe"))
    context_url = f"{other_tenant.user('zoe')}/sessions/s1/context"

    dry = await import_(other_tenant, "zoe", doc, dry_run=True)

    assert dry["dry_run"] is True and dry["messages_imported"] == dry["messages_in_document"] > 0
    assert (await memories(other_tenant, "zoe"), await arbitrations(other_tenant, "zoe")) == before
    ctx = await other_tenant.client.get(context_url, headers=other_tenant.headers)
    assert ctx.status_code == 200
    assert [m for m in ctx.json()["messages"] if m["role"] == "user"] == []
    real = await import_(other_tenant, "zoe", doc)
    assert real["dry_run"] is False
    for field in ("outcomes", "rules", "imported", "created", "messages_imported"):
        assert real[field] == dry[field], field
    assert [(d["rule"], d["outcome"]) for d in real["decisions"]] == [
        (d["rule"], d["outcome"]) for d in dry["decisions"]
    ]
    assert real["outcomes"]["refreshed"] >= 1 and real["outcomes"]["superseded"] >= 1
    assert len(await memories(other_tenant, "zoe")) > len(before[0])


async def test_messages_travel_in_the_senders_offset_once(
    tenant: TenantCtx, other_tenant: TenantCtx
) -> None:
    await tenant.say(
        "ann", "s1", "Good morning", "What's the weather like?", at="2026-05-01T09:00:00+08:00"
    )
    plain = await export(tenant, "ann")
    assert "messages" not in plain
    doc = await export(tenant, "ann", include_messages="true")
    assert [(m["session_id"], m["role"], m["content"]) for m in doc["messages"]] == [
        ("s1", "user", "Good morning"),
        ("s1", "user", "What's the weather like?"),
    ]
    assert doc["messages"][0]["occurred_at"] == "2026-05-01T09:00:00+08:00"

    first = await import_(other_tenant, "zoe", doc)
    again = await import_(other_tenant, "zoe", doc)

    assert (first["messages_imported"], again["messages_imported"]) == (2, 0)
    ctx = await other_tenant.client.get(
        f"{other_tenant.user('zoe')}/sessions/s1/context", headers=other_tenant.headers
    )
    assert [m["content"] for m in ctx.json()["messages"] if m["role"] == "user"] == [
        "Good morning",
        "What's the weather like?",
    ]


async def test_archived_memories_are_exported_but_not_imported(
    tenant: TenantCtx, other_tenant: TenantCtx
) -> None:
    kept = (await tenant.remember("ann", "I play chess"))["memories"][0]
    old = (await tenant.remember("ann", "I played in a band"))["memories"][0]
    r = await tenant.client.patch(
        f"{tenant.user('ann')}/memories/{old['id']}",
        json={"status": "archived"},
        headers=tenant.headers,
    )
    assert r.status_code == 200
    doc = await export(tenant, "ann")
    assert {m["status"] for m in doc["memories"]} == {"active", "archived"}
    result = await import_(other_tenant, "zoe", doc)
    assert (result["memories_in_document"], result["imported"], result["skipped"]) == (2, 1, 1)
    assert [m["content"] for m in await memories(other_tenant, "zoe")] == [kept["content"]]


async def test_a_document_larger_than_max_body_bytes_is_accepted(
    tenant: TenantCtx, other_tenant: TenantCtx, settings: Any
) -> None:
    await tenant.remember("ann", "I keep a diary")
    doc = await export(tenant, "ann")
    template = doc["memories"][0]
    pad = "x" * 15_000
    doc["memories"] = [
        {
            **template,
            "id": f"00000000-0000-4000-8000-{i:012d}",
            "content": f"Diary entry {i}",
            "metadata": {"pad": pad},
            "history": [],
        }
        for i in range(80)
    ]
    body = json.dumps(doc)
    assert settings.max_body_bytes < len(body) < settings.max_import_bytes
    result = await import_(other_tenant, "zoe", doc)
    assert result["created"] == 80
    # other routes keep the small limit
    r = await other_tenant.client.post(
        f"{other_tenant.user('zoe')}/memories",
        content=json.dumps({"content": "x", "metadata": {"pad": "x" * len(body)}}),
        headers={**other_tenant.headers, "content-type": "application/json"},
    )
    assert r.status_code == 413


async def test_invalid_documents_are_rejected_with_problems(
    tenant: TenantCtx, other_tenant: TenantCtx
) -> None:
    await tenant.remember("ann", "I live in Lisbon", **CITY, value="Lisbon")
    doc = await export(tenant, "ann")
    url = f"{other_tenant.user('zoe')}/import"
    json_headers = {**other_tenant.headers, "content-type": "application/json"}

    async def post(body: str | bytes) -> Any:
        return await other_tenant.client.post(url, content=body, headers=json_headers)

    for version in (2, "1", 0, None):
        r = await post(json.dumps({**doc, "schema_version": version}))
        assert r.status_code == 422, version
        assert r.headers["content-type"] == "application/problem+json"
        assert r.json()["type"] == PROBLEM + "unsupported-schema-version", version
    for bad in (
        b"{not json",
        b"[]",
        json.dumps({k: v for k, v in doc.items() if k != "schema_version"}).encode(),
    ):
        r = await post(bad)
        assert (r.status_code, r.json()["type"]) == (422, PROBLEM + "validation-error"), bad
    broken = json.loads(json.dumps(doc))
    broken["memories"][0]["status"] = "deleted"
    broken["memories"][0]["surprise"] = 1
    r = await post(json.dumps(broken))
    assert (r.status_code, r.json()["type"]) == (422, PROBLEM + "validation-error")
    locs = {tuple(e["loc"]) for e in r.json()["errors"]}
    assert ("body", "memories", 0, "status") in locs and ("body", "memories", 0, "surprise") in locs
    confirmed = json.loads(json.dumps(doc))
    confirmed["memories"][0]["confirmations"] = True  # not a count (lax pydantic read 1)
    r = await post(json.dumps(confirmed))
    assert (r.status_code, r.json()["type"]) == (422, PROBLEM + "validation-error")
    assert [e["loc"] for e in r.json()["errors"]] == [["body", "memories", 0, "confirmations"]]
    twice = {**doc, "memories": doc["memories"] * 2}
    assert (await post(json.dumps(twice))).status_code == 422
    assert await memories(other_tenant, "zoe") == []


async def test_another_tenants_key_gets_404(tenant: TenantCtx, other_tenant: TenantCtx) -> None:
    await tenant.remember("ann", "I live in Lisbon", **CITY, value="Lisbon")
    doc = await export(tenant, "ann")
    r = await other_tenant.client.get(f"{tenant.user('ann')}/export", headers=other_tenant.headers)
    assert (r.status_code, r.json()["type"]) == (404, PROBLEM + "not-found")
    r = await other_tenant.client.post(
        f"{tenant.user('ann')}/import",
        content=json.dumps(doc),
        headers={**other_tenant.headers, "content-type": "application/json"},
    )
    assert (r.status_code, r.json()["type"]) == (404, PROBLEM + "not-found")
    assert len(await memories(tenant, "ann")) == 1


def test_cli_moves_a_user_between_servers_tenants(tmp_path: Path) -> None:
    server = ServeProcess(tmp_path / "memlane")
    server.start()
    try:
        with server.client() as http:
            admin = {"Authorization": f"Bearer {server.admin_key}"}
            src, dst = (
                http.post("/v1/tenants", json={"name": n}, headers=admin).json() for n in ("a", "b")
            )
            for content, at in (
                ("I live in Lisbon", "2026-01-01T00:00:00Z"),
                ("I live in Porto", "2026-03-01T00:00:00Z"),
            ):
                r = http.post(
                    f"/v1/tenants/{src['id']}/users/ann/memories?wait=true",
                    json={
                        "content": content,
                        **CITY,
                        "value": content.split()[-1],
                        "occurred_at": at,
                    },
                    headers={"Authorization": f"Bearer {src['api_key']}"},
                )
                assert r.status_code == 201, r.text

        def cli(*args: str, key: str, **extra_env: str) -> subprocess.CompletedProcess[str]:
            env = {
                k: v
                for k, v in os.environ.items()
                if k not in ("MEMLANE_TENANT_ID", "MEMLANE_USER_ID")
            }
            env |= {"MEMLANE_API_KEY": key, "MEMLANE_LOG_LEVEL": "WARNING", **extra_env}
            return subprocess.run(
                [sys.executable, "-m", "app.cli", *args, "--url", server.base_url],
                env=env,
                capture_output=True,
                text=True,
                timeout=120,
            )

        out = tmp_path / "ann.json"
        unnamed = cli("export", "-o", str(out), key=src["api_key"])
        assert unnamed.returncode == 2 and "give --tenant and --user" in unnamed.stderr
        # The tenant and user from the same variables as `memlane mcp` and the SDK.
        done = cli(
            "export",
            "-o",
            str(out),
            key=src["api_key"],
            MEMLANE_TENANT_ID=src["id"],
            MEMLANE_USER_ID="ann",
        )
        assert done.returncode == 0, done.stderr
        assert "exported 2 memories" in done.stderr
        assert len(json.loads(out.read_text())["memories"]) == 2
        dry = cli(
            "import",
            "--tenant",
            dst["id"],
            "--user",
            "bo",
            "--dry-run",
            str(out),
            key=dst["api_key"],
        )
        assert dry.returncode == 0, dry.stderr
        assert "dry run: nothing was written" in dry.stdout
        done = cli(
            "import", "--tenant", dst["id"], "--user", "bo", "--json", str(out), key=dst["api_key"]
        )
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["created"] == 2
        refused = cli("import", "--tenant", src["id"], "--user", "bo", str(out), key=dst["api_key"])
        assert refused.returncode == 1 and "404" in refused.stderr
        with server.client() as http:
            r = http.get(
                f"/v1/tenants/{dst['id']}/users/bo/memories",
                headers={"Authorization": f"Bearer {dst['api_key']}"},
            )
            assert {(m["content"], m["status"]) for m in r.json()["items"]} == {
                ("I live in Lisbon", "frozen"),
                ("I live in Porto", "active"),
            }
    finally:
        if server.proc is not None:
            server.stop()


async def test_only_import_paths_get_the_larger_body_limit(settings: Any) -> None:
    import httpx

    from app.main import create_app

    small = settings.model_copy(update={"max_body_bytes": 1024, "max_import_bytes": 2048})
    app = create_app(small)  # the middleware answers before any route (or database) is reached
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app, raise_app_exceptions=False),
        base_url="http://memlane.test",
    ) as http:
        user = "/v1/tenants/00000000-0000-4000-8000-000000000000/users/u"
        assert (await http.post(f"{user}/memories", content=b"x" * 1500)).status_code == 413
        assert (await http.post(f"{user}/import", content=b"x" * 1500)).status_code != 413
        r = await http.post(f"{user}/import", content=b"x" * 2100)
        assert r.status_code == 413
        assert r.json()["detail"] == "the body exceeds 2048 bytes"


async def test_sensitive_values_move_sealed_for_the_target(
    tenant: TenantCtx, other_tenant: TenantCtx, database: Any
) -> None:
    import asyncpg

    email, card = "mover@example.com", "6222021234567894"
    await tenant.say("src", "s1", f"我的邮箱是 {email}。", f"我的银行卡号是{card}。")
    doc = await export(tenant, "src", include_messages="true")
    text = json.dumps(doc, ensure_ascii=False)
    assert email in text  # the owner's export carries personal values in the clear
    assert card not in text  # secrets leave only masked
    await import_(other_tenant, "dst", doc)
    got = await other_tenant.recall("dst", "我的邮箱")
    assert any(email in m["content"] for m in got["memories"])
    conn = await asyncpg.connect(database.asyncpg_dsn)
    try:
        rows = await conn.fetch(
            "SELECT x::text FROM memories x WHERE tenant_id = $1 UNION ALL "
            "SELECT x::text FROM messages x WHERE tenant_id = $1",
            __import__("uuid").UUID(other_tenant.id),
        )
    finally:
        await conn.close()
    assert rows and not [r for r in rows if email in r[0] or card in r[0]]


async def test_an_ended_session_stays_ended_through_export_and_import(tenant: TenantCtx) -> None:
    # Its window was archived at the end; an import must not bring it back into the context
    # nor reopen the session to new turns.
    await tenant.say("ann", "trip", "I'm flying to Oslo on Friday", "Book me a window seat")
    await tenant.say("ann", "open", "Hello there")
    ended = await tenant.client.post(
        f"{tenant.user('ann')}/sessions/trip/end", headers=tenant.headers
    )
    assert ended.status_code == 200, ended.text
    doc = await export(tenant, "ann", include_messages="true")
    await import_(tenant, "bob", doc)

    for user in ("ann", "bob"):
        r = await tenant.client.get(
            f"{tenant.user(user)}/sessions/trip/context",
            params={"query": "window seat"},
            headers=tenant.headers,
        )
        assert r.status_code == 200, r.text
        assert r.json()["sections"]["recent_turns"]["items"] == 0, (user, r.json()["text"])
        r = await tenant.client.post(
            f"{tenant.user(user)}/sessions/trip/messages",
            json={"messages": [{"role": "user", "content": "One more thing"}]},
            headers=tenant.headers,
        )
        assert r.status_code == 409, (user, r.text)
    # the session that was not ended stays open
    r = await tenant.client.get(
        f"{tenant.user('bob')}/sessions/open/context",
        params={"query": "hello"},
        headers=tenant.headers,
    )
    assert r.json()["sections"]["recent_turns"]["items"] == 1, r.text
