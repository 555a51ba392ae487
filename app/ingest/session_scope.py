"""Where a fact formed from a session's turns starts, and what the user's cues do to it
(docs/sessions.md).

- **Tentative** facts start in the scope of the session they were said in: a fact the model
  inferred (``model_inferred``) or read from behaviour (``behavior_observed``), and a fact the
  user marked temporary ("这次先…", "for this trip…", "这个不用记"; ``cues.temporary``). They
  win inside their session at once and move to user scope once confirmed in
  ``settings.promote_after_sessions`` distinct sessions (arbitration rule ``session_layer``),
  or when the user asks to remember them; a session that ends archives what is left in its
  scope. Their ``origin.tentative`` says why they started there.
- **Remember** ("记住", "remember this") promotes at once: the draft looks for its twin in the
  session scope (``promote_now``), which moves to user scope; without one it is stored in user
  scope.
- **Emphasis** ("一定要记得", "别忘了", "this is important", and every request to remember)
  raises the confidence by ``settings.emphasis_confidence_boost`` and pins the memory
  (``metadata.pinned = true``, ``metadata.emphasis`` = the words): forgetting never archives a
  pinned memory (app/lifecycle/repository.py).

A fact said inside a task keeps the task's scope; tool results are not tentative
(app/ingest/tools.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from app.ingest.extraction.base import ExtractedFact
from app.ingest.extraction.cues import NO_CUES, Cues, TurnCues, cues_for
from app.memories.writer import MemoryDraft, base_confidence
from app.users.policy import LOW_CONFIDENCE_SOURCES


@dataclass(frozen=True, slots=True)
class Formation:
    """How one fact is formed: ``tentative`` is why it starts in the session scope (None:
    it does not), ``cues`` the user's cues that cover it."""

    tentative: str | None
    cues: Cues

    @property
    def pinned(self) -> bool:
        return self.cues.emphasised is not None


def formation(fact: ExtractedFact, turns: dict[str, TurnCues]) -> Formation:
    """The formation of ``fact`` from the cues of the turns it came from (``turns``: per
    message id, user turns only)."""
    cues = NO_CUES
    for mid in fact.message_ids:
        if mid in turns:
            cues = cues | cues_for(turns[mid], fact.content, fact.value)
    tentative: str | None = None
    if cues.remember is None:
        if cues.temporary:
            tentative = "temporary"
        elif fact.source in LOW_CONFIDENCE_SOURCES and cues.emphasised is None:
            tentative = fact.source
    return Formation(tentative=tentative, cues=cues)


def shape(
    draft: MemoryDraft,
    form: Formation,
    *,
    session_id: str | None,
    emphasis_boost: float,
) -> MemoryDraft:
    """Apply ``form`` to the writer's ``draft`` (changed in place and returned): a tentative
    or remembered fact of a session moves from user scope to the session's scope (remembered:
    with ``promote_now``); an emphasised one is pinned, its confidence raised (at most 1)."""
    if form.pinned:
        draft.metadata = {**draft.metadata, "pinned": True, "emphasis": form.cues.emphasised}
        start = draft.confidence if draft.confidence is not None else base_confidence(draft.source)
        draft.confidence = min(1.0, start + emphasis_boost)
    if not session_id or draft.scope != "user":
        return draft
    if form.cues.remember is not None:
        draft.scope, draft.scope_id, draft.promote_now = "session", session_id, True
    elif form.tentative is not None:
        draft.scope, draft.scope_id = "session", session_id
        draft.origin = {**draft.origin, "tentative": form.tentative}
    return draft
