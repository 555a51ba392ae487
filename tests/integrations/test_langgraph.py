"""MemlaneStore, a LangGraph BaseStore, against a real `memlane serve`: a graph that writes in
one thread and recalls in another through get_store(), and each store operation."""

from __future__ import annotations

import uuid
from typing import TypedDict

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.config import get_config, get_store
from langgraph.graph import END, START, StateGraph
from langgraph.store.base import InvalidNamespaceError
from memlane_client import Memlane
from memlane_client.langgraph import MemlaneStore
from memlane_client.models import TenantCreated

from tests.e2e.server import ServeProcess


class Chat(TypedDict, total=False):
    said: str
    answer: str


def remember_or_recall(state: Chat) -> Chat:
    """A node: 'remember: …' stores a note for the configured user; anything else recalls."""
    store = get_store()
    user = get_config()["configurable"]["user_id"]
    said = state["said"]
    if said.startswith("remember: "):
        store.put((user, "notes"), uuid.uuid4().hex, {"text": said.removeprefix("remember: ")})
        return {"answer": "noted"}
    hits = store.search((user, "notes"), query=said, limit=1)
    return {"answer": hits[0].value["text"] if hits else "I don't know"}


def build_graph(store: MemlaneStore) -> object:
    builder = StateGraph(Chat)
    builder.add_node("memory", remember_or_recall)
    builder.add_edge(START, "memory")
    builder.add_edge("memory", END)
    return builder.compile(checkpointer=InMemorySaver(), store=store)


@pytest.fixture
def store(server: ServeProcess, tenant: TenantCreated) -> MemlaneStore:
    return MemlaneStore(server.base_url, tenant.api_key, tenant_id=str(tenant.id))


def test_a_graph_writes_in_one_thread_and_recalls_in_another(
    store: MemlaneStore, client: Memlane
) -> None:
    graph = build_graph(store)
    alice_1 = {"configurable": {"thread_id": "t1", "user_id": "alice"}}
    alice_2 = {"configurable": {"thread_id": "t2", "user_id": "alice"}}
    bob_3 = {"configurable": {"thread_id": "t3", "user_id": "bob"}}
    graph.invoke({"said": "remember: Alice's passport expires in March 2027"}, alice_1)  # type: ignore[attr-defined]
    graph.invoke({"said": "remember: Alice prefers aisle seats"}, alice_1)  # type: ignore[attr-defined]
    out = graph.invoke({"said": "which seat does Alice like?"}, alice_2)  # type: ignore[attr-defined]
    assert out["answer"] == "Alice prefers aisle seats"
    # another user recalls nothing of Alice's
    assert graph.invoke({"said": "which seat?"}, bob_3)["answer"] == "I don't know"  # type: ignore[attr-defined]
    # the notes are Memlane memories of the tenant's alice
    contents = sorted(m.content for m in client.user("alice").memories())
    assert contents == ["Alice prefers aisle seats", "Alice's passport expires in March 2027"]


async def test_the_async_graph_path_uses_abatch(store: MemlaneStore) -> None:
    graph = build_graph(store)
    cfg = {"configurable": {"thread_id": "a1", "user_id": "carl"}}
    await graph.ainvoke({"said": "remember: Carl is learning the violin"}, cfg)  # type: ignore[attr-defined]
    cfg2 = {"configurable": {"thread_id": "a2", "user_id": "carl"}}
    out = await graph.ainvoke({"said": "what instrument?"}, cfg2)  # type: ignore[attr-defined]
    assert out["answer"] == "Carl is learning the violin"


def test_put_get_replace_delete(store: MemlaneStore) -> None:
    ns = ("dana", "profile")
    assert store.get(ns, "city") is None
    store.put(ns, "city", {"text": "Dana lives in Oslo", "since": 2020})
    item = store.get(ns, "city")
    assert item is not None
    assert (item.namespace, item.key, item.value) == (
        ns,
        "city",
        {"text": "Dana lives in Oslo", "since": 2020},
    )
    store.put(ns, "city", {"text": "Dana lives in Bergen", "since": 2024})
    assert store.get(ns, "city").value["text"] == "Dana lives in Bergen"  # type: ignore[union-attr]
    found = store.search(("dana",), query="where does Dana live?")
    assert [i.value["text"] for i in found] == ["Dana lives in Bergen"]
    assert found[0].score is not None and found[0].score > 0
    store.delete(ns, "city")
    assert store.get(ns, "city") is None
    assert store.search(("dana",), query="where does Dana live?") == []


def test_search_filters_listing_and_namespaces(store: MemlaneStore) -> None:
    for i, (kind, text) in enumerate(
        [("food", "Eli loves ramen"), ("food", "Eli hates olives"), ("music", "Eli plays jazz")]
    ):
        store.put(("eli", "likes", kind), f"k{i}", {"text": text, "kind": kind, "rank": i})
    food = store.search(("eli", "likes"), filter={"kind": "food"})
    assert sorted(i.value["text"] for i in food) == ["Eli hates olives", "Eli loves ramen"]
    ranked = store.search(("eli",), filter={"rank": {"$gte": 1}}, query="what does Eli eat?")
    assert sorted(i.value["rank"] for i in ranked) == [1, 2]
    assert len(store.search(("eli",), limit=2)) == 2
    assert len(store.search(("eli",), limit=2, offset=2)) == 1
    assert store.list_namespaces(prefix=("eli",)) == [
        ("eli", "likes", "food"),
        ("eli", "likes", "music"),
    ]
    assert store.list_namespaces(prefix=("eli",), max_depth=2) == [("eli", "likes")]
    assert store.list_namespaces(prefix=("eli",), suffix=("music",)) == [("eli", "likes", "music")]


def test_task_namespaces_are_task_scoped(store: MemlaneStore, client: Memlane) -> None:
    store.put(("fay", "task", "trip", "notes"), "n1", {"text": "Fay's trip budget is 800 EUR"})
    [memory] = client.user("fay").memories()
    assert (memory.scope, memory.scope_id) == ("task", "trip")
    # recall outside the task does not see the task's memory; inside it does
    assert store.search(("fay",), query="trip budget") == []
    inside = store.search(("fay", "task", "trip"), query="trip budget")
    assert [i.value["text"] for i in inside] == ["Fay's trip budget is 800 EUR"]


def test_a_namespace_without_a_user_is_refused(store: MemlaneStore) -> None:
    with pytest.raises(InvalidNamespaceError, match="user id"):
        store.search((), query="anything")
    with pytest.raises(InvalidNamespaceError, match="user id"):
        store.get((), "k")
    with pytest.raises(InvalidNamespaceError, match="names the user"):
        store.list_namespaces()
    scoped = MemlaneStore(client=store.client, user_index=1)
    with pytest.raises(InvalidNamespaceError, match="position 1"):
        scoped.search(("memories",), query="x")
    scoped.put(("memories", "gil"), "k", {"text": "Gil bakes bread"})
    assert scoped.get(("memories", "gil"), "k").value == {"text": "Gil bakes bread"}  # type: ignore[union-attr]
