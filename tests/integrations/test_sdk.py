"""The sync SDK against a real `memlane serve`: every handle method, pagination, typed errors."""

from __future__ import annotations

import uuid

import pytest
from memlane_client import (
    Memlane,
    MemlaneConflict,
    MemlaneForbidden,
    MemlaneIdempotencyKeyReused,
    MemlaneNotFound,
    MemlaneUnauthorized,
    MemlaneValidationError,
)
from memlane_client._core import Call
from memlane_client.models import JobAccepted, TenantCreated, WriteResult

from tests.e2e.server import ServeProcess


def test_remember_supersedes_and_recall_returns_the_current_fact(client: Memlane) -> None:
    alice = client.user("alice")
    first = alice.remember("I live in Lisbon", type="profile", key="residence.city", value="Lisbon")
    assert isinstance(first, WriteResult)
    assert [m.value for m in first.memories] == ["Lisbon"]
    moved = alice.remember("I moved to Porto", type="profile", key="residence.city", value="Porto")
    assert [a.existing_memory_id for a in moved.arbitrations] == [first.memories[0].id]
    got = alice.recall("where do I live?", top_k=3)
    assert [m.content for m in got.memories] == ["I moved to Porto"]
    frozen = list(alice.memories(status="frozen"))
    assert [m.value for m in frozen] == ["Lisbon"]
    assert frozen[0].superseded_by == moved.memories[0].id


def test_an_agents_memory_is_read_by_that_agent_only(client: Memlane) -> None:
    ada = client.user("ada")
    written = ada.remember("On trips Ada wants a window seat", agent_id="travel")
    assert isinstance(written, WriteResult)
    assert [(m.scope, m.scope_id) for m in written.memories] == [("agent", "travel")]
    mine = ada.recall("which seat on trips?", agent_id="travel")
    assert [m.content for m in mine.memories] == ["On trips Ada wants a window seat"]
    assert ada.recall("which seat on trips?", agent_id="shopping").memories == []


def test_wait_false_answers_the_job_and_wait_for_job_polls_it(client: Memlane) -> None:
    bob = client.user("bob")
    accepted = bob.remember("I like green tea", type="preference", wait=False)
    assert isinstance(accepted, JobAccepted)
    job = client.wait_for_job(str(accepted.job_id))
    assert job.status == "done"
    assert [m.content for m in bob.memories()] == ["I like green tea"]
    # only a failed job is run again (tests/e2e/test_failures.py: one that failed lands)
    with pytest.raises(MemlaneConflict):
        client.retry_job(str(accepted.job_id))


def test_messages_then_context_of_the_session(client: Memlane) -> None:
    carol = client.user("carol")
    written = carol.add_messages(
        "s1", [("user", "I'm vegetarian. Please always answer in bullet points.")]
    )
    assert written.memories, written
    ctx = carol.context("s1", query="what should I cook?", token_budget=500)
    assert ctx.tokens <= 500
    assert "vegetarian" in ctx.text
    assert "bullet points" in ctx.text


def test_memories_iterates_every_page(client: Memlane) -> None:
    dave = client.user("dave")
    facts = [f"Fact number {i} about dave's garden" for i in range(7)]
    dave.remember_many([{"content": f, "type": "fact"} for f in facts])
    page = dave.list_memories(limit=3)
    assert len(page.items) == 3 and page.next_cursor
    assert sorted(m.content for m in dave.memories(page_size=3)) == sorted(facts)


def test_get_update_history_forget(client: Memlane) -> None:
    eve = client.user("eve")
    mem = eve.remember("My cat is called Miso", type="profile").memories[0]
    assert eve.get_memory(str(mem.id)).content == "My cat is called Miso"
    updated = eve.update_memory(str(mem.id), content="My cat is called Mochi")
    assert updated.content == "My cat is called Mochi"
    actions = [h.action for h in eve.history(str(mem.id)).entries]
    assert len(actions) >= 2
    eve.forget(str(mem.id))
    with pytest.raises(MemlaneNotFound) as err:
        eve.get_memory(str(mem.id))
    assert err.value.status == 404
    assert err.value.type == "urn:memlane:problem:not-found"
    assert err.value.request_id


