"""The cascade extractor: the offline rules read every turn; a chat model reads only the user
turns the rules could not read (``MEMLANE_EXTRACTOR=cascade``).

The rules form most facts at no cost and the same way every time; what they cannot read —
wordings no rule knows — goes to the model. Measured on the extraction corpus
(docs/formation.md, "The cascade"): on text they were never tuned on, the rules read no key, no
withdrawal and no correction in about one user turn in eight, and those turns hold about two in
five of the facts they miss. The model sees those turns with the turn just before each of them
as context (from the session's earlier messages for the first turn of a batch), nothing else,
and only what the privacy layer lets a remote model see (``shown``: masked values, sealed
secrets).
"""

from __future__ import annotations

from collections.abc import Sequence

from app.ingest.extraction.base import ExtractedFact, Turn
from app.ingest.extraction.filter import is_noise
from app.ingest.extraction.llm import LLMExtractor
from app.ingest.extraction.rules import RuleExtractor
from app.kit.metrics import CASCADE_TURNS

# the turns before an asked turn the model gets as context
CONTEXT_TURNS = 1
# asked turns per model call: a long batch (an imported history) is read in several calls, each
# well inside a small model's context window
ASKED_PER_CALL = 16


def reads(fact: ExtractedFact) -> bool:
    """True if ``fact`` is a reading of its turn: it has a key, withdraws a value or corrects
    what was said ("I take that back", "sorry, I meant tulip-4417": the rules' own readings of
    a slip, which a model told only this turn could not make, and which may hold a secret). A
    fact with none of these is the sentence kept as it was said: the rules did not read it."""
    return fact.key is not None or bool(fact.retracts) or fact.is_correction


def unread_turns(turns: list[Turn], facts: list[ExtractedFact]) -> list[int]:
    """Indexes of the user turns of ``turns`` that no fact of ``facts`` reads (``reads``,
    ``message_ids``) and that are neither a question nor small talk (``filter.is_noise``)."""
    read = {m for f in facts if reads(f) for m in f.message_ids}
    return [
        i
        for i, t in enumerate(turns)
        if t.role == "user" and t.message_id not in read and not is_noise(t.content)
    ]


class CascadeExtractor:
    """Extractor (name ``"cascade"``): ``RuleExtractor`` on every turn, ``LLMExtractor`` on
    the user turns it could not read.

    ``extract(turns, has_task=..., shown=..., before=...)`` -> the rules' facts, then the
    model's facts that come from an asked turn, their ``message_ids`` cut to the asked turns'
    ids and marked ``metadata["formed_by"] = "llm"``. A turn is asked about when it is a user
    turn, no fact of the rules reads it (``reads``: a key, a value withdrawn, a correction),
    and it is neither a question nor small talk (``filter.is_noise``, the test that keeps a
    turn as an episode); at most ``ASKED_PER_CALL`` asked turns go in one call. The rules'
    keyless sentences of a turn the model formed a fact from give way to it; of a turn it
    formed nothing from they stay. No model call when no turn is asked about. Raises
    ``ExtractionError`` when a model call fails (the queue retries the job; the rules' facts
    are formed again then, the same; ``tasks.extract_clear`` keeps them alone on the job's
    last attempt)."""

    name = "cascade"

    def __init__(self, rules: RuleExtractor, llm: LLMExtractor) -> None:
        self.rules = rules
        self.llm = llm

    async def extract(
        self,
        turns: list[Turn],
        *,
        has_task: bool = False,
        shown: list[Turn] | None = None,
        before: Sequence[Turn] = (),
    ) -> list[ExtractedFact]:
        """``turns`` in clear text for the rules; ``shown``: the same turns, in the same order,
        as a remote model may see them (default ``turns``); ``before``: the conversation's
        turns before them, oldest first, as a model may see them, context for the first asked
        turns (what a correction corrects was often said in the turn before)."""
        facts = await self.rules.extract(turns, has_task=has_task)
        asked = unread_turns(turns, facts)
        users = sum(t.role == "user" for t in turns)
        CASCADE_TURNS.labels("asked_model").inc(len(asked))
        CASCADE_TURNS.labels("read_by_rules").inc(users - len(asked))
        if not asked:
            return facts
        seen = [*before, *(shown if shown is not None else turns)]
        more: list[ExtractedFact] = []
        for start in range(0, len(asked), ASKED_PER_CALL):
            chunk = asked[start : start + ASKED_PER_CALL]
            at = [len(before) + i for i in chunk]
            context = sorted({j for k in at for j in range(max(0, k - CONTEXT_TURNS), k + 1)})
            chunk_ids = {turns[i].message_id for i in chunk}
            for fact in await self.llm.extract([seen[j] for j in context], has_task=has_task):
                # formed from the asked turns only: a context turn is the rules' to read
                fact.message_ids = [m for m in fact.message_ids if m in chunk_ids]
                if fact.message_ids:
                    fact.metadata["formed_by"] = "llm"
                    more.append(fact)
        ids = {turns[i].message_id for i in asked}
        # the model's reading of a turn replaces the sentences the rules kept of it
        answered = {m for f in more for m in f.message_ids} & ids
        kept = [f for f in facts if reads(f) or not set(f.message_ids) <= answered]
        return kept + more
