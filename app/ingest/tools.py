"""Tool turns: what a tool observed, remembered with source ``tool_observed``.

A ``tool`` message (``{"role": "tool", "name": "order_status", "content": "Order 1042
shipped on 2026-05-02"}``) forms two kinds of fact, both with source ``tool_observed`` and
``settings.tool_observed_confidence`` (docs/sessions.md, Tool results):

1. **The observation** itself (``observation_fact``): one ``fact`` without a key, its content
   ``"<name>: <result>"`` cut to ``MAX_OBSERVATION_CHARS``, ``metadata.tool`` the tool's name.
   A tool result said again is a duplicate (confirmation), not a second row.
2. **The facts about the user** it states (``about_user``): the clauses whose subject is the
   user in the third person ("The user lives in Porto", "用户住在上海", "the customer's email
   is …") are put in the first person ("I live in Porto", "我住在上海") and go through the
   same extractor as the user's own turns; they carry keys and are arbitrated like any other
   fact — below ``user_declared``, above ``behavior_observed`` and ``model_inferred``. A tool's
   own first person ("I found 3 flights") is never taken for the user's.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Final

from app.ingest.extraction.base import ExtractedFact, Turn

SOURCE: Final = "tool_observed"
# Keys only the user's own word may set: how the assistant must behave. A tool result (a web
# page, a CRM note) saying "the user wants you to …" is data, possibly planted, not a request.
TOOL_UNSTATABLE_KEYS: Final = frozenset({"assistant.constraint"})
MAX_OBSERVATION_CHARS = 500
# A result shorter than this many word characters ("ok", "[]") observes nothing.
MIN_OBSERVATION_WORD_CHARS = 3

_SENTENCE = re.compile(r"(?<=[。！？!?；;\n])\s*|(?<=[.])\s+(?=\S)")
_WORD_CHAR = re.compile(r"\w")
_SUBJECT_ZH = re.compile(r"^\s*(?:该|这位|此)?(?:用户|客户|顾客|会员|乘客|患者|旅客)")
_SUBJECT_EN = re.compile(
    r"^\s*(?:the )?(?:user|customer|client|member|account holder|passenger|traveller|traveler"
    r"|patient|guest)(?P<poss>'s)?\b\s*",
    re.I,
)
# The verb after a third-person subject, put in the first person.
_VERB_EN = {"is": "am", "has": "have", "was": "was", "does": "do", "goes": "go"}
_ENDS_ES = re.compile(r"(?:ss|sh|ch|x|z|o)es$")


def observation_fact(
    message_id: str, name: str | None, content: str, confidence: float
) -> ExtractedFact | None:
    """The tool result as one keyless ``fact`` (source ``tool_observed``), or None when it
    holds fewer than ``MIN_OBSERVATION_WORD_CHARS`` word characters."""
    text = " ".join(content.split())
    if len(_WORD_CHAR.findall(text)) < MIN_OBSERVATION_WORD_CHARS:
        return None
    text = f"{name}: {text}" if name else text
    if len(text) > MAX_OBSERVATION_CHARS:
        text = text[: MAX_OBSERVATION_CHARS - 1].rstrip() + "…"
    return ExtractedFact(
        type="fact",
        content=text,
        source=SOURCE,
        confidence=confidence,
        message_ids=[message_id],
        metadata={"tool": name} if name else {},
    )


def _first_person_en(sentence: str) -> str | None:
    m = _SUBJECT_EN.match(sentence)
    if m is None:
        return None
    rest = sentence[m.end() :]
    if m.group("poss"):
        return "My " + rest
    verb, _, tail = rest.partition(" ")
    low = verb.lower()
    if low in _VERB_EN:
        verb = _VERB_EN[low]
    elif low.endswith("ies") and len(low) > 4:
        verb = verb[:-3] + "y"
    elif _ENDS_ES.search(low):
        verb = verb[:-2]
    elif low.endswith("s") and not low.endswith("ss"):
        verb = verb[:-1]
    return f"I {verb} {tail}".rstrip()


def _first_person_zh(sentence: str) -> str | None:
    m = _SUBJECT_ZH.match(sentence)
    return "我" + sentence[m.end() :] if m else None


def about_user(turn: Turn) -> Turn | None:
    """The tool turn as the user's own statement: its sentences about the user (third person)
    in the first person, joined; other sentences dropped. None when no sentence is about the
    user. The returned turn has role ``user`` and the tool turn's id and time."""
    kept = []
    for sentence in _SENTENCE.split(turn.content):
        if not sentence or not sentence.strip():
            continue
        first = _first_person_zh(sentence) or _first_person_en(sentence)
        if first:
            kept.append(first)
    if not kept:
        return None
    return replace(turn, role="user", content=" ".join(kept))


def as_observed(fact: ExtractedFact, name: str | None, confidence: float) -> ExtractedFact:
    """A fact formed from a tool turn: source ``tool_observed``, ``confidence``, the tool's
    name in ``metadata.tool``; never a correction of the user's own word."""
    fact.source = SOURCE
    fact.confidence = confidence
    fact.is_correction = False
    fact.retracts = []
    if name:
        fact.metadata = {**fact.metadata, "tool": name}
    return fact
