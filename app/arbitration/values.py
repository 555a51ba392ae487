"""Meaning-level comparison of values within one key, before the arbitration rules run.

Two checks the rules of ``ArbitrationService.apply`` cannot make from strings alone:

- **Same value, other spelling.** "ORG1" and "ORG1 in 2015", "Pied Piper" and "pied piper.",
  "the Ocean" and "ocean" are one value: the candidate takes the stored spelling, so rule 1
  (duplicate) refreshes the memory instead of storing a second one.
- **A switch replaces.** A fact marked ``metadata["replaces"]`` by the extractor ("我改用Go了",
  "switched to Svelte", for keys such as ``tech.preferred``) retracts the key's other active
  values: the new one took their place — for a tool, those of its own kind and of no known
  kind (``tool_kind``: "Fedora now" leaves the editor alone); a tool said to be used now
  (``SAME_KIND``) replaces those of its own kind only.
- **One favourite per category.** "my favourite football player is X" then "… is Y": a
  favourite (``metadata["category"]``, set by the extractor) replaces the earlier favourite of
  the same category, although ``preference.likes`` holds many values: the earlier value is
  retracted, so rule 2 (user correction) freezes it.
- **Instead of.** A fact stated "instead of" another value ("his name is Max, not Milo", "我叫
  小虹，不是小红", ``metadata["instead_of"]`` set by the extractor) retracts the active values of
  its own key that the other value names; never a value of another key, so "my wife works at
  Microsoft, not Google" leaves the user's own employer alone.
- **Taken back.** "I take that back", "说错了，我说的是我妈" with nothing of the user's in its place
  (``metadata["takes_back_message"]``, the user's previous turn, named by the ingest job):
  the memories formed from that turn are withdrawn; a value said in place of a misstated one
  ("sorry, autocorrect — it's Leo, not Liam", "打错了，是小虹") takes the key of the memory it
  replaces; a fact of the user's own in a take-back replaces that turn's values of its key.
- **A changed taste of the same thing.** A liking stated with a change cue ("I prefer aisle
  seats now" after "window seats", "现在喜欢靠过道的座位", marked ``metadata["changed"]`` by
  the extractor) replaces the active values of its key that name the same thing — the same
  head word (Latin: the last word; Chinese: the last two characters) with other modifiers.
"""

from __future__ import annotations

import datetime as dt
import difflib
import itertools
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from app.ingest.extraction.dates import parse_month_day
from app.kit.chinese import simplified
from app.privacy.protect import SECRET_KEYS, masks_as_tokens

if TYPE_CHECKING:
    from app.arbitration.service import Candidate, MemoryStore
    from app.db.models import Memory

_DATE_TAIL = re.compile(
    r"(?:\s*,?\s*(?:in|since|back in|class of|from)\s+(?:19|20)\d\d\b.*"
    r"|\s*[，,]?\s*(?:19|20)?\d\d(?:年|届).*)$",
    re.I,
)
_ARTICLE = re.compile(r"^(?:the|a|an|my|our)\s+", re.I)
_PUNCT = re.compile(r"[\s\"'“”‘’「」《》()（）.,，。!！?？~～:：;；-]+")


def normalize_value(value: str) -> str:
    """The comparable form of a value: NFKC, lower case, a trailing date ("in 2015", "2012届")
    and a leading article dropped, punctuation and white space removed, Chinese in simplified
    characters (臺北 and 台北 are one value). ``""`` for nothing."""
    text = simplified(unicodedata.normalize("NFKC", value).strip())
    text = _DATE_TAIL.sub("", text)
    text = _ARTICLE.sub("", text)
    return _PUNCT.sub("", text).lower()


def _spelling_free(value: str) -> str:
    """``normalize_value``, with a language named in Chinese taken for the one named in
    English: what two spellings of one value compare as."""
    text = normalize_value(value)
    return _LANGUAGE_NAMES.get(text, text)


# a language named in Chinese is the language named in English ("英语" after "English")
_LANGUAGE_NAMES = {
    **dict.fromkeys(("英语", "英文"), "english"),
    **dict.fromkeys(("中文", "汉语", "华语"), "chinese"),
    "普通话": "mandarin",
    **dict.fromkeys(("粤语", "广东话", "白话"), "cantonese"),
    **dict.fromkeys(("日语", "日文"), "japanese"),
    **dict.fromkeys(("韩语", "韩文", "朝鲜语"), "korean"),
    **dict.fromkeys(("法语", "法文"), "french"),
    **dict.fromkeys(("德语", "德文"), "german"),
    "西班牙语": "spanish",
    "意大利语": "italian",
    "葡萄牙语": "portuguese",
    "俄语": "russian",
}


async def resolve(repo: MemoryStore, cand: Candidate) -> None:
    """Align ``cand`` with the user's active memories of its key, in place.

    - an active memory of the same key whose value is the same after ``normalize_value``
      lends its spelling to ``cand.value`` (the duplicate rule then refreshes it);
    - a switch (``cand.metadata["replaces"]``) retracts every other active value of the key,
      and a favourite (``cand.metadata["category"]``) the active favourites of the same
      category; either becomes a correction;
    - before these, a take-back (``_take_back``), a kind asked to be forgotten
      (``_forgotten``), a job left that names no workplace
      (``_job_without_employer``), a thing given up named in fewer words
      (``_widen_retracts``), a moved appointment or routine (``moved_from``), a duty beside a
      role (``_duty_beside_role``) and a rule for the assistant that says it changed
      (``_replaced_rules``) name what ``cand`` retracts.

    Reads with ``repo.active_with_keys`` (rows locked for update, as arbitration does next).
    """
    taken = (cand.metadata or {}).pop("takes_back_message", None)
    topic = (cand.metadata or {}).pop("takes_back_topic", None)
    if taken or (cand.metadata or {}).get("spelled"):
        # "I take that back": what the user's previous turn formed is withdrawn; a name spelled
        # out with no turn before it in its session corrects a name said in another
        await _take_back(repo, cand, str(taken) if taken else None, topic)
    await _relative_respelled(repo, cand)
    await _kind_ended(repo, cand)
    await _forgotten(repo, cand)
    await _recovered(repo, cand)
    await _parted(repo, cand)
    await _job_without_employer(repo, cand)
    await _promoted(repo, cand)
    await _age_said_again(repo, cand)
    await _name_said_again(repo, cand)
    await _gathering_moved(repo, cand)
    await _diet_broken(repo, cand)
    await _birth_year(repo, cand)
    if cand.is_correction and cand.retracts and cand.type != "constraint":
        await _widen_retracts(repo, cand)
    await _other_script(repo, cand)
    await moved_from(repo, cand)
    await _one_a_day(repo, cand)
    await _drink_routine(repo, cand)
    await _duty_beside_role(repo, cand)
    await _added_beside(repo, cand)
    await _renamed(repo, cand)
    if cand.type == "constraint" and cand.key == "assistant.constraint":
        await _replaced_rules(repo, cand)
    await _rule_withdrawn(repo, cand)
    if cand.key is None or cand.value is None or cand.type == "constraint":
        return
    olds = await repo.active_with_keys([cand.key], cand.scope, cand.scope_id)
    if cand.key in SECRET_KEYS:
        (cand.metadata or {}).pop("instead_of", None)  # never stored: it would hold the value
        _replaced_secrets(cand, olds)
        return  # masks look alike: spellings and switches compare nothing of a secret
    mine = _spelling_free(cand.value)
    for old in olds:
        if old.value is not None and _spelling_free(old.value) == mine and mine:
            cand.value = old.value
            return
    # what the fact stands instead of: read here, never stored with it
    instead = (cand.metadata or {}).pop("instead_of", None) or []
    replaced = [
        old.value
        for old in olds
        if old.value is not None and not _same_turn(cand, old) and named_by(instead, old.value)
    ]
    if replaced:
        cand.is_correction = True
        cand.retracts = list(dict.fromkeys([*cand.retracts, *replaced]))
    if (replaces := (cand.metadata or {}).get("replaces")) == SAME_KIND:
        kind = tool_kind(cand.value)
        stale = [old.value for old in olds if old.value and kind and tool_kind(old.value) == kind]
    elif replaces:
        stale = [
            old.value
            for old in olds
            if old.value is not None and not _other_kind_of_tool(cand.key, old.value, cand.value)
        ]
    elif (cand.metadata or {}).get("changed"):
        stale = [
            old.value for old in olds if old.value is not None and same_head(old.value, cand.value)
        ]
    else:
        category = (cand.metadata or {}).get("category")
        if not category:
            return
        if category == "*":
            category = _one_category(cand, olds)
        stale = [
            old.value
            for old in olds
            if old.value is not None and (old.metadata_ or {}).get("category") == category
        ]
    if stale:
        cand.is_correction = True
        cand.retracts = list(dict.fromkeys([*cand.retracts, *stale]))


# keys a withdrawal may name in the other script ("I don't live in Beijing anymore" after
# "我住在北京"), and, for a withdrawal with no key, the verbs that say which of them it ends
_SCRIPT_KEYS = ("residence.city", "work.employer", "work.location")
_LEFT_HOME = re.compile(r"\b(?:liv\w*|mov\w*|relocat\w*)\b|住|搬|不在|没在|\bleft\b", re.I)
_LEFT_JOB = re.compile(
    r"\b(?:work\w*|quit|resign\w*|left|job)\b|不在|没在|离职|辞职|出来|上班|工作|干|做", re.I
)
_HAN = re.compile(r"[\u4e00-\u9fff]")


def _script(text: str) -> str:
    """``"han"`` for a value in Chinese characters, ``"latin"`` for one in Latin letters."""
    return "han" if _HAN.search(text) else "latin" if re.search(r"[A-Za-z]", text) else ""


def _a_name(value: str, said: str) -> bool:
    """True if a retracted ``value`` reads as a name in ``said``: 2–8 Chinese characters, or
    Latin words written with a capital."""
    value, said = simplified(value), simplified(said)
    if _HAN.search(value):
        return bool(re.fullmatch(r"[\u4e00-\u9fff]{2,8}", value))
    m = re.search(rf"(?<![\w-]){re.escape(value)}(?![\w-])", said, re.I)
    return m is not None and m.group(0)[:1].isupper()


async def _other_script(repo: MemoryStore, cand: Candidate) -> None:
    """A withdrawal that names the place or the employer in the other script than the user
    stated it ("I don't live in Beijing anymore" after "我住在北京", "我已经不在谷歌了" after "I
    work at Google"): values are compared as strings, so it matched nothing. It ends the one
    active value of its key (for a withdrawal with no key, of the one key its verb can end)
    when that value is in the other script, nothing active holds the name as written and the
    key held no other value before (else the name may be that one's)."""
    if cand.value is not None or not cand.is_correction or len(cand.retracts) != 1:
        return
    named = cand.retracts[0] or ""
    if not _script(named) or not _a_name(named, cand.content) or _kind_keys(named, cand.key):
        return
    if cand.key is None:
        keys = [
            k
            for k, verb in (("residence.city", _LEFT_HOME), ("work.employer", _LEFT_JOB))
            if verb.search(simplified(cand.content))
        ]
    else:
        keys = [cand.key] if cand.key in _SCRIPT_KEYS else []
    if not keys:
        return
    held = await repo.active_with_keys(list(_SCRIPT_KEYS), cand.scope, cand.scope_id)
    mine = normalize_value(named)
    if any(old.value and normalize_value(old.value) == mine for old in held):
        return  # said as stated: the retraction matches it as it is
    if await repo.held_before(keys):
        # "I used to live in Beijing" after 北京 gave way to 上海: with a value of before, the
        # name may be that one, in the other script; which, strings cannot tell: none ends
        return
    other = [[old.value for old in held if old.key == k and old.value is not None] for k in keys]
    ends = [
        values[0]
        for values in other
        if len(values) == 1 and _script(values[0]) not in ("", _script(named))
    ]
    if len(ends) == 1:
        cand.retracts = [*cand.retracts, ends[0]]


# what kind of tool a tool is: a switch to one replaces the tools of its kind only ("Fedora
# now" replaces Arch and Linux, not the Emacs the user codes in)
_TOOL_KINDS = {
    "os": "linux ubuntu debian fedora arch manjaro mint nixos centos windows mac macos osx"
    " chromeos chromebook macbook",
    "phone": "android ios iphone pixel samsung galaxy 安卓 鸿蒙 苹果系统 苹果手机 华为手机",
    "editor": "vim neovim nvim emacs vscode code sublime atom pycharm intellij webstorm goland"
    " clion rider xcode cursor zed helix nano notepad++ jetbrains",
    "language": "python go golang rust java javascript typescript js ts c c++ c# ruby php kotlin"
    " swift scala elixir haskell clojure lua dart perl r julia objective-c",
    "database": "postgres postgresql mysql sqlite redis mongodb mongo mariadb oracle dynamodb"
    " elasticsearch clickhouse cassandra",
    "frontend": "react vue angular svelte solid nextjs next.js nuxt",
    "notes": "notion obsidian evernote onenote bear logseq roam 印象笔记 有道云笔记 有道笔记 语雀"
    " 幕布 飞书文档 腾讯文档 石墨文档 金山文档",
    "chat": "slack teams discord telegram whatsapp signal wechat 微信 飞书 钉钉 企业微信",
    "drive": "dropbox onedrive icloud gdrive 百度网盘 阿里云盘 夸克网盘 坚果云",
    "browser": "chrome firefox safari edge brave arc opera vivaldi",
    "music": "spotify pandora tidal deezer 网易云音乐 网易云 qq音乐 酷狗 酷狗音乐",
    "design": "figma sketch photoshop ps illustrator canva",
    "shell": "bash zsh fish powershell",
    "cloud": "aws gcp azure heroku vercel netlify fly.io digitalocean linode render railway"
    " 阿里云 腾讯云 华为云 百度云 京东云",
    "ci": "jenkins circleci travis buildkite teamcity bamboo",
    "backend": "django flask fastapi spring rails laravel express nestjs gin",
}
_TOOL_KIND = {name: kind for kind, names in _TOOL_KINDS.items() for name in names.split()}
_TOOL_PHRASES = {"apple music": "music", "youtube music": "music", "google drive": "drive",
                 "vs code": "editor", "visual studio code": "editor", "google docs": "notes",
                 "sql server": "database", "windows 10": "os", "windows 11": "os",
                 "github actions": "ci", "gitlab ci": "ci", "travis ci": "ci",
                 "spring boot": "backend", "adobe xd": "design"}  # fmt: skip


# ``metadata["replaces"]`` of a tool said to be used now ("现在主要用 Figma"): it replaces the
# tools of its own known kind only, none of an unknown one
SAME_KIND = "kind"


def tool_kind(value: str) -> str | None:
    """The kind of a tool named by ``value`` ("os", "editor", "language", "phone", "notes",
    "chat", "drive", "browser", "music", "design", "database", "frontend", "shell"), read from
    ``_TOOL_KINDS``: the whole value, or its first word ("Windows 11", "Arch btw"); ``None``
    when unknown."""
    text = " ".join(simplified(value).lower().split())
    if text in _TOOL_PHRASES or text in _TOOL_KIND:
        return _TOOL_PHRASES.get(text) or _TOOL_KIND[text]
    first = text.split(" ", 1)[0] if text else ""
    return _TOOL_KIND.get(first)


def _other_kind_of_tool(key: str | None, old: str, new: str) -> bool:
    """True if ``old`` and ``new`` (values of ``tech.preferred``) are tools of two known kinds
    (``tool_kind``): a switch to one leaves the other in use."""
    if key != "tech.preferred":
        return False
    a, b = tool_kind(old), tool_kind(new)
    return a is not None and b is not None and a != b


