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
import re
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
    would, ``text`` itself. Written Cantonese is read in Mandarin's words first
    (``as_mandarin``). Simplified Mandarin comes back with only its full-width letters changed
    (ASCII text is not looked at), so everything written for simplified Chinese reads
    traditional text and Cantonese too: the extractor's rules, the write filter, search terms.
    """
    if text.isascii():
        return text
    text = as_mandarin(text.translate(_HALF_WIDTH))
    chars = str(_converter("tw2s").convert(text))
    if chars == text:
        # nothing traditional: read as it is (tw2sp's words would change simplified text too,
        # 程序 "program" into 进程 "process", Taiwan's sense of it)
        return text
    for read in (str(_converter("tw2sp").convert(text)), chars):
        if len(read) == len(text):
            return read
    return text


# written Cantonese (Hong Kong's "我喺滙豐做嘢", "我唔食牛肉", "佢而家鍾意飲茶"): its own words,
# each put as the Mandarin word of the same length, so that spans still line up. Words first
# (longest first), then single characters, each with what must not stand around it (食 of
# 素食 and 食物 is Mandarin too; 係 of 關係 is a relation, not "is").
_CANTONESE_WORDS = {
    "鍾意": "喜欢", "钟意": "喜欢", "而家": "现在", "依家": "现在", "呢度": "这里", "嗰度": "那里",
    "喺度": "在这", "屋企": "家里", "返工": "上班", "放工": "下班", "收工": "下班", "返學": "上学",
    "返学": "上学", "做嘢": "工作", "轉工": "跳槽", "转工": "跳槽", "聽日": "明天", "听日": "明天",
    "尋日": "昨天", "寻日": "昨天", "琴日": "昨天", "今日": "今天", "後日": "后天", "后日": "后天",
    "今個": "这个", "今个": "这个", "呢個": "这个", "呢个": "这个", "呢隻": "这只", "呢只": "这只",
    "呢間": "这间", "呢间": "这间", "呢排": "最近", "唔使": "不用", "唔洗": "不用", "唔好": "不要",
    "唔該": "谢谢", "唔该": "谢谢", "細佬": "弟弟", "细佬": "弟弟", "家姐": "姐姐", "阿媽": "妈妈",
    "阿妈": "妈妈", "阿爸": "爸爸", "老竇": "爸爸", "老窦": "爸爸", "阿嫲": "奶奶", "嫲嫲": "奶奶",
    "阿爺": "爷爷", "阿爷": "爷爷", "識講": "会说", "识讲": "会说", "識寫": "会写", "识写": "会写",
    "傾偈": "聊天", "倾偈": "聊天", "行街": "逛街", "點樣": "怎样", "点样": "怎样", "乜嘢": "什么",
    "咩嘢": "什么", "邊個": "哪个", "边个": "哪个", "嘢食": "食物", "嘢飲": "饮料", "嘢饮": "饮料",
    "食煙": "抽烟", "食烟": "抽烟", "啱啱": "刚刚", "頭先": "刚才", "头先": "刚才", "成日": "经常",
    "唔係": "不是", "唔系": "不是", "冇得": "不能", "點解": "为何", "点解": "为何", "揸車": "开车",
    "揸车": "开车", "好鬼": "非常", "行山": "爬山", "游水": "游泳", "打波": "打球",
    "轉咗工": "跳槽了", "转咗工": "跳槽了", "搬咗屋": "搬了家", "搬屋": "搬家", "返屋企": "回家里",
    "搬咗去": "搬去了", "調咗去": "调去了", "调咗去": "调去了", "轉咗去": "转去了",
    "转咗去": "转去了", "分咗手": "分手了", "芫荽": "香菜", "出世": "出生", "朝早": "早上",
    "食得": "能吃", "飲得": "能喝", "饮得": "能喝", "頂唔順": "受不了", "顶唔顺": "受不了",
    "唔係好": "不怎么", "唔系好": "不怎么", "少少": "一点", "得閒": "有空", "得闲": "有空",
    "行路": "走路", "即係": "就是", "即系": "就是", "踩單車": "骑单车", "踩单车": "骑单车",
    "改咗": "改成", "改咗名": "改名了",
}  # fmt: skip
# what reads one way in Cantonese and another in Mandarin is read so only where the words
# around it say it (一个女儿 is a daughter in both; 我個女 is "my daughter" in Cantonese alone)
_CANTONESE_CHARS = (
    # "都係用返廣東話啦": "after all", as 还是 says it
    (r"都[係系](?=[用叫講讲要揀拣去食飲饮返])", "还是"),
    # (whose, or opening a clause: "個女今年三歲" is the user's daughter)
    (r"(?:(?<=[我你佢他她有，,。！!\s])|^)[個个]女(?![儿兒孩朋生士人同])", "女儿"),
    (r"(?:(?<=[我你佢他她有，,。！!\s])|^)[個个]仔(?![细細])", "儿子"),
    (r"(?:(?<=[我你佢他她，,。！!\s])|^)[細细]女", "女儿"),
    (r"(?:(?<=[我你佢他她，,。！!\s])|^)[細细]仔", "儿子"),
    (r"(?<=[生佢我你他她媽妈爸])話", "说"),
    (r"份工(?!作)", "工作"), (r"(?<![海这這那身旁周])[邊边]度(?![假过過])", "哪里"),
    (r"老豆(?![腐浆漿])", "爸爸"), (r"[最好]憎(?!恨)", "讨厌"),
    # a doing going on, or done as a rule: "做緊" is 在做, "飲開奶茶" 常喝奶茶
    (r"([做讀读住學学返揸睇食飲饮寫写])緊", r"在\1"),
    (r"揸開", "常揸"), (r"([食飲饮用著着住做])開(?=[^心始会會车車])", r"常\1"),
    (r"由(?=今|聽|听|下|明|而家|依家|[一二三四五六七八九十\d]+月)", "从"),
    (r"(?<![美饮飲零素主粮糧甜熟生肉杂雜偏节節暴绝絕肥面麵])食(?![物品堂谱譜材欲量肆])", "吃"),
    (r"[飲饮](?![料食品])", "喝"),
    (r"(?<![關关聯联干幹維维])係(?![數数統统])", "是"),
    (r"(?<![伯])仲(?![裁介夏秋春冬])", "还"),
    (r"喺", "在"), (r"唔", "不"), (r"冇", "没"), (r"佢", "他"), (r"哋", "们"), (r"嘅", "的"),
    (r"咗", "了"), (r"啲", "些"), (r"嘢", "事"), (r"嚟", "来"), (r"[畀俾]", "给"), (r"睇", "看"),
    (r"搵", "找"), (r"瞓", "睡"), (r"[諗谂]", "想"), (r"攞", "拿"), (r"嗰", "那"),
    (r"[咁噉]", "这"),
    (r"啱", "对"), (r"[喇囉啰]", "了"), (r"㗎", "的"), (r"啩", "吧"), (r"攰", "累"),
    (r"咩(?=\W*$)", "吗"),
    (r"[禮礼]拜(?=[一二三四五六日天])", "星期"), (r"逢(?=星期|周|週)", "每"), (r"揸", "开"),
    (r"同(?=[我你他她佢])", "跟"), (r"(?<![往])返(?![回])", "回"), (r"傾", "聊"), (r"憎", "恨"),
)  # fmt: skip
_CANTONESE_WORD = re.compile("|".join(sorted(_CANTONESE_WORDS, key=len, reverse=True)))
# what only Cantonese writes: a text with one of these is read as Cantonese, any other as it is
# (no Mandarin sentence has 喺, 佢 or 咗; 个女, 份工 and 返工 are Mandarin words too)
_CANTONESE = re.compile(
    r"[喺唔冇佢哋嘅咗啲嘢嚟畀睇搵瞓諗谂攞嗰啱㗎噉揸攰嫲]|(?<![關关聯联干幹維维])係(?![數数統统])|喇(?!叭|嘛)"
    r"|(?:^|(?<=[，,。！!\s]|[我你佢有]))(?:個|細|细)[女仔](?![儿兒孩朋生士人同])|老豆(?![腐浆漿])"
    r"|鍾意|钟意|而家|依家|屋企|游水|打波|行山"
    # "我食素", "我飲咖啡", "做緊IT": eating, drinking and a doing going on, said the Cantonese way
    r"|[我佢你][食飲饮](?![物品堂谱譜材料用])|[做讀读住學学返揸睇食飲饮寫写]緊|(?<![可爱愛])憎(?![恨恶惡])"
)
_CANTONESE_CHAR = [(re.compile(p), w) for p, w in _CANTONESE_CHARS]
# Taiwan's words for what the mainland says otherwise, of the same length, that OpenCC's
# tables leave as they are (門號 is a phone number)
_TAIWAN_WORDS = {"門號": "号码"}
_TAIWAN_WORD = re.compile("|".join(_TAIWAN_WORDS))


def as_mandarin(text: str) -> str:
    """``text`` with written Cantonese read in Mandarin's words (``_CANTONESE_WORDS``, then
    ``_CANTONESE_CHARS``), one character for one: "我喺滙豐做嘢" → "我在滙豐工作", "我唔食牛肉" →
    "我不吃牛肉". Only a text with a word no Mandarin sentence has (``_CANTONESE``: 喺, 唔,
    佢, 鍾意…) is read so; any other comes back as it is."""
    text = _TAIWAN_WORD.sub(lambda m: _TAIWAN_WORDS[m.group(0)], text)
    if not _CANTONESE.search(text):
        return text
    text = _CANTONESE_WORD.sub(lambda m: _CANTONESE_WORDS[m.group(0)], text)
    for pattern, word in _CANTONESE_CHAR:
        text = pattern.sub(word, text)
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
