"""Common slips of typing, put right before a turn is read.

Users type fast: "i wrk at amazon now", "im alergic to shellfish", "我住再杭州", "上周般到苏州了".
The extractor's patterns and cue words are spelled right, so such a turn formed nothing (or the
wrong thing: "alergic" was read as a condition). Only slips that cannot be another word are put
right:

- English: a fixed table of misspellings and chat spellings of the words that carry a fact
  (the verbs and nouns of the rule table), and, for the longer of those words, every form with
  one letter dropped, doubled or two neighbours swapped, or (eight letters or more) one vowel
  written as another — none of which is an English word of its own (checked when the table
  was written; "stared" and "swatched" are left alone: they are words).
- Chinese: the input method's homophone slips, only in the places they cannot be meant:
  再 for 在 after 住 or before a name and a verb of working or living ("我现在再阿里做运营"),
  般 for 搬 before 到/去/家 (not 一般), 队 for 对 before what one is allergic to.
- The northern first person 俺 is read as 我 ("俺是95年的").
- Chinese typed with spaces for commas ("嗯 现在住成都 老家乐山的"): a space between two runs
  of three Chinese characters or more is read as a comma; any other space between Chinese
  characters is dropped (a word or a name typed apart: "周 杰伦", "上海 交通 大学").
- Between scripts: an English word held by Chinese grammar is read as its Chinese word, so the
  Chinese patterns see their own words — a noun the user names as theirs before a Chinese
  predicate ("我daughter叫Lily", "我的favorite是lo-fi", "my dog 叫旺财"), a verb of change
  before its Chinese complement ("最近switch到Rust了", "刚join了Stripe"), and an opening adverb
  glued to a Chinese clause ("actually叫我Jenny吧"). Names and values in Latin letters are
  never touched.
"""

from __future__ import annotations

import re
from functools import lru_cache

from app.ingest.extraction import segment

# misspellings and chat spellings, whole words, case kept from the first letter
_TABLE = {
    "wrk": "work", "wokr": "work", "workk": "work", "wrok": "work", "wrking": "working",
    "wokring": "working", "nmae": "name", "naem": "name", "lve": "live", "lvie": "live",
    "lst": "last",
    "luv": "love", "lvoe": "love", "liek": "like", "likee": "like", "ahve": "have",
    "hvae": "have", "dgo": "dog", "im": "I'm", "iam": "I am", "ive": "I've", "dont": "don't",
    "doesnt": "doesn't", "didnt": "didn't", "cant": "can't", "isnt": "isn't", "ur": "your",
    "bday": "birthday", "b-day": "birthday", "hubby": "husband", "alergy": "allergy",
    "alergies": "allergies", "allergie": "allergy", "alergic": "allergic", "allergix": "allergic",
    "alergick": "allergic", "vegitarian": "vegetarian", "vegeterian": "vegetarian",
    "vegatarian": "vegetarian", "favorit": "favorite", "favourit": "favourite",
    "favrite": "favorite", "speek": "speak", "speack": "speak", "studdy": "study",
    "graduted": "graduated", "gradated": "graduated", "marryed": "married",
    "moveed": "moved", "mvoed": "moved", "strated": "started", "startd": "started",
    "sartted": "started", "lving": "living", "liveing": "living", "prefere": "prefer",
    "perfer": "prefer", "prefered": "preferred", "usally": "usually", "usualy": "usually",
    "allways": "always", "alwasy": "always",
}  # fmt: skip

# longer words whose one-letter slips are never another word
_LONG = (
    "allergic", "vegetarian", "birthday", "favorite", "favourite", "daughter", "husband",
    "brother", "sister", "graduated", "hometown", "married", "preferred", "usually",
    "intolerant", "diagnosed", "engineer", "developer", "designer", "manager", "working",
    "living", "started", "relocated", "switched", "allergies", "allergy", "software",
    "programmer", "teacher", "consultant", "analyst", "scientist",
)  # fmt: skip
_WORDS_OF_ITS_OWN = frozenset(
    (
        "stared",
        "starred",
        "marred",
        "bother",
        "manage",
        "manger",
        "graduate",
        "sitter",
        "stated",
        "woking",
        "swatched",
    )
)
# chat spellings that are not put right in capitals ("IM" is instant messaging)
_LOWER_ONLY = frozenset(("im", "ur", "ive", "cant"))


