"""What is over, said in passing or asked for once forms no memory; what a breaker's ordinary
sentences state or change does. Through the HTTP API.

- A happening with a date gone by is no routine ("did my first 10k on sunday"), and, told
  as how another fact of the turn came about ("Handed in my notice in June! Starting at
  Genvia"), no event: the turn's episode keeps it. Told alone it is an event
  (tests/ingest/test_event_dates.py). A booking said with a past verb
  ("they pushed it to Thursday at 6", "I've got a haircut booked for Wednesday") is still one.
- An aside ("don't ask why lol"), a request for this answer only, said in the other language
  ("this time 不用给 sources"), how a time of day goes ("下午效率高很多") and what a drink does
  ("喝牛奶就拉肚子") are no rule, routine or drink; the steps of one rule ("先给结论，再解释原因")
  are one rule.
- A phone number with no label, a trip wished for a holiday with the subject left unsaid, a
  school named short, an age a birthday brought, a tea switched to: formed; a school
  transferred from stays one the user attended (a school is a history, not a place of now).
- A stay under way is no appointment, one to come is; work done beside the job replaces
  neither employer nor role; a job started by 报到, a promotion by 升, an office named by its
  place and a name put right with an emoji after it are read.
"""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

# a Tuesday morning, and the day after
AT = ("2026-12-01T09:00:00+08:00", "2026-12-02T10:00:00+08:00")


@pytest.mark.parametrize(
    ("text", "keys"),
    [
        ("weirdly I've gotten into running, did my first 10k on sunday because my friend "
         "dragged me along", ("schedule.habit", "event")),
        ("Handed in my notice in June! Starting at a biotech startup called Genvia next month",
         ("event", "plan")),
        ("我们离婚了，手续上周办完。", ("event", "plan")),
        ("昨天加班到两点，今天脑子完全转不动，帮我把这段话改得通顺一点",
         ("schedule.habit", "event")),
    ],
)  # fmt: skip
async def test_a_happening_gone_by_is_no_appointment_or_routine(
    tenant: TenantCtx, text: str, keys: tuple[str, ...]
) -> None:
    await tenant.say("u", "s1", text, at=AT[0])
    for key in keys:
        assert await tenant.values("u", key) == [], key


