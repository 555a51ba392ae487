"""Cues in what the user says about how long a statement should be kept.

Three kinds of cue, each from a small lexicon (Chinese words matched on jieba tokens, English
phrases on word boundaries), never from the fact patterns of the extractors:

- **temporary** — the statement holds for now only: "这次先…", "这周先", "暂时", "临时" (not
  "at short notice": "临时有事", "临时通知", unless a span of time says so: "这周临时有事"),
  "今天先", "for this trip", "just for today", "for now", "temporarily", and a negated
  request to keep it ("这个不用记", "no need to remember this"). A permanence word in the same
  clause ("一直", "以后都", "for good", "from now on", "不是暂时的") cancels it.
- **emphasis** — the user insists: "一定要记得", "别忘了", "很重要", "don't forget",
  "this is important".
- **remember** — an explicit request to keep it: "记住", "帮我记下", "remember that",
  "please remember", "keep in mind". A request to remember is emphasis too.

Scope over the clause (``turn_cues``). A turn is cut into sentences (。！？!?；; newline,
". ") and sentences into clauses (，、,). A cue covers

1. its own clause and the clauses after it in the same sentence ("这次出差，我住在希尔顿");
   a clause that opens with a contrast ("但/不过/可是/but/however") starts afresh;
2. the whole sentence when the clause holds nothing but the cue ("我对花生过敏，一定要记住");
3. the sentence before it (the sentence after it when it comes first) when the whole sentence
   is the cue ("我对花生过敏。记住了！", "Remember! I'm allergic to peanuts.");
4. the previous turn when the whole turn is the cue ("记住这个" sent on its own):
   ``TurnCues.refers_back``.

``cues_for`` finds the clause a fact was formed from (the clause holding its value, else the
one sharing most of its words) and returns that clause's cues. Pure functions, no I/O.
"""

from __future__ import annotations

import logging
import re
import threading
from dataclasses import dataclass, field
from typing import Any

from app.kit.chinese import simplified

# --- lexicons ------------------------------------------------------------------------------

# Chinese words that make a statement temporary on their own (jieba tokens: "临时工" is a
# job, not a cue).
TEMPORARY_ZH = frozenset(
    {"暂时", "临时", "暂且", "姑且", "这次", "这回", "本次", "此次", "这一次", "这趟", "这一趟"}
)
# what "临时" says "at short notice" of, not "for now": something that came up ("供应商临时有事，
# 饭局改到下周一了" moves a dinner for good), a notice, a thing called off ("临时改喝茶",
# "临时决定" stay "for now")
SUDDEN_ZH = frozenset(
    {"有事", "有急事", "有点事", "有个事", "出事", "通知", "取消", "变卦", "起意", "爽约"}
)  # fmt: skip
# Spans of time that make a statement temporary with "先" ("这周先不吃辣", "今天先吃素") or
# with "只/就/仅" before them ("就今天", "只是这周").
TIME_SPAN_ZH = frozenset(
    {
        "这周", "本周", "这星期", "这个星期", "这礼拜", "这周末", "周末", "今天", "今晚",
        "今儿", "这几天", "这两天", "这阵子", "这段时间", "这个月", "本月", "最近",
    }
)  # fmt: skip
FOR_NOW_ZH = frozenset({"先"})
ONLY_ZH = frozenset({"只", "就", "仅", "只是", "就是", "仅仅"})
# Permanence: the statement is meant to last; cancels a temporary cue of its clause.
PERMANENT_ZH = re.compile(r"一直|永远|从来|以后|从此|长期|永久|始终|再也|今后|不是暂时|并非暂时")