def _slips(word: str) -> set[str]:
    """``word`` with one letter (not the first) dropped or doubled, or two neighbours swapped;
    the last letter is never dropped ("relocate", "programme" are words of their own). A word
    of eight letters or more also with one vowel (not the first letter) written as another
    ("intolerent", "vegetarien", "diagnosad")."""
    out: set[str] = set()
    for i in range(1, len(word)):
        if len(word) >= 8 and word[i] in "aeiou":
            out.update(word[:i] + v + word[i + 1 :] for v in "aeiou")
        if i + 1 < len(word):
            out.add(word[:i] + word[i + 1 :])
        out.add(word[:i] + word[i] + word[i:])
        if i + 1 < len(word):
            out.add(word[:i] + word[i + 1] + word[i] + word[i + 2 :])
    out.discard(word)
    return out


@lru_cache(maxsize=1)
def _table() -> dict[str, str]:
    table: dict[str, str] = {}
    for word in _LONG:
        for slip in _slips(word):
            if slip not in _WORDS_OF_ITS_OWN and slip not in _LONG:
                table.setdefault(slip, word)
    table.update(_TABLE)
    return table


_WORD = re.compile(r"(?<![\w'-])[A-Za-z][A-Za-z-]*(?![\w'])")
# 再 for 在: after 住, or before a name followed by a verb of working, studying or living
_ZAI = re.compile(
    r"(?<=住)再|(?<=我|在|现|前|直)再(?=(?P<name>[^\s，,。！？!?]{1,12}?)(?:工作|上班|做|读|上学|实习|生活|住))"
)
_BAN = re.compile(r"(?<!一)般(?=到|去|家)")
_DUI = re.compile(r"(?<=我)队(?=[^\s，,。]{1,10}过敏)")


def _zai(m: re.Match[str]) -> str:
    name = m.group("name")
    if name is None:
        return "在"
    words = segment.tag(name)
    # a place or an organisation's name, not "再做一次" or "再想想"
    if words and words[0][1] in ("ns", "nt", "nz", "nr", "nrt", "eng", "j"):
        return "在"
    return m.group(0)


_HAN = r"[\u4e00-\u9fff]"

# a noun of the user's own, between 我/我的/我家 and a Chinese predicate
_NOUN_ZH = {
    "daughter": "女儿", "son": "儿子", "kid": "孩子", "kids": "孩子", "wife": "老婆",
    "husband": "老公", "mom": "妈妈", "mum": "妈妈", "mother": "妈妈", "dad": "爸爸",
    "father": "爸爸", "boyfriend": "男朋友", "girlfriend": "女朋友", "partner": "对象",
    "brother": "兄弟", "sister": "姐妹", "hometown": "老家", "birthday": "生日", "name": "名字",
    "full name": "全名", "email": "邮箱", "e-mail": "邮箱", "phone": "手机号",
    "phone number": "手机号", "cell": "手机号", "password": "密码", "job": "工作",
    "favorite": "最喜欢的", "favourite": "最喜欢的", "fav": "最喜欢的", "nickname": "昵称",
}  # fmt: skip
# a pet's kind keeps its word, said as the pet of the home ("my dog 叫旺财" → 我家dog叫旺财)
_PET_EN = ("dog", "cat", "puppy", "kitten", "bunny", "rabbit", "parrot", "hamster")
_NOUN_IN_ZH = re.compile(
    r"(?:(?<![A-Za-z])(?P<my>my)\s+|(?<=我)(?P<of>的|家)?)\s*(?P<w>"
    + "|".join(sorted((*_NOUN_ZH, *_PET_EN), key=len, reverse=True))
    + rf")\s*(?={_HAN})",
    re.I,
)
# a verb of change before its Chinese complement: 到/成/去/了/为
_VERB_ZH = {
    "switch": "换", "switched": "换", "change": "换", "changed": "换", "move": "搬",
    "moved": "搬", "relocate": "搬", "relocated": "搬", "join": "加入", "joined": "加入",
    "transfer": "转", "transferred": "转",
}  # fmt: skip
_VERBS = "|".join(sorted(_VERB_ZH, key=len, reverse=True))
_VERB_IN_ZH = re.compile(
    rf"(?<![A-Za-z'])\s*(?P<w>{_VERBS})\s*(?=[到成去为])"  # "我的 email changed成…"
    rf"|(?:(?<={_HAN})|(?<=^))\s*(?P<v>{_VERBS})\s*(?=了)",  # "刚join了Stripe"
    re.I,
)
# an adverb opening a Chinese clause: the Chinese word says the same (其实 marks a correction)
_OPENER_ZH = {
    "actually": "其实", "in fact": "其实", "now": "现在", "currently": "现在", "recently": "最近",
    "lately": "最近", "just": "刚",
}  # fmt: skip
_OPENER_IN_ZH = re.compile(
    r"(?:^|(?<=[，,。！？!?；;]))(?P<sp>\s*)(?P<w>"
    + "|".join(sorted(_OPENER_ZH, key=len, reverse=True))
    + rf")(?![A-Za-z])[,，]?\s*(?={_HAN})",
    re.I,
)


