"""Work and taste said the many ways people say them: a thing first and how the user takes it
("Horror movies are not really my thing", "Country music drives me nuts"), a fan named by what
they follow ("I'm a huge Arsenal fan", "我是周杰伦的铁粉"), a liking denied by degree ("我不太爱吃
甜食"); a business the user runs, a line of work done at a firm, teaching said without its
subject, a city then a firm of a kind ("在杭州一家外企做HR"); a student's school is no employer,
a nationality no language, and where one lived in college no school. Through the HTTP API, in
Chinese and English."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-01T09:01:00+08:00"


@pytest.mark.parametrize(
    ("said", "key", "value"),
    [
        # the subject is the value of a predicate of dislike
        ("Horror movies are not really my thing.", "preference.dislikes", "horror movies"),
        ("Jazz has never really been my cup of tea.", "preference.dislikes", "jazz"),
        ("Country music drives me nuts.", "preference.dislikes", "country music"),
        ("Reggaeton gets on my nerves", "preference.dislikes", "reggaeton"),
        # a fan named by what they follow
        ("I'm a huge Arsenal fan.", "preference.likes", "arsenal"),
        ("I'm a die-hard Celtics fan", "preference.likes", "celtics"),
        ("我是周杰伦的铁粉", "preference.likes", "周杰伦"),
        ("我是个足球迷", "preference.likes", "足球"),
        # a liking denied by degree
        ("我不太爱吃甜食", "preference.dislikes", "甜食"),
        ("我不怎么爱看综艺", "preference.dislikes", "看综艺"),
        ("我对咖啡不感冒", "preference.dislikes", "咖啡"),
        # a liking held for long, owned as a weakness, or as the kind of person one is
        ("I've always loved rainy days", "preference.likes", "rainy days"),
        ("I've been into climbing for years", "preference.likes", "climbing"),
        ("I'm a sucker for old westerns", "preference.likes", "old westerns"),
        ("I'm a cat person", "preference.likes", "cat"),
        ("I'm more of a tea person", "preference.drink", "tea"),
        ("I'm a black coffee person, like 3 cups a day", "preference.drink", "black coffee"),
        ("Sushi is my absolute favourite", "preference.likes", "sushi"),
    ],
)  # fmt: skip
async def test_a_taste_said_by_its_grammar_is_kept(
    tenant: TenantCtx, said: str, key: str, value: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", key, lower=True) == [value]
    recalled = await tenant.recall("u", value)
    assert any(m.get("key") == key for m in recalled["memories"])


@pytest.mark.parametrize(
    "said",
    ["That's not really my thing.", "I'm a fan", "My boss drives me nuts.", "我是球迷"],
)
async def test_no_taste_without_a_thing_of_the_users(tenant: TenantCtx, said: str) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "preference.likes") == []
    assert await tenant.values("u", "preference.dislikes") == []


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("I run a small bakery.", {"work.role": ["bakery owner"]}),
        ("I'm running a little coffee shop in Leeds", {"work.role": ["coffee shop owner"]}),
        ("I do backend at a fintech.", {"work.role": ["backend"]}),
        ("Been teaching chemistry for ten years now.", {"work.role": ["chemistry teacher"]}),
        ("我在杭州一家外企做HR",
         {"work.location": ["杭州"], "work.employer": ["外企"], "work.role": ["hr"]}),
        ("我在北京一家医院当护士",
         {"work.location": ["北京"], "work.employer": ["医院"], "work.role": ["护士"]}),
        ("我在上海银行上班", {"work.employer": ["上海银行"], "work.location": []}),
        ("我是自由职业者", {"work.role": ["自由职业者"]}),
        ("I'm at Sundial Energy.", {"work.employer": ["sundial energy"]}),
        ("I'm with Orbit Labs now", {"work.employer": ["orbit labs"]}),
        ("I'm at Heathrow", {"work.employer": []}),
    ],
)  # fmt: skip
async def test_work_said_by_what_the_user_does(
    tenant: TenantCtx, said: str, expected: dict[str, list[str]]
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    for key, values in expected.items():
        assert await tenant.values("u", key, lower=True) == values, key


@pytest.mark.parametrize(
    ("said", "school"),
    [
        ("I'm a grad student at Stanford.", "stanford"),
        ("I'm a PhD student at Cornell", "cornell"),
        ("我是北大的研究生", "北大"),
    ],
)
async def test_a_students_school_is_no_employer(tenant: TenantCtx, said: str, school: str) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "education.school", lower=True) == [school]
    assert await tenant.values("u", "work.employer") == []


@pytest.mark.parametrize(
    ("said", "key"),
    [
        ("I'm Korean.", "language.preferred"),
        ("I'm half Japanese", "language.preferred"),
        ("Back in college I lived in Boston.", "education.school"),
        ("Back in college I lived in Boston.", "residence.city"),
        ("大学的时候我住在武汉", "residence.city"),
        ("I'm a sucker for old westerns", "work.role"),
        ("I'm a morning person", "preference.likes"),
    ],
)
async def test_who_the_user_is_or_was_is_no_language_school_or_home(
    tenant: TenantCtx, said: str, key: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", key) == []


async def test_a_language_spoken_is_still_kept(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I speak Korean.", at=T1)
    assert await tenant.values("u", "language.preferred", lower=True) == ["korean"]


async def test_a_second_taste_said_as_a_fan_adds_to_the_first(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I love hiking.", at=T1)
    await tenant.say("u", "s1", "Also I'm a big Lakers fan.", at=T2)
    assert await tenant.values("u", "preference.likes", lower=True) == ["hiking", "lakers"]
    assert await tenant.values("u", "preference.likes", "frozen") == []


async def test_a_dislike_said_subject_first_replaces_the_liking(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I love jazz.", at=T1)
    await tenant.say("u", "s1", "Honestly jazz isn't really my thing anymore.", at=T2)
    assert await tenant.values("u", "preference.dislikes", lower=True) == ["jazz"]
    assert await tenant.values("u", "preference.likes", "frozen", lower=True) == ["jazz"]


@pytest.mark.parametrize(
    ("first", "then", "role"),
    [
        ("我在小米做硬件测试", "我现在是自由职业了，接点设计的活", "自由职业"),
        ("I work at Brightline as an analyst.", "I went freelance last year", "analyst"),
    ],
)
async def test_working_for_oneself_now_leaves_the_employer(
    tenant: TenantCtx, first: str, then: str, role: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    employer = await tenant.values("u", "work.employer")
    assert len(employer) == 1
    await tenant.say("u", "s1", then, at=T2)
    assert await tenant.values("u", "work.employer") == []
    assert await tenant.values("u", "work.employer", "frozen") == employer
    assert await tenant.values("u", "work.role") == [role]
