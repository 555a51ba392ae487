"""Relative and absolute date phrases (Chinese and English), resolved against the message time.

Everything resolves in the message's own UTC offset (``now.tzinfo``), so "明天下午三点" said at
``2026-09-01T09:00+08:00`` is ``2026-09-02T15:00+08:00``. Conventions:

- a day without a time starts at 00:00; "下午"/"afternoon" alone is 14:00, "上午"/"morning" 09:00,
  "晚上"/"evening"/"tonight" 20:00, "中午"/"noon" 12:00;
- "下周五"/"next Friday" is the Friday of next calendar week (weeks start on Monday); a bare
  "周五"/"on Friday" is the next Friday from today (today included), or the last one before
  today when the text tells of the past ("I went to the dentist on Monday", "周六去看了演唱会");
- a day or month without a year ("May 5", "3月5日", "in March", "15号") is in the message's year
  (month); in a text about the past it is the last one before today ("I moved in March" said in
  January is last March), in one about what is to come the next one ("I'm moving in March" said
  in December), and in one that says neither, the next one when this year's lies more than
  ``_RECENT_DAYS`` (60) days back ("my sister's wedding is on Feb 14" said in December is next
  February; "Nov 20" said on Dec 1 stays);
- "上个月"/"last month", "下周"/"next week", "明年"/"next year" start on the period's first day;
- "3月5日"/"May 5" without a year is in the message's year;
- a bare hour ("3点", "at 3") needs a day or a part of the day next to it, except digits with
  "点钟"/"o'clock"/"pm" — "简短一点" or "有两点" is no time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Literal

Granularity = Literal["minute", "part", "day", "week", "month", "year"]


@dataclass(frozen=True, slots=True)
class DateMatch:
    """A resolved date phrase.

    ``start`` is aware, in the message's offset; ``end`` is the exclusive end of the period
    (one hour after a clock time, the next midnight after a day, the next month after a month);
    ``spans`` are the ``(start, end)`` character ranges of the phrase in the searched text
    (a date and a time may be two separate ranges).
    """

    start: datetime
    end: datetime
    granularity: Granularity
    spans: tuple[tuple[int, int], ...]


_CN_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5}
_CN_DIGITS |= {"六": 6, "七": 7, "八": 8, "九": 9}


def cn_int(text: str) -> int | None:
    """Parse ``"15"``, ``"十五"``, ``"二十三"`` or ``"两"`` as an int (``None`` if not a number)."""
    # 廿 and 卅 are 二十 and 三十 ("廿九", as Cantonese and dates write them)
    text = text.strip().replace("廿", "二十").replace("卅", "三十")
    if text.isdigit():
        return int(text)
    if not text or any(ch not in _CN_DIGITS and ch not in "十百" for ch in text):
        return None
    total, current = 0, 0
    for ch in text:
        if ch == "百":
            total += (current or 1) * 100
            current = 0
        elif ch == "十":
            total += (current or 1) * 10
            current = 0
        else:
            current = current * 10 + _CN_DIGITS[ch]
    return total + current


_N = r"[零〇一二两三四五六七八九十百\d]{1,3}"
_PART_HOURS = {
    "凌晨": 5, "早上": 8, "早晨": 8, "上午": 9, "中午": 12, "下午": 14, "傍晚": 18,
    "晚上": 20, "夜里": 22, "今晚": 20, "明晚": 20, "昨晚": 20,
    "morning": 9, "afternoon": 14, "evening": 20, "night": 21, "tonight": 20, "noon": 12,
}  # fmt: skip
_PM_PARTS = {"下午", "傍晚", "晚上", "夜里", "今晚", "明晚", "昨晚", "afternoon", "evening"}
_PM_PARTS |= {"night", "tonight"}
_REL_DAYS = {
    "大前天": -3, "前天": -2, "昨天": -1, "昨日": -1, "昨晚": -1, "今天": 0, "今日": 0,
    "今晚": 0, "明天": 1, "明日": 1, "明晚": 1, "后天": 2, "大后天": 3,
    "today": 0, "tonight": 0, "tomorrow": 1, "yesterday": -1,
    "the day after tomorrow": 2, "the day before yesterday": -2,
}  # fmt: skip
_WEEKDAYS_ZH = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}
_WEEKDAYS_EN = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_WEEKDAY_KINDS = frozenset(("weekday", "en_weekday"))  # the phrases of a day of the week
_MONTHS_EN = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
_EN_NUMBERS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
    "a couple of": 2, "a few": 3,
}  # fmt: skip
_SHIFT = {"下": 1, "上": -1, "这": 0, "本": 0, "next": 1, "last": -1, "this": 0, "coming": 0}
_SHIFT |= {"下下": 2, "上上": -2}
_YEAR_SHIFT = {"今": 0, "明": 1, "去": -1, "前": -2, "后": 2}

_MON_RE = (
    r"(?P<mon>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
_FULL_MON_RE = (
    r"(?P<mon>january|february|march|april|may|june|july|august|september|october|november"
    r"|december)"
)
_EN_N = (
    r"(?P<n>\d+|a couple of|a few|an?|one|two|three|four|five|six|seven|eight|nine|ten"
    r"|eleven|twelve)"
)

_DATE_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("iso", re.compile(r"\b(?P<y>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})\b")),
    # "12 月 3 号": typed with spaces beside the numbers, as between scripts
    (
        "ymd",
        re.compile(
            rf"(?:(?P<y>\d{{4}})\s*年\s*|(?P<ry>今|明|去)年)?(?P<m>{_N})\s*月\s*(?P<d>{_N})\s*[日号]"
        ),
    ),
    (
        "rel_day",
        re.compile(
            "|".join(sorted((k for k in _REL_DAYS if k.isascii() is False), key=len, reverse=True))
        ),
    ),
    (
        "weekday",
        re.compile(
            r"(?:(?P<which>下下|上上|下|上|这|本)个?)?(?:周|星期|礼拜)(?P<wd>[一二三四五六日天])"
        ),
    ),
    ("week", re.compile(r"(?P<which>下下|上上|下|上|这|本)个?(?:周|星期|礼拜)(?P<end>末)?")),
    # "下个月十号": a day of the month next to this one
    ("month_day", re.compile(rf"(?P<which>下|上|这|本)个?月\s*(?P<d>{_N})\s*[日号]")),
    ("month", re.compile(r"(?P<which>下下|上上|下|上|这|本)个?月")),
    ("year", re.compile(r"(?P<which>今|明|去|前|后)年")),
    (
        "delta",
        re.compile(
            rf"(?P<n>{_N})(?P<unit>天|周|个星期|个礼拜|个月|年)(?P<dir>后|之后|以后|前|之前|以前)"
        ),
    ),
    ("mon_only", re.compile(rf"(?<!个)(?P<m>{_N})月份?(?![零〇一二两三四五六七八九十\d日号])")),
    (
        "day_only",
        re.compile(rf"(?<![月\d零〇一二两三四五六七八九十])(?P<d>{_N})[号日](?![线楼房门床位码])"),
    ),
    (
        "en_rel_day",
        re.compile(
            r"\b(?:the day after tomorrow|the day before yesterday|today"
            r"|tonight|tomorrow|yesterday)\b",
            re.I,
        ),
    ),
    (
        "en_md",
        re.compile(
            rf"\b{_MON_RE}\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\b(?:,?\s*(?P<y>\d{{4}}))?", re.I
        ),
    ),
    (
        "en_dm",
        re.compile(
            rf"\b(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MON_RE}\b(?:,?\s*(?P<y>\d{{4}}))?",
            re.I,
        ),
    ),
    (
        "en_weekday",
        re.compile(
            r"\b(?:(?P<which>next|last|this|coming)\s+)?(?P<wd>monday|tuesday"
            r"|wednesday|thursday|friday|saturday|sunday)\b",
            re.I,
        ),
    ),
    (
        "en_period",
        re.compile(
            r"\b(?P<which>next|last|this|coming)\s+(?P<unit>week(?P<end>end)?|month|year)\b", re.I
        ),
    ),
    ("en_in", re.compile(rf"\bin\s+{_EN_N}\s+(?P<unit>day|week|month|year)s?\b", re.I)),
    ("en_ago", re.compile(rf"\b{_EN_N}\s+(?P<unit>day|week|month|year)s?\s+ago\b", re.I)),
    ("en_mon", re.compile(rf"\bin\s+{_FULL_MON_RE}(?:\s+(?P<y>\d{{4}}))?\b", re.I)),
    # "we're getting married next June", "last March": the month of that name after (before)
    # this one
    ("en_which_mon", re.compile(rf"\b(?P<which>next|last|this|coming)\s+{_FULL_MON_RE}\b", re.I)),
    # "my thesis is due on the 15th": a day of the month with no month, like 15号
    (
        "day_only",
        re.compile(
            r"\b(?:on\s+)?the\s+(?P<d>[1-9]|[12]\d|3[01])(?:st|nd|rd|th)\b"
            r"(?!\s+(?:of\b|floor|century|time|grade|place|anniversary|birthday|percentile"
            r"|edition|row|round|day|week|year|hole|inning|lap|generation))",
            re.I,
        ),
    ),
]

_TIME_ZH = re.compile(
    rf"(?:(?P<part>凌晨|早上|早晨|上午|中午|下午|傍晚|晚上|夜里)\s*)?(?P<h>{_N})\s*(?:(?P<clock>点钟?|时)"
    rf"(?:(?P<half>半)|(?P<q>一刻|三刻)|(?P<min>{_N})分?)?|[:：](?P<mm>\d{{2}}))"
)
_PART_ZH = re.compile(r"凌晨|早上|早晨|上午|中午|下午|傍晚|晚上|夜里")
# the words that say when, a day to come or a time of it, a clause may open with ("明天下午三点",
# "下周三", "5月3号"): what follows says who does what (a regex alternation, no groups)
# (``DAY_AHEAD_ZH``: the days alone, without a part of the day or a clock time)
DAY_AHEAD_ZH = (
    r"今天|明天|后天|大后天|(?:这|下|下下)?(?:周|星期|礼拜)[一二三四五六日天末]"
    r"|\d{1,2}月\d{1,2}[日号]"
)
WHEN_AHEAD_ZH = (
    DAY_AHEAD_ZH + r"|凌晨|早上|早晨|上午|中午|下午|傍晚|晚上|夜里"
    r"|[\d一二两三四五六七八九十]{1,3}点(?:半|钟)?"
)
_TIME_EN = re.compile(
    r"\b(?:at\s+)?(?:(?P<noon>noon|midnight)|(?P<h>\d{1,2})(?::(?P<mm>\d{2}))?\s*"
    r"(?:(?P<ap>[ap])\.?m\b\.?|(?P<oc>o'clock))|(?<=at\s)(?P<h24>\d{1,2}):(?P<m24>\d{2})\b)",
    re.I,
)
_PART_EN = re.compile(r"\b(?:in the |this )?(?P<part>morning|afternoon|evening|night)\b", re.I)


def _month_start(d: date, shift: int) -> date:
    index = d.year * 12 + d.month - 1 + shift
    return date(index // 12, index % 12 + 1, 1)


def _safe_date(y: int, m: int, d: int) -> date | None:
    try:
        return date(y, m, d)
    except ValueError:
        return None


def _en_month(name: str) -> int:
    return _MONTHS_EN.index(name[:3].lower()) + 1


def _date_part(kind: str, m: re.Match[str], today: date) -> tuple[date, Granularity] | None:
    g = m.groupdict()
    monday = today - timedelta(days=today.weekday())
    if kind in ("iso", "ymd", "en_md", "en_dm"):
        month = _en_month(g["mon"]) if kind.startswith("en") else cn_int(g["m"])
        day = cn_int(g["d"])
        year = int(g["y"]) if g.get("y") else today.year + _YEAR_SHIFT.get(g.get("ry") or "今", 0)
        if month is None or day is None:
            return None
        found = _safe_date(year, month, day)
        return (found, "day") if found else None
    if kind in ("rel_day", "en_rel_day"):
        return today + timedelta(days=_REL_DAYS[m.group(0).lower()]), "day"
    if kind in _WEEKDAY_KINDS:
        wd = g["wd"]
        weekday = _WEEKDAYS_ZH[wd] if wd in _WEEKDAYS_ZH else _WEEKDAYS_EN.index(wd.lower())
        which = (g["which"] or "").lower()
        if which in ("", "coming"):
            ahead = (weekday - today.weekday()) % 7
            return today + timedelta(days=ahead or (7 if which else 0)), "day"
        return monday + timedelta(days=7 * _SHIFT[which] + weekday), "day"
    if kind in ("week", "en_period") and (kind == "week" or g["unit"].lower().startswith("week")):
        start = monday + timedelta(days=7 * _SHIFT[g["which"].lower()])
        if g["end"]:
            return start + timedelta(days=5), "day"
        return start, "week"
    if kind == "month_day":
        first, day = _month_start(today, _SHIFT[g["which"]]), cn_int(g["d"])
        found = _safe_date(first.year, first.month, day) if day else None
        return (found, "day") if found else None
    if kind == "month" or (kind == "en_period" and g["unit"].lower() == "month"):
        return _month_start(today, _SHIFT[g["which"].lower()]), "month"
    if kind == "en_period":  # year
        return date(today.year + _SHIFT[g["which"].lower()], 1, 1), "year"
    if kind == "year":
        return date(today.year + _YEAR_SHIFT[g["which"]], 1, 1), "year"
    if kind in ("delta", "en_in", "en_ago"):
        n = cn_int(g["n"]) if kind == "delta" else _EN_NUMBERS.get(g["n"].lower())
        n = n if n is not None else int(g["n"]) if g["n"].isdigit() else None
        if n is None:
            return None
        sign = -1 if kind == "en_ago" or (g.get("dir") or "").endswith("前") else 1
        unit = g["unit"]
        if unit in ("天", "day"):
            return today + timedelta(days=sign * n), "day"
        if unit in ("周", "个星期", "个礼拜", "week"):
            return today + timedelta(weeks=sign * n), "day"
        if unit in ("个月", "month"):
            target = _month_start(today, sign * n)
            return target.replace(day=min(today.day, 28)), "day"
        return _safe_date(today.year + sign * n, today.month, min(today.day, 28)) or today, "day"
    if kind == "en_which_mon":
        month, which = _en_month(g["mon"]), g["which"].lower()
        if which == "last":
            return date(today.year - (month >= today.month), month, 1), "month"
        if which == "next":
            return date(today.year + (month <= today.month), month, 1), "month"
        return date(today.year + (month < today.month), month, 1), "month"  # this, coming
    if kind in ("mon_only", "en_mon"):
        month = _en_month(g["mon"]) if kind == "en_mon" else cn_int(g["m"])
        if month is None or not 1 <= month <= 12:
            return None
        year = int(g["y"]) if g.get("y") else today.year
        return date(year, month, 1), "month"
    if kind == "day_only":
        day = cn_int(g["d"])
        found = _safe_date(today.year, today.month, day) if day else None
        return (found, "day") if found else None
    return None


# a routine's day or hour, not a date: "每周六上午", "每个周日", "every Saturday", "每天晚上十点",
# "我一般早上六点起床", "I usually go to the gym at 6am"
_EVERY_BEFORE = re.compile(r"(?:每个?|每逢|\bevery\s+|\beach\s+)$", re.I)
_RECURRING = re.compile(
    r"每天|每晚|每早|每日|天天|每周|每个|每逢|一般|通常|平时|平常|总是|往往"
    r"|\b(?:every|each|daily|usually|normally|generally|typically|tend to)\b",
    re.I,
)


# what tells a clause is about the past: a verb in the past tense ("went", "finished"), or in
# Chinese an aspect particle after a verb ("看了", "去过") or "刚"; and what tells of a time to
# come, which wins ("I'm seeing", "will", "要", "打算"): "I'm booked on Monday" is not past
_PAST_EN = re.compile(
    r"\b(?:did|went|was|were|had|got|ran|saw|met|ate|drank|took|made|came|bought|found|gave|left"
    r"|won|lost|wrote|told|said|spent|brought|began|became|flew|drove|rode|swam|sang|sold|sent"
    r"|paid|caught|fell|broke|threw|kept|felt|heard|held|slept|taught|thought|wore|woke)\b"
    # a regular past, not a participle after "be" ("I'm booked", "is scheduled") nor an
    # adjective ("excited", "tired") nor "need"
    r"|(?<!\bam )(?<!\bis )(?<!\bbe )(?<!'m )(?<!'s )(?<!\bare )(?<!'re )(?<!\bget )(?<!\bbeen )"
    r"\b(?!(?:excit|schedul|book|interest|suppos|us|bor|stress|worri|tir|plann|expect|relat"
    r"|bas|locat)ed\b)[a-z]{2,}(?<!e)ed\b",
    re.I,
)
# the Chinese verbs that move a thing to a time ("改到", "推迟到"; ``rules._MOVED_TO`` too)
MOVED_TO_ZH = "改到|挪到|推到|推迟到|延到|延后到|延期到|改签到|调到|提前到|换到"
_FUTURE_EN = re.compile(
    r"\b(?:will|shall|gonna|going to|plan(?:ning)? to|want to|need to|have to|hope to|can'?t wait"
    r"|looking forward|should|upcoming|coming up)\b|'ll\b"
    # a thing moved to a time: the time is to come ("they pushed it to Thursday at 6")
    r"|\b(?:moved|pushed(?: back)?|bumped|rescheduled|postponed|shifted|changed|delayed)"
    r"(?: \w+){0,3}? (?:to|till|until|for)\b"
    # to a time, not to a place ("moved to Denver in March", "moved to a new flat": a move done)
    r"(?!\s+(?:the\s+)?(?!(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun|Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct"
    r"|Nov|Dec))(?-i:[A-Z]))"
    r"(?!\s+(?:a |an |the |our |my )?(?:new |bigger |smaller |nicer )?(?:apartment|flat|house|place"
    r"|city|town|country|suburbs?|area|neighbou?rhood|state|home|office|building|team)\b)"
    r"|\b(?:i'm|i am|we're|we are|he's|she's|they're)\s+(?:\w+ly\s+)?\w+ing\b",
    re.I,
)
_PAST_ZH = re.compile(r"刚|已经|了(?![吗没])|(?:去|来|吃|看|见|做|玩|试|用|住|待|学|听|喝|买|到)过")
_FUTURE_ZH = re.compile(
    r"要(?!求)|(?<![开聚约唱议晚宴舞集茶年运社协学机大])会(?![议员计了，,。！!；;]|$)|打算|准备|计划|将要|将会"
    r"|想去|想要|得去|记得|别忘|提醒|[吧吗？?]\s*$"
    # a thing moved to a time: the time is to come ("聚餐改到周日晚上了")
    rf"|{MOVED_TO_ZH}|改在|改期到"
    # a thing booked: its day is to come ("我周二下午三点约了牙医", "周五订了餐厅")
    r"|(?:约|预约|订|预订|约好|订好|挂)了"
)

# the kinds of phrase whose date depends on the tense: a weekday or a day or month without a year
_TENSED = _WEEKDAY_KINDS | {"day_only", "mon_only", "en_mon", "ymd", "en_md", "en_dm"}


def tense(text: str) -> Literal["past", "future"] | None:
    """``"past"`` if ``text`` tells of something done or over ("I went to the dentist on
    Monday", "周六去看了演唱会") and of nothing to come; ``"future"`` if it tells of something to
    come ("I'm seeing the dentist on Monday", "I'm moving in March", "周六要去"); else ``None``."""
    zh = re.search(r"[\u4e00-\u9fff]", text) is not None
    # "I've got a haircut booked for Wednesday": a thing had, no past
    text = re.sub(r"\b(?:i|we|you)(?:'ve| have) got\b", "have", text, flags=re.I)
    future = (_FUTURE_ZH if zh else _FUTURE_EN).search(text) is not None
    if future:
        return "future"
    return "past" if (_PAST_ZH if zh else _PAST_EN).search(text) else None


def _by_tense(
    kind: str,
    m: re.Match[str],
    found: date,
    granularity: Granularity,
    today: date,
    when: Literal["past", "future"],
) -> date:
    """``found`` moved to the nearest such day before today for a text about the past, or
    after today for one about what is to come; a phrase that names its week or year stays."""
    g = m.groupdict()
    if kind in _WEEKDAY_KINDS:
        if g["which"] not in (None, "") or when == "future":
            return found  # "上周五", "this Friday"; a bare weekday is already the next one
        return found - timedelta(days=7) if found >= today else found
    if g.get("y") or g.get("ry"):
        return found  # the year is named
    this_month = granularity == "month" and found.month == today.month
    if this_month or (found <= today if when == "past" else found >= today):
        return found
    step = -1 if when == "past" else 1
    if kind == "day_only":
        other = _month_start(found, step)
        return _safe_date(other.year, other.month, found.day) or found
    return _safe_date(found.year + step, found.month, found.day) or found


# how far back a date said without a tense may lie and still be read as past (days)
_RECENT_DAYS = 60


def _long_past(found: date, granularity: Granularity, today: date) -> bool:
    end = _month_start(found, 1) if granularity == "month" else found + timedelta(days=1)
    return (today - end).days > _RECENT_DAYS


def _first_date(text: str, today: date) -> tuple[date, Granularity, tuple[int, int], str] | None:
    best: tuple[date, Granularity, tuple[int, int], str] | None = None
    when = tense(text)
    for kind, pattern in _DATE_PATTERNS:
        for m in pattern.finditer(text):
            if kind in _WEEKDAY_KINDS and _EVERY_BEFORE.search(text[: m.start()]):
                continue  # "每周六", "every Saturday": a routine's day
            resolved = _date_part(kind, m, today)
            if resolved is None:
                continue
            if kind in _TENSED and when is not None:
                resolved = (_by_tense(kind, m, *resolved, today, when), resolved[1])
            elif kind in _TENSED and kind not in _WEEKDAY_KINDS and _long_past(*resolved, today):
                # a day or month said with no tense, months gone by this year, is the next one:
                # "my sister's wedding is on Feb 14", "I have a job interview on January 8th"
                # (said in December); "on Nov 20" said on Dec 1 stays
                resolved = (_by_tense(kind, m, *resolved, today, "future"), resolved[1])
            span = m.span()
            better = best is None or span[0] < best[2][0]
            if best is not None and span[0] == best[2][0] and span[1] > best[2][1]:
                better = True
            if better:
                best = (resolved[0], resolved[1], span, m.group(0))
            break
    return best


def _time_part(
    text: str, has_date: bool, exclude: tuple[int, int] | None
) -> tuple[int, int, Granularity, tuple[int, int]] | None:
    """(hour, minute, granularity, span) of the first clock time or part of day."""

    def outside(span: tuple[int, int]) -> bool:
        return exclude is None or span[1] <= exclude[0] or span[0] >= exclude[1]

    for m in _TIME_ZH.finditer(text):
        hour = cn_int(m["h"])
        if hour is None or hour > 24 or not outside(m.span()):
            continue
        explicit = m["part"] or m["mm"] or m["clock"] == "点钟"
        if not (has_date or explicit) or (m["h"] in ("一", "两") and not (m["part"] or has_date)):
            continue
        minute = 30 if m["half"] else 15 if m["q"] == "一刻" else 45 if m["q"] else 0
        minute = (cn_int(m["min"]) or 0) if m["min"] else int(m["mm"]) if m["mm"] else minute
        if minute > 59:
            continue
        part = m["part"] or _preceding_part(text, m.start())
        return _adjust(hour, part), minute, "minute", m.span()
    for m in _TIME_EN.finditer(text):
        if not outside(m.span()):
            continue
        if m["noon"]:
            return (12 if m["noon"].lower() == "noon" else 0), 0, "minute", m.span()
        hour = int(m["h"] or m["h24"])
        minute = int(m["mm"] or m["m24"] or 0)
        if m["ap"]:
            hour = hour % 12 + (12 if m["ap"].lower() == "p" else 0)
        elif m["oc"]:
            part = _PART_EN.search(text)
            hour = _adjust(hour, part["part"].lower() if part else None)
        if hour > 23 or minute > 59:
            continue
        return hour, minute, "minute", m.span()
    if has_date:
        for pattern in (_PART_ZH, _PART_EN):
            found = pattern.search(text)
            if found and outside(found.span()):
                part = found.group("part").lower() if pattern is _PART_EN else found.group(0)
                return _PART_HOURS[part], 0, "part", found.span()
    return None


def _preceding_part(text: str, index: int) -> str | None:
    found = [m.group(0) for m in _PART_ZH.finditer(text[:index])]
    return found[-1] if found else None


def _adjust(hour: int, part: str | None) -> int:
    # A bare "三点" / "3 o'clock" with no part of the day is read in working hours: 1–6 → PM.
    if (part in _PM_PARTS and hour < 12) or (part is None and 1 <= hour <= 6):
        return hour + 12
    if part in ("中午", "noon") and hour < 11:
        return hour + 12
    if part == "凌晨" and hour == 12:
        return 0
    return hour % 24


def find_date(text: str, now: datetime) -> DateMatch | None:
    """Find and resolve the first date/time phrase of ``text`` against ``now``.

    Returns a ``DateMatch`` whose datetimes are aware and in ``now``'s offset, or ``None`` when
    ``text`` names no date or clock time. ``now`` must be timezone-aware.
    """
    if now.tzinfo is None:
        raise ValueError("now must be timezone-aware")
    today = now.date()
    found = _first_date(text, today)
    evening = found is not None and found[3] in ("今晚", "明晚", "昨晚")
    evening = evening or (found is not None and found[3].lower() == "tonight")
    clock = _time_part(text, found is not None, found[2] if found else None)
    if found is None and (clock is None or _RECURRING.search(text)):
        return None  # no date; or a routine's hour ("每天晚上十点就睡"), not today's
    day, granularity = (found[0], found[1]) if found else (today, "day")
    spans = [found[2]] if found else []
    if clock is not None and granularity == "day":
        hour, minute, granularity, span = clock
        if evening and hour < 12:
            hour += 12
        spans.append(span)
        start = datetime.combine(day, time(hour, minute), now.tzinfo)
    elif evening:
        granularity = "part"
        start = datetime.combine(day, time(_PART_HOURS["今晚"]), now.tzinfo)
    else:
        start = datetime.combine(day, time(0), now.tzinfo)
    return DateMatch(start, _period_end(start, granularity), granularity, tuple(sorted(spans)))


def _period_end(start: datetime, granularity: Granularity) -> datetime:
    if granularity == "minute":
        return start + timedelta(hours=1)
    if granularity == "part":
        return start + timedelta(hours=4)
    if granularity == "day":
        return start + timedelta(days=1)
    if granularity == "week":
        return start + timedelta(days=7)
    if granularity == "month":
        return datetime.combine(_month_start(start.date(), 1), time(0), start.tzinfo)
    return start.replace(year=start.year + 1, month=1, day=1)


def resolve_date(text: str, now: datetime) -> datetime | None:
    """The start of the first date phrase in ``text`` (aware, ``now``'s offset), or ``None``."""
    found = find_date(text, now)
    return found.start if found else None


_MD_ZH = re.compile(rf"(?:(?P<y>\d{{4}})年)?(?P<m>{_N})月(?P<d>{_N})[日号]?")


def parse_month_day(text: str) -> tuple[int | None, int, int] | None:
    """Read a calendar day without resolving it: ``"3月5日"`` → ``(None, 3, 5)``,
    ``"May 5, 1990"`` → ``(1990, 5, 5)``, ``"1990-05-05"`` → ``(1990, 5, 5)``.

    Returns ``(year or None, month, day)``, or ``None`` when no valid day is found.
    """
    for kind, pattern in (
        ("ymd", _MD_ZH),
        *[p for p in _DATE_PATTERNS if p[0] in ("iso", "en_md", "en_dm")],
    ):
        m = pattern.search(text)
        if not m:
            continue
        month = _en_month(m["mon"]) if kind.startswith("en") else cn_int(m["m"])
        day = cn_int(m["d"])
        year = int(m["y"]) if m["y"] else None
        if month and day and _safe_date(year or 2000, month, day):
            return year, month, day
    return None


def describe(found: DateMatch, lang: str) -> str:
    """An absolute, human wording of ``found`` in ``lang`` ("zh" or "en").

    Returns e.g. ``"2026年9月2日下午3点"`` / ``"on Wed Sep 2, 2026 at 3:00 PM"``,
    ``"2026年4月"`` / ``"in April 2026"``.
    """
    s, g = found.start, found.granularity
    if lang == "zh":
        day = f"{s.year}年{s.month}月{s.day}日"
        if g == "year":
            return f"{s.year}年"
        if g == "month":
            return f"{s.year}年{s.month}月"
        if g == "week":
            return f"{day}那一周"
        if g in ("minute", "part"):
            part = (
                "凌晨"
                if s.hour < 5
                else "上午"
                if s.hour < 12
                else "中午"
                if s.hour < 13
                else "下午"
                if s.hour < 18
                else "晚上"
            )
            if g == "part":
                return day + part
            hour = s.hour if s.hour <= 12 else s.hour - 12
            minute = "" if s.minute == 0 else "半" if s.minute == 30 else f"{s.minute}分"
            return f"{day}{part}{hour}点{minute}"
        return day
    day = f"{s:%a} {s:%b} {s.day}, {s.year}"
    if g == "year":
        return f"in {s.year}"
    if g == "month":
        return f"in {s:%B} {s.year}"
    if g == "week":
        return f"in the week of {s:%b} {s.day}, {s.year}"
    if g == "minute":
        return f"on {day} at {s.hour % 12 or 12}:{s.minute:02d} {'AM' if s.hour < 12 else 'PM'}"
    if g == "part":
        part = "morning" if s.hour < 12 else "afternoon" if s.hour < 18 else "evening"
        return f"on {day} in the {part}"
    return f"on {day}"


def replace_date(text: str, found: DateMatch, lang: str) -> str:
    """``text`` with the phrase of ``found`` replaced by its absolute wording (``describe``).

    Returns the rewritten text; an English preposition just before the phrase ("on", "in",
    "at") is dropped since the wording brings its own.
    """
    out, last = [], 0
    for index, (start, end) in enumerate(found.spans):
        head = text[last:start]
        if lang == "en":
            head = re.sub(r"\b(?:on|in|at)\s+$", "", head, flags=re.I)
        out.append(head)
        if index == 0:
            out.append(describe(found, lang))
        last = end
    out.append(text[last:])
    return re.sub(r"\s{2,}", " ", "".join(out)).strip()
