"""Ending a session while writes into its scope are still queued (docs/sessions.md, "Ending a
session"): a write acknowledged before the end must not leave an active memory in the scope of
the ended session, whichever of the two the worker runs first."""

from __future__ import annotations

import asyncio

from tests.conftest import TenantCtx


async def test_a_session_write_queued_before_the_end_is_archived_with_the_session(
    tenant: TenantCtx,
) -> None:
    c, h = tenant.client, tenant.headers
    for i, seat in enumerate(("window", "aisle", "exit row")):
        sid = f"trip-{i}"
        # each trip says something else: the same fact in two sessions would be promoted
        await tenant.remember(
            "alice", f"For this trip I sit by the {seat}", scope="session", scope_id=sid
        )
        write = c.post(
            f"{tenant.user('alice')}/memories",
            json={
                "content": f"Hotel booked at the Hilton, room {i}",
                "scope": "session",
                "scope_id": sid,
            },
            headers=h,
        )
        end = c.post(f"{tenant.user('alice')}/sessions/{sid}/end", headers=h)
        written, ended = await asyncio.gather(write, end)
        assert ended.status_code == 200, ended.text
        if (
            written.status_code == 202
        ):  # acknowledged: the worker stores it, before or after the end
            job = await tenant.finished_job(written.json()["job_id"])
            assert job["status"] == "done", job
        else:
            assert written.status_code == 409, written.text
        listed = await c.get(
            f"{tenant.user('alice')}/memories",
            params={"scope": "session", "status": "active"},
            headers=h,
        )
        assert [m["content"] for m in listed.json()["items"] if m["scope_id"] == sid] == []
        recalled = await tenant.recall("alice", "Hilton hotel room", session_id=sid)
        assert [m["content"] for m in recalled["memories"] if m["scope_id"] == sid] == []


async def test_a_memory_archived_by_the_end_cannot_be_revived_nor_revised_in_that_session(
    tenant: TenantCtx,
) -> None:
    c, h = tenant.client, tenant.headers
    body = await tenant.remember(
        "alice", "For this trip I stay at the Hilton", scope="session", scope_id="trip"
    )
    memory_id = body["memories"][0]["id"]
    ended = await c.post(f"{tenant.user('alice')}/sessions/trip/end", headers=h)
    assert ended.status_code == 200, ended.text

    for patch in ({"status": "active"}, {"content": "For this trip I stay at the Ritz"}):
        r = await c.patch(f"{tenant.user('alice')}/memories/{memory_id}", json=patch, headers=h)
        assert r.status_code == 409, (patch, r.text)
        assert r.headers["content-type"].startswith("application/problem+json")
        assert r.json()["type"].endswith("session-ended"), r.text
    recalled = await tenant.recall("alice", "hotel Hilton Ritz", session_id="trip")
    assert [m["content"] for m in recalled["memories"] if m["scope"] == "session"] == []
    # it is still the user's to annotate or delete
    r = await c.patch(
        f"{tenant.user('alice')}/memories/{memory_id}", json={"metadata": {"k": "v"}}, headers=h
    )
    assert r.status_code == 200, r.text
    assert (
        await c.delete(f"{tenant.user('alice')}/memories/{memory_id}", headers=h)
    ).status_code == 204
