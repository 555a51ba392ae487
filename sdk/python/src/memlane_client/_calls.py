"""The requests of Memlane's REST API (openapi/openapi.json), as :class:`Call` values.

Shared by the sync and async clients: each function builds one request; nothing here does I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from memlane_client._core import Call, body, jsonable, message_dict, seg

# The fields remember() accepts besides ``content`` (the body of POST …/memories), one set for
# the sync and the async client.
MEMORY_FIELDS = frozenset(
    {
        "type",
        "key",
        "value",
        "source",
        "confidence",
        "scope",
        "scope_id",
        "agent_id",
        "occurred_at",
        "metadata",
        "infer",
        "corrects",
    }
)


def create_tenant(name: str) -> Call:
    # Not retry-safe: a second POST after a lost answer would make a second tenant.
    return Call.write("POST", "/v1/tenants", json={"name": name}, retry_safe=False)


def list_tenants() -> Call:
    return Call("GET", "/v1/tenants")


def get_job(job_id: str) -> Call:
    return Call("GET", f"/v1/jobs/{seg(job_id)}")


def retry_job(job_id: str) -> Call:
    # Safe to send again: a job no longer failed answers 409, it is not queued twice.
    return Call.write("POST", f"/v1/jobs/{seg(job_id)}/retry", retry_safe=True)


def remember(user: str, wait: bool, fields: dict[str, Any]) -> Call:
    # The server de-duplicates by Idempotency-Key: safe to send again.
    return Call.write(
        "POST", f"{user}/memories", json=body(**fields), params={"wait": wait}, retry_safe=True
    )


def remember_many(user: str, wait: bool, memories: Iterable[Mapping[str, Any] | Any]) -> Call:
    return Call.write(
        "POST",
        f"{user}/memories/batch",
        json={"memories": [jsonable(m) for m in memories]},
        params={"wait": wait},
        retry_safe=True,
    )


def add_messages(
    user: str, session_id: str, messages: Sequence[Any], task_id: str | None, wait: bool
) -> Call:
    return Call.write(
        "POST",
        f"{user}/sessions/{seg(session_id)}/messages",
        json=body(messages=[message_dict(m) for m in messages], task_id=task_id),
        params={"wait": wait},
        retry_safe=True,
    )


def end_session(user: str, session_id: str) -> Call:
    # Ending an ended session changes nothing: safe to send again.
    return Call.write("POST", f"{user}/sessions/{seg(session_id)}/end", json=None, retry_safe=True)


def recall(user: str, fields: dict[str, Any]) -> Call:
    # A read sent as POST (the query is a body): safe to repeat.
    return Call("POST", f"{user}/recall", json=body(**fields))


def context(
    user: str,
    session_id: str,
    query: str | None,
    token_budget: int | None,
    task_id: str | None,
    top_k: int | None,
    agent_id: str | None = None,
) -> Call:
    return Call(
        "GET",
        f"{user}/sessions/{seg(session_id)}/context",
        params={
            "query": query,
            "token_budget": token_budget,
            "task_id": task_id,
            "top_k": top_k,
            "agent_id": agent_id,
        },
    )


def list_memories(user: str, filters: dict[str, Any], cursor: str | None, limit: int) -> Call:
    return Call("GET", f"{user}/memories", params={**filters, "cursor": cursor, "limit": limit})


def get_memory(user: str, memory_id: str) -> Call:
    return Call("GET", f"{user}/memories/{seg(memory_id)}")


def update_memory(user: str, memory_id: str, fields: dict[str, Any]) -> Call:
    # PATCH sets fields to given values: applying it twice gives the same memory.
    return Call.write(
        "PATCH", f"{user}/memories/{seg(memory_id)}", json=body(**fields), retry_safe=True
    )


def delete_memory(user: str, memory_id: str) -> Call:
    return Call.write("DELETE", f"{user}/memories/{seg(memory_id)}", retry_safe=True)


def memory_history(user: str, memory_id: str) -> Call:
    return Call("GET", f"{user}/memories/{seg(memory_id)}/history")


def reveal(user: str, memory_id: str) -> Call:
    return Call.write("POST", f"{user}/memories/{seg(memory_id)}/reveal", retry_safe=True)


def arbitrations(
    user: str,
    memory_id: str | None,
    outcome: str | None,
    since: datetime | None,
    until: datetime | None,
    limit: int | None,
) -> Call:
    return Call(
        "GET",
        f"{user}/arbitrations",
        params={
            "memory_id": memory_id,
            "outcome": outcome,
            "since": since,
            "until": until,
            "limit": limit,
        },
    )


def create_task(user: str, name: str, task_id: str | None, required_slots: list[str]) -> Call:
    # With an id a repeat answers 409 (already exists); without one it would make a second
    # task: not retry-safe in general.
    return Call.write(
        "POST",
        f"{user}/tasks",
        json=body(id=task_id, name=name, required_slots=required_slots),
        retry_safe=False,
    )


def list_tasks(user: str, status: str | None, limit: int | None) -> Call:
    return Call("GET", f"{user}/tasks", params={"status": status, "limit": limit})


def get_task(user: str, task_id: str) -> Call:
    return Call("GET", f"{user}/tasks/{seg(task_id)}")


def update_task(
    user: str,
    task_id: str,
    name: str | None,
    slots: Mapping[str, Any] | None,
    steps: Sequence[Any] | None,
) -> Call:
    fields: dict[str, Any] = {}
    if name is not None:
        fields["name"] = name
    if slots is not None:
        fields["slots"] = dict(slots)  # a None value clears a slot: keep it
    if steps is not None:
        fields["steps"] = [{"description": s} if isinstance(s, str) else jsonable(s) for s in steps]
    # Steps are appended: sending twice would append them twice.
    return Call.write("PATCH", f"{user}/tasks/{seg(task_id)}", json=fields, retry_safe=False)


def finish_task(
    user: str, task_id: str, conclusion: str | None, promote: bool | None, key: str | None
) -> Call:
    return Call.write(
        "POST",
        f"{user}/tasks/{seg(task_id)}/finish",
        json=body(conclusion=conclusion, promote=promote, key=key),
        retry_safe=False,
    )


def export(user: str, include_messages: bool) -> Call:
    return Call("GET", f"{user}/export", params={"include_messages": include_messages})


def import_data(user: str, document: Any, dry_run: bool) -> Call:
    # Imported entries are arbitrated against what exists: a repeat refreshes, it does not
    # duplicate (docs/portability.md).
    return Call.write(
        "POST",
        f"{user}/import",
        json=jsonable(document),
        params={"dry_run": dry_run},
        retry_safe=True,
    )


def erase(user: str) -> Call:
    return Call.write("DELETE", user, retry_safe=True)
