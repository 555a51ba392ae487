"""Episodes: which user turns are kept verbatim, and the writer's draft of one.

A user turn is kept as an ``episode`` memory when at least one of its clauses passes the write
filter's noise test (``app.ingest.extraction.filter.is_noise``): it is neither a question nor
small talk (greetings, thanks, acknowledgements, weather chatter, filler). A turn made only of
questions and small talk is not kept — a plain question states nothing the user holds true,
and recalled later it would compete with the answer it asked for (docs/formation.md, Episodes).

The filter's second test, ``has_memory_signal`` (the clause speaks of the user), is not applied
here: it decides which statements become facts *about the user*; an episode keeps what the user
said, in their words, about anyone ("The kids loved the museum.").
"""

from __future__ import annotations

import re
import uuid
from datetime import datetime
from typing import TYPE_CHECKING, Any

from app.ingest.extraction.filter import is_noise
from app.memories.writer import EPISODE, MemoryDraft

if TYPE_CHECKING:
    from app.config import Settings
    from app.db.models import Memory

# Sentences end at 。！？!?；; or a newline, or at ". " ; clauses split at commas.
_SENTENCE = re.compile(r"(?<=[。！？!?；;\n])\s*|(?<=[.])\s+(?=\S)")
_CLAUSE = re.compile(r"\s*(?:，|、|,(?!\d{3}\b))\s*")


def clauses(text: str) -> list[str]:
    """The clauses of a turn, in order (sentence punctuation kept on the clause it ends)."""
    out: list[str] = []
    for sentence in _SENTENCE.split(text):
        out += [c for c in _CLAUSE.split(sentence or "") if c and c.strip()]
    return out


def is_episode(text: str) -> bool:
    """True if the user turn ``text`` is kept as an episode: some clause of it is neither a
    question nor small talk — nor the condition of a question ("如果我搬到深圳，房租会贵很多吗？",
    "if I moved to Berlin, would rent go up?" ask as a whole; "We adopted a puppy, any tips?"
    tells something)."""
    kept: list[str] = []
    for sentence in _SENTENCE.split(text):
        parts = [c for c in _CLAUSE.split(sentence or "") if c and c.strip()]
        if sentence and sentence.rstrip().endswith(("?", "？")):
            parts = [c for c in parts if not _CONDITION.match(c)]
        kept += parts
    return any(not is_noise(c) for c in kept)


# A clause that opens a hypothetical: inside a question it asks, it does not tell.
_CONDITION = re.compile(r"\s*(?:如果|假如|假设|要是|万一|if\b|what if\b|suppose\b|say\b)", re.I)


def episode_draft(
    *,
    content: str,
    message_id: str,
    occurred_at: datetime,
    session_id: str | None,
    task_id: str | None,
    job_id: uuid.UUID,
    metadata: dict[str, Any],
    speaker: str | None = None,
) -> MemoryDraft:
    """The writer's draft of one user turn (clear text; the writer protects it): type and kind
    ``episode``, scope the task when the turn came with one (else the user), ``valid_from`` =
    the message's time, the message's metadata as its metadata,
    ``origin`` = ``{job_id, message_ids: [message_id], session_id, sessions, task_id,
    speaker}`` — ``speaker`` the message's ``name`` when it has one (a query that names the
    speaker lifts the turn: docs/recall.md, "Speaker match")."""
    origin: dict[str, Any] = {"job_id": str(job_id), "message_ids": [message_id]}
    if speaker:
        origin["speaker"] = speaker
    if session_id:
        origin["session_id"] = session_id
        origin["sessions"] = [session_id]
    if task_id:
        origin["task_id"] = task_id
    # A turn said inside a task belongs to that task, like the decisions formed from it.
    scope, scope_id = ("task", task_id) if task_id else ("user", "")
    return MemoryDraft(
        content=content,
        type=EPISODE,
        kind=EPISODE,
        scope=scope,
        scope_id=scope_id,
        source="user_declared",
        valid_from=occurred_at,
        trigger="extraction",
        origin=origin,
        metadata=dict(metadata),
    )


# The previous turn indexed with an episode is cut to this many characters (e5 reads 512
# tokens; the full text keeps about 130 distinct words, the episode's own first).
MAX_CONTEXT_CHARS = 1000
# English month names whatever the process locale.
_MONTHS = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
)  # fmt: skip


def with_context(
    draft: MemoryDraft, *, previous_id: str | None, previous: str | None, local_time: datetime
) -> MemoryDraft:
    """Contextual indexing (docs/formation.md, Episodes): the episode is embedded with the
    session's previous turn ``previous`` (clear text, any role) and full-text indexed with it
    and the session's date in words ("8 May 2023", the turn's own UTC offset); its content
    stays the turn. Which context was used is recorded in ``origin.context``
    (``{"previous_message_id", "date"}``), so the row can be indexed again. Changes and
    returns ``draft``."""
    draft.context = previous[:MAX_CONTEXT_CHARS] if previous else None
    draft.context_date = f"{local_time.day} {_MONTHS[local_time.month - 1]} {local_time.year}"
    draft.origin["context"] = {
        "previous_message_id": previous_id if previous else None,
        "date": local_time.date().isoformat(),
    }
    return draft


# Types whose decay floor a setting may put at 0 (constraints never decay; an episode is the
# turn itself).
_FADING_TYPES = frozenset({"profile", "preference", "fact", "event"})


def inherited_half_life(settings: Settings, episode: Memory, formed: list[Memory]) -> float | None:
    """The half-life (days) an episode takes from the facts formed from its turn, or None to
    keep its own (``settings.half_life_days("episode")``).

    An episode fades no slower than what it said fades: it takes the shortest half-life of the
    formed facts **that fade** — their type's decay floor is 0 (an event) — and that lie
    **ahead of the turn** (the fact's ``valid_from`` after the episode's: a plan, "我明天下午三点
    要和客户开会"), when it is shorter than its own. A fact with a positive floor (profile,
    preference, fact) never fades, so it shortens nothing: a turn that formed a preference
    does not leave recall with the preference's 14-day half-life, but after its own (it then
    fades after about 5.6 years while the preference stays, at its floor). A past event told
    ("I went to a support group yesterday") is a record of what happened, not an appointment
    that passes: its turn ages like any turn. docs/formation.md, Episodes."""
    own = settings.half_life_days(EPISODE)
    lives = [
        f.half_life_days or settings.half_life_days(f.type)
        for f in formed
        if f.type in _FADING_TYPES
        and settings.decay_floor(f.type) == 0
        and f.valid_from > episode.valid_from
    ]
    shortest = min((h for h in lives if h is not None), default=None)
    return shortest if shortest is not None and own is not None and shortest < own else None