def _one_category(cand: Candidate, olds: Sequence[Memory]) -> str | None:
    """The category of a favourite said without one ("现在最喜欢的是陈奕迅了", category
    ``"*"``): the one category of the user's active favourites, which ``cand`` then takes; None
    (and ``cand`` stays a liking of no category) when the user has favourites of several
    categories or none."""
    cats = {
        c
        for old in olds
        if old.value is not None and (c := (old.metadata_ or {}).get("category")) and c != "*"
    }
    category = cats.pop() if len(cats) == 1 else None
    if category is None:
        (cand.metadata or {}).pop("category", None)
    else:
        cand.metadata["category"] = category
    return category


def _replaced_secrets(cand: Candidate, olds: Sequence[Memory]) -> None:
    """The secrets ``cand`` replaces: a password of an account the user already gave one for
    ("my wifi password is …" after "my wifi password is …": ``metadata["account"]``,
    ``rules._account``) that one, other accounts' passwords staying; else, said as a switch
    ("新卡号是 …", ``metadata["replaces"]``), every other secret of the key. Told apart by
    token (``masks_as_tokens``): the same secret said again replaces nothing."""
    account = (cand.metadata or {}).get("account")
    if not account and not (cand.metadata or {}).get("replaces"):
        return
    mine = masks_as_tokens(cand.value or "", cand.sealed)
    replaced = [
        old.id
        for old in olds
        if (not account or (old.metadata_ or {}).get("account") == account)
        and masks_as_tokens(old.value or "", old.sealed) != mine
    ]
    if replaced:
        cand.is_correction = True
        cand.retract_ids += replaced


def _same_turn(cand: Candidate, old: Memory) -> bool:
    """True if ``old`` was formed from a message ``cand`` comes from: this very turn, whose
    values never replace one another."""
    said_now = set((cand.origin or {}).get("message_ids") or [])
    return bool(said_now & set((old.origin or {}).get("message_ids") or []))


def named_by(instead: list[str], value: str, *, exact: bool = False) -> bool:
    """True if a value a statement stands instead of ("Max, not Milo" → "Milo"; a classifier's
    guess stands instead of its whole sentence) names ``value`` or is named by it
    (``_mentions`` either way), or is its Chinese short form ("是华中科技大学，不是武大" after
    "我本科在武汉大学读的", ``abbreviates``). ``exact`` (the words after a "not"): ``value``
    with no more than the words of its slot (``bare_value``: "在北京工作" names 北京; "北京烤鸭",
    "英语老师" and "pine nuts" do not name 北京, 英语 or nuts), a run of it ("coffee" names
    "black coffee"), or its short form."""
    v = normalize_value(value)
    return any(
        abbreviates(bare_value(y), value)
        or _mentions(y, value)
        or normalize_value(bare_value(y)) == v
        or (not exact and _mentions(value, y))
        for y in instead
    )


# the user's things by their word, in a Chinese correction ("我手机…", "预算从…")
OWN_THING_ZH = (
    r"手机号?|电话|号码|邮箱|名字|预算|学校|公司|单位|工作|职位|老家|家乡|城市|猫|狗|宠物"
)
# the words around a value that only place it in its slot ("我手机安卓" → 安卓, "在北京工作" →
# 北京, "叫阿明" → 阿明, "allergic to peanuts" → peanuts, "in Berlin" → Berlin)
_SLOT_BEFORE_ZH = re.compile(
    r"^(?:把)?(?:我们?家?的?)?(?:" + OWN_THING_ZH + r")?(?:叫|在|对|用|养|喝|吃|住在|住|是|去)?"
)
_SLOT_AFTER_ZH = re.compile(r"(?:的|人|了|工作|上班|过敏|毕业)$")
_SLOT_BEFORE_EN = re.compile(r"^(?:(?:a|an|the|my)\s+)?(?:allergic to|in|at|called|named)\s+", re.I)


def bare_value(words: str) -> str:
    """``words`` without what only places a value in its slot (``_SLOT_BEFORE_ZH``,
    ``_SLOT_AFTER_ZH``, ``_SLOT_BEFORE_EN``); ``words`` when nothing else is left."""
    if _HAN.search(words):
        return _SLOT_AFTER_ZH.sub("", _SLOT_BEFORE_ZH.sub("", words)) or words
    return _SLOT_BEFORE_EN.sub("", words) or words


def abbreviates(short: str, full: str) -> bool:
    """True if ``short`` is a Chinese short form (简称) of ``full``: both Chinese, ``short`` of
    two or more characters and fewer than ``full``, opening with its first character and
    taking the rest in order from it (武大 → 武汉大学, 华科 → 华中科技大学, 上交 → 上海交通大学).
    The usual way such names are shortened: a character of each part, kept in order."""
    s, f = normalize_value(short), normalize_value(full)
    if not (2 <= len(s) < len(f)) or s[0] != f[0] or s.isascii() or f.isascii():
        return False
    rest = iter(f[1:])
    return all(ch in rest for ch in s[1:])


# what a rule for the assistant is about: a rule that says it changed something replaces the
# rules of the same kind; others stand beside them ("keep answers short" / "use short
# paragraphs", "用中文回答" / "代码注释用英文", "no emojis" / "emojis are fine in titles")
_ASPECTS = {
    "language": re.compile(
        r"中文|英文|英语|汉语|普通话|粤语|日语|韩语|法语|德语|西班牙语|简体|繁体|中英|双语"
        r"|\b(?:bilingual|english|chinese|mandarin"
        r"|cantonese|japanese|korean|french|german|spanish|italian|portuguese)\b",
        re.I,
    ),
    "length": re.compile(
        r"简短|简洁|详细|啰嗦|字以内|\d+\s*字|长一点|短一点|\b(?:short|shorter|long|longer|brief"
        r"|concise|detail(?:ed)?|verbose|length|word (?:limit|count)"
        r"|\d+(?:-\d+)? (?:sentences|words|paragraphs)"
        r"|(?:one|two|three|four|five|a few) (?:sentences?|words|paragraphs)|essays?"
        r"|walls? of text)\b|[一二两三四五六七八九十几\d]+句话?",
        re.I,
    ),
    "emoji": re.compile(r"表情|\bemojis?\b", re.I),
    # how the user is addressed: "称呼我的时候用“您”" / "别用您了，叫“你”就行"
    "address": re.compile(r"称呼|您|\b(?:call(?:ing)? me|address(?:ing)? me)\b", re.I),
    # a summary or the conclusion first: "每次最后总结一句" / "换成开头先给结论", "TL;DR at the top"
    "summary": re.compile(
        r"总结|小结|结论|摘要|\b(?:tl;? ?dr|summary|summaries|summari[sz]e|recap|bottom line)\b",
        re.I,
    ),
    "figures": re.compile(r"比喻|类比|打比方|\b(?:metaphors?|analog(?:y|ies))\b", re.I),
    "tone": re.compile(
        r"正式|随意|随便|口语化|语气|客气|委婉|官腔|\b(?:formal(?:ly)?|casual(?:ly)?|tone|polite(?:ly)?"
        r"|blunt(?:ly)?|gentle|friendly|sugar-?coat\w*)\b",
        re.I,
    ),
    "format": re.compile(
        r"列表|表格|分点|段落|\b(?:bullet|bullets|table|tables|markdown|headings?|numbered|lists"
        r"|paragraphs?|prose|plain text|(?:normal|full|complete|whole|regular|proper) sentences)\b",
        re.I,
    ),
    "code": re.compile(
        r"\b(?:typescript|javascript|js|ts|python|java|golang|rust|kotlin|swift|ruby|php|c\+\+)\b",
        re.I,
    ),
    "units": re.compile(
        r"单位|公制|英制|摄氏|华氏|公里|英里|公斤|\b(?:units?|metric|imperial|celsius|fahrenheit"
        r"|kilomet(?:er|re)s?|miles|km|kg|grams|pounds|ounces|cups|feet|inches)\b",
        re.I,
    ),
}


# the two ways a rule on length goes: shorter ("回答尽量简短", "keep it brief") or longer
# ("回答详细一点", "give me detailed answers")
_SHORTER = re.compile(
    r"简短|简洁|精简|短一点|\b(?:short|shorter|brief|briefer|concise|terse)\b", re.I
)
_LONGER = re.compile(
    r"详细|详尽|长一点|展开|\b(?:long|longer|detailed|in detail|in-depth|thorough|elaborate)\b",
    re.I,
)
_NEGATION = re.compile(r"不|别|没|\b(?:no|not|never|don'?t|do not|stop)\b|n't\b", re.I)


# a rule asking for more or for less of a thing of the answers ("多举例子" / "例子少举点",
# "more examples" / "fewer examples"): the two cannot both be followed
_MORE = re.compile(r"多(?!久|少|大|么)|\bmore\b|\blots of\b|\bplenty of\b", re.I)
_LESS = re.compile(r"少(?!于)|\b(?:fewer|less)\b", re.I)


def _amount_way(text: str) -> int:
    """1 for a rule that asks for more of something, -1 for less, 0 for neither or both."""
    text = simplified(text)
    return int(bool(_MORE.search(text))) - int(bool(_LESS.search(text)))


# the two systems of units a rule asks for: metric ("use Celsius", "用公制") or imperial ("in
# Fahrenheit please", "miles not km" asks imperial and names metric: neither, as both are said)
_METRIC = re.compile(
    r"摄氏|公制|公里|公斤|\b(?:celsius|centigrade|metric|kilomet(?:er|re)s?|km|kg|kilos?|grams?)\b",
    re.I,
)
_IMPERIAL = re.compile(
    r"华氏|英制|英里|磅|\b(?:fahrenheit|imperial|miles?|mph|pounds?|lbs?|feet|inches|ounces?)\b",
    re.I,
)


def _units_way(text: str) -> int:
    """1 for a rule that asks for metric units, -1 for imperial, 0 for neither, both, or a
    negation ("don't use Fahrenheit")."""
    text = simplified(text)
    if _NEGATION.search(text):
        return 0
    return int(bool(_METRIC.search(text))) - int(bool(_IMPERIAL.search(text)))


def _length_way(text: str) -> int:
    """-1 for a rule that asks for shorter answers, 1 for longer ones, 0 when it is not plain
    (neither, both, or a negation: "不要太短")."""
    text = simplified(text)
    if _NEGATION.search(text):
        return 0
    return int(bool(_LONGER.search(text))) - int(bool(_SHORTER.search(text)))


def rule_aspects(text: str) -> set[str]:
    """What a rule for the assistant is about (``_ASPECTS``: language, length, emoji, tone,
    format, code), by its words."""
    text = simplified(text)
    # a Latin word against Chinese characters is a word of its own ("emoji可以用了")
    text = re.sub(r"(?<=[\u4e00-\u9fff])(?=[A-Za-z])|(?<=[A-Za-z])(?=[\u4e00-\u9fff])", " ", text)
    return {name for name, words in _ASPECTS.items() if words.search(text)}


_RULE_FILLER = re.compile(
    r"\b(?:answers?|repl(?:y|ies)|responses?|please|always|never|anymore|need|don'?t|stop|use"
    r"|using|write|with|your|from|when|just|more|less|that|this|them|they)\b"
    r"|回答|回复|以后|不用|不要|别再|再|了|的|都|请|一下|时候|时",
    re.I,
)


def _rule_words(text: str) -> set[str]:
    """What a rule is about beyond the words of any rule: its English words of four letters
    or more and its Chinese character pairs ("推荐餐厅时标一下人均" → 推荐, 荐餐, 餐厅, 人均)."""
    body = _RULE_FILLER.sub(" ", simplified(text).lower())
    # "translations" is what "a translation" names, "summaries" what "a summary" does
    words = {_singular(w) for w in re.findall(r"[a-z]{4,}", body)}
    for run in re.findall(r"[\u4e00-\u9fff]+", body):
        words |= {run[i : i + 2] for i in range(len(run) - 1)}
    return words


def _singular(word: str) -> str:
    if word.endswith("ies") and len(word) > 5:
        return word[:-3] + "y"
    return word[:-1] if word.endswith("s") and len(word) > 4 else word


_LIFTS_RULE = re.compile(
    r"\b(?:don'?t|do not) (?:need|have) to\b|\bno need\b|^\W*(?:\w+\W+)?(?:skip|drop|ditch|lose)"
    r" (?:the|all the|your)\b|\bno more\b|不需要|不用再|不必再",
    re.I,
)
# "例子就不用了", "总结那个不用了", "例子就不用加了": the thing, then that it is not needed
# (with the verb of giving it, said or not)
_NOT_NEEDED_ZH = re.compile(
    r"(?P<x>[\u4e00-\u9fffA-Za-z][\u4e00-\u9fffA-Za-z ]*?)(?:就|也|都|那个|这个|那条|这条)?"
    r"不(?:用|需要|必)(?:再)?(?:加|写|给|放|带|标|附|列|说|发|用)?(?:了|啦)?\W*$"
)
# the words of calling a rule off, which name nothing of it ("不要英文翻译", "scrap the X")
_CANCEL_WORDS = re.compile(
    r"不要|不用|不需要|不必|别加?|算了|免了|\b(?:no|need|forget|never ?mind|skip|drop|ditch"
    r"|lose|scrap|enough|stop|quit|about|anymore|any more|longer|needed|necessary|adding"
    r"|including|doing|giving)\b",
    re.I,
)
# the same said verb first, as a rule said topic first is stored ("不用加例子")
_NOT_NEEDED_FIRST_ZH = re.compile(
    r"^(?:不(?:用|需要|必)|别|不要)(?:再)?(?:加|写|给|放|带|标|附|列|说|发|用)?"
    r"(?P<x>[\u4e00-\u9fffA-Za-z][\u4e00-\u9fffA-Za-z ]*)$"
)
# the words that point at a rule without naming it ("总结那个", "that summary thing")
_POINTING = re.compile(r"那个|这个|那条|这条|的那个|\b(?:that|this|the)\b|\bthing\b", re.I)


async def _rule_withdrawn(repo: MemoryStore, cand: Candidate) -> None:
    """A withdrawal that names a thing no memory holds as its value, but a rule for the
    assistant asks for ("算了，总结那个不用了" after "以后每次回答最后都帮我总结一下"): it ends the
    active rules whose words hold every word of what it names (``_rule_words``)."""
    if (
        cand.value is not None
        or not cand.retracts
        or not (cand.metadata or {}).get("retraction")
        or cand.key == "assistant.constraint"
    ):
        return
    if await repo.active_with_values(cand.retracts):
        return  # it names a value held: withdrawn as such
    named = [_rule_words(_POINTING.sub(" ", r)) for r in cand.retracts]
    named = [w for w in named if w]
    if not named:
        return
    olds = await repo.active_with_keys(["assistant.constraint"], cand.scope, cand.scope_id)
    stale = [
        old.id
        for old in olds
        if not _same_turn(cand, old) and any(w <= _rule_words(old.content) for w in named)
    ]
    if stale:
        cand.is_correction = True
        cand.retract_ids += stale
        cand.key, cand.type = "assistant.constraint", "constraint"  # the record is the rule's


# a rule that forbids a thing: "别用您", "不要再用表格", "don't use tables", "never call me sir"
_FORBIDS = re.compile(
    r"^(?:以后|今后|往后)?(?:请|麻烦)?(?:你)?(?:别|不要|千万别|不许)再?(?P<zh>.+)"
    r"|^(?:please |pls )?(?:don'?t|do not|never|stop|no more) (?:ever )?(?P<en>.+)",
    re.I,
)