def test_tasks_lifecycle(client: Memlane) -> None:
    fay = client.user("fay")
    task = fay.create_task("Plan a trip", id="trip", required_slots=["budget"])
    assert task.missing_slots == ["budget"]
    with pytest.raises(MemlaneConflict):
        fay.create_task("Plan a trip", id="trip")
    task = fay.update_task("trip", slots={"budget": "800 EUR"}, steps=["compared flights"])
    assert task.slots == {"budget": "800 EUR"} and task.missing_slots == []
    assert [s["description"] for s in task.steps] == ["compared flights"]
    assert [t.id for t in fay.tasks()] == ["trip"]
    done = fay.finish_task("trip", "Booked the train to Madrid")
    assert done.task.status == "finished"
    assert fay.task("trip").conclusion == "Booked the train to Madrid"


def test_export_import_into_another_user_then_erase(client: Memlane) -> None:
    gus = client.user("gus")
    gus.remember("I play the cello", type="profile")
    doc = gus.export()
    assert [m.content for m in doc.memories] == ["I play the cello"]
    dry = client.user("hal").import_data(doc, dry_run=True)
    assert dry.dry_run and dry.imported == 1
    assert list(client.user("hal").memories()) == []
    result = client.user("hal").import_data(doc)
    assert result.created == 1
    assert [m.content for m in client.user("hal").memories()] == ["I play the cello"]
    receipt = gus.erase()
    assert receipt.user_id == "gus" and sum(receipt.deleted.values()) >= 1
    assert list(gus.memories()) == []


def test_typed_errors(server: ServeProcess, client: Memlane, admin: Memlane) -> None:
    with pytest.raises(MemlaneValidationError) as bad:
        client.user("ivy").recall("")
    assert bad.value.status == 422 and bad.value.errors
    with pytest.raises(MemlaneForbidden):
        Memlane(server.base_url, server.admin_key, tenant_id=client.tenant_id).user("x").recall("q")
    with pytest.raises(MemlaneUnauthorized) as unauth:
        Memlane(server.base_url, "mlk_wrong", tenant_id=client.tenant_id).user("x").recall("q")
    assert unauth.value.type == "urn:memlane:problem:unauthorized"
    # another tenant's user: 404, never data
    other: TenantCreated = admin.create_tenant("other")
    with admin.for_tenant(other) as theirs:
        theirs.user("ivy").remember("Ivy's secret plan", type="fact")
    mine = Memlane(server.base_url, client.config.api_key, tenant_id=str(other.id))
    with pytest.raises(MemlaneNotFound):
        mine.user("ivy").recall("plan")


def test_same_idempotency_key_with_another_body_is_refused(client: Memlane) -> None:
    path = client.config.user_path("jay") + "/memories"
    key = {"Idempotency-Key": uuid.uuid4().hex}
    client._send(Call("POST", path, json={"content": "one"}, headers=key))
    again = client._send(Call("POST", path, json={"content": "one"}, headers=key))
    assert again.status_code == 202
    with pytest.raises(MemlaneIdempotencyKeyReused) as err:
        client._send(Call("POST", path, json={"content": "two"}, headers=key))
    assert err.value.status == 409
    assert isinstance(err.value, MemlaneConflict)


def test_context_and_recall_take_agent_id_and_recall_valid_at(client: Memlane) -> None:
    eve = client.user("eve")
    eve.remember("On trips Eve wants an aisle seat", agent_id="travel")
    eve.add_messages("s1", [("user", "Hello there")])
    seat = "aisle seat"
    assert seat in eve.context("s1", query="which seat on trips?", agent_id="travel").text
    assert seat not in eve.context("s1", query="which seat on trips?").text

    for city, at in (("Lisbon", "2026-01-01T00:00:00Z"), ("Porto", "2026-03-01T00:00:00Z")):
        eve.remember(
            f"I live in {city}", type="profile", key="residence.city", value=city, occurred_at=at
        )
    then = eve.recall("where do I live?", top_k=1, valid_at="2026-02-01T00:00:00Z")
    assert [m.content for m in then.memories] == ["I live in Lisbon"]
    now = eve.recall("where do I live?", top_k=1)
    assert [m.content for m in now.memories] == ["I live in Porto"]


def test_dot_segments_in_ids_are_refused_and_erase_nothing(client: Memlane) -> None:
    # "…/memories/.." resolved by the HTTP client would be the user itself (erase), and a
    # user id ".." the tenant's own routes
    victim = client.user("victim")
    victim.remember("Victim keeps bees", type="fact")
    for bad in ("..", ".", ""):
        with pytest.raises(MemlaneValidationError, match="no id"):
            victim.forget(bad)
    with pytest.raises(MemlaneValidationError, match="no id"):
        client.user("..").remember("to everyone", type="fact")
    assert [m.content for m in victim.memories()] == ["Victim keeps bees"]