def _between_scripts(text: str) -> str:
    def noun(m: re.Match[str]) -> str:
        if m.group("w").lower() in _PET_EN:
            return ("我家" if m.group("my") else m.group("of") or "家") + m.group("w")
        zh = _NOUN_ZH[m.group("w").lower()]
        of = "我的" if m.group("my") else m.group("of") or ""
        return ("我" if m.group("my") else "") + zh if zh.startswith("最") else of + zh

    text = _VERB_IN_ZH.sub(lambda m: _VERB_ZH[(m.group("w") or m.group("v")).lower()], text)
    text = _NOUN_IN_ZH.sub(noun, text)
    return _OPENER_IN_ZH.sub(lambda m: m.group("sp") + _OPENER_ZH[m.group("w").lower()], text)


def fix(text: str) -> str:
    """``text`` with the slips above put right; anything else is left as written."""
    table = _table()

    def word(m: re.Match[str]) -> str:
        w = m.group(0)
        right = table.get(w.lower())
        if right is None or (w.lower() in _LOWER_ONLY and w.isupper()):
            return w
        if w[0].isupper() and right[0].islower():
            return right[0].upper() + right[1:]
        return right

    text = _WORD.sub(word, text)
    if "再" in text:
        text = _ZAI.sub(_zai, text)
    if "般" in text:
        text = _BAN.sub("搬", text)
    if "队" in text:
        text = _DUI.sub("对", text)
    # the northern 俺 is 我 ("俺是95年的", "俺家的猫"), not in words quoted ("我奶奶老说 俺不吃辣")
    text = _AN.sub("我", text)
    if re.search(_HAN, text) and re.search(r"[A-Za-z]", text):
        text = _between_scripts(text)
    text = _SPACE_BEFORE_OWN.sub("，", _SPACE_AS_COMMA.sub("，", text))
    return _SPACE_IN_WORD.sub("", text)


_AN = re.compile(r"(?<![说道讲])(?<![说道讲][\s:：,，])俺")
# "嗯 现在住成都 老家乐山的": Chinese typed with spaces where commas go
# — only between runs of three characters or more: a space inside a name, a school or a dish
# ("周 杰伦", "上海 交通 大学", "麻婆 豆腐") is no clause break
_SPACE_AS_COMMA = re.compile(rf"(?<={_HAN}{{3}})[ \t\u3000]+(?={_HAN}{{3}})")
# — and between a Latin word and a clause of what others call or think of the user ("我叫 Chen
# Lei 大家叫我 小陈": a name, then what everyone calls the user)
_SPACE_BEFORE_OWN = re.compile(
    rf"(?<=[A-Za-z])[ \t\u3000]+(?=(?:大家|别人|朋友们?|同事们?){_HAN}{{2}})"
)
# and the space inside a word or a name is dropped: "周 杰伦" is 周杰伦, "我 今年 三十" 我今年三十
_SPACE_IN_WORD = re.compile(rf"(?<={_HAN})[ \t\u3000]+(?={_HAN})")
