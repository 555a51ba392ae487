"""Users endpoint, per-user memory settings and their enforcement, to-confirm."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import httpx

from app.users.policy import MemoryPolicy, formable, not_before, recall_scopes
from tests.conftest import TenantCtx, new_tenant


async def put_mode(tenant: TenantCtx, user: str, mode: str, **extra: object) -> httpx.Response:
    r = await tenant.client.put(
        f"{tenant.user(user)}/settings",
        json={"memory_mode": mode, **extra},
        headers=tenant.headers,
    )
    assert r.status_code == 200, r.text
    return r


async def active(tenant: TenantCtx, user: str, *, episodes: bool = False) -> list[dict]:
    """The user's active facts (or, with ``episodes=True``, only their kept turns)."""
    r = await tenant.client.get(
        f"{tenant.user(user)}/memories?status=active", headers=tenant.headers
    )
    assert r.status_code == 200, r.text
    return [m for m in r.json()["items"] if (m["type"] == "episode") == episodes]


# --- users ------------------------------------------------------------------------------------


async def test_users_list_counts_filters_and_pages(tenant: TenantCtx) -> None:
    await tenant.remember("ann", "I live in Berlin", key="residence.city", value="Berlin")
    await tenant.remember("ann", "I live in Munich", key="residence.city", value="Munich")
    await tenant.remember("bob", "Bob likes tea", type="preference")
    await tenant.say("carl", "s1", "hello there")
    base = f"/v1/tenants/{tenant.id}/users"

    r = await tenant.client.get(base, headers=tenant.headers)
    assert r.status_code == 200, r.text
    items = {u["user_id"]: u for u in r.json()["items"]}
    assert list(items) == ["ann", "bob", "carl"]
    assert (items["ann"]["active"], items["ann"]["frozen"], items["ann"]["sessions"]) == (1, 1, 0)
    assert (items["carl"]["active"], items["carl"]["sessions"]) == (0, 1)
    assert items["bob"]["last_activity_at"] is not None

    r = await tenant.client.get(f"{base}?has_frozen=true", headers=tenant.headers)
    assert [u["user_id"] for u in r.json()["items"]] == ["ann"]
    r = await tenant.client.get(f"{base}?prefix=b", headers=tenant.headers)
    assert [u["user_id"] for u in r.json()["items"]] == ["bob"]
    future = (datetime.now(UTC) + timedelta(days=1)).isoformat()
    r = await tenant.client.get(base, params={"active_since": future}, headers=tenant.headers)
    assert r.json()["items"] == []

    seen, cursor = [], None
    while True:
        params = {"limit": 2, **({"cursor": cursor} if cursor else {})}
        page = (await tenant.client.get(base, params=params, headers=tenant.headers)).json()
        seen += [u["user_id"] for u in page["items"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert seen == ["ann", "bob", "carl"]

    r = await tenant.client.get(f"{base}?cursor=%%%", headers=tenant.headers)
    assert r.status_code == 422
    assert r.json()["type"] == "urn:memlane:problem:validation-error"


async def test_users_list_is_per_tenant(tenant: TenantCtx, other_tenant: TenantCtx) -> None:
    await tenant.remember("ann", "I live in Berlin")
    await other_tenant.remember("zed", "I live in Rome")
    r = await tenant.client.get(f"/v1/tenants/{tenant.id}/users", headers=tenant.headers)
    assert [u["user_id"] for u in r.json()["items"]] == ["ann"]
    r = await tenant.client.get(f"/v1/tenants/{other_tenant.id}/users", headers=tenant.headers)
    assert r.status_code == 404


# --- settings ---------------------------------------------------------------------------------


async def test_settings_default_put_and_audit(tenant: TenantCtx) -> None:
    r = await tenant.client.get(f"{tenant.user('ann')}/settings", headers=tenant.headers)
    assert r.json() == {
        "user_id": "ann",
        "memory_mode": "full",
        "retention_days": None,
        "updated_at": None,
    }
    await put_mode(tenant, "ann", "facts_only", retention_days=30)
    await put_mode(tenant, "ann", "paused", retention_days=30)
    r = await tenant.client.get(f"{tenant.user('ann')}/settings", headers=tenant.headers)
    assert (r.json()["memory_mode"], r.json()["retention_days"]) == ("paused", 30)
    r = await tenant.client.get(f"{tenant.user('ann')}/settings/history", headers=tenant.headers)
    changes = r.json()["items"]
    assert [(c["old"], c["new"]) for c in changes] == [
        (
            {"memory_mode": "facts_only", "retention_days": 30},
            {"memory_mode": "paused", "retention_days": 30},
        ),
        (None, {"memory_mode": "facts_only", "retention_days": 30}),
    ]
    assert all(c["actor"] == "api" and c["request_id"] for c in changes)
    r = await tenant.client.put(
        f"{tenant.user('ann')}/settings", json={"memory_mode": "never"}, headers=tenant.headers
    )
    assert r.status_code == 422
    r = await tenant.client.put(
        f"{tenant.user('ann')}/settings",
        json={"memory_mode": "full", "retention_days": 0},
        headers=tenant.headers,
    )
    assert r.status_code == 422
    # a boolean is not a number of days (pydantic's lax mode read true as 1), nor a string
    for days in (True, "30"):
        r = await tenant.client.put(
            f"{tenant.user('ann')}/settings",
            json={"memory_mode": "full", "retention_days": days},
            headers=tenant.headers,
        )
        assert r.status_code == 422, r.text
        assert r.json()["type"] == "urn:memlane:problem:validation-error"


async def test_paused_forms_nothing_and_recall_still_works(tenant: TenantCtx) -> None:
    await tenant.say("ann", "s1", "I live in Berlin")
    await put_mode(tenant, "ann", "paused")
    await tenant.say("ann", "s1", "I like green tea")
    assert [m["value"] for m in await active(tenant, "ann")] == ["Berlin"]
    # nor is the turn itself kept: only the one said before the pause
    assert [m["content"] for m in await active(tenant, "ann", episodes=True)] == [
        "I live in Berlin"
    ]
    recalled = await tenant.recall("ann", "where do I live?")
    assert [m["value"] for m in recalled["memories"]] == ["Berlin"]


async def test_facts_only_forms_no_preferences_or_events(tenant: TenantCtx) -> None:
    await put_mode(tenant, "ann", "facts_only")
    await tenant.say("ann", "s1", "I like green tea", "I went to Paris yesterday", "I work at Acme")
    assert [(m["type"], m["value"]) for m in await active(tenant, "ann")] == [("profile", "Acme")]
    # a verbatim turn would carry the preference and the event: facts_only keeps no turns
    assert await active(tenant, "ann", episodes=True) == []


async def test_session_only_keeps_facts_in_their_session(tenant: TenantCtx) -> None:
    await tenant.say("ann", "s0", "I work at Acme")  # formed before: user scope
    await put_mode(tenant, "ann", "session_only")
    await tenant.say("ann", "s1", "I live in Berlin")
    await tenant.say("ann", "s2", "I live in Berlin")  # a second session does not promote it
    rows = {(m["value"], m["scope"], m["scope_id"]) for m in await active(tenant, "ann")}
    assert rows == {
        ("Acme", "user", None),
        ("Berlin", "session", "s1"),
        ("Berlin", "session", "s2"),
    }
    # the turns said in session_only stay in a session too (the same words said again in s2
    # confirm the turn kept in s1), never in the user's scope
    kept = await active(tenant, "ann", episodes=True)
    assert {(m["scope"], m["scope_id"]) for m in kept if m["content"] == "I live in Berlin"} == {
        ("session", "s1")
    }
    in_s1 = await tenant.recall("ann", "where do I live and work?", session_id="s1")
    facts_in_s1 = [m for m in in_s1["memories"] if m["type"] != "episode"]
    assert [(m["value"], m["scope_id"]) for m in facts_in_s1] == [("Berlin", "s1")]
    outside = await tenant.recall("ann", "where do I live and work?", session_id="s3")
    assert outside["memories"] == []
    # Back to full: the user's scope is read again.
    await put_mode(tenant, "ann", "full")
    again = await tenant.recall("ann", "where do I work?", session_id="s3")
    assert [m["value"] for m in again["memories"]] == ["Acme"]


async def test_retention_days_leave_recall_and_forgetting_archives(
    tenant: TenantCtx, app: object
) -> None:
    old = (datetime.now(UTC) - timedelta(days=40)).isoformat()
    await tenant.remember("ann", "I lived in Rome", type="fact", occurred_at=old)
    await tenant.remember("ann", "I live in Berlin", type="fact")
    await put_mode(tenant, "ann", "full", retention_days=30)
    recalled = await tenant.recall("ann", "where do I live?")
    assert [m["content"] for m in recalled["memories"]] == ["I live in Berlin"]

    from app.lifecycle.forget import forget_pass

    rt = app.state.memlane  # type: ignore[attr-defined]
    await forget_pass(rt, only_tenants=[uuid.UUID(tenant.id)])
    assert [m["content"] for m in await active(tenant, "ann")] == ["I live in Berlin"]
    r = await tenant.client.get(
        f"{tenant.user('ann')}/memories?status=archived", headers=tenant.headers
    )
    assert [m["content"] for m in r.json()["items"]] == ["I lived in Rome"]


async def test_settings_isolated_between_users_and_tenants(client: httpx.AsyncClient) -> None:
    a, b = await new_tenant(client, "a"), await new_tenant(client, "b")
    await put_mode(a, "ann", "paused")
    await b.say("ann", "s1", "I live in Berlin")  # same user id, other tenant: not paused
    await a.say("bob", "s1", "I live in Berlin")  # other user of the same tenant: not paused
    assert len(await active(b, "ann")) == 1
    assert len(await active(a, "bob")) == 1
    r = await client.get(f"{a.user('ann')}/settings", headers=b.headers)
    assert r.status_code == 404


async def test_export_and_import_carry_settings(tenant: TenantCtx) -> None:
    await tenant.remember("ann", "I live in Berlin")
    await put_mode(tenant, "ann", "facts_only", retention_days=90)
    r = await tenant.client.get(f"{tenant.user('ann')}/export", headers=tenant.headers)
    doc = r.json()
    assert doc["settings"] == {"memory_mode": "facts_only", "retention_days": 90}
    r = await tenant.client.post(f"{tenant.user('ann2')}/import", json=doc, headers=tenant.headers)
    assert r.status_code == 200, r.text
    assert r.json()["settings_imported"] is True
    r = await tenant.client.get(f"{tenant.user('ann2')}/settings", headers=tenant.headers)
    assert (r.json()["memory_mode"], r.json()["retention_days"]) == ("facts_only", 90)
    r = await tenant.client.get(f"{tenant.user('ann2')}/settings/history", headers=tenant.headers)
    assert r.json()["items"][0]["actor"] == "import"


# --- to confirm and corrections --------------------------------------------------------------


async def test_confirm_makes_it_user_declared_through_arbitration(tenant: TenantCtx) -> None:
    written = await tenant.remember(
        "ann",
        "Ann probably lives in Berlin",
        key="residence.city",
        value="Berlin",
        source="model_inferred",
    )
    memory_id = written["memories"][0]["id"]
    await tenant.remember("ann", "Ann likes tea", type="preference")  # declared: not listed
    r = await tenant.client.get(f"{tenant.user('ann')}/to-confirm", headers=tenant.headers)
    assert [m["id"] for m in r.json()["items"]] == [memory_id]

    r = await tenant.client.post(
        f"{tenant.user('ann')}/memories/{memory_id}/confirm", headers=tenant.headers
    )
    assert r.status_code == 200, r.text
    confirmed = r.json()["memory"]
    assert (confirmed["id"], confirmed["source"], confirmed["status"]) == (
        memory_id,
        "user_declared",
        "active",
    )
    assert "inferred" not in confirmed["metadata"]
    r = await tenant.client.get(f"{tenant.user('ann')}/to-confirm", headers=tenant.headers)
    assert r.json()["items"] == []
    r = await tenant.client.get(
        f"{tenant.user('ann')}/arbitrations?memory_id={memory_id}", headers=tenant.headers
    )
    latest = r.json()["items"][0]
    assert (latest["rule"], latest["outcome"]) == ("duplicate", "refreshed")
    assert "now from user_declared (was model_inferred)" in latest["reason"]
    # Confirming twice: it no longer waits for confirmation.
    r = await tenant.client.post(
        f"{tenant.user('ann')}/memories/{memory_id}/confirm", headers=tenant.headers
    )
    assert r.status_code == 409


async def test_reject_deletes(tenant: TenantCtx) -> None:
    written = await tenant.remember("ann", "Ann seems to like jazz", source="behavior_observed")
    memory_id = written["memories"][0]["id"]
    r = await tenant.client.post(
        f"{tenant.user('ann')}/memories/{memory_id}/reject", headers=tenant.headers
    )
    assert r.status_code == 204, r.text
    r = await tenant.client.get(
        f"{tenant.user('ann')}/memories/{memory_id}", headers=tenant.headers
    )
    assert r.status_code == 404
    r = await tenant.client.post(
        f"{tenant.user('bob')}/memories/{memory_id}/reject", headers=tenant.headers
    )
    assert r.status_code == 404


async def test_a_write_that_corrects_a_memory_freezes_it_as_a_user_correction(
    tenant: TenantCtx,
) -> None:
    old = (await tenant.remember("ann", "My dog is called Rex"))["memories"][0]
    r = await tenant.client.post(
        f"{tenant.user('ann')}/memories?wait=true",
        json={"content": "My dog is called Max", "corrects": old["id"]},
        headers=tenant.headers,
    )
    assert r.status_code == 201, r.text
    new = r.json()["memories"][0]
    r = await tenant.client.get(
        f"{tenant.user('ann')}/memories/{old['id']}", headers=tenant.headers
    )
    frozen = r.json()
    assert (frozen["status"], frozen["superseded_by"]) == ("frozen", new["id"])
    r = await tenant.client.get(
        f"{tenant.user('ann')}/arbitrations?memory_id={old['id']}", headers=tenant.headers
    )
    latest = r.json()["items"][0]
    assert (latest["rule"], latest["outcome"], latest["existing_memory_id"]) == (
        "user_correction",
        "superseded",
        old["id"],
    )
    assert latest["reason"] == "the user explicitly corrected the earlier statement"


async def test_a_write_that_corrects_a_memory_the_user_does_not_have_is_refused(
    tenant: TenantCtx,
) -> None:
    bobs = (await tenant.remember("bob", "My dog is called Rex"))["memories"][0]
    for named in (bobs["id"], "00000000-0000-4000-8000-000000000000"):
        r = await tenant.client.post(
            f"{tenant.user('ann')}/memories?wait=true",
            json={"content": "My dog is called Max", "corrects": named},
            headers=tenant.headers,
        )
        assert r.status_code == 422, r.text
        assert r.json()["type"] == "urn:memlane:problem:validation-error"
        assert named in r.json()["detail"]
    r = await tenant.client.get(f"{tenant.user('ann')}/memories", headers=tenant.headers)
    assert r.json()["items"] == []
    r = await tenant.client.get(
        f"{tenant.user('bob')}/memories/{bobs['id']}", headers=tenant.headers
    )
    assert r.json()["status"] == "active"


# --- the policy as pure functions ------------------------------------------------------------


def test_policy_functions() -> None:
    from app.arbitration.service import Candidate

    now = datetime(2026, 12, 1, tzinfo=UTC)

    def cand(type_: str, scope: str = "user", scope_id: str = "") -> Candidate:
        return Candidate(
            content=type_,
            type=type_,
            source="user_declared",
            confidence=0.9,
            scope=scope,
            scope_id=scope_id,
            valid_from=now,
            trigger="extraction",
        )

    batch = [cand("profile"), cand("preference"), cand("event"), cand("fact", "task", "t1")]
    assert formable(MemoryPolicy("paused"), batch, "s1") == []
    assert [c.type for c in formable(MemoryPolicy("facts_only"), batch, "s1")] == [
        "profile",
        "fact",
    ]
    moved = formable(MemoryPolicy("session_only"), batch, "s1")
    assert {(c.scope, c.scope_id, c.promote) for c in moved} == {("session", "s1", False)}
    assert formable(MemoryPolicy("session_only"), batch, None) == []
    assert formable(MemoryPolicy("full"), batch, "s1") == batch
    assert recall_scopes(MemoryPolicy("session_only")).broad == ()
    assert recall_scopes(MemoryPolicy("full")).broad == ("user", "global")
    assert not_before(MemoryPolicy(retention_days=10), now) == now - timedelta(days=10)
    assert not_before(MemoryPolicy(), now) is None


async def test_activity_lists_sessions_and_tasks(
    tenant: TenantCtx, other_tenant: TenantCtx
) -> None:
    await tenant.say("ann", "s1", "I live in Berlin", "I like green tea")
    r = await tenant.client.post(
        f"{tenant.user('ann')}/tasks",
        json={"id": "trip", "name": "Plan a trip", "required_slots": ["city"]},
        headers=tenant.headers,
    )
    assert r.status_code == 201, r.text
    await other_tenant.say("ann", "s9", "I live in Rome")
    r = await tenant.client.get(f"{tenant.user('ann')}/activity", headers=tenant.headers)
    assert r.status_code == 200, r.text
    body = r.json()
    assert [(s["session_id"], s["messages"]) for s in body["sessions"]] == [("s1", 2)]
    assert [(t["task_id"], t["name"], t["status"]) for t in body["tasks"]] == [
        ("trip", "Plan a trip", "open")
    ]


async def test_the_mode_filters_only_what_is_formed_from_conversation(tenant: TenantCtx) -> None:
    # MemoryWriter.admit applies the mode to extraction drafts: an infer=true write is
    # extraction too; an explicit write is the client's own statement and is stored.
    await put_mode(tenant, "ann", "paused")
    inferred = await tenant.remember("ann", "I live in Lisbon", infer=True)
    assert inferred["memories"] == []
    explicit = await tenant.remember("ann", "Ann's locker is 12", key="place.locker", value="12")
    assert [m["value"] for m in explicit["memories"]] == ["12"]
    await put_mode(tenant, "ann", "session_only")
    # No session to stay in: an infer=true write forms nothing under session_only.
    assert (await tenant.remember("ann", "I live in Lisbon", infer=True))["memories"] == []
    assert [m["value"] for m in await active(tenant, "ann")] == ["12"]


async def test_erasing_a_user_erases_the_settings_and_their_history(tenant: TenantCtx) -> None:
    await put_mode(tenant, "ann", "facts_only", retention_days=30)
    await put_mode(tenant, "bob", "paused")
    r = await tenant.client.delete(tenant.user("ann"), headers=tenant.headers)
    assert r.status_code == 200, r.text
    deleted = r.json()["deleted"]
    assert (deleted["user_settings"], deleted["user_settings_history"]) == (1, 1)
    r = await tenant.client.get(f"{tenant.user('ann')}/settings", headers=tenant.headers)
    assert (r.json()["memory_mode"], r.json()["updated_at"]) == ("full", None)
    r = await tenant.client.get(f"{tenant.user('ann')}/settings/history", headers=tenant.headers)
    assert r.json()["items"] == []
    r = await tenant.client.get(f"{tenant.user('bob')}/settings", headers=tenant.headers)
    assert r.json()["memory_mode"] == "paused"