def _forbidden(rule: str) -> set[str]:
    """The words (``_rule_words``) of what ``rule`` forbids ("别用您" → {用您}), or none when it
    forbids nothing."""
    m = _FORBIDS.match(simplified(rule).strip())
    return _rule_words(m["zh"] or m["en"]) if m else set()


async def _replaced_rules(repo: MemoryStore, cand: Candidate) -> None:
    """A rule for the assistant that says it changed something, or asks for answers of the
    other length than an active rule (``_length_way``; ``metadata["changed"]``, set
    by the extractor: "actually, you can write longer answers" after "keep it short",
    "还是用中文回答吧" after "以后回答都用英文", "never mind, examples in JS" after "give
    TypeScript examples") replaces the user's active rules of the same kind (``_ASPECTS``), or
    that share two of its words (``_rule_words``: "推荐餐厅不用再标人均了" after "推荐餐厅时标一下
    人均"); a rule asking for less of a thing replaces one asking for more (``_amount_way``:
    "例子少举点" after "多举例子"), and one asking for the other system of units
    (``_units_way``: "Fahrenheit please" after "Use Celsius"). A rule that only calls off what
    it names (``metadata["cancels"]``, ``standing.cancels``: "英文翻译还是不要了") replaces the
    rules that hold every word it names, and keeps no value: the record of what it ended,
    archived when it ended nothing."""
    mine = rule_aspects(cand.content)
    changed = bool((cand.metadata or {}).get("changed"))
    # read here, never stored: "英文翻译还是不要了" asks nothing once it has ended a rule
    cancels = bool((cand.metadata or {}).pop("cancels", None))
    changed = changed or cancels
    way, more = _length_way(cand.content), _amount_way(cand.content)
    units = _units_way(cand.content)
    forbidden = _forbidden(cand.content)
    if not (changed or way or more or units or forbidden):
        return
    olds = await repo.active_with_keys(["assistant.constraint"], cand.scope, cand.scope_id)
    if not changed:
        # a rule on length or on how much of a thing the other way round replaces the old one
        # without a cue ("回答详细一点" after "回答尽量简短", "例子少举点" after "多举例子"),
        # and a rule forbidding what an old one asks ("别用您" after "称呼我的时候用您"):
        # both cannot be followed
        olds = [
            old
            for old in olds
            if (way and _length_way(old.content) == -way)
            or (more and _amount_way(old.content) == -more)
            or (units and _units_way(old.content) == -units)
            or (forbidden and not _forbidden(old.content) and forbidden <= _rule_words(old.content))
        ]
    # a rule lifted names what it lifts: one word of it is enough ("you don't need to add a
    # summary anymore" after "always end your answers with a summary"); a thing said not to
    # be needed ("例子就不用了") is named whole by the rule ("会议总结不用了" lifts no summary
    # of every answer)
    said = simplified(cand.content)
    shared = 1 if _LIFTS_RULE.search(said) else 2
    not_needed = _NOT_NEEDED_ZH.search(said) or _NOT_NEEDED_FIRST_ZH.match(said)
    named = _rule_words(_POINTING.sub(" ", not_needed["x"])) if not_needed else set()
    if cancels:
        # a rule called off names what it ends, whole: "英文翻译还是不要了" ends "回答都加上英文
        # 翻译"; "会议总结不用了" ends no summary of every answer
        named = named or _rule_words(_CANCEL_WORDS.sub(" ", said))
    stale = [
        old.id
        for old in olds
        if not _same_turn(cand, old)
        and normalize_value(old.content) != normalize_value(cand.content)
        and (
            # a rule called off names what it ends, whole ("Forget the Spanish homework" ends
            # no rule of answering in Spanish)
            (not cancels and mine & rule_aspects(old.content))
            or (not cancels and len(_rule_words(cand.content) & _rule_words(old.content)) >= shared)
            or (named and named <= _rule_words(old.content))
        )
    ]
    if cancels:
        # the record of the rules it ends, not a rule of its own; ending none, it is kept for
        # the record only ("Scrap the translation job, the agency took it")
        cand.value = None
        cand.metadata = {**(cand.metadata or {}), "retraction": True}
    if stale:
        cand.is_correction = True
        cand.retract_ids += stale


# what "forget what I said about my job" names, by the keys it covers
# a take-back by an ending that names nothing, with its verb (``semantic.VERB_TOPIC``)
VERB_TOPIC = "verb:"
# an ability taken back without naming it (the extractor's ``semantic.ABILITY_TOPIC``)
ABILITY_TOPIC = "ability"
# a request for the assistant pointed at and dropped (the extractor's ``semantic.RULE_TOPIC``)
RULE_TOPIC = "rule"
# what a slip names as given wrong (the extractor's ``semantic.SLIP_TOPIC``): "航班号说错了"
SLIP_TOPIC = "slip:"
_ABILITY = re.compile(r"会|\b(?:can|speaks?|plays?|know how)\b", re.I)
_TOPIC_KEYS: dict[str, str | tuple[str, ...]] = {
    "job": "work.", "work": "work.", "career": "work.", "name": "name.",
    "number": "contact.phone", "phone": "contact.phone", "email": "contact.email",
    "diet": "diet.", "pet": "pets.", "pets": "pets.",
    "dog": "pets.", "cat": "pets.", "age": "age", "birthday": "birthday", "school": "education.",
    "family": "family.", "allergy": "health.", "health": "health.", "drink": "preference.drink",
    "plan": ("plan", "event"),
    # what a slip names ("号码说错了", "I gave you the wrong email"), matched whole
    "phone number": "contact.phone", "email address": "contact.email", "address": "contact.",
    "号码": "contact.phone", "手机号": "contact.phone", "手机号码": "contact.phone",
    "电话": "contact.phone", "电话号码": "contact.phone", "手机": "contact.phone",
    "邮箱": "contact.email", "邮件地址": "contact.email", "邮箱地址": "contact.email",
    "年龄": "age", "岁数": "age", "年纪": "age", "名字": "name.", "姓名": "name.",
    "生日": "birthday", "学校": "education.", "公司": "work.",
    "city": ("residence.city", "work.location"), "城市": ("residence.city", "work.location"),
    "hometown": "hometown", "老家": "hometown", "家乡": "hometown",
    "date": ("birthday", "event", "plan"), "日期": ("birthday", "event", "plan"),
    # the kind of a secret a take-back names ("那是以前的密码…别记这个")
    "password": "account.password", "passcode": "account.password", "pin": "account.password",
    "密码": "account.password", "card": "finance.card", "卡号": "finance.card",
    "银行卡": "finance.card", "信用卡": "finance.card", "passport": "identity.document",
    "护照": "identity.document", "身份证": "identity.document", "e-mail": "contact.email",
}  # fmt: skip


# no word replaces a secret (only a value sealed as one, ``_misstated``), a contact's or a
# health value (protected, or a rule for the assistant's care); a plan, an
# event, a habit or a rule is a whole sentence, not a word a slip can replace
_NO_VALUE_IN_PLACE = ("account.password", "identity.document", "finance.card", "event", "plan",
                      "schedule.", "task.", "assistant.", "health.", "contact.")  # fmt: skip
# ... save a health value the take-back names as the one it replaces ("not shellfish, peanuts")
_NAMED_IN_PLACE = ("health.",)
# ... and a contact whose slip names it ("号码说错了，是139…", "wrong email, it's …")
_NAMED_BY_SLIP = ("health.", "contact.")


# the tastes a slip of polarity turns over: a liking (or the usual drink) into a dislike, a
# dislike or an avoided food into a liking
_FLIPS = {
    "preference.dislikes": ("preference.likes", "preference.drink"),
    "preference.likes": ("preference.dislikes", "diet.avoid"),
}


async def _take_back(
    repo: MemoryStore, cand: Candidate, message_id: str | None, topic: str | None
) -> None:
    """Withdraw what the user's previous turn (``message_id``; None for a name spelled out with
    no turn before it in its session) formed, as ``cand`` takes it back:

    - ``cand`` states a fact of its own ("说错了，我是南师大毕业的"): the memories of its key
      formed by that turn, other values than its own;
    - ``cand`` is a value said in place of a misstated one (``metadata["in_place"]``: "it's
      Leo, not Liam", "打错了，是小虹"): the memory it replaces (``_misstated``) — and
      ``cand`` takes that memory's key and type; when it is unclear which, nothing is
      withdrawn and ``cand`` becomes a record with no value (archived by arbitration);
    - else (``_taken_back``) the memories it names, or of its topic, or all of them.
    """
    formed = (
        await repo.active_formed_from(message_id, first=True, for_update=True) if message_id else []
    )
    cand.is_correction = True
    if cand.key is not None and cand.value is not None:
        mine = normalize_value(cand.value)
        others = [m for m in formed if m.key == cand.key and normalize_value(m.value or "") != mine]
        # "打错了，研究生是清华大学，不是北大" after "本科在武汉大学，研究生在北京大学": only
        # the value the "not …" names, when it names one of them
        instead = (cand.metadata or {}).get("instead_of") or []
        named = [m for m in others if m.value and named_by(instead, m.value)]
        cand.retract_ids += [m.id for m in named or others]
        return
    if flip := cand.metadata.pop("flip_to", None):
        # "打错了，是不喜欢": the one taste that turn formed turns over, its thing kept
        turned = [m for m in formed if m.key in _FLIPS.get(flip, ()) and m.value is not None]
        if len(turned) == 1:
            cand.key, cand.type, cand.value = flip, "preference", turned[0].value
            cand.metadata.pop("retraction", None)
            cand.retract_ids.append(turned[0].id)
        return
    if cand.metadata.pop("in_place", False) and cand.value is not None:
        instead = cand.metadata.pop("instead_of", None) or []
        secret = any(e.get("level") == "secret" and e["mask"] == cand.value for e in cand.sealed)
        keyed = False
        if topic and topic.startswith(SLIP_TOPIC) and not secret:
            # "航班号说错了，是CA929": only a memory of what the slip names is replaced
            noun = topic[len(SLIP_TOPIC) :]
            keyed = noun in _TOPIC_KEYS
            formed = _slip_named(formed, noun)
        if cand.metadata.pop("spelled", False):
            # "Catherine with a C": a name spelled alike, or a word of one, and nothing else —
            # of the turn before, else the one name of the user's spelled alike, however long
            # ago it was said
            def alike(m: Memory) -> bool:
                value = cand.value or ""
                return bool(m.value) and (
                    spelled_alike(m.value or "", value)
                    or _word_misspelled(m.value or "", value) is not None
                )

            formed = [m for m in formed if alike(m)]
            if not formed:
                named = await repo.active_with_keys(list(_SPELLED_KEYS), cand.scope, cand.scope_id)
                spelled = [m for m in named if alike(m)]
                formed = spelled if len(spelled) == 1 else []
        old = await _misstated(repo, formed, cand.value, instead, secret=secret, keyed=keyed)
        if old is None:
            # which memory it corrects is unclear: none is withdrawn, and the record is archived
            cand.value, cand.metadata["retraction"] = None, True
            return
        cand.key, cand.type = old.key, old.type
        cand.value = in_key_form(old.key or "", cand.value) or cand.value
        # "it's John, not Jon" after "My name is Jon Smith": the word misstated, replaced in
        # the value it was part of ("John Smith")
        part = next(
            (
                y
                for y in instead
                if y.isascii()
                and old.value
                and normalize_value(y) != normalize_value(old.value)
                and _word_run(y, old.value)
            ),
            None,
        ) or _word_misspelled(old.value or "", cand.value)
        if (
            part
            and old.value
            and (old.key or "").startswith("name.")
            and spelled_alike(part, cand.value)
            and cand.value.isascii()
            and " " not in cand.value.strip()
        ):
            cand.value = re.sub(rf"\b{re.escape(part)}\b", cand.value, old.value, flags=re.I)
        cand.retract_ids.append(old.id)
        return
    cand.retract_ids += [m.id for m in _taken_back(formed, cand.content, topic)]


async def _relative_respelled(repo: MemoryStore, cand: Candidate) -> None:
    """A relative's name said again, spelled right (``metadata["respelled"]``: "纠正一下，我老婆
    其实叫陈婧，不是安静的静" after "我老婆叫陈静") replaces the one name of a relative's held that
    is another spelling of it: the same first letter and length (Chinese: one character
    other), or spelled alike (``spelled_alike``); none when two are."""
    if cand.key != "family.member" or not (cand.metadata or {}).pop("respelled", None):
        return
    new = normalize_value(cand.value or "")

    def other_spelling(old: str) -> bool:
        if not old or old == new or old[:1] != new[:1]:
            return False
        if len(old) == len(new) and len(new) <= 4 and not new.isascii():
            return sum(a != b for a, b in zip(old, new, strict=True)) == 1
        return spelled_alike(old, new)

    olds = [
        m
        for m in await repo.active_with_keys(["family.member"], cand.scope, cand.scope_id)
        if other_spelling(normalize_value(m.value or ""))
    ]
    if len(olds) == 1:
        cand.is_correction = True
        cand.retract_ids.append(olds[0].id)


# the keys whose values are names a user may spell out again
_SPELLED_KEYS = ("name.full", "name.nickname", "name.family", "family.member", "pets.name")


def _word_misspelled(value: str, word: str) -> str | None:
    """The word of a value of several words that ``word`` is a new spelling of ("Katherine" in
    "Katherine Lee" for "Catherine with a C"), or None."""
    words = value.split()
    if len(words) < 2:
        return None
    alike = [
        w for w in words if normalize_value(w) != normalize_value(word) and spelled_alike(w, word)
    ]
    return alike[0] if len(alike) == 1 else None


def _slip_named(formed: list[Memory], noun: str) -> list[Memory]:
    """The memories of ``formed`` that what a slip names as given wrong is about: of the key
    the noun names ("号码" → ``contact.phone``, "age"), else whose words hold it ("航班号" in
    "明天的航班号是CA928"); a flight number names no age."""
    prefix = _TOPIC_KEYS.get(noun)
    if prefix:
        return [m for m in formed if (m.key or "").startswith(prefix)]
    return [m for m in formed if _mentions(noun, m.content)]