TEMPORARY_EN = re.compile(
    r"\bfor now\b|\bfor the (?:time being|moment)\b|\btemporar(?:y|ily)\b"
    r"|\b(?:just|only) (?:for )?(?:today|tonight|this (?:once|time|week(?:end)?|month))\b"
    r"|\bfor (?:today|tonight)\b"
    r"|\b(?:for|during|on|throughout) (?:this|the) (?:trip|visit|stay|weekend|"
    r"session|conversation|chat|call|holiday|vacation|tour|flight|occasion)\b"
    r"|\bfor this (?:week|month)\b|\bfor the rest of (?:the|this) (?:day|week|trip|month)\b",
    re.I,
)
PERMANENT_EN = re.compile(
    r"\bfor good\b|\bpermanent(?:ly)?\b|\bfrom now on\b|\balways\b|\bforever\b"
    r"|\bnot (?:just )?(?:for now|temporar(?:y|ily))\b|\bin the long (?:run|term)\b",
    re.I,
)

EMPHASIS_ZH = re.compile(
    r"(?:一定|务必|千万|必须|切记)要?(?:记住|记得|记牢|记下|记着)|切记|牢记|记牢"
    r"|(?:别|不要|不能|千万别|可别)忘(?:了|记)?"
    r"|(?:很|非常|特别|十分|超级|极其|尤其)重要|重要的是|划重点|敲黑板"
)
# An explicit request to keep it; not "我记得…" (a recollection) nor a question ("记得吗").
# "帮我记下" is a request, "我记得" / "你还记得" a recollection.
REMEMBER_ZH = re.compile(
    r"(?:(?<=[帮给替为]我)|(?<![我他她它们没还]))"
    r"(?:记住|记下|记一下|记好|记牢|记着|记得|记上)(?![吗么没])"
)
# "这个不用记", "不必记住": the user says it need not be kept.
NO_REMEMBER_ZH = re.compile(r"(?:不用|不必|无需|不需要|没必要|用不着|别)(?:记住|记下|记着|记|存)")

# Imperatives only: "Don't forget, …", "This is important: …" — not "I'll never forget that
# day" (a recollection) nor "it's important to rest" (a general remark).
_LEAD_EN = r"^(?:(?:please|pls|also|and|so|okay|ok|oh|just|but|hey)[,\s]+)*"
EMPHASIS_EN = re.compile(
    _LEAD_EN + r"(?:don'?t|do not|never) forget\b"
    r"|\bmake sure (?:to|you) remember\b"
    r"|\b(?:this|that|it)(?: is|'s) (?:really |very |super |extremely |so )?important"
    r"(?=\s*(?:[:!.,;]|$))"
    r"|^important\b|\bimportant:",
    re.I,
)
REMEMBER_EN = re.compile(
    _LEAD_EN + r"remember\b"
    r"|\b(?:please|pls|make sure (?:to|you)|you should|can you|could you|i want you to"
    r"|i need you to)\s+remember\b"
    r"|\bkeep (?:this |that |it )?in mind\b|\bmake a note\b|\btake note\b|^note that\b",
    re.I,
)
NO_REMEMBER_EN = re.compile(
    r"\b(?:no need to|(?:you )?(?:don'?t|do not|doesn'?t) (?:need|have) to|not necessary to"
    r"|needn'?t) (?:remember|keep|save|store|note)\b"
    r"|\b(?:you can|feel free to) forget\b|\bdon'?t (?:save|store|remember) (?:this|that|it)\b",
    re.I,
)
CONTRAST = re.compile(r"^(?:但是?|不过|可是|然而|but\b|however\b|though\b)", re.I)

# What is left of a clause that holds nothing but a cue: filler and pointers.
_FILLER = re.compile(
    r"[\s\W_]+|\b(?:this|that|it|please|pls|for me|ok|okay|oh|and|so|also|well|thanks?|"
    r"thank you|you|is|very|really|super|the|a|one)\b"
    r"|这个|这件事|这点|这一点|这条|那个|这|那|请|帮我|给我|你要|你得|要|一定|好|哦|哈|呀|啊|了|的|吧|呢|嗯|喔",
    re.I,
)