async def test_a_booking_said_with_a_past_verb_is_still_an_appointment(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I've got a haircut booked for Wednesday at 5", at=AT[0])
    assert len(await tenant.values("u", "event")) == 1
    await tenant.say("u", "s1", "salon rang, they pushed it to Thursday at 6", at=AT[1])
    assert len(await tenant.values("u", "event")) == 1
    assert len(await tenant.values("u", "event", "frozen")) == 1


@pytest.mark.parametrize(
    "text",
    [
        "don't ask why lol, just give me 10 synonyms for 'moist'",
        "at work we're stuck on Java 8, don't ask why. anyway how do I read a file line by line",
        "this time 不用给 sources，我就随便看看",
        "别问为什么，帮我写个请假条",
    ],
)
async def test_an_aside_or_a_request_for_this_answer_is_no_rule(
    tenant: TenantCtx, text: str
) -> None:
    await tenant.say("u", "s1", text, at=AT[0])
    assert await tenant.values("u", "assistant.constraint") == []


async def test_the_steps_of_one_rule_are_one_rule(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "以后回答我的时候先给结论，再解释原因", at=AT[0])
    [rule] = await tenant.values("u", "assistant.constraint")
    assert "先给结论" in rule and "再解释原因" in rule


async def test_how_a_time_of_day_goes_is_no_routine(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我每天午睡二十分钟，下午效率高很多。", at=AT[0])
    assert await tenant.values("u", "schedule.habit") == ["每天午睡二十分钟"]


async def test_what_a_drink_does_is_no_usual_drink(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我乳糖不耐受，喝牛奶就拉肚子，帮我找个蛋糕配方", at=AT[0])
    assert await tenant.values("u", "preference.drink") == []
    assert await tenant.values("u", "health.condition") == ["乳糖不耐受"]


@pytest.mark.parametrize(
    ("turns", "key", "new", "old"),
    [
        (("my cell is 415-555-0132 if you need it for the form",
          "use 628-555-0199 instead, the old number's been disconnected"),
         "contact.phone", "628-555-0199", "415-555-0132"),
        (("我今年28岁，还能转行吗", "啊我说错了，上个月过完生日已经29了😅"), "age", "29", "28"),
    ],
)  # fmt: skip
async def test_a_change_in_ordinary_words_freezes_the_old_value(
    tenant: TenantCtx, turns: tuple[str, str], key: str, new: str, old: str
) -> None:
    active, frozen = await tenant.change("u", turns, key, at=AT)
    assert active == [new]
    assert frozen == [old]


@pytest.mark.parametrize(
    ("turns", "schools"),
    [
        (("I'm a sophomore at Ohio State, majoring in bio",
          "Transferred to UC Davis this fall so I guess I'm out west now"),
         ["ohio state", "uc davis"]),
        (("我在 NUS 读 PhD，做 NLP 方向", "PhD 转去 NTU 了，因为导师跳槽，整个 lab 都搬过去了"),
         ["ntu", "nus"]),
    ],
)  # fmt: skip
async def test_a_school_transferred_from_stays_a_school_attended(
    tenant: TenantCtx, turns: tuple[str, str], schools: list[str]
) -> None:
    active, frozen = await tenant.change("u", turns, "education.school", at=AT)
    assert active == schools
    assert frozen == []
    assert await tenant.values("u", "work.role") == []  # "做 NLP 方向" is a field, no job


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("五一想去成都玩四五天，主要是冲着火锅去的，有啥推荐吗", "plan", "五一去成都"),
        ("我在华东师范读研一，教育学专业，天天写论文写到头秃", "education.school", "华东师范"),
        ("最近 switch 到 hojicha 了，咖啡因低一点", "preference.drink", "hojicha"),
    ],
)
async def test_a_fact_said_the_ordinary_way_is_formed(
    tenant: TenantCtx, text: str, key: str, value: str
) -> None:
    await tenant.say("u", "s1", text, at=AT[0])
    assert await tenant.values("u", key, lower=True) == [value]
    if key == "preference.drink":
        assert await tenant.values("u", "tech.preferred") == []


@pytest.mark.parametrize(
    "text",
    [
        "this week I'm in Lisbon for a conference, any good places for dinner near the venue?",
        "这周在杭州出差，西湖边上有什么晚上能去的地方吗",
        "I'm in Osaka on a business trip this week",
    ],
)
async def test_a_stay_under_way_is_no_appointment(tenant: TenantCtx, text: str) -> None:
    await tenant.say("u", "s1", text, at=AT[0])
    assert await tenant.values("u", "event") == []
    assert await tenant.values("u", "residence.city") == []


async def test_a_stay_to_come_is_an_appointment(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I'm visiting my parents in Leeds next week", at=AT[0])
    [event] = await tenant.values("u", "event")
    assert "Leeds" in event


@pytest.mark.parametrize(
    ("text", "key", "value", "not_keys"),
    [
        ("哎 Jenny 是我以前的英文名了，现在大家都叫我 Yuki，你也叫 Yuki 吧", "name.nickname",
         "yuki", ("language.preferred",)),
        ("我每天必须来一杯美式，不加糖不加奶", "preference.drink", "美式", ("schedule.habit",)),
        ("I've started journaling every night before bed, trying to be more mindful",
         "schedule.habit", "journaling every night before bed", ()),
        ("改一下哈，别叫小鱼了，那是我高中外号。叫我阿珊", "name.nickname", "阿珊",
         ("schedule.habit",)),
    ],
)  # fmt: skip
async def test_the_value_said_is_the_value_formed(
    tenant: TenantCtx, text: str, key: str, value: str, not_keys: tuple[str, ...]
) -> None:
    await tenant.say("u", "s1", text, at=AT[0])
    assert await tenant.values("u", key, lower=True) == [value]
    for other in not_keys:
        assert await tenant.values("u", other) == [], other


@pytest.mark.parametrize(
    ("turns", "key", "kept"),
    [
        (("我白天在 Nike 做 marketing，主要负责 social campaign",
          "晚上还在 Upwork 上接点 freelance copywriting 的单子赚外快。新手报价怎么定？"),
         "work.employer", "nike"),
        (("I'm a nurse at a children's hospital, mostly oncology floor",
          "also just picked up weekend shifts bartending to chip away at my loans"),
         "work.role", "nurse"),
        (("我在一家律所当律师助理，整理卷宗整理到眼花",
          "最近主任又让我顺手把所里的公众号也管起来，等于一个人干两份活"),
         "work.role", "律师助理"),
    ],
)  # fmt: skip
async def test_work_beside_the_job_replaces_nothing(
    tenant: TenantCtx, turns: tuple[str, str], key: str, kept: str
) -> None:
    active, frozen = await tenant.change("u", turns, key, at=AT)
    assert active == [kept]
    assert frozen == []


@pytest.mark.parametrize(
    ("turns", "key", "new", "old"),
    [
        (("我在 Amazon 做 SDE，刚满一年",
          "被 layoff 了，不过找到下家了，下周一去 Microsoft 报到，title 还是 SDE"),
         "work.employer", "microsoft", "amazon"),
        (("我是招行的客户经理", "诶刚刚HR找我谈话，升支行副行长了🎉🎉"),
         "work.role", "支行副行长", "客户经理"),
        (("我在 Deloitte 上海 office 做 audit",
          "公司把我 transfer 到 Singapore office 了，下周开始 onboarding，还是做 audit"),
         "work.location", "singapore", "上海"),
        (("我养了只布偶猫，叫 Momo，超黏人", "typo sorry，是 Mochi 不是 Momo 🙈"),
         "pets.name", "mochi", "momo"),
    ],
)  # fmt: skip
async def test_a_job_or_a_name_put_right_in_ordinary_words(
    tenant: TenantCtx, turns: tuple[str, str], key: str, new: str, old: str
) -> None:
    active, frozen = await tenant.change("u", turns, key, at=AT)
    assert active == [new]
    assert frozen == [old]
    if key == "work.location":
        assert await tenant.values("u", "work.employer", lower=True) == ["deloitte"]


@pytest.mark.parametrize(
    ("text", "key", "values"),
    [
        ("Hi～现在在 Vancouver 读 UBC 大二，想找个 part-time", "education.school", ["ubc"]),
        ("Quick context: I'm 34 and I just moved to Denver from Atlanta for work.",
         "residence.city", ["denver"]),
        ("本人92年的，老家湖南衡阳，现在在杭州漂着。本科学历", "education.school", []),
        ("下周 onsite，我现在在 Tencent 做 PM，面的是 Google 的 PM 岗。", "work.employer",
         ["tencent"]),
    ],
)  # fmt: skip
async def test_where_the_user_studies_lives_and_works_as_said(
    tenant: TenantCtx, text: str, key: str, values: list[str]
) -> None:
    await tenant.say("u", "s1", text, at=AT[0])
    assert await tenant.values("u", key, lower=True) == values
