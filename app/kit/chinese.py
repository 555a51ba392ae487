"""The process's one jieba dictionary, with Memlane's own words added, loaded once.

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
