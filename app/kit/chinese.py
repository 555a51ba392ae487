"""The process's one jieba dictionary, with Memlane's own words added, loaded once; and
traditional Chinese read in simplified characters (``simplified``).

jieba keeps a single default dictionary per process. Every segmentation that shares it (the
extractor's part-of-speech tags, the search terms of memories and queries, the entities of
recall) must see the same words, whatever ran first in the process: a memory indexed before
the extractor first ran and a query segmented after it would otherwise be cut differently
("燕麦拿铁" as 燕麦 + 拿铁, or 燕麦 + 拿 + 铁), and so would the same text before and after a
restart.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

# nouns jieba's dictionary tags as something else (拿铁 as a verb: 拿 "take"), so a value
# isolated by part of speech does not stop inside them
NOUNS = ("拿铁", "燕麦拿铁", "冷萃", "澳白", "美式", "气泡水")
# employers jieba's dictionary tags as places (京东 is also "east of the capital"), so "我在京东做…"
# names an employer, not a work location
ORGANISATIONS = ("京东", "中兴", "大疆")

_lock = threading.Lock()
_jieba: Any = None
_converters: dict[str, Any] = {}


def jieba_loaded() -> Any:
    """The ``jieba`` module, its log level set to WARNING and ``NOUNS`` (tag ``n``) and
    ``ORGANISATIONS`` (tag ``nt``) added to its default dictionary; thread-safe, once per
    process. ``jieba.posseg`` is imported too (it shares that dictionary)."""
    global _jieba
    if _jieba is None:
        with _lock:
            if _jieba is None:
                import jieba
                import jieba.posseg

                jieba.setLogLevel(logging.WARNING)
                for word in NOUNS:
                    jieba.add_word(word, tag="n")
                for word in ORGANISATIONS:
                    jieba.add_word(word, tag="nt")
                _jieba = jieba
    return _jieba


def _converter(config: str) -> Any:
    """OpenCC's converter of ``config`` (``tw2sp``, ``s2tw``…), built once per process."""
    found = _converters.get(config)
    if found is None:
        with _lock:
            found = _converters.get(config)
            if found is None:
                import opencc

                found = _converters[config] = opencc.OpenCC(config)
    return found


def simplified(text: str) -> str:
    """``text`` with its traditional Chinese written in simplified characters and its
    full-width Latin letters and digits in ASCII (``_HALF_WIDTH``), one character for one:
    the result has ``text``'s length, so a span of one is the same span of the other.

    OpenCC's ``tw2sp`` (Taiwan's characters and its usual words: 軟體 -> 软件, 計程車 -> 出租车);
    where a word would change the length, its character table alone (``tw2s``); where even that
    would, ``text`` itself. Simplified text comes back with only its full-width letters
    changed (ASCII text is not looked at), so everything written for simplified Chinese reads
    traditional text too: the extractor's rules, the write filter, search terms.
    """
    if text.isascii():
        return text
    text = text.translate(_HALF_WIDTH)
    chars = str(_converter("tw2s").convert(text))
    if chars == text:
        # nothing traditional: read as it is (tw2sp's words would change simplified text too,
        # 程序 "program" into 进程 "process", Taiwan's sense of it)
        return text
    for read in (str(_converter("tw2sp").convert(text)), chars):
        if len(read) == len(text):
            return read
    return text


# full-width Latin letters and digits (Ａ１２３, "Ｇｏｏｇｌｅ") and the signs of addresses and
# numbers (＠ ． － ＿ ＋ ＃) as their ASCII forms, one character for one, as NFKC reads them;
# Chinese punctuation (，！？：) stays as it is
_HALF_WIDTH = {
    full: full - 0xFEE0
    for full in [
        *range(0xFF10, 0xFF1A),
        *range(0xFF21, 0xFF3B),
        *range(0xFF41, 0xFF5B),
        *(0xFF20, 0xFF0E, 0xFF0D, 0xFF3F, 0xFF0B, 0xFF03),
    ]
}


def spellings(value: str) -> list[str]:
    """``value`` as written, in simplified and in traditional characters (``simplified``,
    ``traditional``), distinct, in that order: the forms a stored value of either script may
    have, for lookups that compare values as strings ("雞蛋" finds "鸡蛋" and the reverse)."""
    return list(dict.fromkeys((value, simplified(value), traditional(value))))


def traditional(text: str) -> str:
    """``text`` in traditional characters as Taiwan writes them (OpenCC's ``s2tw``, character
    for character, no change of words): what Memlane itself words for a user who writes
    traditional Chinese."""
    return text if text.isascii() else str(_converter("s2tw").convert(text))