async def _misstated(
    repo: MemoryStore,
    formed: list[Memory],
    value: str,
    instead: list[str],
    *,
    secret: bool,
    keyed: bool = False,
) -> Memory | None:
    """The memory a value said in place of a slip corrects, or None when that is unclear:

    - a ``secret`` value (sealed by the ingest job as a secret the previous turn misstated,
      ``tasks.seal_restated_secrets``): the one secret the previous turn formed;
    - with a "not …" (``instead``): the memory the previous turn formed that it names, else
      the one active memory of the user's whose value it is ("it's Max, not Rex" four turns
      after the dog was named); when it names none, only one spelled alike;
    - else among the valued memories the previous turn formed of a kind a word can replace:
      the one spelled alike, else the only one when it is of the same writing (both Chinese,
      or both Latin) — a family member only when spelled alike ("oops, I meant Munich" after
      "my sister lives in Berlin" is no sister's name); among several Chinese ones, the one
      of as many characters (an input method's slip keeps the length: 咪咪 → 米米).

    A value with digits replaces only a value with digits ("oops, I meant 2019" is no allergy).
    When the slip named the key of what it corrects (``keyed``: "号码说错了，是139…"), a
    contact or a health value is a value a word can replace too.
    """

    if secret:
        secrets = [m for m in formed if m.key in SECRET_KEYS]
        return secrets[0] if len(secrets) == 1 else None

    def fits(m: Memory, *, named: bool = False) -> bool:
        if not m.key or not m.value:
            return False
        if m.key.startswith(_NO_VALUE_IN_PLACE) and not (
            (named and m.key.startswith(_NAMED_IN_PLACE))
            or (keyed and m.key.startswith(_NAMED_BY_SLIP))
        ):
            return False
        return not re.search(r"\d", value) or bool(re.search(r"\d", m.value))

    valued = [m for m in formed if fits(m)]
    if instead:
        # "其实不是海鲜，是芒果": a health value is replaced only when the "not …" names it
        named = [
            m
            for m in formed
            if fits(m, named=True) and named_by(instead, m.value or "", exact=True)
        ]
        if not named:
            norms = {normalize_value(y) for y in instead}
            named = [
                m
                for m in await repo.active_with_values(instead)
                if fits(m) and normalize_value(m.value or "") in norms
            ]
        if len(named) == 1:
            return named[0]
    alike = [m for m in valued if spelled_alike(m.value or "", value)]
    if alike or instead:
        # "是小虹，彩虹的虹，不是红色的红": a "not …" that names no value leaves the spelling
        return alike[0] if alike else None
    if (
        len(valued) == 1
        and valued[0].key != "family.member"
        and (
            _same_writing(valued[0].value or "", value)
            or in_key_form(valued[0].key or "", value) is not None
        )
    ):
        return valued[0]
    if _HAN.search(value):
        # "打错了，是米米" after "我家猫叫咪咪，三岁的英短": an input method's slip keeps the
        # number of characters; the one Chinese value of that length
        size = [
            m
            for m in valued
            if m.key != "family.member"
            and _same_writing(m.value or "", value)
            and len(normalize_value(m.value or "")) == len(normalize_value(value))
        ]
        if len(size) == 1:
            return size[0]
    return None


def in_key_form(key: str, value: str) -> str | None:
    """``value`` written as the values of ``key`` are, when it reads as one, else None: a day
    of the calendar said in place of a misstated birthday ("不对，是5月13号" → ``"05-13"``,
    "sorry, it's March 13" → ``"03-13"``) is written as the birthday it corrects was."""
    if key == "birthday" and (day := parse_month_day(value)) is not None:
        year, month, date = day
        return f"{year:04d}-{month:02d}-{date:02d}" if year else f"{month:02d}-{date:02d}"
    return None


def _same_writing(a: str, b: str) -> bool:
    """True if both values are written in Chinese characters, or neither is."""
    return bool(_HAN.search(a)) == bool(_HAN.search(b))


def spelled_alike(a: str, b: str) -> bool:
    """True if two values differ by a typo: a similarity ratio of at least 0.5
    (``difflib.SequenceMatcher``, Ratcliff/Obershelp) on their normalised forms."""
    x, y = normalize_value(a), normalize_value(b)
    return bool(x and y) and difflib.SequenceMatcher(None, x, y).ratio() >= 0.5


def _taken_back(formed: list[Memory], said: str, topic: str | None) -> list[Memory]:
    """Which of the memories the previous turn ``formed`` a take-back withdraws: those whose
    value it names ("说错了，我妈是老师" → 老师); else those of the topic it names ("forget
    what I said about my job" → the work keys, or the memories whose words hold it); else all
    of them ("I take that back")."""
    named = [m for m in formed if m.value and _mentions(m.value, said)]
    # "just kidding, I don't have a dog" after "I have a dog named Rex": the dog's name goes
    # with the dog
    kinds = {normalize_value(m.value or "") for m in named if m.key == "pets.kind"}
    named += [
        m
        for m in formed
        if m.key == "pets.name"
        and m not in named
        and normalize_value(str((m.metadata_ or {}).get("kind") or "")) in kinds
    ]
    if topic == RULE_TOPIC:
        # "用英文的那条不用了": the request pointed at, and what the turn named of it
        return [m for m in formed if (m.key or "").startswith("assistant.") or m in named]
    if named:
        return named
    if topic and topic.startswith(VERB_TOPIC):
        # "不跑了", "I don't use it anymore": what the previous turn said the user does with
        # that verb; all of it when the verb names no activity ("stopped going")
        verb = topic[len(VERB_TOPIC) :]
        doing = [m for m in formed if not verb or _does(verb, m.content)]
        # "我在学钢琴" → "不弹了": a verb of the same activity in other words names the one
        # thing the user does that the previous turn said, when it said one
        acts = [m for m in formed if m.key is None or m.key in _ACTIVITY_KEYS]
        return doing or (acts if len(acts) == 1 else [])
    if topic and topic.startswith(SLIP_TOPIC):  # "年龄说错了": what the slip names
        return _slip_named(formed, topic[len(SLIP_TOPIC) :])
    if topic == ABILITY_TOPIC:  # "其实不太会啦": what the user said they can do
        return [
            m
            for m in formed
            if m.key == "language.preferred"
            or (m.key is None and _ABILITY.search(simplified(m.content)))
        ]
    if topic:
        prefix = _TOPIC_KEYS.get(topic.split()[-1])
        return [
            m
            for m in formed
            if (prefix and (m.key or "").startswith(prefix))
            or _names(topic, m.content)
            or _mentions(topic, m.content)  # "never mind the bullet points"
            # "you can drop the summary line thing": a rule holding every word it names
            or (
                m.key == "assistant.constraint"
                and bool(words := _rule_words(topic))
                and words <= _rule_words(m.content)
            )
        ]
    return formed


def _does(verb: str, text: str) -> bool:
    """True if ``text`` says the user does what ``verb`` says: Chinese, the verb is in it
    ("跑" in "每天早上跑步"); English, a word of it is a form of the verb ("use" in "uses
    Emacs", "played" in "plays the violin", "run" in "goes running")."""
    if not verb.isascii():
        return simplified(verb) in simplified(text)
    root = re.sub(r"(?:ing|ed)$", "", verb.lower()) if len(verb) > 5 else verb.lower()
    if len(root) > 3 and root[-1] == root[-2]:
        root = root[:-1]  # "running" → "run"
    roots = {root, verb.lower(), root.rstrip("e")} - {""}
    forms = {
        r + tail
        for r in roots
        if len(r) >= 2
        for tail in ("", "s", "e", "es", "ing", "ed", "d", r[-1] + "ing", r[-1] + "ed")
    }
    return any(w in forms for w in _WORD.findall(unicodedata.normalize("NFKC", text).lower()))


def _head(value: str) -> str:
    text = unicodedata.normalize("NFKC", value).lower().strip()
    if text.isascii():
        words = _WORD.findall(text)
        return re.sub(r"(?<=[a-z]{3})s$", "", words[-1]) if words else ""
    han = re.sub(r"[^\u4e00-\u9fff]", "", text)
    return han[-2:] if len(han) >= 3 else ""


def same_head(a: str, b: str) -> bool:
    """True if ``a`` and ``b`` are two kinds of one thing: different values with the same head
    ("window seats" / "aisle seats", "靠窗的座位" / "靠过道的座位"). A one-word value has no
    modifier to differ by, so it names no kind ("jazz" / "jazz" is a duplicate, not a kind)."""
    if normalize_value(a) == normalize_value(b):
        return False
    ha, hb = _head(a), _head(b)
    if not ha or ha != hb:
        return False
    return len(normalize_value(a)) > len(ha) and len(normalize_value(b)) > len(hb)


# keys whose value is a thing the user can give up: a retraction may name it in fewer words
# than it was stored with ("不用 Windows 了" withdraws "Windows 开发", "quit cola" withdraws
# "每天都喝可乐", "对综艺没兴趣了" withdraws "看综艺")
_GIVEN_UP_KEYS = (
    "preference.likes", "preference.drink", "preference.dislikes", "diet.avoid", "diet.style",
    "tech.preferred", "schedule.habit", "health.condition", "work.employer", "work.role",
)  # fmt: skip
# ... and the keys whose values such a statement may name in fewer words ("the Japan trip is
# off" names the plan "Japan in April"); a plan or an event itself widens nothing ("we had to
# put Biscuit down" freezes the dog, not "loves biscuits with tea")
_NAMED_BY_RETRACTION = (
    *_GIVEN_UP_KEYS, "plan", "event", "task.decision", "pets.name", "language.preferred",
)  # fmt: skip
# words that only say what kind of thing ended ("the Japan trip is off", "MongoDB 的方案"):
# the rest of the words name it
_KIND_WORDS = frozenset(("trip", "plan", "plans", "thing", "idea", "one", "stuff", "project"))
_WORD = re.compile(r"[a-z0-9]+")
_NAME_SUFFIXES = ("db", "sql", "ql", "js")


