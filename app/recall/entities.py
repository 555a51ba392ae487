"""Named entities of a text: the people, places, organisations and products it names.

Found at write time (``memories.entities``) and in a recall query; a query that names an entity
lifts the memories that mention it (docs/recall.md, "Ranking formula", the entity signal).

- Chinese: jieba's part-of-speech tagger (``jieba.posseg``), words tagged ``nr`` (person; also
  ``nrfg``, ``nrt``), ``ns`` (place), ``nt`` (organisation) and ``nz`` (other proper noun), the
  tag set of the ICTCLAS / PKU corpus that jieba's dictionary uses.
- Scripts with letter case (Latin, Greek, Cyrillic…): capitalised words (``Caroline``, ``LGBTQ``,
  ``José``, ``Наташа``, ``O'Brien``, ``Mary-Jane``) that are not on a small stop-list of words
  capitalised only because they open a sentence or are the pronoun ``I`` (question words,
  greetings, function words: ``app.recall.text.STOPWORDS`` and ``_CAPITALISED_STOPWORDS``). Each
  word of a span counts on its own, so "Melanie" in a query matches "Melanie Smith".

Entities are lower-cased, distinct, in order of first occurrence, at most ``MAX_ENTITIES``.
"""

from __future__ import annotations

import re

from app.kit.chinese import jieba_loaded, simplified
from app.recall.text import _CJK_RUN, STOPWORDS

MAX_ENTITIES = 32
MAX_ENTITY_CHARS = 48
# Tags of jieba's dictionary that name an entity (nr person, ns place, nt organisation, nz other
# proper noun; nrt / nrfg are jieba's transliterated and full person names).
_CJK_ENTITY_TAGS = frozenset({"nr", "nrt", "nrfg", "ns", "nt", "nz"})
# A word of a cased script (not a digit or "_" first), apostrophes and hyphens inside it.
_WORD = re.compile(r"[^\W\d_][\w'’-]*")
_CAPITALISED_STOPWORDS_TEXT = """
hey hi hello thanks thank yeah yes no ok okay oh wow sure well great good nice cool awesome
sorry please maybe really totally definitely absolutely anyway also plus btw lol haha omg
i i'm i've i'll i'd we're you're it's that's there's let's what's how's don't can't won't
did does do is are was were will would could should can may might must shall has have had
what when where who whom whose which why how whatever whenever however
the a an this that these those my your his her our their its it he she we they you me us
and or but so if then than as at by for from in into of on to with about after before
just not yep nope hmm aw ah um uh
"""
_CAPITALISED_STOPWORDS = frozenset(_CAPITALISED_STOPWORDS_TEXT.split())


def entities(text: str) -> list[str]:
    """The named entities of ``text``: lower-cased, distinct, in order, at most
    ``MAX_ENTITIES`` (see the module docstring for what counts as one)."""
    out: dict[str, None] = {}
    pos = 0
    for m in _CJK_RUN.finditer(text):
        _latin(text[pos : m.start()], out)
        _chinese(m.group(0), out)
        pos = m.end()
    _latin(text[pos:], out)
    return list(out)[:MAX_ENTITIES]


def _latin(text: str, out: dict[str, None]) -> None:
    for m in _WORD.finditer(text):
        if not m.group(0)[0].isupper():
            continue
        word = m.group(0).replace("’", "'").rstrip("'-").lower()
        word = word.removesuffix("'s")  # a possessive names the same entity
        if word in STOPWORDS or word in _CAPITALISED_STOPWORDS or len(word) < 2:
            continue
        if len(word) <= MAX_ENTITY_CHARS:
            out.setdefault(word, None)


def _chinese(run: str, out: dict[str, None]) -> None:
    for pair in jieba_loaded().posseg.cut(simplified(run)):
        word, flag = pair.word, pair.flag
        if flag in _CJK_ENTITY_TAGS and len(word) > 1 and word not in STOPWORDS:
            out.setdefault(word[:MAX_ENTITY_CHARS], None)


def memory_entities(content: str) -> list[str]:
    """``entities`` of a stored (protected) memory content: tokens of sealed values become
    their kind (``[email]``) first, so no sealed value is ever an entity."""
    from app.privacy.protect import embedding_text

    return entities(embedding_text(content))
