"""Traditional Chinese: read in simplified characters, remembered as the user wrote it.

Every rule, word list and model of the extractor is written for simplified Chinese. A turn in
traditional characters ("我對花生過敏", "我在台積電當工程師") is read through its simplified
form (``kit.chinese.simplified``: one character for one, so spans line up), and what that
reading forms is written back in the turn's own characters (``as_written``): the value is the
user's own span of text ("台積電", not "台积电"), and words Memlane adds ("在…工作") are put in
traditional characters. A user who writes traditional Chinese sees their memories in it, and
their corrections name the values as they were stored.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from app.ingest.extraction.base import ExtractedFact, Turn
from app.kit.chinese import simplified, traditional

# characters that show nothing (zero-width space, joiners, word joiner, byte-order mark): 花,
# U+200B, 生 is 花生
_INVISIBLE = re.compile("[\u200b-\u200d\u2060\ufeff]")


def visible(turn: Turn) -> Turn:
    """``turn`` without the characters that show nothing (``_INVISIBLE``), which would cut a
    value in two ("台\u200b積電")."""
    text = _INVISIBLE.sub("", turn.content)
    return turn if text == turn.content else replace(turn, content=text)


def read_as_simplified(turn: Turn) -> Turn | None:
    """``turn`` with its text in simplified characters, or ``None`` when it has nothing
    traditional (it is read as it is)."""
    read = simplified(turn.content)
    return None if read == turn.content else replace(turn, content=read)


def as_written(text: str, original: str, read: str) -> str:
    """``text``, formed from ``read`` (the simplified form of ``original``, of the same
    length), in ``original``'s characters: each longest piece of ``text`` found in ``read``
    (case-insensitively) becomes the same span of ``original``; what is not found there (words
    the extractor adds, a date it resolved) is put in traditional characters
    (``kit.chinese.traditional``)."""
    if text.isascii():
        return text
    folded = read.lower() if len(read.lower()) == len(read) else read
    out: list[str] = []
    added: list[str] = []
    i = 0
    while i < len(text):
        at, size = -1, 0
        for end in range(len(text), i, -1):
            piece = text[i:end]
            at = read.find(piece)
            if at < 0:
                at = folded.find(piece.lower())
            if at >= 0:
                size = end - i
                break
        if size == 0:
            added.append(text[i])
            i += 1
            continue
        if added:
            out.append(traditional("".join(added)))
            added = []
        spans = zip(text[i : i + size], read[at : at + size], original[at : at + size], strict=True)
        # the user's character where the reading's was kept; a letter the extractor lower-cased
        # stays as it made it
        out.append("".join(o if t == r else t for t, r, o in spans))
        i += size
    if added:
        out.append(traditional("".join(added)))
    return "".join(out)


def _written(value: Any, original: str, read: str) -> Any:
    if isinstance(value, str):
        return as_written(value, original, read)
    if isinstance(value, list):
        return [_written(v, original, read) for v in value]
    if isinstance(value, dict):
        return {k: _written(v, original, read) for k, v in value.items()}
    return value


def fact_as_written(fact: ExtractedFact, original: str, read: str) -> ExtractedFact:
    """``fact``, formed from ``read``, with its content, value, withdrawn values and the text
    of its metadata in ``original``'s characters (``as_written``)."""
    fact.content = as_written(fact.content, original, read)
    if fact.value is not None:
        fact.value = as_written(fact.value, original, read)
    fact.retracts = [as_written(r, original, read) for r in fact.retracts]
    fact.metadata = {k: _written(v, original, read) for k, v in fact.metadata.items()}
    return fact
