"""What a new value replaces when the turn says it only by its meaning.

"我 transfer 去 NUS 了" after "我现在在 NTU 读 EEE", "Changed things up — doing evening workouts
around 7pm now" after "I hit the gym at 6am every day", "不考研了…准备直接找工作" after "我打算明年
去考研": the rules form the new value but name no old one to withdraw, and under a key that
holds several values (schools, routines, plans) the old one stayed active beside it. Here a
turn that the act classifier (``extraction.acts``) reads as changing or ending something, and
that forms values of one key only, withdraws the value of the user's recent turns it is
closest to in meaning, when that value is of the same key and stands clearly above the others.

A wider form — also withdrawing by meaning when the turn formed no value ("我已经改名了，现在身份
证上是刘思远") — raised supersession recall on new text but froze true facts on 19 look-alikes of
the tests ("Jazz isn't the only thing I listen to anymore", "现在在地铁上了"); it was not kept.
The thresholds were chosen on the tune files of the extraction corpus and the probes
(docs/formation.md, "What a new value replaces, found by meaning").
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from app.db.models import Message
from app.ingest.extraction import acts
from app.ingest.extraction.base import ExtractedFact
from app.ingest.repository import ConversationRepository
from app.memories.repository import MemoryRepository

log = logging.getLogger(__name__)

# The act's probability (``acts.classify``) a turn needs: changes or ends.
ACT_MIN = 0.6
# Cosine similarity (E5 ``query:`` embeddings, ``encode_local``) between the turn and the
# closest earlier value or its content, and how far it must stand above the second closest.
SIMILARITY_MIN = 0.83
MARGIN_MIN = 0.02
# How many earlier user turns of the session are read for what the turn may replace.
TURNS_BACK = 3

# Keys never withdrawn by meaning: a relative stays one whatever the user changes ("and baby
# #2 arrived last month, we named him Leo" after "my daughter Mia"; a relative's ending is said
# by name, ``rules._ended``); a rule for the assistant is replaced by its own stage
# (``extraction.standing``), and "会议总结不用了" ends no rule "每次回答最后都帮我总结一下".
_KEPT_KEYS = frozenset({"family.member", "assistant.constraint"})

# A word of addition: "also high blood pressure now", "海鲜也过敏", "又养了一只猫".
_ADDED = re.compile(r"\b(?:also|too|as well|another)\b|也|还有|又", re.I)

# A word that keeps what it names: "I got a new job offer but I'm staying at Stripe".
_KEEPS = re.compile(r"\b(?:still|stay(?:ing|s)?|remain(?:ing|s)?)\b|继续|仍然|依然|照样|还在", re.I)


@dataclass(frozen=True, slots=True)
class _Held:
    key: str
    value: str
    content: str


async def supersede_by_meaning(
    conv: ConversationRepository,
    repo: MemoryRepository,
    session_id: str,
    messages: Sequence[Message],
    facts: list[ExtractedFact],
    reveal: Callable[[str, list[dict[str, Any]]], str],
) -> list[ExtractedFact]:
    """``facts``, where the values a user turn forms under one key retract the value of the
    user's last ``TURNS_BACK`` turns of the session that the turn means (``_closest``), when
    that value is of the same key (arbitration then freezes it, ``is_correction``).

    Left as they are: turns with a fact that already withdraws or replaces (``retracts``,
    ``metadata["replaces"]``, a take-back), turns that form no value or values of several keys,
    a turn with a word of addition (``_ADDED``: "海鲜也过敏"), a turn that names the value with a
    word that keeps it (``_KEEPS``: "…but I'm staying at Stripe"), values of ``_KEPT_KEYS``,
    and any turn not read as a change or an ending at ``ACT_MIN``, or whose closest value is
    not above ``SIMILARITY_MIN`` and ``MARGIN_MIN`` ahead of the next."""
    out = list(facts)
    for message in messages:
        if message.role != "user":
            continue
        mid = str(message.id)
        own = [f for f in out if mid in f.message_ids]
        if any(
            f.retracts or f.metadata.get("replaces") or f.metadata.get("takes_back_message")
            for f in own
        ):
            continue
        keys = {f.key for f in own if f.key and f.value}
        if len(keys) != 1:
            continue  # nothing new said in place of an old value, or several things at once
        text = reveal(message.content, message.sealed)
        if _ADDED.search(text):
            continue
        held = await _held_before(conv, repo, session_id, message, out, reveal)
        if not held:
            continue
        closest = await asyncio.to_thread(_closest, text, held)
        if closest is None or closest.key not in keys:
            continue
        if closest.value.lower() in text.lower() and _KEEPS.search(text):
            continue
        old = closest.value.lower()
        for fact in own:
            if fact.key == closest.key and fact.value and fact.value.lower() != old:
                fact.retracts = [*fact.retracts, old]
                fact.is_correction = True
    return out


def _closest(text: str, held: list[_Held]) -> _Held | None:
    """The value of ``held`` that ``text`` means, or None (blocking: embeds)."""
    import numpy as np

    from app.providers.embeddings import encode_local

    act = acts.classify([acts.said(text)])
    if not act or act[0].act not in ("changes", "ends") or act[0].probability < ACT_MIN:
        return None
    pieces = [text, *(h.content for h in held), *(h.value for h in held)]
    vecs = np.asarray(encode_local(pieces, is_query=True), dtype="float32")
    turn, contents, values = vecs[0], vecs[1 : 1 + len(held)], vecs[1 + len(held) :]
    sims = np.maximum(contents @ turn, values @ turn)  # unit vectors: dot = cosine
    order = np.argsort(-sims)
    best = float(sims[order[0]])
    second = float(sims[order[1]]) if len(held) > 1 else 0.0
    if best < SIMILARITY_MIN or best - second < MARGIN_MIN:
        return None
    log.debug(
        "withdrawn by meaning: %s (act %s %.2f, similarity %.3f, margin %.3f)",
        held[int(order[0])].key,
        act[0].act,
        act[0].probability,
        best,
        best - second,
    )
    return held[int(order[0])]


async def _held_before(
    conv: ConversationRepository,
    repo: MemoryRepository,
    session_id: str,
    message: Message,
    batch: list[ExtractedFact],
    reveal: Callable[[str, list[dict[str, Any]]], str],
) -> list[_Held]:
    """The keyed values formed from the last ``TURNS_BACK`` user turns of the session before
    ``message``: from this batch's facts when the turn is in it, else the active memories
    formed from it, in clear."""
    held: list[_Held] = []
    seq = message.seq
    for _ in range(TURNS_BACK):
        previous = await conv.previous_message(session_id, seq, role="user")
        if previous is None:
            break
        pid = str(previous.id)
        here = [
            f
            for f in batch
            if pid in f.message_ids and f.key and f.value and f.key not in _KEPT_KEYS
        ]
        if here:
            held += [_Held(f.key or "", f.value or "", f.content) for f in here]
        else:
            for m in await repo.active_formed_from(pid):
                if m.key and m.value and m.key not in _KEPT_KEYS:
                    value, content = reveal(m.value, m.sealed), reveal(m.content, m.sealed)
                    held.append(_Held(m.key, value, content))
        seq = previous.seq
    return list({(h.key, h.value.lower()): h for h in held}.values())
