"""Relative date resolution."""

from __future__ import annotations

from datetime import datetime

import pytest

from app.ingest.extraction.dates import (
    cn_int,
    describe,
    find_date,
    parse_month_day,
    replace_date,
    resolve_date,
)

ZH_NOW = datetime.fromisoformat("2026-09-01T09:00:00+08:00")  # Tuesday
EN_NOW = datetime.fromisoformat("2026-05-10T21:30:00-05:00")  # Sunday, evening in UTC-5


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("今天", "2026-09-01T00:00"),
        ("明天", "2026-09-02T00:00"),
        ("后天", "2026-09-03T00:00"),
        ("昨天", "2026-08-31T00:00"),
        ("前天", "2026-08-30T00:00"),
        ("下周五", "2026-09-11T00:00"),
        ("下星期一", "2026-09-07T00:00"),
        ("周五", "2026-09-04T00:00"),
        ("上个月", "2026-08-01T00:00"),
        ("下个月", "2026-10-01T00:00"),
        # the week after next, and a day of next month (they had read as next week, and as
        # the first of next month)
        ("下下周", "2026-09-14T00:00"),
        ("下下周三", "2026-09-16T00:00"),
        ("下个月十号", "2026-10-10T00:00"),
        ("下月5号", "2026-10-05T00:00"),
        ("下下个月", "2026-11-01T00:00"),
        ("3月5日", "2027-03-05T00:00"),  # six months gone this year: the next one
        ("十二月二十五号", "2026-12-25T00:00"),
        ("15号", "2026-09-15T00:00"),
        ("明天下午三点", "2026-09-02T15:00"),
        ("明天下午3点", "2026-09-02T15:00"),
        ("明天上午十点半", "2026-09-02T10:30"),
        ("晚上8点", "2026-09-01T20:00"),
        ("今晚", "2026-09-01T20:00"),
        ("明天下午", "2026-09-02T14:00"),
        ("3天后", "2026-09-04T00:00"),
        ("是 12 月 5 号 morning 那场", "2026-12-05T09:00"),  # typed with spaces between scripts
    ],
)
def test_chinese_phrases(text: str, expected: str) -> None:
    assert resolve_date(text, ZH_NOW) == datetime.fromisoformat(expected + ":00+08:00")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("today", "2026-05-10T00:00"),
        ("tomorrow", "2026-05-11T00:00"),
        ("yesterday", "2026-05-09T00:00"),
        ("next Monday", "2026-05-11T00:00"),
        ("next Friday", "2026-05-15T00:00"),
        ("last month", "2026-04-01T00:00"),
        ("last week", "2026-04-27T00:00"),
        ("in 3 days", "2026-05-13T00:00"),
        ("two weeks ago", "2026-04-26T00:00"),
        ("on May 5", "2026-05-05T00:00"),
        ("on 5 June 2027", "2027-06-05T00:00"),
        ("tomorrow at 3pm", "2026-05-11T15:00"),
        ("tomorrow at 3:30 p.m.", "2026-05-11T15:30"),
        ("tomorrow morning", "2026-05-11T09:00"),
        # a day of the month without its month, like 15号; a month named by which one
        ("my thesis is due on the 15th", "2026-05-15T00:00"),
        ("we're getting married next June", "2026-06-01T00:00"),
        ("next May", "2027-05-01T00:00"),
        ("this May", "2026-05-01T00:00"),
        ("last June", "2025-06-01T00:00"),
    ],
)
def test_english_phrases(text: str, expected: str) -> None:
    assert resolve_date(text, EN_NOW) == datetime.fromisoformat(expected + ":00-05:00")


def test_resolves_in_the_message_offset_not_utc() -> None:
    # 21:30 at UTC-5 is already the next day in UTC; "tomorrow" still means May 11 locally.
    found = find_date("tomorrow", EN_NOW)
    assert found is not None
    assert found.start.utcoffset() == EN_NOW.utcoffset()
    assert found.start.date().isoformat() == "2026-05-11"


def test_no_date() -> None:
    assert find_date("我喜欢吃火锅", ZH_NOW) is None
    assert find_date("回答简短一点", ZH_NOW) is None
    assert find_date("有两点需要注意", ZH_NOW) is None
    assert find_date("I love spicy food", EN_NOW) is None
    assert find_date("we live on the 4th floor", EN_NOW) is None  # an ordinal, no day
    assert find_date("it's the 3rd time I've asked", EN_NOW) is None


