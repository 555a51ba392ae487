"""What a user's memory settings allow: pure functions, no I/O.

The four memory modes (docs/vault.md, "Memory settings"):

- ``full``          everything is formed and recalled as usual.
- ``facts_only``    no ``preference``, ``event`` or ``episode`` memory is formed from
                    conversation; profile facts, facts and constraints are.
- ``session_only``  no cross-session memory: a fact formed from a conversation stays in the
                    scope of the session it was said in (never the user's scope, never
                    promoted), and recall reads nothing outside the current session.
- ``paused``        nothing new is formed; recall works as before.

``retention_days`` (any mode): a memory whose ``valid_from`` is older than that many days
leaves recall, and the forgetting pass archives it.

The hooks that apply these rules: the memory writer's policy hook (``formable``, in
``MemoryWriter.admit``, app/memories/writer.py, for drafts formed from conversation), recall
(``recall_scopes`` and ``not_before``, in app/recall/service.py) and forgetting
(``not_before``, in app/lifecycle/forget.py). Explicit writes (``POST …/memories`` with
``infer=false``) are the client's own statement and are not filtered.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Literal, Protocol, TypeVar

MemoryMode = Literal["full", "facts_only", "session_only", "paused"]
MEMORY_MODES: tuple[MemoryMode, ...] = ("full", "facts_only", "session_only", "paused")
DEFAULT_MODE: MemoryMode = "full"
# Types facts_only does not form: what the user likes and what happened to them, and the
# verbatim turns (episodes) that would carry both.
NOT_IN_FACTS_ONLY = frozenset({"preference", "event", "episode"})
# Scopes that outlive a session (recall reads them in every session).
CROSS_SESSION_SCOPES = ("user", "global")


@dataclass(frozen=True, slots=True)
class MemoryPolicy:
    """A user's settings as the write and read paths need them."""

    memory_mode: MemoryMode = DEFAULT_MODE
    retention_days: int | None = None


DEFAULT_POLICY = MemoryPolicy()


class Formable(Protocol):
    """What ``formable`` reads and rewrites of a candidate memory."""

    type: str
    scope: str
    scope_id: str
    promote: bool


F = TypeVar("F", bound=Formable)


def formable(policy: MemoryPolicy, candidates: Sequence[F], session_id: str | None) -> list[F]:
    """The candidates (extracted from conversation) that ``policy`` lets become memories, in
    order. ``paused``: none. ``facts_only``: without preferences and events. ``session_only``:
    each moves to ``scope="session", scope_id=session_id`` with ``promote=False``
    (``dataclasses.replace``: drafts are dataclasses); without a session none is formed,
    as there is no session for it to stay in. ``full``: all, unchanged."""
    mode = policy.memory_mode
    if mode == "paused":
        return []
    if mode == "facts_only":
        return [c for c in candidates if c.type not in NOT_IN_FACTS_ONLY]
    if mode == "session_only":
        if not session_id:
            return []
        return [
            replace(c, scope="session", scope_id=session_id, promote=False)  # type: ignore[type-var]
            for c in candidates
        ]
    return list(candidates)


@dataclass(frozen=True, slots=True)
class RecallScopes:
    """Which scopes a recall may read: ``broad`` of the cross-session scopes, and whether the
    request's task scope is readable (its session scope always is)."""

    broad: tuple[str, ...]
    task: bool


def recall_scopes(policy: MemoryPolicy) -> RecallScopes:
    """``session_only`` reads the current session only; every other mode reads the user's and
    global scopes and the request's task and session."""
    if policy.memory_mode == "session_only":
        return RecallScopes(broad=(), task=False)
    return RecallScopes(broad=CROSS_SESSION_SCOPES, task=True)


def not_before(policy: MemoryPolicy, at: datetime) -> datetime | None:
    """The oldest ``valid_from`` recall may return at ``at`` (``at - retention_days``), or None
    when there is no retention limit."""
    if policy.retention_days is None:
        return None
    return at - timedelta(days=policy.retention_days)


def to_confirm(source: str) -> bool:
    """Whether a memory from ``source`` was formed with low confidence and waits for the user:
    ``model_inferred`` and ``behavior_observed`` (DESIGN.md base confidences 0.5 and 0.7)."""
    return source in LOW_CONFIDENCE_SOURCES


LOW_CONFIDENCE_SOURCES = ("model_inferred", "behavior_observed")