_SENTENCE = re.compile(r"(?<=[。！？!?；;\n])\s*|(?<=[.])\s+(?=\S)")
_CLAUSE = re.compile(r"\s*(?:，|、|,(?!\d{3}\b))\s*")
_CJK = re.compile(r"[\u4e00-\u9fff]")
_WORD = re.compile(r"[a-z0-9']+|[\u4e00-\u9fff]", re.I)


@dataclass(frozen=True, slots=True)
class Cues:
    """The cues that cover a clause: the phrase that set each (``None``: none)."""

    temporary: str | None = None
    emphasis: str | None = None
    remember: str | None = None

    def __or__(self, other: Cues) -> Cues:
        return Cues(
            temporary=self.temporary or other.temporary,
            emphasis=self.emphasis or other.emphasis,
            remember=self.remember or other.remember,
        )

    @property
    def any(self) -> bool:
        return bool(self.temporary or self.emphasis or self.remember)

    @property
    def emphasised(self) -> str | None:
        """The phrase of an emphasis or of a request to remember (both pin the memory)."""
        return self.emphasis or self.remember


NO_CUES = Cues()


@dataclass(slots=True)
class TurnCues:
    """One turn's clauses with the cues that cover each (``(clause text, cues)``, in order),
    and ``refers_back``: the cues of a turn that is nothing but a cue ("记住这个"), which
    cover the previous turn (``None`` otherwise)."""

    clauses: list[tuple[str, Cues]] = field(default_factory=list)
    refers_back: Cues | None = None

    @property
    def temporary(self) -> bool:
        """Some clause of the turn is temporary and none asks to remember."""
        return any(c.temporary for _, c in self.clauses) and not any(
            c.remember for _, c in self.clauses
        )


# Frequency given to lexicon words in the cue tokenizer: high enough to win over the
# dictionary's own cuts ("周先", "个月").
LEXICON_WORD_FREQ = 100_000
_lock = threading.Lock()
_jieba: Any = None


def _tokens(text: str) -> list[str]:
    """jieba tokens of ``text`` from a tokenizer of its own that knows the lexicon words
    ("这周先" is 这周 + 先, not 这 + 周先), so the search index's segmentation is unchanged."""
    global _jieba
    if _jieba is None:
        with _lock:
            if _jieba is None:
                import jieba

                jieba.setLogLevel(logging.WARNING)
                tokenizer = jieba.Tokenizer()
                for word in (*TEMPORARY_ZH, *TIME_SPAN_ZH):
                    tokenizer.add_word(word, freq=LEXICON_WORD_FREQ)
                _jieba = tokenizer
    return [t for t in _jieba.lcut(text) if t.strip()]


def _temporary_zh(clause: str) -> str | None:
    if not _CJK.search(clause) or PERMANENT_ZH.search(clause):
        return None
    tokens = _tokens(clause)
    for i, tok in enumerate(tokens):
        if tok in TEMPORARY_ZH:
            if tok == "临时" and i + 1 < len(tokens) and tokens[i + 1] in SUDDEN_ZH:
                # "这周临时有事": the span of time still says "for now"
                span = next((t for t in tokens if t in TIME_SPAN_ZH), None)
                if span is None:
                    continue
                return span
            return tok
        if tok in TIME_SPAN_ZH:
            after = tokens[i + 1 : i + 4]
            if any(t in FOR_NOW_ZH or t.startswith("先") for t in after):
                return tok + "先"
            if i > 0 and tokens[i - 1] in ONLY_ZH:
                return tokens[i - 1] + tok
        if tok.startswith("先") and i > 0 and tokens[i - 1] in TIME_SPAN_ZH:
            return tokens[i - 1] + "先"
    return None


def permanent(clause: str) -> bool:
    """The clause says it is meant to last ("一直", "以后都", "for good", "from now on")."""
    clause = simplified(clause)
    return bool(PERMANENT_ZH.search(clause) or PERMANENT_EN.search(clause))


