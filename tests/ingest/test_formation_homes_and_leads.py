"""A home named by the word home ("Chicago is home now", "Berlin has been home since 2019") is
where the user lives, and a move after it replaces it; a place ends where a conjunction
begins; a thing given up is what follows the user and the words that lead in ("顺便说下我现在
羊肉也不吃了"); a state said "不太好" is kept whole; a drink had as an exception ("破例喝杯咖啡")
is no taste and replaces none. Through the HTTP API (turns on Monday 2026-12-07)."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

AT = "2026-12-07T09:00:00+08:00"
LATER = "2026-12-07T10:00:00+08:00"
CITY = "residence.city"


@pytest.mark.parametrize(
    ("said", "city"),
    [
        ("home is Denver for me", "denver"),
        ("Chicago is home now", "chicago"),
        ("Austin's been home for about 4 years now", "austin"),
        ("Berlin has been home since 2019", "berlin"),
        ("I call Seattle home", "seattle"),
        ("home these days is Lisbon", "lisbon"),
        ("I live in Boston so winters are rough", "boston"),
        ("ok new rule, I just moved to Texas so Fahrenheit please", "texas"),
    ],
)
async def test_a_home_said_by_the_word_home_is_where_the_user_lives(
    tenant: TenantCtx, said: str, city: str
) -> None:
    await tenant.say("u", "s1", said, at=AT)
    assert await tenant.values("u", CITY, lower=True) == [city]


@pytest.mark.parametrize(
    "said",
    [
        "Denver is home now to my brother",
        "for my parents, Chicago is home now",
        "Seattle is home now to Amazon's second campus",
        "home these days is Lisbon for my best friend",
    ],
)
async def test_a_home_of_someone_else_replaces_no_home(tenant: TenantCtx, said: str) -> None:
    active, frozen = await tenant.change("u", ("I live in Boston", said), CITY, at=(AT, LATER))
    assert active == ["boston"]
    assert frozen == []


@pytest.mark.parametrize(
    "said",
    [
        "Chicago is home to the Bulls",
        "Tom has been home since Monday",
        "home is where the heart is",
        "the gym is basically my second home",
    ],
)
async def test_home_said_of_something_else_is_no_residence(tenant: TenantCtx, said: str) -> None:
    await tenant.say("u", "s1", said, at=AT)
    assert await tenant.values("u", CITY) == []


async def test_a_move_replaces_a_home_said_by_the_word_home(tenant: TenantCtx) -> None:
    turns = ("Portland has been home since 2018", "we finally moved to Tucson last month")
    active, frozen = await tenant.change("u", turns, CITY, at=(AT, LATER))
    assert active == ["tucson"]
    assert frozen == ["portland"]


@pytest.mark.parametrize(
    "said",
    ["我现在羊肉也不吃了", "顺便说下我现在羊肉也不吃了，在减肥", "对了，我现在羊肉也不吃了"],
)
async def test_a_thing_given_up_after_the_user_is_the_thing(tenant: TenantCtx, said: str) -> None:
    await tenant.say("u", "s1", said, at=AT)
    assert await tenant.values("u", "diet.avoid") == ["羊肉"]


async def test_a_state_said_not_too_good_is_kept_whole(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我胃不太好", at=AT)
    assert await tenant.values("u", "health.condition") == ["胃不太好"]


async def test_a_drink_had_as_an_exception_replaces_no_taste(tenant: TenantCtx) -> None:
    turns = ("我只喝绿茶，咖啡不碰", "今晚要加班，破例喝杯咖啡提提神")
    active, frozen = await tenant.change("u", turns, "preference.drink", at=(AT, LATER))
    assert active == ["绿茶"]
    assert frozen == []


@pytest.mark.parametrize(
    ("turns", "kept"),
    [
        (("我平时只喝茶", "今天破个例，来杯奶茶"), "茶"),
        (("我最爱喝乌龙茶", "来杯奶茶"), "乌龙茶"),
        (("I only drink tea", "exception today, gonna get a coffee"), "tea"),
    ],
)
async def test_a_drink_ordered_once_replaces_no_taste(
    tenant: TenantCtx, turns: tuple[str, str], kept: str
) -> None:
    active, frozen = await tenant.change("u", turns, "preference.drink", at=(AT, LATER))
    assert active == [kept]
    assert frozen == []


async def test_a_drink_just_this_once_is_no_taste(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "just this once I'm having a coke", at=AT)
    assert await tenant.values("u", "preference.drink") == []


async def test_a_rule_beside_a_way_of_answering_tired_of_replaces_it(tenant: TenantCtx) -> None:
    turns = (
        "Use numbered lists in your answers",
        "honestly the numbered lists are getting annoying, just write plain paragraphs",
    )
    active, frozen = await tenant.change("u", turns, "assistant.constraint", at=(AT, LATER))
    assert frozen == ["use numbered lists in your answers"]
    assert any("paragraphs" in v for v in active), active


async def test_tired_of_another_kind_of_answer_leaves_the_rule(tenant: TenantCtx) -> None:
    turns = ("Keep your answers short", "I'm sick of the emojis, leave them out")
    active, frozen = await tenant.change("u", turns, "assistant.constraint", at=(AT, LATER))
    assert frozen == []
    assert "keep your answers short" in active


@pytest.mark.parametrize(
    ("said", "employer", "city"),
    [("我在杭州阿里上班", "阿里", "杭州"), ("我在深圳腾讯做后端", "腾讯", "深圳")],
)
async def test_a_firm_said_after_its_city_is_the_employer_there(
    tenant: TenantCtx, said: str, employer: str, city: str
) -> None:
    await tenant.say("u", "s1", said, at=AT)
    assert await tenant.values("u", "work.employer") == [employer]
    assert await tenant.values("u", "work.location") == [city]


async def test_a_bank_named_after_its_city_stays_one_name(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我在南京银行上班", at=AT)
    assert await tenant.values("u", "work.employer") == ["南京银行"]


async def test_working_in_a_city_now_moves_the_work_location(tenant: TenantCtx) -> None:
    turns = ("我在杭州阿里上班", "现在在上海工作了")
    active, frozen = await tenant.change("u", turns, "work.location", at=(AT, LATER))
    assert active == ["上海"]
    assert frozen == ["杭州"]
    assert await tenant.values("u", "work.employer") == ["阿里"]


@pytest.mark.parametrize(
    ("said", "tool"),
    [
        ("我记笔记一直用有道云笔记", "有道云笔记"),
        ("我平时用钉钉", "钉钉"),
        ("我手机一直是安卓", "安卓"),
    ],
)
async def test_a_tool_named_in_chinese_is_the_tool_used(
    tenant: TenantCtx, said: str, tool: str
) -> None:
    await tenant.say("u", "s1", said, at=AT)
    assert await tenant.values("u", "tech.preferred") == [tool]


async def test_a_switch_from_a_tool_named_in_chinese_replaces_it(tenant: TenantCtx) -> None:
    turns = ("我记笔记一直用有道云笔记", "现在全部迁到 Notion 了，有道那个不续费了")
    active, frozen = await tenant.change("u", turns, "tech.preferred", at=(AT, LATER))
    assert active == ["notion"]
    assert frozen == ["有道云笔记"]


async def test_a_rule_for_the_other_units_replaces_the_rule(tenant: TenantCtx) -> None:
    turns = (
        "Use Celsius when we talk weather",
        "ok new rule, I moved to Texas so Fahrenheit please",
    )
    active, frozen = await tenant.change("u", turns, "assistant.constraint", at=(AT, LATER))
    assert frozen == ["use celsius when we talk weather"]
    assert active == ["fahrenheit"]


async def test_a_rule_for_the_same_units_replaces_nothing(tenant: TenantCtx) -> None:
    turns = ("Always give distances in miles", "also use Fahrenheit for temperatures")
    active, frozen = await tenant.change("u", turns, "assistant.constraint", at=(AT, LATER))
    assert frozen == []
    assert "always give distances in miles" in active
