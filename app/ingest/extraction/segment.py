"""Chinese word segmentation helpers on top of jieba, initialised lazily and quietly."""

from __future__ import annotations

import re
from functools import cache, lru_cache
from pathlib import Path

from app.kit.chinese import jieba_loaded

# Provinces and big cities, so place checks do not depend on jieba's dictionary alone.
_PLACES = frozenset((
    "北京", "上海", "天津", "重庆", "广东", "广州", "深圳", "珠海", "佛山", "东莞",
    "江苏", "南京", "苏州", "无锡", "浙江", "杭州", "宁波", "温州", "福建", "福州",
    "厦门", "泉州", "山东", "济南", "青岛", "河南", "郑州", "河北", "石家庄", "湖南",
    "长沙", "湖北", "武汉", "四川", "成都", "云南", "昆明", "贵州", "贵阳", "广西",
    "南宁", "桂林", "海南", "海口", "三亚", "江西", "南昌", "安徽", "合肥", "山西",
    "太原", "陕西", "西安", "甘肃", "兰州", "青海", "西宁", "宁夏", "银川", "新疆",
    "乌鲁木齐", "西藏", "拉萨", "内蒙古", "呼和浩特", "辽宁", "沈阳", "大连", "吉林", "长春",
    "黑龙江", "哈尔滨", "香港", "澳门", "台湾", "台北",
))  # fmt: skip
_PLACE_SUFFIXES = ("省", "市", "县", "区", "镇", "村", "州")
# the Chinese names of the world's cities outside China (利兹 Leeds, 曼彻斯特 Manchester), which
# jieba reads as people's names; from GeoNames by ``bench/build_places.py``
WORLD_PLACES = Path(__file__).with_name("world_places.txt")


# what after a name makes it a person's, not a place: 的, 家, 那边, 这边, 那儿
_WHOSE = ("的", "家", "那边", "这边", "那儿", "那里")


@cache
def world_places() -> frozenset[str]:
    """The names of ``WORLD_PLACES``, read once."""
    lines = WORLD_PLACES.read_text(encoding="utf-8").splitlines()
    return frozenset(line for line in lines if line and not line.startswith("#"))


def _known_place(word: str) -> bool:
    return word in _PLACES or word in world_places()


@lru_cache(maxsize=4096)
def tag(text: str) -> tuple[tuple[str, str], ...]:
    """Segment ``text`` with part-of-speech tags.

    Returns a tuple of ``(word, flag)`` pairs in order (jieba/ICTCLAS flags: ``ns`` place,
    ``nr`` person, ``nt`` organisation, ``n`` noun, ``v`` verb, ``m`` numeral, ...).
    """
    return tuple(
        (p.word, "n" if p.flag == "ns" and _FLOOR.fullmatch(p.word) else p.flag)
        for p in jieba_loaded().posseg.cut(text)
    )


# a floor or a building by its number: jieba's dictionary holds 六楼 and a few more as places
# (villages of that name), but "我住六楼" says which floor
_FLOOR = re.compile(r"[\d一二两三四五六七八九十百几]+(?:楼|层|号楼|栋|幢)")


def cut(text: str) -> list[str]:
    """Return the words of ``text`` (jieba's precise mode), in order."""
    return [word for word, _ in tag(text)]


def is_place(text: str) -> bool:
    """True if ``text`` is made only of place names (``广东``, ``深圳南山区``)."""
    text = text.strip()
    if not text:
        return False
    if _known_place(text) or (len(text) >= 2 and text.endswith(_PLACE_SUFFIXES)):
        return True
    return all(flag == "ns" or _known_place(word) for word, flag in tag(text))


def leading_place(text: str) -> str | None:
    """The first place name at the start of ``text`` (``"上海两个月了"`` → ``"上海"``).

    Returns ``None`` when ``text`` does not start with a place.
    """
    words = [w for w in tag(text.strip()) if w[0] not in ("省", "市")]
    for n in range(min(len(words), 4), 0, -1):  # a foreign city, or one cut in pieces: 斯德哥尔摩
        name = "".join(w for w, _ in words[:n])
        if name in world_places():
            # "戴维的公司", "索菲亚家楼上": a city's name that is a person's too, whose things
            after = "".join(w for w, _ in words[n:])
            return None if after.startswith(_WHOSE) else name
    if words and (words[0][1] == "ns" or _known_place(words[0][0])):
        if _PROVINCE.fullmatch(words[0][0]) and len(words) > 1 and words[1][1] == "ns":
            return words[1][0].removesuffix("市")  # "湖南长沙" → "长沙": the city, not its province
        return words[0][0]
    return None


# China's provinces and regions: a place after one of them is the city in it
_PROVINCE = re.compile(
    r"(?:河北|山西|辽宁|吉林|黑龙江|江苏|浙江|安徽|福建|江西|山东|河南|湖北|湖南|广东|海南|四川|贵州"
    r"|云南|陕西|甘肃|青海|台湾|内蒙古?|广西|西藏|宁夏|新疆)(?:省|自治区)?"
)