def _stem(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def _names(part: str, whole: str) -> bool:
    """True if normalised ``part`` is a word of ``whole`` (Latin: whole words; Chinese: a
    substring of at least two characters)."""
    p, w = normalize_value(part), normalize_value(whole)
    if not p or p == w:
        return False
    if p.isascii():
        words = _WORD.findall(unicodedata.normalize("NFKC", whole).lower())
        stems = {_stem(w) for w in words}
        # a plural names the thing too: "thrillers" is a word of "thriller novels"
        if len(p) >= 3 and (p in words or _stem(p) in stems):
            return True
        # a name said without its technical suffix: "Mongo" names "MongoDB", "Postgres"
        # "PostgreSQL", "Vue" "Vue.js" (never "Java" "JavaScript")
        if len(p) >= 3 and any(w == p + x for x in _NAME_SUFFIXES):
            return True
        # "Japan trip" names "Japan in April": its words but the kind of thing (only then: "New
        # York" given up is not "New York pizza")
        words_of_part = _WORD.findall(part.lower())
        named = [x for x in words_of_part if x not in _KIND_WORDS]
        return (
            0 < len(named) < len(words_of_part)
            and len("".join(named)) >= 3
            and {_stem(x) for x in named} <= stems
        )
    return len(p) >= 2 and p in w


async def _duty_beside_role(repo: MemoryStore, cand: Candidate) -> None:
    """A duty the extractor read as a role (``metadata["duty"]``: "I look after the payroll
    there", "我在单位负责招人") is the role only while the user has none: beside an active role
    of another value, and with nothing said to have changed, it is kept as a fact with no key,
    so the role (single-valued) is not replaced by it."""
    if cand.key != "work.role" or not (cand.metadata or {}).pop("duty", None):
        return
    if cand.is_correction or cand.value is None:
        return
    olds = await repo.active_with_keys(["work.role"], cand.scope, cand.scope_id)
    mine = normalize_value(cand.value)
    if any(o.value is not None and normalize_value(o.value) != mine for o in olds):
        cand.key, cand.value = None, None
        cand.metadata["added_duty"] = True


async def _drink_routine(repo: MemoryStore, cand: Candidate) -> None:
    """A usual drink replaced ("现在早上都喝豆浆了" after "我每天早上喝一杯绿茶") also ends the
    routine of drinking the old one: the active routines whose words hold a drink the
    candidate replaces, and not the new one, join ``cand.retract_ids``."""
    if cand.key != "preference.drink" or not cand.is_correction or cand.value is None:
        return
    olds = [
        old
        for old in await repo.active_with_keys(
            ["preference.drink", "schedule.habit"], cand.scope, cand.scope_id
        )
        if not _same_turn(cand, old)
    ]
    mine = normalize_value(cand.value)
    drinks = [
        old.value
        for old in olds
        if old.key == "preference.drink" and old.value and normalize_value(old.value) != mine
    ]
    cand.retract_ids += [
        old.id
        for old in olds
        if old.key == "schedule.habit"
        and any(_holds(d, _said(old)) for d in drinks)
        and not _holds(cand.value, _said(old))
        and old.id not in cand.retract_ids
    ]


# keys of a thing with a name of its own, that it can change ("旺财改名叫来福了")
_RENAMABLE = ("pets.name", "family.member", "name.nickname")
# what a renaming says was renamed when it names the pet by a pronoun ("给它改名了", "we renamed
# her Mochi"): the extractor's ``metadata["renamed_from"]``
RENAMED_PET = "*pet"


async def _renamed(repo: MemoryStore, cand: Candidate) -> None:
    """A name said as the new one of a thing named before (``metadata["renamed_from"]``, set by
    the extractor: "旺财改名叫来福了", "我家狗旺财改名叫来福") takes the key and type of the one
    active memory of ``_RENAMABLE`` keys whose value ends the words before the renaming, and
    replaces it; with none or several it stays a fact with no key. Renamed by a pronoun
    (``RENAMED_PET``: "给它改名了", "we renamed her Mochi"), it replaces the user's one active
    pet name, and none when the user has several."""
    old_name = (
        (cand.metadata or {}).pop("renamed_from", None) if cand.trigger == "extraction" else None
    )
    if not old_name or cand.key not in (None, "pets.name") or cand.value is None:
        return
    said = normalize_value(str(old_name))
    if old_name == RENAMED_PET:
        # "给它改名了，现在叫可乐", "we renamed her Mochi": the user's one pet, by its name
        named = [
            old
            for old in await repo.active_with_keys(["pets.name"], cand.scope, cand.scope_id)
            if old.value and not _same_turn(cand, old) and old.value != cand.value
        ]
    elif cand.key is not None:
        return
    else:
        named = [
            old
            for old in await repo.active_with_keys(list(_RENAMABLE), cand.scope, cand.scope_id)
            if old.value
            and len(norm := normalize_value(old.value)) >= 2
            and said.endswith(norm)
            and not _same_turn(cand, old)
        ]
    if len(named) != 1:
        return
    cand.key, cand.type = named[0].key, named[0].type
    cand.is_correction = True
    cand.retract_ids.append(named[0].id)


# single-valued keys of a taste, and the multi-valued key a second value said as an add-on
# ("也挺爱喝柠檬水的", "I also like a good stout") stands under beside the first
_ADDED_BESIDE = {"preference.drink": "preference.likes"}


async def _added_beside(repo: MemoryStore, cand: Candidate) -> None:
    """A value of a single-valued taste said as an add-on (``metadata["added_on"]``: "also",
    "too", "也", "还", with no word of change) replaces nothing: beside an active value of
    another value it is kept under the multi-valued key of likings, so the first stays."""
    if not (cand.metadata or {}).pop("added_on", None):
        return
    beside = _ADDED_BESIDE.get(cand.key or "")
    if beside is None or cand.is_correction or cand.value is None or cand.retracts:
        return
    olds = await repo.active_with_keys([cand.key or ""], cand.scope, cand.scope_id)
    mine = normalize_value(cand.value)
    if any(o.value is not None and normalize_value(o.value) != mine for o in olds):
        cand.key = beside


def _doer(word: str) -> str:
    """The stem shared by a work's activity and its doer: "teaching"/"teacher" → "teach",
    "nursing"/"nurse" → "nurs", "bartending"/"bartender" → "bartend"."""
    for suffix in ("ing", "er", "or", "e"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word


def names_work(activity: str, role: str) -> bool:
    """True if a work given up by its activity names a role: "teaching" names "5th grade
    teacher", "nursing" names "nurse" (Latin, one word ending in -ing; the role's last word)."""
    act = activity.strip().lower()
    words = _WORD.findall(unicodedata.normalize("NFKC", role).lower())
    if not re.fullmatch(r"[a-z]{4,}ing", act) or not words:
        return False
    return _doer(act) == _doer(words[-1])


def _mentions(part: str, whole: str) -> bool:
    """True if ``part`` names ``whole`` or a run of its words ("window seats" in "window seats on
    flights", plurals folded; Chinese: a substring of at least two characters)."""
    p, w = normalize_value(part), normalize_value(whole)
    if not p:
        return False
    if p == w:
        return True
    if not p.isascii():
        return len(p) >= 2 and p in w
    return _word_run(part, whole) and len(p) >= 3


def _word_run(part: str, whole: str) -> bool:
    """True if the Latin words of ``part`` (plurals folded) stand together in ``whole``."""
    pw = [_stem(x) for x in _WORD.findall(unicodedata.normalize("NFKC", part).lower())]
    ww = [_stem(x) for x in _WORD.findall(unicodedata.normalize("NFKC", whole).lower())]
    n = len(pw)
    return n > 0 and any(ww[i : i + n] == pw for i in range(len(ww) - n + 1))


# the keys whose active values a clause that says something ended, or is not so, may name
# ("粤语都快忘光了", "I'm not Alex", "I don't live in Boston anymore")
ENDED_KEYS = (
    *_GIVEN_UP_KEYS, "language.preferred", "name.full", "name.nickname", "hometown",
    "residence.city", "health.allergy", "health.condition", "education.school",
)  # fmt: skip


# the keys whose active value what the user says they are not may be ("I'm not Alex", "I'm not
# actually allergic to penicillin", "我其实不是南京人")
DENIED_KEYS = ("name.full", "name.nickname", "hometown", "health.allergy", "health.condition",
               "diet.style", "family.member", "pets.kind")  # fmt: skip
_DENIAL_LEAD = re.compile(
    r"^(?:(?:a|an|the|really|actually|allergic to|intolerant to|from|called|named)\s+)+"
    r"|^(?:养过?|有过?)(?:一[只条个])?",  # "我没养狗": no dog
    re.I,
)


# words after the denied phrase that are not part of it: "I'm not celiac after all"
_DENIAL_TAIL = re.compile(
    r"(?:\s+(?:after all|any ?more|at all|actually|really|though|either|haha|lol|then))+$", re.I
)


def denied_values(olds: Sequence[Memory], phrases: Sequence[str]) -> list[str]:
    """The values of ``olds`` of ``DENIED_KEYS`` that a phrase of what the user says they are
    not (``semantic.denied``) is, once its leading words ("a", "allergic to", "from") and a
    Chinese 人 are dropped: "allergic to penicillin" is "penicillin", "Alex's brother" is not
    "Alex", "in Boston this week" is not "Boston"."""
    said = {
        normalize_value(re.sub(r"人$", "", _DENIAL_TAIL.sub("", _DENIAL_LEAD.sub("", p.strip()))))
        for p in phrases
    }
    said |= {re.sub(r"(?<=[a-z]{3})s$", "", p) for p in said if p.isascii()}  # "cats": a cat
    return list(
        dict.fromkeys(
            m.value
            for m in olds
            if m.key in DENIED_KEYS and m.value and normalize_value(m.value) in said - {""}
        )
    )


def ended_values(olds: Sequence[Memory], texts: Sequence[str], said: Iterable[str]) -> list[str]:
    """The values of ``olds`` (active memories of ``ENDED_KEYS``) that ``texts`` — clauses that
    say something ended, ``semantic.ends`` — name as a run of their words (Chinese: a
    substring of two characters or more), leaving out the values the same turn states
    (``said``: "I don't drink coffee anymore, coffee ice cream is fine" keeps nothing out, but
    a value said again is not ended)."""
    named = _named(
        olds,
        ENDED_KEYS,
        said,
        lambda value: any(
            _ends_named(value, t) or _activity_ended(value, t) or _by_its_verb(value, t)
            for t in texts
        ),
    )
    return named or _ended_by_verb(olds, texts, said)


# the words of a clause of ending that name no thing: the user, the negation, the ending and
# time words ("I no longer play", "I don't really cook anymore")
_NAMES_NOTHING = frozenset(
    ("i", "im", "m", "me", "my", "we", "no", "not", "never", "longer", "don", "dont", "t", "do",
     "does", "doesn", "didn", "really", "even", "anymore", "any", "more", "these", "days",
     "nowadays", "now", "at", "all", "actually", "honestly", "so", "well", "much", "that", "it",
     "s", "oh", "tbh", "lol", "haha")
)  # fmt: skip


def _by_its_verb(value: str, text: str) -> bool:
    """True if a clause of ending that says only an activity names an English routine or
    liking by its verb: "I no longer play" ends "play tennis on weekends", "I don't swim
    anymore" ends "go swimming every morning". One word of the clause names something, and it
    is the value's verb (or that verb's -ing form); a clause with an object names that
    instead."""
    if not value.isascii() or not text.isascii():
        return False
    said = [w for w in _WORD.findall(text.lower()) if w not in _NAMES_NOTHING]
    if len(said) != 1 or len(said[0]) < 3:
        return False
    verb, words = said[0], _WORD.findall(value.lower())
    stem = verb.rstrip("e")  # "ride" → "riding"
    return any(
        w == verb or (w.startswith(stem) and w.endswith("ing") and len(w) - len(verb) <= 4)
        for w in words
    )


# "膝盖受伤以后就不打了", "早就不玩啦": a verb given up with no object, at a clause's end; or
# with the object that says only the doing ("不跑步了" ends "每天早上跑五公里": 步, 泳, 身)
_VERB_ENDED = re.compile(
    r"(?:^|[我就都也早再已经基本现在后来以后从此]|[，,\s])不(?:再)?(?P<v>[\u4e00-\u9fff])[步泳身]?"
    r"(?:了|啦)"
    r"[呢啊呀吧哈嘛哦]*\W*$"
)


def _ended_by_verb(olds: Sequence[Memory], texts: Sequence[str], said: Iterable[str]) -> list[str]:
    """The one value of a thing the user does (a liking or a routine) that a clause giving up
    a verb with no object ends: "膝盖受伤以后就不打了" after "我喜欢打篮球" ends 打篮球 — the
    value where that verb takes an object. None when no value or several do ("不打了"
    beside 打篮球 and 打游戏: which one is unclear)."""
    verbs = {m.group("v") for t in texts for c in re.split(r"[，,。；;！!]", t)
             if (m := _VERB_ENDED.search(c.strip()))}  # fmt: skip
    if not verbs:
        return []
    found = _named(
        olds,
        ("preference.likes", "schedule.habit"),
        said,
        lambda value: any(re.search(v + r"[\u4e00-\u9fff]", value) for v in verbs),
    )
    return found if len(found) == 1 else []


# an English routine said as a verb of doing, its thing and its time ("play piano every
# evening", "go swimming on weekends"): the thing is what an ending names ("I quit piano")
_ROUTINE_EN = re.compile(
    r"^(?:play(?:s|ing)?|go(?:es|ing)?|do(?:es|ing)?|practi[cs](?:e|es|ing)|take(?:s)?|taking)\s+"
    r"(?:to\s+)?(?:the\s+|a\s+|some\s+)?(?P<what>[a-z][a-z -]*?)"
    r"(?:\s+(?:every|each|on|at|in|daily|weekly|nightly|twice|once|before|after|most|with"
    r"|\d+)\b.*)?$",
    re.I,
)


# an ending said of what might be, or of a part of the doing ("I'd never quit piano", "I won't
# stop swimming")
_NOT_ENDED_EN = re.compile(r"\b(?:never|won't|wouldn't|would|will|'d)\b", re.I)


def _activity_ended(value: str, text: str) -> bool:
    """True if a clause of ending names a routine by its activity (``_activity``): in Chinese
    anywhere in it; in English as the last words of one of its parts, with nothing after but
    "anymore", "for good"… ("I quit piano, I paint now" ends "play piano every evening"; "I quit
    piano lessons with my old teacher" and "I'd never quit piano" do not)."""
    what = _activity(value)
    if not what:
        return False
    if not value.isascii():
        return _mentions(what, text)
    if _NOT_ENDED_EN.search(text):
        return False
    tail = r"(?:\s+(?:anymore|any more|for good|altogether|completely|entirely))?\W*$"
    return any(
        re.search(rf"\b{re.escape(what)}{tail}", part, re.I) for part in re.split(r"[,，;；]", text)
    )


def _activity(value: str) -> str:
    """A routine's activity without its time and frequency: Chinese, the value less the
    leading and trailing characters of time, frequency or function (``_STOP_HAN``: "每周去跑步"
    → "跑步"); English, the thing of a verb of doing (``_ROUTINE_EN``: "play piano every
    evening" → "piano"). ``""`` when under two characters (three letters) are left or
    nothing is cut."""
    if value.isascii():
        m = _ROUTINE_EN.match(value.strip())
        what = m.group("what").strip() if m else ""
        return what if len(what) >= 3 and what.lower() != value.strip().lower() else ""
    core = value.lstrip("".join(_STOP_HAN)).rstrip("".join(_STOP_HAN))
    return core if len(core) >= 2 and core != value else ""


def _ends_named(value: str, text: str) -> bool:
    """True if a clause of ending names ``value``: as a run of its words, or — Chinese, a value
    of three characters or more — by its last two, the thing itself without its verb or kind
    ("篮球基本不打了" names 打篮球, "日剧看腻了" 看日剧, "胃炎已经好了" 慢性胃炎), and a value of
    one character by its verb of eating or drinking before it ("不能再吃辣了" names 辣)."""
    if _mentions(value, text):
        return True
    v = normalize_value(value)
    if v.isascii():
        # "can't watch horror anymore" names "horror movies": the genre without its kind
        words = value.lower().split()
        return (
            len(words) >= 2
            and words[-1] in _KINDS_OF_WORK
            and _mentions(" ".join(words[:-1]), text)
        )
    if len(v) == 1:
        # "醫生說我不能再吃辣了" names 辣: a one-character thing after its verb of eating
        return bool(re.search(rf"[吃喝抽]{re.escape(v)}", normalize_value(simplified(text))))
    return len(v) >= 3 and v[-2:] in normalize_value(text)


# the kind of thing a genre is said of ("horror movies", "true crime podcasts")
_KINDS_OF_WORK = frozenset(
    ("movies", "films", "shows", "series", "music", "books", "novels", "games", "podcasts",
     "food", "dishes", "songs", "documentaries")
)  # fmt: skip


def _named(
    olds: Sequence[Memory], keys: Sequence[str], said: Iterable[str], names: Callable[[str], bool]
) -> list[str]:
    """The values of ``olds`` of ``keys`` for which ``names`` holds, in order and once each,
    leaving out the values the same turn states (``said``)."""
    kept = {normalize_value(v) for v in said}
    return list(
        dict.fromkeys(
            m.value
            for m in olds
            if m.key in keys and m.value and normalize_value(m.value) not in kept and names(m.value)
        )
    )


# the keys whose active value a clause taking back what the user said may name without a word
# of ending ("I don't actually use Vue", "Honestly no, my Korean is terrible"): not a place, a
# job, a school or a taste, which a negation beside them rarely withdraws ("actually I don't
# like living in Beijing", "I don't drink coffee at night though")
DENIABLE_KEYS = ("language.preferred", "tech.preferred", "health.allergy", "health.condition",
                 "diet.style", "pets.name")  # fmt: skip


# the keys of what the user decided or means to do: ended by a clause that drops it and names
# it by one of its names ("I withdrew from Chicago", "Flutter 那个方案被老板否了")
NAMED_PLAN_KEYS = ("plan", "event", "task.decision")


def named_plans(olds: Sequence[Memory], names: Sequence[str], said: Iterable[str]) -> list[str]:
    """The values of ``olds`` (active memories of ``NAMED_PLAN_KEYS``) that hold one of
    ``names`` — the names said in a clause that drops or rejects something
    (``semantic.anchors``) — as a run of their words (Chinese: as a substring), leaving out
    the values the same turn states (``said``). "Chicago" names "running the Chicago marathon
    in October"; a name in no plan ends nothing."""
    return _named(
        olds, NAMED_PLAN_KEYS, said, lambda value: any(_mentions(n, value) for n in names)
    )


def ended_plans(olds: Sequence[Memory], texts: Sequence[str], said: Iterable[str]) -> list[str]:
    """The values of ``olds`` of the key ``plan`` that a clause of ending (``texts``) drops with
    its object said first (``_object_first_dropped``): "雅思不考了" ends "今年下半年考雅思";
    "雅思的报名费又涨了，不便宜了" or "驾照找不到了" end nothing."""
    return _named(olds, ("plan",), said, lambda v: any(_object_first_dropped(v, t) for t in texts))


def _object_first_dropped(value: str, text: str) -> bool:
    """True if ``text`` drops the Chinese plan ``value`` (three characters or more) with its
    object first and its verb negated after it: the object is the plan's last two characters
    and the verb the character before them ("考雅思": "雅思不考了", "雅思先不考了")."""
    v = normalize_value(value)
    if len(v) < 3 or v.isascii():
        return False
    thing, verb = re.escape(v[-2:]), re.escape(v[-3])
    return bool(re.search(rf"{thing}(?:也|就|先|暂时|还是)?不{verb}了", simplified(text)))


async def _birth_year(repo: MemoryStore, cand: Candidate) -> None:
    """A birth year said alone ("我是九五年的") beside a birthday held: the year of a full date
    held is that date again (a confirmation, nothing lost), and a month and day held without
    a year take it ("07-08" and 1995 → "1995-07-08")."""
    if cand.key != "birthday" or not cand.value or not re.fullmatch(r"\d{4}", cand.value):
        return
    held = await repo.active_with_keys(["birthday"], cand.scope, cand.scope_id)
    if len(held) != 1 or not held[0].value:
        return
    old = held[0].value
    if old.startswith(cand.value + "-"):
        cand.value = old
    elif re.fullmatch(r"\d{2}-\d{2}", old):
        cand.value = f"{cand.value}-{old}"


async def _kind_ended(repo: MemoryStore, cand: Candidate) -> None:
    """A contact or secret said to be over by its kind ("That email is dead now", "那张卡注销
    了", ``metadata["kind_ended"]``) ends the user's one active value of that key said in an
    earlier turn; none when they hold several (which one ended is unclear)."""
    if not (cand.metadata or {}).pop("kind_ended", None) or cand.key is None:
        return
    held = [
        m
        for m in await repo.active_with_keys([cand.key], cand.scope, cand.scope_id)
        if not _same_turn(cand, m)
    ]
    if len(held) == 1:
        cand.retract_ids.append(held[0].id)


async def _forgotten(repo: MemoryStore, cand: Candidate) -> None:
    """A request to forget what the user holds of a kind ("forget my email", "把我手机号删了",
    ``metadata["forgotten"]``) ends every active value of that key said in an earlier turn."""
    if not (cand.metadata or {}).pop("forgotten", None) or cand.key is None:
        return
    # the user's own memories too when the request was read for its session ("别存…")
    held = [
        m
        for scope, scope_id in dict.fromkeys([(cand.scope, cand.scope_id), ("user", "")])
        for m in await repo.active_with_keys([cand.key], scope, scope_id)
    ]
    cand.retract_ids += [m.id for m in held if not _same_turn(cand, m)]


async def _recovered(repo: MemoryStore, cand: Candidate) -> None:
    """A recovery that names nothing ("做完手术已经好了", ``metadata["recovered"]``) ends the
    user's one active condition; none when they hold several (which one got better is
    unclear)."""
    if not (cand.metadata or {}).pop("recovered", None) or cand.key != "health.condition":
        return
    held = await repo.active_with_keys(["health.condition"], cand.scope, cand.scope_id)
    if len(held) == 1 and held[0].value is not None:
        cand.retracts = list(dict.fromkeys([*cand.retracts, held[0].value]))


# the relations a user parts from ("我们分手了" ends the girlfriend, not the daughter)
_PARTNER = re.compile(
    r"女朋友|男朋友|女友|男友|老婆|老公|妻子|丈夫|太太|先生|爱人|对象|媳妇|未婚[妻夫]|伴侣"
    r"|\b(?:wife|husband|girlfriend|boyfriend|partner|fianc[ée]e?|spouse)\b",
    re.I,
)


async def _parted(repo: MemoryStore, cand: Candidate) -> None:
    """A parting that names no one ("我们分手了", ``metadata["parted"]``) ends the user's one
    active partner (a family member held as girlfriend, husband…); none when they hold several
    or none."""
    if not (cand.metadata or {}).pop("parted", None) or cand.key != "family.member":
        return
    held = await repo.active_with_keys(["family.member"], cand.scope, cand.scope_id)
    partners = [
        old.value
        for old in held
        if old.value is not None
        and not _same_turn(cand, old)  # "我们分手了，现在的男朋友叫阿东"
        and _PARTNER.search(
            simplified(str((old.metadata_ or {}).get("relation") or old.content or ""))
        )
    ]
    if len(partners) == 1:
        cand.retracts = list(dict.fromkeys([*cand.retracts, partners[0]]))


# the job itself left, not only the workplace ("辞职了", "I quit", "got laid off")
_JOB_QUIT = re.compile(
    r"辞职|离职|裸辞|被裁|被开除"
    r"|\b(?:quit|resigned|laid off|got fired|let go|handed in my notice)\b",
    re.I,
)
# a quit only thought of, or of a thing of the workplace, not the job ("I almost quit Stripe",
# "我差点就从京东辞职了", "quit the Stripe softball team", "退出了华为的羽毛球群")
_QUIT_NOT_THE_JOB = re.compile(
    r"差点|险些|想|打算|考虑|群|队|社团|俱乐部|食堂|\b(?:almost|nearly|thinking about|considering"
    r"|wanted to|might|team|club|group|league|chat|channel)\b",
    re.I,
)
# a job taken up, or the same work kept, said beside it
_JOB_TAKEN = re.compile(
    r"跳到|跳槽|入职|加入|去了|offer|还是|没变|一样|同样|\b(?:joined|now at|started at|starting at"
    r"|new job|moved to|same|still|hired|got a job|now work|now i work)\b",
    re.I,
)


async def _job_without_employer(repo: MemoryStore, cand: Candidate) -> None:
    """A job left that names no workplace ("辞职了", "I got laid off": a withdrawal of
    ``work.employer`` with no value, ``rules._job_left``) ends the job the user held: the
    employer and the role told before this turn, as "I quit my job" ends both by its kind word
    (``_KIND_KEYS["job"]``). A role told in the same turn is the one taken up
    ("辞职了，现在在做保险销售") and stays; so does every role when the user now works for
    themselves ("I went freelance", ``metadata["own_work"]``): the same work, no employer. A
    workplace named and the job quit ("已经不在京东了，辞职了") ends the roles the same way,
    unless the turn says another job is taken up or the work stays (``_JOB_TAKEN``)."""
    own_work = (cand.metadata or {}).pop("own_work", None)
    if not (
        cand.key == "work.employer"
        and cand.value is None
        and (cand.metadata or {}).get("retraction")
    ):
        return
    if cand.retracts and not (
        # "已经不在京东了，辞职了，在家歇一段时间再说": the workplace named and the job left,
        # no other taken up and nothing said to stay ("跳到蚂蚁了，title 没变")
        _JOB_QUIT.search(cand.content)
        and not _JOB_TAKEN.search(cand.content)
        and not _QUIT_NOT_THE_JOB.search(cand.content)
        and not own_work
    ):
        return
    held = [
        old
        for old in await repo.active_with_keys(
            ["work.employer"] if own_work else ["work.employer", "work.role"],
            cand.scope,
            cand.scope_id,
        )
        if old.value is not None and not _same_turn(cand, old)
    ]
    if cand.retracts:
        named = {normalize_value(r) for r in cand.retracts}
        if any(
            old.key == "work.employer" and normalize_value(old.value or "") not in named
            for old in held
        ):
            return  # "I quit St Mary's" beside the tutoring for Kumon: whose role is unclear
    if held:
        cand.is_correction = True
        cand.retracts = list(dict.fromkeys([*cand.retracts, *(old.value or "" for old in held)]))


# the levels of a job, said alone after a promotion ("promoted to senior") or first in its title
_LEVEL = re.compile(
    r"^(?:senior|sr\.?|junior|jr\.?|lead|staff|principal|mid-level|associate|chief|head"
    r"|高级|资深|初级|中级|首席)\b\s*",
    re.I,
)


async def _promoted(repo: MemoryStore, cand: Candidate) -> None:
    """A promotion to a level alone ("got promoted to senior last week", ``metadata
    ["promoted"]``) names the job the user holds at that level: the level put in the place of
    the one role held's own, or before it ("junior dev" → "senior dev", "engineer" → "senior
    engineer"); the value stays as said when no role or several are held."""
    if not (cand.metadata or {}).pop("promoted", None) or cand.key != "work.role":
        return
    level = (cand.value or "").strip()
    if not _LEVEL.fullmatch(level):
        return
    held = [
        old
        for old in await repo.active_with_keys(["work.role"], cand.scope, cand.scope_id)
        if old.value and not _same_turn(cand, old)
    ]
    if len(held) == 1:
        role = _LEVEL.sub("", held[0].value or "") or held[0].value
        cand.value = f"{level}{role}" if not level.isascii() else f"{level} {role}"


async def _age_said_again(repo: MemoryStore, cand: Candidate) -> None:
    """A bare number said beside a slip ("不对 26 了", "oops actually 29 not 28",
    ``metadata["age_said_again"]``: the number it says was wrong, or ``""``) is the user's age
    only when an age is held — the one it names, when it names one; otherwise it becomes a
    record with no key and no value, which withdraws nothing and is archived: "We have 28
    people coming" then "oops actually 29 not 28" is no age."""
    if cand.key != "age" or (was := (cand.metadata or {}).pop("age_said_again", None)) is None:
        return
    held = [old.value for old in await repo.active_with_keys(["age"], cand.scope, cand.scope_id)]
    # a number said in place of none named is an age a year or two from the one held ("不对，
    # 26" after 25), not any number ("oops, 45" after 40 corrects something else)
    near = any(
        old
        and old.isdigit()
        and (cand.value or "").isdigit()
        and abs(int(old) - int(cand.value or 0)) <= 2
        for old in held
    )
    if not held or (was and was not in held) or (not was and not near):
        # no key either: a value-less age would withdraw the age held
        cand.key, cand.value, cand.metadata["retraction"] = None, None, True
        cand.retracts, cand.retract_ids, cand.is_correction = [], [], False


async def _name_said_again(repo: MemoryStore, cand: Candidate) -> None:
    """A name offered in place of another ("actually, go with Rebecca", ``metadata
    ["name_said_again"]``) is the user's nickname only when a name to be called by is held;
    otherwise it becomes a record with no key and no value, archived: "let's go with Postgres"
    is no name. The name held and the one offered are forms of one name: one holds the other
    ("Becca" → "Rebecca", "Tommy" → "Tom"), or they share the first letter and most of their
    letters (``_name_form``: "Maggie" → "Margaret", "Kat" → "Kit"); "Kafka" is no form of
    "Kat"."""
    if cand.key != "name.nickname" or not (cand.metadata or {}).pop("name_said_again", None):
        return
    new = (cand.value or "").lower()
    held = [
        (old.value or "").lower()
        for old in await repo.active_with_keys(["name.nickname"], cand.scope, cand.scope_id)
    ]
    if not any(h and (h in new or new in h or _name_form(h, new)) for h in held):
        cand.key, cand.value, cand.metadata["retraction"] = None, None, True
        cand.retracts, cand.retract_ids, cand.is_correction = [], [], False


def _name_form(a: str, b: str) -> bool:
    """True if two names are forms of one: the same first letter and a similarity ratio above
    0.55 (``difflib.SequenceMatcher``, Ratcliff/Obershelp; "maggie"/"margaret" 0.57,
    "kat"/"kit" 0.67, "kat"/"kafka" 0.5)."""
    return a[:1] == b[:1] and difflib.SequenceMatcher(None, a, b).ratio() > 0.55


async def _gathering_moved(repo: MemoryStore, cand: Candidate) -> None:
    """A gathering moved ("年会改到杭州了", ``metadata["gathering"]``: the gathering's word)
    ends what was decided, planned or set of it before ("今年年会在三亚办"): the active
    decisions, plans and events of earlier turns whose words name it."""
    said = (cand.metadata or {}).pop("gathering", None)
    if not said or cand.key != "task.decision":
        return
    olds = await repo.active_with_keys(list(NAMED_PLAN_KEYS), cand.scope, cand.scope_id)
    stale = [
        old.id
        for old in olds
        if not _same_turn(cand, old) and _mentions(said, f"{old.value or ''} {old.content}")
    ]
    if stale:
        cand.is_correction = True
        cand.retract_ids += stale


async def _diet_broken(repo: MemoryStore, cand: Candidate) -> None:
    """Meat eaten again ("现在开始吃肉了", ``metadata["meat_again"]``) ends the user's meatless
    diet (素食, vegetarian, vegan), and no other; a vegetarian diet withdrawn ("我已经不吃素了")
    ends the vegetarian diet held in either script."""
    again = (cand.metadata or {}).pop("meat_again", None)
    if cand.key != "diet.style":
        return
    # "我已经不吃素了" after "I'm vegetarian": a vegetarian diet withdrawn in the other script
    withdrawn = cand.value is None and any(
        r and _VEGETARIAN.match(r.strip()) for r in cand.retracts
    )
    if not (again or withdrawn):
        return
    held = await repo.active_with_keys(["diet.style"], cand.scope, cand.scope_id)
    meatless = [
        old.value
        for old in held
        if old.value is not None
        and (MEATLESS.search(old.value) if again else bool(_VEGETARIAN.match(old.value.strip())))
    ]
    cand.retracts = list(dict.fromkeys([*cand.retracts, *meatless]))


# a meatless diet, by any of its names (素食, vegetarian, vegan): what eating meat again ends
MEATLESS = re.compile(r"素|vegetarian|vegan", re.I)
# a vegetarian diet, in either script (a vegan one is a kind of its own: "not vegan anymore"
# leaves "vegetarian")
_VEGETARIAN = re.compile(r"^(?:吃素|素食(?:者|主义者?)?|素|(?:a )?vegetarian|veggie)$", re.I)


async def _widen_retracts(repo: MemoryStore, cand: Candidate) -> None:
    """Add to ``cand.retracts`` the active values of the given-up keys that a retracted value
    names in fewer words, so arbitration's exact-value match freezes them too — when the
    candidate itself states something given up (its key, if any, is one of them, or it has
    none): a move "from Leeds to York" retracts the place, not every value that names Leeds
    ("teacher in Leeds")."""
    # "早就不在那家公司了", "I left that company", "不在那边住了": the kind of thing or the
    # place pointed at stands for the one held
    kinds = [k for r in cand.retracts if r for k in _kind_keys(r, cand.key)]
    if kinds:
        held = await repo.active_with_keys(kinds, cand.scope, cand.scope_id)
        cand.retracts = list(
            dict.fromkeys([*cand.retracts, *(old.value for old in held if old.value is not None)])
        )
    cand.retracts = list(dict.fromkeys([*cand.retracts, *await _named_pets(repo, cand)]))
    # a dated quitting ("I quit smoking two weeks ago" is an event) names an activity only
    only_activity = cand.key is not None and cand.key not in _GIVEN_UP_KEYS
    if only_activity and not any(_GERUND.fullmatch(r.strip().lower()) for r in cand.retracts):
        if cand.key in ("family.member", "pets.name"):
            # a person or a pet gone from the user's life ("我和Tom分手了"): what was said of
            # them with no key ("partner Tom") goes with them
            cand.retract_ids += [
                old.id
                for old in await repo.active_keyless(cand.scope, cand.scope_id)
                if any(r and _names(r, old.content) for r in cand.retracts)
            ]
        return
    olds = await repo.active_with_keys(
        list(_ACTIVITY_KEYS if only_activity else _NAMED_BY_RETRACTION), cand.scope, cand.scope_id
    )
    more = [
        old.value
        for old in olds
        if old.value is not None
        and old.value != cand.value
        and any(
            r
            and (
                _names(r, old.value)
                # the same value spelled otherwise: "gluten free" withdraws "gluten-free"
                or normalize_value(r) == normalize_value(old.value)
                or (old.key == "work.role" and names_work(r, old.value))
                # "my blood pressure is back to normal" ends "high blood pressure"
                or (old.key == "health.condition" and _mentions(r, old.value))
                or (old.key in _ACTIVITY_KEYS and _gerund_of(r, old.value))
                or (old.key in _ACTIVITY_KEYS and _object_of(r, old.value))
            )
            for r in cand.retracts
        )
    ]
    if more:
        cand.retracts = list(dict.fromkeys([*cand.retracts, *more]))
    # a fact with no key has no value to match: its words name it ("drives a 2012 Honda Civic")
    cand.retract_ids += [
        old.id
        for old in await repo.active_keyless(cand.scope, cand.scope_id)
        if any(r and (_names(r, old.content) or _gerund_of(r, old.content)) for r in cand.retracts)
    ]


async def _named_pets(repo: MemoryStore, cand: Candidate) -> list[str]:
    """The names of a pet ended by its kind ("猫送人了", "the hamster died" after "我养了一只猫，
    叫咪咪"): those said in the turn that said that kind, when that turn said no other kind
    ("一只猫叫咪咪，一只狗叫旺财" leaves which name went with which unclear)."""
    gone = {normalize_value(r) for r in cand.retracts if r}
    if not gone or cand.key not in (None, "pets.kind", "pets.name"):
        return []
    held = await repo.active_with_keys(["pets.kind", "pets.name"], cand.scope, cand.scope_id)

    def turn(m: Memory) -> str | None:
        ids = (m.origin or {}).get("message_ids") or []
        return str(ids[0]) if ids else None

    kinds = [m for m in held if m.key == "pets.kind" and not _same_turn(cand, m)]
    names: list[str] = []
    for kind in kinds:
        if normalize_value(kind.value or "") not in gone or turn(kind) is None:
            continue
        if sum(1 for k in kinds if turn(k) == turn(kind)) != 1:
            continue
        names += [
            m.value for m in held if m.key == "pets.name" and m.value and turn(m) == turn(kind)
        ]
    return names


# a thing given up named only by its kind, with a demonstrative or a possessive ("那家公司",
# "原来的单位", "that company", "my old job"): the held value of the kind's key
_KIND_REF = re.compile(
    r"(?:(?:that|this|the|my|our)\s+)?(?:(?:old|former|previous|last)\s+)?"
    r"(?P<en>company|firm|employer|workplace|job)"
    r"|(?:那|这|原来|之前|以前|上)(?:的|一)?(?:家|个|所)?(?P<zh>公司|单位|厂子?|企业|城市|学校)",
    re.I,
)
_KIND_KEYS = {
    "company": ("work.employer",), "firm": ("work.employer",), "employer": ("work.employer",),
    "workplace": ("work.employer",), "公司": ("work.employer",), "单位": ("work.employer",),
    "厂": ("work.employer",), "厂子": ("work.employer",), "企业": ("work.employer",),
    "job": ("work.employer", "work.role"), "城市": ("residence.city",),
    "学校": ("education.school",),
}  # fmt: skip


# a place pointed at ("I don't work there anymore", "不在那边住了"): the held value of the
# key the verb gives
_THERE = re.compile(r"there|那边|那里|那儿", re.I)
_PLACED_KEYS = ("residence.city", "work.employer", "work.location")


def _kind_keys(value: str, key: str | None = None) -> tuple[str, ...]:
    """The keys a retracted value that names only a kind of thing stands for ("那家公司" →
    work.employer), or only a place pointed at under ``key`` ("那边" under residence.city);
    ``()`` for a value that names the thing itself."""
    if key in _PLACED_KEYS and _THERE.fullmatch(value.strip()):
        return (key,)
    m = _KIND_REF.fullmatch(value.strip())
    return _KIND_KEYS[(m.group("en") or m.group("zh")).lower()] if m else ()


def _object_of(thing: str, value: str) -> bool:
    """True if a thing of one Chinese character given up ("不喝酒了" → 酒, "烟戒了" → 烟) is
    the object an activity ends with ("每天喝酒", "抽烟"); two characters or more are matched
    as words (``_names``)."""
    t, v = normalize_value(thing), normalize_value(value)
    # the activity's last word, or its object before the verb said again ("抽烟抽了十年")
    return (
        len(t) == 1
        and "\u4e00" <= t <= "\u9fff"
        and (v.endswith(t) or bool(re.search(rf"([\u4e00-\u9fff]){t}\1", v)))
    )


# keys whose value is something the user does: named by the activity's -ing form
_ACTIVITY_KEYS = ("schedule.habit", "preference.likes")


def _gerund_of(word: str, text: str) -> bool:
    """True if ``word`` is an activity given up by its -ing form alone ("quit smoking", "stopped
    running") and ``text`` says the user does it with that verb ("smoke a few cigarettes a
    day", "runs every morning")."""
    w = word.strip().lower()
    return bool(_GERUND.fullmatch(w)) and _does(w, text)


_GERUND = re.compile(r"[a-z]{3,}ing")


# --- a moved plan, appointment or routine ------------------------------------------------------
# keys of things with a time: a plan or an appointment moved, a routine changed, keeps what it
# is ("dentist", "dinner with Priya", "swimming") and takes the new time
MOVABLE_KEYS = ("event", "plan", "schedule.habit")
_WEEKDAYS = {
    "monday": 0, "mon": 0, "tuesday": 1, "tue": 1, "tues": 1, "wednesday": 2, "wed": 2,
    "thursday": 3, "thu": 3, "thur": 3, "thurs": 3, "friday": 4, "fri": 4, "saturday": 5,
    "sat": 5, "sunday": 6, "sun": 6,
}  # fmt: skip
_WEEKDAY_EN = re.compile(
    r"\b(?i:monday|tuesday|wednesday|thursday|friday|saturday|sunday|tues|thurs?)s?\b"
    r"|\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)\b"
)
_WEEKDAY_ZH = re.compile(r"(?:周|星期|礼拜)(?P<d>[一二三四五六日天])")
_ZH_DIGITS = dict(zip("一二两三四五六七八九", (1, 2, 2, 3, 4, 5, 6, 7, 8, 9), strict=True))
_DATE_ZH = re.compile(r"(?P<y>\d{4})年(?P<m>\d{1,2})月(?P<d>\d{1,2})[日号]")
_DATE_EN = re.compile(
    r"\b(?P<mon>jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? (?P<d>\d{1,2}),"
    r" (?P<y>\d{4})",
    re.I,
)
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_HOUR_ZH = re.compile(
    r"(?<![有好快慢多少差早晚])(?P<h>\d{1,2}|[一二两三四五六七八九十]{1,3})\s*(?:点|时)(?![候间儿点])"
)
_HOUR_EN = re.compile(
    r"\b(?P<h>\d{1,2})(?::\d{2})?\s*(?:[ap]\.?m\b|o'?clock)"
    r"|\bat (?P<a>\d{1,2})(?::\d{2})?\b(?!\s*%)",
    re.I,
)


def _zh_number(text: str) -> int | None:
    if text.isdigit():
        return int(text)
    if text == "十":
        return 10
    tens, _, ones = text.partition("十")
    if "十" in text:
        return _ZH_DIGITS.get(tens, 1) * 10 + _ZH_DIGITS.get(ones, 0)
    return _ZH_DIGITS.get(text)


def time_marks(text: str) -> set[str]:
    """The days of the week and clock hours ``text`` names, comparable across wordings and
    languages: ``"wd:3"`` (Monday = 0) for "Thursday", "Thu Dec 3, 2026", "周四" or
    "2026年12月3日", ``"h:7"`` (hour modulo 12) for "at 7", "7pm", "晚上七点", "19:00"."""
    marks: set[str] = set()
    for m in _WEEKDAY_EN.finditer(text):
        name = m.group(0).lower()
        day = _WEEKDAYS.get(name, _WEEKDAYS.get(name[:-1]))  # "Thursdays"
        if day is not None:
            marks.add(f"wd:{day}")
    for m in _WEEKDAY_ZH.finditer(text):
        d = m.group("d")
        marks.add(f"wd:{6 if d in '日天' else _ZH_DIGITS[d] - 1}")
    dates = [(int(m["y"]), int(m["m"]), int(m["d"])) for m in _DATE_ZH.finditer(text)]
    dates += [
        (int(m["y"]), _MONTHS.index(m["mon"].lower()) + 1, int(m["d"]))
        for m in _DATE_EN.finditer(text)
    ]
    for y, mo, d in dates:
        try:
            marks.add(f"wd:{dt.date(y, mo, d).weekday()}")
        except ValueError:
            continue
    hours = [_zh_number(m["h"]) for m in _HOUR_ZH.finditer(text)]
    hours += [int(m["h"] or m["a"]) for m in _HOUR_EN.finditer(text)]
    marks |= {f"h:{h % 12}" for h in hours if h is not None and 0 <= h <= 24}
    return marks


# words that say when, how often or that something moved, not what the thing is
_TIME_TEXT = (
    "monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs "
    "fri sat sun morning mornings afternoon afternoons evening evenings night nights weekend "
    "weekends weekday weekdays week weeks day days daily every today tomorrow tonight am pm "
    "next last this now instead moved move moving pushed push bumped shifted switched switch "
    "changed change rescheduled postponed delayed cancelled canceled called off the and with "
    "for after before from about then than that this these those was were are can can't cant "
    "don't dont won't got get going have has had will would just usually normally always "
    "often thing things stuff plan plans appointment appt reminder schedule routine time "
    "jan feb mar apr may jun jul aug sep oct nov dec o'clock i'm i've i'll i'd we're we've "
    "you your our ours she her his him they them their it's its not but also too very really "
    "some any all one two three four five six seven eight nine ten eleven twelve there here "
    "what when where which who how early earlier late later lunchtime noon midday session "
    "sessions slot slots same "
    # what ends a thing, not what the thing is ("stopped the morning runs")
    "stop stops stopped stopping drop drops dropped dropping quit quitting gave give giving "
    "ended ending longer anymore"
)
_TIME_WORDS = frozenset(_TIME_TEXT.split())
# characters that say when, how often or that something moved, or tie a sentence together
STOP_HAN = _STOP_HAN = frozenset(
    "年月日号周星期礼拜天早晚上下中午凌晨傍夜点分半刻时今明昨后前每一二两三四五六七八九十零"
    "我你他她它们的了在是和跟与同就才都也还又再要会想去来到把被给让对从向这那个些边里吧呢啊呀哦嘛啦"
    "么没不很太最更有约改挪推迟延提换调成为变先暂打算计划准备已经般常通平"
)
_HAN_RUN = re.compile(r"[\u4e00-\u9fff]+")
_CALLED_OFF_HAN = re.compile(r"取消|作废|泡汤|黄了|吹了")


# verbs that say no activity of their own ("doing yoga", "taking the train")
_LIGHT_VERBS = frozenset((
    "do", "does", "did", "doing", "done", "go", "goes", "went", "gone", "take", "takes", "took",
    "taking", "make", "makes", "made", "making", "my",
))  # fmt: skip


def _doing(word: str) -> str:
    """A word of an activity in one form whatever its ending: plural folded, the -ing form,
    the noun in -ation and the verb alike ("lifting" and "lift", "runs" and "running",
    "biking" and "bike", "meditation" and "meditate")."""
    w = _stem(word)
    if len(w) > 7 and w.endswith("ation"):
        return w[:-3]  # "meditation" → "meditat", as "meditate" below
    if len(w) > 5 and w.endswith("ing"):
        w = w[:-3]
        if len(w) > 2 and w[-1] == w[-2] and w[-1] not in "lsz":
            w = w[:-1]  # "running" → "run", "swimming" → "swim"
    return w[:-1] if len(w) > 3 and w.endswith("e") and not w.endswith("ee") else w


def activity_words(text: str) -> set[str]:
    """What ``text`` says the thing is, without its time: Latin words of three or more letters
    (plurals folded) that are not time, frequency or moving words ("dinner", "priya", "gym");
    Chinese character pairs with no time or function character ("牙医", "游泳", "考研")."""
    folded = simplified(unicodedata.normalize("NFKC", text).lower())
    words = {
        _doing(w)
        # "yoga's on Thursdays now": the word without its "'s"
        for w in (re.sub(r"'s?$", "", w) for w in re.findall(r"[a-z][a-z']{2,}", folded))
        if w not in _TIME_WORDS and w not in _LIGHT_VERBS and len(w) > 2
    }
    # "周六的爬山取消了": the word that calls it off says nothing of what it is
    for run in _HAN_RUN.findall(_CALLED_OFF_HAN.sub(" ", folded)):
        words |= {
            run[i : i + 2]
            for i in range(len(run) - 1)
            if run[i] not in _STOP_HAN and run[i + 1] not in _STOP_HAN
        }
    return {w for w in words if w not in _TIME_WORDS}


def _said(m: Memory) -> str:
    return simplified(f"{m.content} {m.value or ''}")


def _holds(part: str, whole: str) -> bool:
    """True if ``whole`` holds ``part``: Latin, as a run of whole words (plurals folded);
    Chinese, as a substring of at least two characters. Dates stay (unlike ``_mentions``):
    "考研" is held by "打算2027年考研"."""
    p = _PUNCT.sub("", unicodedata.normalize("NFKC", part).lower())
    if not p.isascii():
        return len(p) >= 2 and p in _PUNCT.sub("", unicodedata.normalize("NFKC", whole).lower())
    return len(p) >= 3 and _word_run(part, whole)


def _joined(text: str) -> set[str]:
    """Two Latin words written as one ("work out" → "workout", "check up" → "checkup"), so a
    thing said as a compound ("my workouts") is the thing said in two words."""
    words = re.findall(r"[a-z]+", unicodedata.normalize("NFKC", text).lower())
    return {_stem(a + b) for a, b in itertools.pairwise(words)}


# how the user gets to work or school ("坐地铁上班", "骑车去公司"; read by the extractor's
# routine rules too), and in English ("take the subway to work")
COMMUTE_ZH = (
    r"(?:坐|骑|开车|打车|走路|步行|搭)[\u4e00-\u9fff]{0,4}?(?:上班|上学|去公司|去学校|通勤)"
)
_COMMUTE = re.compile(
    COMMUTE_ZH + r"|\b(?:drive|walk|bike|cycle|commute|carpool|ride my bike|take the \w+"
    r"|get the \w+) to (?:work|school|the office|class|uni)\b",
    re.I,
)


# routines a person keeps one of at a time: the hour they go to bed, the hour they get up, the
# way they get to work. A new one of these takes the place of the one held, however the turn
# words it ("最近开始早睡了，基本10点半就躺下" after "我一般晚上12点以后才睡"). A bedtime or a
# time to get up is one said with its hour; how long one sleeps, sleeping badly, what one does
# after waking are none. Hours said for some days (weekends, Fridays, days off, trips) are kept
# apart from the everyday ones.
_BEDTIME = re.compile(
    r"(?<!午)睡(?!前|觉前|眠|衣|到|不|懒觉|个?午觉)|躺下|上床|熬夜|夜猫子"
    r"|\b(?:go(?:es|ing)? to bed|in bed by|bedtime|asleep|lights out|night owl"
    r"|hit(?:ting)? the (?:sack|hay))\b|\bsleep(?:s|ing)?\b(?!\s+in\b)",
    re.I,
)
_WAKING = re.compile(
    r"起床|早起|(?<![看想站拿说一用听做学坐爬抬举])起来|醒|睡到|闹钟"
    r"|\b(?:wake|wakes|waking|woke) up\b|\bget(?:s|ting)? up (?:at|around|by|before)\b"
    r"|\b(?:I'?m|am) up (?:at|by|around|before)\b|\bsleep(?:s|ing)? in\b|\balarm\b",
    re.I,
)
# the hour said: "11", "10:30", "1am", "by 11", "十一点", "两点" (not "一点动静": a little)
_CLOCK = re.compile(
    r"\b\d{1,2}(?::\d{2})?\s*(?:am|pm)\b|\b(?:at|around|by|before|until|till|past)\s+"
    r"\d{1,2}(?::\d{2})?\b(?!\s*(?:hours?|hrs?|min))|\b\d{1,2}:\d{2}\b|\bmidnight\b"
    r"|(?:\d{1,2}|[一二两三四五六七八九十]{1,3})[点點](?!动静|儿|都|也|不|点)",
    re.I,
)
_COMMUTE_WAY = re.compile(
    COMMUTE_ZH + r"|(?:坐|骑|开车|打车|走路|步行|搭)\S{0,4}?去公司"
    r"|\b(?:driv|walk|bik|cycl|commut|carpool|rid)\w* (?:my \w+ )?to (?:work|the office)\b"
    r"|\b(?:take|takes|took|taking|get|catch) the \w+ to (?:work|the office)\b"
    r"|\bcommute by \w+",
    re.I,
)
# not the user's own hours or way: sleeping badly, how long, a child taken along
_NOT_OF_ONE = re.compile(
    r"失眠|睡不着|睡眠浅|很浅|半夜|白噪音|insomnia|awake|\d+\s*(?:个)?小时|\b\d+\s*hours?\b"
    r"|送孩子|送女儿|送儿子|\bwith my (?:daughter|son|kids?|children)\b|\bthe dog\b",
    re.I,
)
_NAP = re.compile(r"午睡|午觉|\bnaps?\b", re.I)
_WEEKEND = re.compile(r"周末|週末|\bweekends?\b|\bsat(?:urday)?s?\b|\bsun(?:day)?s?\b", re.I)
_WORKDAYS = re.compile(
    r"工作日|上班日|周一到周五|\bweekdays?\b|\bworkdays?\b|\bmonday to friday\b", re.I
)
# hours said for some days only: one day of the week, days off, trips, "when …"
_SOME_DAYS = re.compile(
    r"(?:每)?(?:周|星期|礼拜)[一二三四五六日天]|休息日|假期|放假|出差|节假日|的时候"
    r"|\b(?:on )?(?:mon|tues|wednes|thurs|fri)days?\b|\bdays? off\b|\bholidays?\b"
    r"|\bvacation\b|\btrips?\b|\btravel\w*|\bwhen\b|\bif\b"
    # one night, not the routine: "昨天晚上十点就睡了", "last night I was in bed by 9"
    r"|昨天|昨晚|今天|今晚|前天|\b(?:yesterday|today|tonight|last night)\b",
    re.I,
)


def _kinds_of_one(text: str) -> set[str]:
    """Which of the routines a person keeps one of ``text`` is: ``"bedtime"`` or ``"waking"``
    said with its hour (``_BEDTIME``, ``_WAKING``, ``_CLOCK``), ``"commute"``
    (``_COMMUTE_WAY``), each marked with the days it is said for (``"bedtime@weekend"``,
    ``"waking@weekday"``, ``"commute@all"``). Hours said for one day of the week, days off,
    trips or one night (``_SOME_DAYS``) are none of them, so never compared; nor are a nap, a
    night of bad sleep or a child taken along."""
    if _NAP.search(text) or _NOT_OF_ONE.search(text):
        return set()
    if _WORKDAYS.search(text):
        days = "weekday"
    elif _SOME_DAYS.search(text):
        return set()
    else:
        days = "weekend" if _WEEKEND.search(text) else "all"
    timed = bool(_CLOCK.search(text))
    kinds = {
        kind for kind, p in (("bedtime", _BEDTIME), ("waking", _WAKING)) if timed and p.search(text)
    }
    if _COMMUTE_WAY.search(text):
        kinds.add("commute")
    return {f"{kind}@{days}" for kind in kinds}


async def _one_a_day(repo: MemoryStore, cand: Candidate) -> None:
    """A routine of a kind a person keeps one of (``_kinds_of_one``: a bedtime, a time to get
    up, a way to work, for the same days) takes the place of the user's active routines of
    that kind formed from other messages: the hour one goes to bed now is the only one. Adds
    to ``cand.retract_ids`` and makes ``cand`` a correction; reads with
    ``repo.active_with_keys``. Routines of other kinds (a workout, a walk after dinner) stay:
    a person keeps several."""
    if cand.key != "schedule.habit" or cand.value is None or cand.type == "constraint":
        return
    mine = _kinds_of_one(simplified(f"{cand.content} {cand.value}"))
    if not mine:
        return
    gone = [
        old.id
        for old in await repo.active_with_keys(["schedule.habit"], cand.scope, cand.scope_id)
        if not _same_turn(cand, old)
        and old.id not in cand.retract_ids
        and old.value != cand.value
        and mine & _kinds_of_one(_said(old))
    ]
    if gone:
        cand.is_correction = True
        cand.retract_ids += gone


# a time said: the day ("next tuesday", "the 16th", "下個禮拜五", "周一三五") and the hour or
# the part of the day ("9am", "at 7", "in the evening", "早上六点")
_DAY = (
    r"\b(?:(?:next|this|on|every)\s+)?(?:monday|tuesday|wednesday|thursday|friday|saturday"
    r"|sunday|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)s?\b"
    r"|\b(?:the\s+)?\d{1,2}(?:st|nd|rd|th)\b|\btomorrow\b|\b(?:next|this) (?:week|month|year"
    r"|weekend)\b|\b(?:every\s+)?(?:weekend|weekday)s?\b|\b\d{1,2}/\d{1,2}\b"
    r"|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\b"
    r"|(?:下下|下|这|這|本|上|每)?(?:个|個)?(?:周|週|星期|礼拜|禮拜)[一二三四五六日天]"
    r"(?:[一二三四五六日天、])*"
    r"|每天|每日|每晚|天天|工作日|(?:大后|大後|今|明|后|後|昨)(?:天|早|晚)"
    r"|(?:下|这|這)(?:个|個)?(?:月|周末|週末)|周末|週末|\d{1,2}月\d{1,2}[日号號]?|\d{1,2}[号號](?!码)"
)
# a part of the day ("in the evening", "mornings", "晚上")
_PARTS_OF_DAY = (
    r"\b(?:(?:in the|every)\s+)?(?:morning|afternoon|evening|night)s?\b"
    r"|早上|上午|中午|下午|晚上|傍晚|凌晨|早晨|夜里"
)
_HOUR = (
    r"\b\d{1,2}(?::\d{2})?\s*(?:am|pm)\b"
    r"|\bat\s+\d{1,2}(?::\d{2})?(?:\s*(?:am|pm))?\b(?!\s*(?:%|kg|km|min|hours?))"
    rf"|\bnoon\b|\bmidnight\b|{_PARTS_OF_DAY}|\blunch(?:time)?\b"
    r"|(?:\d{1,2}|[一二两三四五六七八九十]{1,3})\s*[点點](?:半|\d{1,2}分?|[一二三四五]十分?)?"
    # the hour said by what it comes before or after: "before work", "下班后", "睡前"
    r"|\b(?:before|after) (?:work|school|class|dinner|lunch|breakfast|bed)\b"
    r"|(?:下班|放学|上班|午饭|晚饭|早饭|饭)(?:以?后|之后|前)|睡前"
)
_WHEN_DAY = re.compile(_DAY, re.I)
_WHEN_HOUR = re.compile(_HOUR, re.I)
_WHEN = re.compile(rf"(?:\b(?:at|on|by|in)\s+)?(?:{_DAY}|{_HOUR})", re.I)
# what is left of a routine's or an appointment's words once its time is taken out and says
# nothing of the thing: "is", "usually", "一般", "习惯"
_WHEN_FILLER = re.compile(
    r"\b(?:is|are|was|usually|always|normally|often|generally)\b"
    r"|^\s*(?:我)?(?:一般|通常|平时|习惯)|^\s*我\s*(?=[\u4e00-\u9fff])"
    r"|^\s*(?:I\s+)?(?:(?:have|got|booked)\s+(?:a|an|my)|there'?s\s+(?:a|an))\s+",
    re.I,
)


def moved_value(old: str, new: str) -> str | None:
    """What was moved, at its new time: ``old``'s words without their time, with the times
    ``new`` names — its day (``_DAY``) and its hour or part of the day (``_HOUR``), the one it
    does not name kept from ``old`` ("dentist appointment thursday 3pm" moved by "moved it to
    Monday" → "dentist appointment Monday 3pm"; "下個禮拜三牙醫覆診" by "變咗下個禮拜五" →
    "下個禮拜五牙醫覆診"; "每天晚上九点半遛狗" by "遛狗改到十点了" → "每天晚上十点遛狗": an hour
    with no am or pm keeps the part of the day). None when ``new`` names no time, says more of
    the thing than ``old`` does (a thing of its own: "swapped the run for a swim at 7"), or
    gives ``old`` back unchanged."""
    days = [m.group().strip() for m in _WHEN_DAY.finditer(new)]
    hours = [m.group().strip() for m in _WHEN_HOUR.finditer(new)]
    if not (days or hours) or not activity_words(new) <= activity_words(old):
        return None
    days = days or [m.group().strip() for m in _WHEN_DAY.finditer(old)]
    if not hours:
        hours = [m.group().strip() for m in _WHEN_HOUR.finditer(old)]
    elif all(_PART_OF_DAY.search(h) is None and not re.search(r"am|pm", h, re.I) for h in hours):
        # "改到十点" of "晚上九点半": the part of the day stays
        parts = [
            m.group().strip()
            for m in _WHEN_HOUR.finditer(old)
            if _PART_OF_DAY.fullmatch(m.group().strip())
        ]
        hours = [*parts, *hours]
    thing = _WHEN_FILLER.sub(" ", _WHEN.sub(" ", old))
    thing = re.sub(r"\s*([\u4e00-\u9fff])\s*", r"\1", thing)  # Chinese is written unspaced
    thing = re.sub(r"\s{2,}", " ", thing).strip(" ,，、的:：")
    if not thing or not activity_words(thing):
        return None
    if _HAN.search(thing):
        value = _joined_words([*days, *hours, thing])
    else:
        # "evenings" said alone is "in the evenings"
        hours = [
            re.sub(r"^(?:the\s+)?(?=(?:morning|afternoon|evening|night)s?$)", "in the ", h)
            for h in hours
        ]
        value = " ".join([thing, *days, *hours])
    return None if normalize_value(value) == normalize_value(old) else value


_PART_OF_DAY = re.compile(_PARTS_OF_DAY, re.I)


def _joined_words(parts: list[str]) -> str:
    """``parts`` written together the Chinese way, with a space kept before a Latin word that
    follows anything but Chinese ("Sunday" + "afternoons" + "去swimming" → "Sunday
    afternoons去swimming")."""
    out = ""
    for part in parts:
        if out and re.match(r"[A-Za-z0-9]", part) and not _HAN.search(out[-1]):
            out += " "
        out += part
    return out


def _same_thing(words: set[str], olds: list[Memory]) -> list[Memory]:
    """The memories of ``olds`` that share the most of ``words``, when that is more than half
    of them ("moved dinner to Saturday" → "dinner with Priya"; "dinner with Mia" is not "dinner
    with Sam")."""
    shared = {
        old.id: len(words & (activity_words(_said(old)) | _joined(_said(old)))) for old in olds
    }
    best = max(shared.values(), default=0)
    if not best or best * 2 <= len(words):
        return []
    return [old for old in olds if shared[old.id] == best]


def _content_characters(text: str) -> set[str]:
    text = _WHEN_HAN.sub("", simplified(text))
    return {ch for run in _HAN_RUN.findall(text) for ch in run if ch not in _STOP_HAN}


_WHEN_HAN = re.compile(r"现在|如今|目前|最近|以后|开始|平时|每天|天天|习惯|以前|之前|原来|过去")


def _same_by_characters(text: str, olds: list[Memory]) -> list[Memory]:
    """A thing moved that says itself in one or two characters ("现在改成晚上跑了" → 跑): the
    one memory whose Chinese words hold them all ("每天早上六点跑步"), none when several do."""
    mine = _content_characters(text)
    if not 1 <= len(mine) <= 2:
        return []
    found = [old for old in olds if mine <= _content_characters(_said(old))]
    return found if len(found) == 1 else []


# who says a thing moved, before what they say ("医生说复查推迟到下周四了", "客户刚说…")
_SPEAKER_ZH = re.compile(r"^[^，,。]{1,6}?(?:刚刚?|又|也)?(?:说|讲|通知|告诉我)(?:了)?[，,:：]?")


def _appointment_meant(cand: Candidate, olds: list[Memory]) -> list[Memory]:
    """The appointment or plan a move said by whoever moved it names: the thing past who says
    it ("医生说复查推迟到下周四了" → 复查, more than half of its words), when one memory holds it
    (two 复查 of which one is the user's father's: neither)."""
    said = simplified(cand.content)
    thing = _SPEAKER_ZH.sub("", said)
    if thing == said:
        return []
    same = _same_thing(activity_words(thing), olds)
    return same if len(same) == 1 else []  # two of them: which one is not said


async def moved_from(repo: MemoryStore, cand: Candidate) -> None:
    """A plan, appointment or routine moved ("we moved dinner to Saturday 8pm",
    "游泳改到周日下午了", "switched my workouts to evenings, the 6am thing was killing me") or
    called off ("考研不考了") replaces the user's active memory of the same thing (keys
    ``MOVABLE_KEYS``):

    - marked ``metadata["moved"] = {"away": [time marks], "words": [activity words]}`` by the
      extractor (a moving or change word in the turn, no "also"): the active memories that
      share the most activity words with it, more than half of them (``activity_words``:
      "dinner", "牙医"), else with the turn's clauses that formed nothing ("客户那边改时间了"),
      else the one memory holding a time the turn names besides the new one's own
      (``time_marks``: "the 6am thing was killing me", "十点根本睡不着"), else — a routine
      turned into another ("最近改成早上游泳了", ``moved["instead"]``) — the user's one routine.
      The candidate takes the key and type of what it replaces: a routine moved to Sunday
      stays a routine, not an event on the next Sunday;
    - a correction of these keys that retracts a value ("考研不考了，还是直接找工作"): the active
      memories whose words hold it.

    Memories formed from the candidate's own turn are never replaced. Adds to
    ``cand.retract_ids`` and makes the candidate a correction; reads with
    ``repo.active_with_keys``. ``metadata["moved"]`` of an extracted fact is read here and not
    stored."""
    # set by the extractor only: a client's own metadata key of that name is kept as sent
    moved = (cand.metadata or {}).pop("moved", None) if cand.trigger == "extraction" else None
    if cand.key not in MOVABLE_KEYS or cand.type == "constraint":
        return
    if not moved and not (cand.is_correction and cand.retracts):
        return
    olds = [
        old
        for old in await repo.active_with_keys(list(MOVABLE_KEYS), cand.scope, cand.scope_id)
        if not _same_turn(cand, old) and old.id not in cand.retract_ids
    ]
    named = [old for old in olds if any(r and _holds(r, _said(old)) for r in cand.retracts)]
    if not named:
        # "周六的爬山取消了" after "周六约了老同学去爬山": the one memory that holds every word
        # of what was called off
        kinds = [activity_words(r) for r in cand.retracts if r]
        holding = [old for old in olds if any(w and w <= activity_words(_said(old)) for w in kinds)]
        named = holding if len(holding) == 1 else []
    same: list[Memory] = []
    if moved:
        same = _same_thing(activity_words(f"{cand.content} {cand.value or ''}"), olds)
        # the thing named in a clause of its own ("客户那边改时间了")
        same = same or _same_thing(set(moved.get("words") or []), olds)
        same = same or _same_by_characters(f"{cand.content} {cand.value or ''}", olds)
        # the thing given up in a clause of its own, in one character ("中午不睡了，改成散步")
        same = same or _same_by_characters(str(moved.get("rest") or ""), olds)
        if not same:  # the one memory at a time the turn gives up ("the 6am thing")
            away = set(moved.get("away") or [])
            at = [old for old in olds if away & time_marks(_said(old))]
            same = at if len(at) == 1 else []
        if not same and cand.key in ("event", "plan"):
            same = _appointment_meant(cand, olds)
        if not same and moved.get("unnamed") and cand.key in ("event", "plan"):
            # "they pushed it to Thursday at 6", "改期了，挪到十一月十八号": the appointment with a
            # time that shares a word with the turn ("the dentist's office called, they pushed
            # it to Friday"), else the one spoken of last
            dated = [o for o in olds if o.key in ("event", "plan") and o.valid_to is not None]
            mine = activity_words(f"{cand.content} {moved.get('rest') or ''}")
            sharing = [o for o in dated if mine & activity_words(_said(o))]
            if len(sharing) == 1:
                same = sharing
            elif dated:
                same = [max(dated, key=lambda o: o.created_at)]
        habits = [old for old in olds if old.key == "schedule.habit"]
        if not same and cand.key == "schedule.habit":
            # "现在每天开车上班，地铁太挤了" after "坐地铁上班": the one routine that shares a word
            # of the activity with the new one or with what the turn says of the old
            mine = activity_words(f"{cand.content} {cand.value or ''}") | set(
                moved.get("words") or []
            )
            sharing = [o for o in habits if mine & (activity_words(_said(o)) | _joined(_said(o)))]
            if not sharing and _COMMUTE.search(simplified(cand.content)):
                # "最近我开车上班" after "我每天坐地铁上班": the way to work is one routine
                sharing = [o for o in habits if _COMMUTE.search(_said(o))]
            same = sharing if len(sharing) == 1 else []
        if not same and moved.get("instead") and cand.key == "schedule.habit" and len(habits) == 1:
            same = habits  # "最近改成早上游泳了": turned into another, the one routine there is
        plans = [old for old in olds if old.key == "plan"]
        if not same and moved.get("instead") and cand.key == "plan" and len(plans) == 1:
            same = plans  # "change of plans, we're going to Korea instead": the one plan there is
        if len({old.key for old in same}) == 1 and same[0].key != cand.key:
            # a moved thing keeps what it is: a routine stays a routine
            cand.key, cand.type = same[0].key, same[0].type
            if cand.value is None:
                cand.value = cand.content
            cand.valid_to = None
    if moved and len(same) == 1 and same[0].value:
        # "they moved it to Monday 10am" after "Dentist appointment is Thursday at 3pm": the
        # new memory is what was moved at its new time, not the words of the move; a move
        # that named no value of its own ("出差提前了，改成下周三走") is read in its words
        said = cand.value or cand.content
        cand.value = moved_value(same[0].value, said) or cand.value
    gone = [old.id for old in [*named, *same] if old.value != cand.value]
    if gone:
        cand.is_correction = True
        cand.retract_ids += list(dict.fromkeys(gone))