def clause_cues(clause: str) -> tuple[Cues, bool]:
    """The cues a clause holds itself, and whether the clause is nothing but cues (what is
    left without them is filler). Traditional Chinese is read in simplified characters."""
    text = simplified(clause.strip())
    emphasis = EMPHASIS_ZH.search(text) or EMPHASIS_EN.search(text)
    no_remember = NO_REMEMBER_ZH.search(text) or NO_REMEMBER_EN.search(text)
    remember = None if no_remember else (REMEMBER_ZH.search(text) or REMEMBER_EN.search(text))
    temporary: str | None = None
    if no_remember:
        temporary = no_remember.group(0)
    elif not PERMANENT_EN.search(text):
        en = TEMPORARY_EN.search(text)
        temporary = en.group(0) if en else _temporary_zh(text)
    cues = Cues(
        temporary=temporary,
        emphasis=emphasis.group(0) if emphasis else None,
        remember=remember.group(0) if remember else None,
    )
    rest = text
    for m in (emphasis, remember, no_remember):
        if m is not None:
            rest = rest.replace(m.group(0), " ")
    only = cues.any and not (cues.temporary and not no_remember) and not _FILLER.sub("", rest)
    return cues, only


def _sentences(text: str) -> list[list[str]]:
    out = []
    for sentence in _SENTENCE.split(text):
        parts = [c for c in _CLAUSE.split(sentence or "") if c and c.strip()]
        if parts:
            out.append(parts)
    return out


def turn_cues(text: str) -> TurnCues:
    """Every clause of the turn ``text`` with the cues that cover it (module docstring,
    "Scope over the clause")."""
    sentences = _sentences(text)
    raw = [[clause_cues(c) for c in s] for s in sentences]
    covered: list[list[Cues]] = []
    for s, cues in zip(sentences, raw, strict=True):
        whole = NO_CUES
        for c, only in cues:
            if only:
                whole = whole | c
        row, carried = [], NO_CUES
        for clause, (c, _only) in zip(s, cues, strict=True):
            if CONTRAST.match(clause.strip()):
                carried = NO_CUES
            if permanent(clause):
                # "这周先不吃辣，我一直住在上海": the second clause is not temporary.
                carried = Cues(emphasis=carried.emphasis, remember=carried.remember)
            carried = carried | c
            cover = carried | whole
            if cover.temporary and permanent(clause):
                cover = Cues(emphasis=cover.emphasis, remember=cover.remember)
            row.append(cover)
        covered.append(row)
    # A sentence that is nothing but cues covers its neighbour.
    cue_only = [all(only for _, only in cues) for cues in raw]
    for i, only in enumerate(cue_only):
        if not only:
            continue
        sentence_cues = NO_CUES
        for c, _ in raw[i]:
            sentence_cues = sentence_cues | c
        target = next(
            (j for j in [i - 1, i + 1] if 0 <= j < len(sentences) and not cue_only[j]), None
        )
        if target is not None:
            covered[target] = [c | sentence_cues for c in covered[target]]
    out = TurnCues(
        clauses=[
            (c, cues)
            for s, row in zip(sentences, covered, strict=True)
            for c, cues in zip(s, row, strict=True)
        ]
    )
    if sentences and all(cue_only):
        back = NO_CUES
        for cues in raw:
            for c, _ in cues:
                back = back | c
        out.refers_back = back
    return out


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)}


def cues_for(turn: TurnCues, content: str, value: str | None) -> Cues:
    """The cues of the clause a fact (``content``, ``value``) was formed from: the first clause
    holding the value (case-insensitive), else the clause sharing most words (Chinese
    characters, Latin words) with the content; ``NO_CUES`` when no clause shares any."""
    if value:
        v = value.lower()
        for clause, cues in turn.clauses:
            if v in clause.lower():
                return cues
    words = _words(content)
    best, best_overlap = NO_CUES, 0
    for clause, cues in turn.clauses:
        overlap = len(words & _words(clause))
        if overlap > best_overlap:
            best, best_overlap = cues, overlap
    return best