# what may follow a place in the slot of a residence verb ("搬到清迈了", "住在波尔图两年")
_AFTER_PLACE = frozenset(
    (
        "了",
        "啦",
        "呢",
        "啊",
        "呀",
        "哈",
        "住",
        "生活",
        "定居",
        "去",
        "来",
        "快",
        "快要",
        "将近",
        "差不多",
    )
)
# jieba's tags for a name it does not know as a place: person (波尔图, 温哥华), other proper
# noun, abbreviation, or a word it takes for an adjective (清迈)
_NAME_FLAGS = frozenset(("nr", "nrt", "nrfg", "nz", "j", "a"))


def slot_place(text: str) -> str | None:
    """The place filling the slot of a residence verb, read from the slot's shape: a word
    jieba tags as a place, or a 2–5 character proper name it does not know (``"清迈了"`` →
    ``"清迈"``, ``"波尔图两年了"`` → ``"波尔图"``) that is the slot's only content word
    before a clause boundary — only particles, adverbs, durations or 住/生活 may follow. Common
    nouns (``"宿舍"``, ``"公司附近"``) are no place. ``None`` otherwise."""
    head = leading_place(text)
    if head:
        return head
    words = tag(text.strip())
    if not words:
        return None
    word, flag = words[0]
    if flag not in _NAME_FLAGS or not 2 <= len(word) <= 5:
        return None
    if not all("\u4e00" <= ch <= "\u9fff" for ch in word):
        return None
    for w, f in words[1:]:
        if f == "x" and w.strip():  # punctuation: the clause ends
            break
        if not (w in _AFTER_PLACE or f in ("m", "t", "mq", "ul", "y", "d") or not w.strip()):
            return None
    return word


# the most common Chinese family names (the first character of most people's full name) and the
# compound ones: "我是李雷" names the speaker, "我是宝妈" / "我是北漂" say what they are
_SURNAMES = frozenset(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕"
    "丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严"
    "覃武戴莫孔向汤常温康施文牛樊葛邢安齐易乔伍庞颜倪庄聂章鲁岳翟殷詹申欧耿关兰焦俞左柳甘祝包宁尚"
    "符舒阮柯纪梅童凌毕单季裴霍涂成苗谷盛曲翁冉骆蓝路游辛靳管柴蒙鲍华喻祁蒲房滕屈饶解牟艾尤阳时穆"
    "农司卓古吉缪简车项连芦麦褚娄窦戚岑景党宫费卜冷晏席卫米柏宗瞿桂全佟应臧闵苟邬边卞姬师和仇栾隋"
    "商刁沙荣巫寇桑郎甄丛仲虞敖巩明佘池查麻苑迟邝"
)
_COMPOUND_SURNAMES = frozenset((
    "欧阳", "司马", "上官", "诸葛", "东方", "皇甫", "尉迟", "公孙", "慕容", "长孙", "宇文", "司徒",
    "夏侯", "轩辕", "令狐", "西门", "南宫", "独孤", "端木",
))  # fmt: skip
# a title after a family name ("李医生", "张老师") names a role, not the whole name
_TITLE_TAIL = re.compile(
    r"(?:老师|医生|大夫|律师|教授|博士|经理|总|工|姐|哥|叔|婶|阿姨|师傅|同学)$"
)


def is_full_name(text: str) -> bool:
    """True if ``text`` is a Chinese full name said alone, ending in no title: 3–4 Han
    characters opening with a compound family name (``欧阳娜娜``), or 2–3 that jieba tags as one
    person's name (``is_tagged_name``) opening with a common one (``李雷``; not ``宝妈``,
    ``北漂``, ``李医生``)."""
    text = text.strip()
    if not all("\u4e00" <= ch <= "\u9fff" for ch in text) or _TITLE_TAIL.search(text):
        return False
    if text[:2] in _COMPOUND_SURNAMES:
        return 3 <= len(text) <= 4
    return 2 <= len(text) <= 3 and text[0] in _SURNAMES and is_tagged_name(text)


def is_tagged_name(text: str) -> bool:
    """True if jieba reads ``text`` as one person's name (``刘思远``, ``老王``), not any 2–4
    Han characters (``外卖``)."""
    words = tag(text.strip())
    return len(words) == 1 and words[0][1] in ("nr", "nrfg")


def is_person_name(text: str) -> bool:
    """True if jieba tags ``text`` as one person name (``李明``), or it is 2–4 Han characters."""
    text = text.strip()
    words = tag(text)
    if len(words) == 1 and words[0][1] == "nr":
        return True
    return 2 <= len(text) <= 4 and all("\u4e00" <= ch <= "\u9fff" for ch in text)


# tags of words that name a kind of thing, a spot or a doing, never one organisation: common
# noun, locative, place word, pronoun, measure, time, verb, numeral (机场, 路上, 外面, 这边, 开会)
_COMMON_FLAGS = ("n", "s", "f", "r", "q", "t", "v", "vn", "m", "d", "p", "u", "ns")


