"""Full-text search terms: jieba-segmented Chinese and lower-cased words, stopwords removed.

PostgreSQL's parser only splits on spaces and punctuation, which leaves a Chinese sentence as
one token; Memlane segments the text itself and stores the terms space-separated
(``memories.search_text``), from which the generated ``tsv`` column is built
(``to_tsvector('english', search_text)``).

``tsv`` is carried by the covering index ``ix_memories_text`` (docs/recall.md, "Query plan"),
and a btree entry holds at most 2,704 bytes: ``search_text`` keeps the terms, in order, while
an upper bound of the tsvector they make stays within ``MAX_TSV_BYTES``. A tsvector stores, per
distinct lexeme, a 4-byte entry, the lexeme (at most the term's bytes: stemming only shortens),
a pad byte, a 2-byte position count and 2 bytes per position, after an 8-byte header (its
length and its entry count; PostgreSQL docs, "tsvector", and
``src/include/tsearch/ts_type.h``); a term the parser splits at an apostrophe makes one lexeme
more. About 130 distinct words fit (English or Chinese, ~15 bytes each; a repeated
word costs 2 bytes), typically the first 1,000–2,000 characters of prose; a longer memory's
later words are found by its embedding only.
"""

from __future__ import annotations

import re

from app.kit.chinese import jieba_loaded, simplified

_CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_WORD = re.compile(r"[0-9a-z]+(?:['’][a-z]+)?", re.I)
MAX_QUERY_TERMS = 32
_STOPWORDS_TEXT = """
a an the and or but if of at by for with about to from in on is are was were be been being
do does did have has had i you he she it we they me him her them my your his its our their
this that these those what which who whom when where why how as so than too very can will
just not no yes there here then also into out up down over again only own same such some
any all both each few more most other s t don should now would could shall may might must
i'm it's that's let's
的 了 是 在 和 与 及 或 就 都 也 还 又 吗 呢 吧 啊 呀 哦 嗯 我 你 他 她 它 我们 你们 他们
这 那 这个 那个 这些 那些 一个 一下 有 没有 什么 怎么 为什么 哪 哪里 多少 几 个 要 会 能 想
把 被 让 给 对 向 从 到 上 下 里 中 很 太 更 最 么
"""
STOPWORDS = frozenset(_STOPWORDS_TEXT.split())


def terms(text: str) -> list[str]:
    """Search terms of ``text`` in order (duplicates kept): Chinese runs, in simplified
    characters (``kit.chinese.simplified``), cut by jieba in search mode; Latin words and
    numbers lower-cased; stopwords and single Latin letters dropped."""
    out: list[str] = []
    pos = 0
    for m in _CJK_RUN.finditer(text):
        out += _latin(text[pos : m.start()])
        # in simplified characters: "台積電" finds what was stored as "台积电", and the reverse
        cut = jieba_loaded().cut_for_search(simplified(m.group(0)))
        out += [w for w in cut if w not in STOPWORDS]
        pos = m.end()
    out += _latin(text[pos:])
    return out


def _latin(text: str) -> list[str]:
    words = (w.lower().replace("’", "'") for w in _WORD.findall(text))
    return [w for w in words if w not in STOPWORDS and (len(w) > 1 or w.isdigit())]


MAX_TERM_BYTES = 64
MAX_TSV_BYTES = 2000


def search_text(text: str) -> str:
    """The stored form: terms separated by spaces, as many leading terms as keep the tsvector's
    size bound within ``MAX_TSV_BYTES`` (see the module docstring); terms longer than
    ``MAX_TERM_BYTES`` (no word is) are left out."""
    kept: list[str] = []
    seen: set[str] = set()
    size = 8  # the tsvector's header: its varlena length and its entry count (ts_type.h)
    for term in terms(text):
        n = len(term.encode())
        if n > MAX_TERM_BYTES:
            continue
        lexemes = 1 + term.count("'")
        cost = 2 * lexemes if term in seen else n + 9 * lexemes
        if size + cost > MAX_TSV_BYTES:
            break
        size += cost
        seen.add(term)
        kept.append(term)
    return " ".join(kept)


def index_text(content: str) -> str:
    """``search_text`` of a stored memory content (tokens of sealed values become their kind)."""
    from app.privacy.protect import embedding_text

    return search_text(embedding_text(content))


def query_terms(text: str) -> list[str]:
    """Distinct terms of a query, at most ``MAX_QUERY_TERMS``, safe to put in a tsquery."""
    seen = dict.fromkeys(t for t in terms(text) if re.fullmatch(r"[\w']+", t))
    return [t.replace("'", "") for t in seen][:MAX_QUERY_TERMS]