def test_periods_have_an_end() -> None:
    month = find_date("上个月", ZH_NOW)
    assert month is not None and month.granularity == "month"
    assert month.end == datetime.fromisoformat("2026-09-01T00:00:00+08:00")
    meeting = find_date("明天下午三点", ZH_NOW)
    assert meeting is not None and meeting.granularity == "minute"
    assert (meeting.end - meeting.start).total_seconds() == 3600


def test_naive_now_is_refused() -> None:
    with pytest.raises(ValueError):
        find_date("明天", datetime(2026, 1, 1))


def test_describe_and_replace() -> None:
    found = find_date("我明天下午三点要和客户开会", ZH_NOW)
    assert found is not None
    assert describe(found, "zh") == "2026年9月2日下午3点"
    assert (
        replace_date("我明天下午三点要和客户开会", found, "zh")
        == "我2026年9月2日下午3点要和客户开会"
    )
    found = find_date("flying to Tokyo next Friday", EN_NOW)
    assert found is not None
    assert replace_date("flying to Tokyo next Friday", found, "en") == (
        "flying to Tokyo on Fri May 15, 2026"
    )


def test_month_day_and_numerals() -> None:
    assert parse_month_day("三月五号") == (None, 3, 5)
    assert parse_month_day("May 5th, 1990") == (1990, 5, 5)
    assert parse_month_day("2月30日") is None
    assert cn_int("二十三") == 23
    assert cn_int("十五") == 15
    assert cn_int("两") == 2
    assert cn_int("abc") is None


TUESDAY = datetime.fromisoformat("2026-12-01T10:00:00+00:00")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a bare weekday in a text about the past is the last one, not the next one
        ("I went to the dentist on Monday", "2026-11-30"),
        ("ran my first half marathon on sunday", "2026-11-29"),
        ("on Monday I visited grandma", "2026-11-30"),
        ("我周六去看了周杰伦的演唱会", "2026-11-28"),
        ("周一刚开完会", "2026-11-30"),
        ("我15号去看了牙医", "2026-11-15"),
        # ... and the next one in a text about what is to come, or that says neither
        ("I'm seeing the dentist on Monday", "2026-12-07"),
        ("I'll call on Monday", "2026-12-07"),
        ("I'm booked on Friday", "2026-12-04"),
        ("I'm so excited for Friday", "2026-12-04"),
        ("周六要去医院", "2026-12-05"),
        ("我周六过生日", "2026-12-05"),
        ("我15号去看牙医", "2026-12-15"),
        # a month without a year: back a year for the past, forward for what is to come
        ("I finally moved in March", "2026-03-01"),
        ("I'm moving in March", "2027-03-01"),
        ("我3月要搬家", "2027-03-01"),
        # with no tense: the next one when this year's is months back, else this year's
        ("my sister's wedding is on Feb 14, I'm the maid of honor", "2027-02-14"),
        ("I have a job interview on January 8th, wish me luck", "2027-01-08"),
        ("my lease ends in August so I might move", "2027-08-01"),
        ("Nov 20 dentist appt", "2026-11-20"),
        ("10月份项目上线", "2026-10-01"),
        # a week or year that is named stays
        ("last Friday I adopted a kitten", "2026-11-27"),
        ("上周五我领养了一只小猫", "2026-11-27"),
        ("this Friday we went out", "2026-12-04"),
        ("on 5 June 2027 I'll be in Oslo", "2027-06-05"),
    ],
)
def test_the_tense_decides_which_day_a_bare_date_is(text: str, expected: str) -> None:
    found = resolve_date(text, TUESDAY)
    assert found is not None and found.date().isoformat() == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # ZH_NOW is a Tuesday: a weekday booked is the next one, a weekday done the last one
        ("我周一下午三点约了牙医", "2026-09-07T15:00"),
        ("周五订了餐厅", "2026-09-04T00:00"),
        ("我周一去看了牙医", "2026-08-31T00:00"),
        ("上周一约了牙医", "2026-08-24T00:00"),
    ],
)
def test_a_weekday_booked_is_to_come(text: str, expected: str) -> None:
    assert resolve_date(text, ZH_NOW) == datetime.fromisoformat(expected + ":00+08:00")