def slot_name(text: str) -> bool:
    """True if the slot of a workplace verb (``"现在在米哈游了"``, ``"跳到快手了"``) holds one
    name rather than a spot or a doing: 2–8 Han characters that jieba does not read as one
    common word or place (``米哈游``, ``快手`` are; ``机场``, ``路上``, ``家``, ``开会`` are not),
    whose first word is no verb, pronoun, numeral or lone noun character (``学日语``) and whose
    last word is no locative (``地铁上``, ``公司楼下``)."""
    text = text.strip()
    if not 2 <= len(text) <= 8 or not all("\u4e00" <= ch <= "\u9fff" for ch in text):
        return False
    if is_place(text) or any(flag == "ns" or _known_place(w) for w, flag in tag(text)):
        return False
    words = tag(text)
    if len(words) == 1:
        return words[0][1] not in _COMMON_FLAGS
    first, last = words[0][1], words[-1][1]
    return not (
        first.startswith(("v", "r", "m", "p", "d", "u"))
        or (len(words[0][0]) == 1 and first == "n")  # 学 + 日语: a doing and its object
        or last in ("f", "s", "u", "uj", "ul")
        or any(f in ("uj", "r", "p") for _, f in words)
    )


# a word jieba's dictionary holds at least this often is a common word (医院, 健身房, 开会), not
# a name it happens to know (字节 87, 商汤 48, 星巴克 29)
_COMMON_FREQ = 100
# tags of a name: person, place-like proper noun, organisation, other proper noun, abbreviation,
# Latin word
_PROPER_FLAGS = frozenset(("nr", "nrt", "nrfg", "nz", "nt", "j", "eng"))


def _common(word: str, flag: str) -> bool:
    """True if ``word`` is a word jieba's dictionary holds often, under a tag of no name."""
    if flag in _PROPER_FLAGS:
        return False
    return (jieba_loaded().dt.FREQ.get(word) or 0) >= _COMMON_FREQ


# tags no word of a name has: place, pronoun, preposition, particle, locative, spot, time,
# measure word, conjunction
_NOT_IN_NAME = frozenset(("ns", "r", "p", "u", "uj", "ul", "uz", "f", "s", "t", "q", "c", "y"))


def name_run(text: str) -> bool:
    """True if ``text`` — the slot after a verb of change, bounded by particles — reads as one
    name rather than a spot, a doing or a thing: a Latin name ("B站", "Meta"), or 2–8 Han
    characters that are no place and no common word of jieba's dictionary, read by their
    shape, not looked up as a name (拼多多 is 拼 + 多多, 得物 and 知乎 are no dictionary words,
    商汤 a rare one; 医院, 开会, 学日语, 见客户, 公司楼下 are not names)."""
    text = text.strip()
    if re.fullmatch(
        r"[A-Za-z][\w.+#&-]*(?: [A-Za-z][\w.+#&-]*)?|[A-Za-z]{1,4}[\u4e00-\u9fff]{1,2}", text
    ):
        return True
    if not 2 <= len(text) <= 8 or not all("\u4e00" <= ch <= "\u9fff" for ch in text):
        return False
    if is_place(text):
        return False
    words = tag(text)
    if any(f in _NOT_IN_NAME or (f == "m" and i == 0) for i, (_, f) in enumerate(words)):
        return False  # 公司楼下, 这边, 三个人
    rest = tag(text[1:])
    if tag(text[0])[0][1] in ("v", "vg") and len(rest) == 1 and rest[0][1] in ("n", "vn", "l"):
        return False  # 买 + 菜, 吃 + 火锅, 写 + 代码: a doing and its object
    if len(words) == 1:
        return not _common(*words[0])
    first, second = words[0], words[1]
    if first[1][:1] in ("v", "d") and second[1][:1] in ("n", "v", "a"):
        return False  # 见 + 客户, 很 + 忙: a doing and its object, a state (拼 + 多多 is a name)
    if words[-1][1] in ("v", "vn") and len(words[-1][0]) > 1:
        return False  # 宜家 + 逛街, 公司 + 开会: a place and what is done there
    # common words of two characters or more make a description (公司食堂); a name has a piece
    # that is no word of its own (拼 + 多多, 快 + 手)
    return not all(len(w) > 1 and _common(w, f) for w, f in words)


def brand(text: str) -> bool:
    """True if ``text`` before a kind of device ("苹果手机", "小米手机") can be its maker: one noun
    of jieba's that is no workplace, place or person's relation (公司电脑, 老婆的手机 are not)."""
    words = tag(text.strip())
    return (
        len(words) == 1
        and words[0][1] in ("n", "nz", "nr", "nt", "j")
        and not is_place(text)
        and not re.fullmatch(
            r"公司|单位|学校|家里|老婆|老公|爸爸|妈妈|同事|朋友|工作", text.strip()
        )
    )
