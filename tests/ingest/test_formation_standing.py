"""Standing facts with no key, states of health and relatives, as a user sees them through the
HTTP API: a condition is its name without what the clause says after it; a degree ("有点感冒",
"头有点晕") is no condition, and is left out of one ("血糖有点高" → 血糖高); a faith is no job;
"left" after "my" is a side, not a leaving; a skill, a height or a religion said in two words
is kept; a lead-in ("fwiw", "顺便说一下") does not hide the user; a capitalised word before a
relation is no family member; the clause after "我有个妹妹" is the sister's, not the user's."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1 = "2026-03-01T09:00:00+08:00"


async def _keyless(tenant: TenantCtx) -> list[str]:
    return [m["content"] for m in await tenant.memories("u", status="active") if m["key"] is None]


@pytest.mark.parametrize(
    ("said", "condition"),
    [
        ("I've got celiac disease so nothing with gluten please.", "celiac disease"),
        ("I have chronic lower back pain from years of desk work.", "chronic lower back pain"),
        (
            "I was diagnosed with hypothyroidism a couple years ago and take levothyroxine.",
            "hypothyroidism",
        ),
        ("I'm hard of hearing in my left ear.", "hard of hearing"),
        ("我有轻度的抑郁症，在吃药", "抑郁症"),
        ("I get cluster headaches a few times a year.", "cluster headaches"),
        ("体检说血糖有点高", "血糖高"),
    ],
)
async def test_a_condition_is_its_name_alone(tenant: TenantCtx, said: str, condition: str) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "health.condition") == [condition]


@pytest.mark.parametrize(
    "said",
    [
        "今天有点感冒，嗓子疼",
        "昨晚没睡好，头有点晕",
        "我最近胃有点不舒服",
        "I'm super tired",
        "I get tired easily",
    ],
)
async def test_how_the_user_feels_today_is_no_condition(tenant: TenantCtx, said: str) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.memories("u", status="active") == []


async def test_a_side_of_the_body_ends_nothing(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I work at Initech.", at=T1)
    await tenant.say("u", "s1", "I'm deaf in my left ear.", at="2026-03-01T09:01:00+08:00")
    assert await tenant.values("u", "work.employer") == ["Initech"]
    assert await tenant.values("u", "health.condition") == ["deaf"]


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("I do pottery, been throwing on the wheel for about three years now.", "pottery"),
        ("I'm about 5'2\", so most bike frames are too big for me.", "5'2"),
        ("I'm Jewish", "Jewish"),
        ("fwiw i drive a 2019 toyota rav4", "toyota rav4"),
        ("顺便说一下我是左撇子哈", "左撇子"),
        ("We live in a third-floor walk-up with no elevator.", "walk-up"),
        ("I'm on metformin for my blood sugar.", "metformin"),
        ("我在吃降压药", "降压药"),
    ],
)
async def test_a_standing_fact_with_no_key_is_kept(tenant: TenantCtx, said: str, fact: str) -> None:
    await tenant.say("u", "s1", said, at=T1)
    keyless = await _keyless(tenant)
    assert [c for c in keyless if fact in c], keyless
    assert await tenant.values("u", "health.condition") == []


@pytest.mark.parametrize(
    "said", ["I'm a Buddhist, not super strict about it though.", "我是基督徒"]
)
async def test_a_faith_is_no_job(tenant: TenantCtx, said: str) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "work.role") == []
    assert [c for c in await _keyless(tenant) if "Buddhist" in c or "基督徒" in c]


async def test_a_place_with_an_article_is_no_city(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "i live on a sailboat in the marina, have for two years", at=T1)
    assert await tenant.values("u", "residence.city") == []
    assert [c for c in await _keyless(tenant) if "sailboat" in c]


async def test_a_name_before_the_relation_is_no_family_member(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I own a Steinway upright that was my grandma's.", at=T1)
    assert "Steinway" not in await tenant.values("u", "family.member")


@pytest.mark.parametrize(
    ("said", "members"),
    [
        ("I've got two boys, Max and Ollie.", ["max", "ollie"]),
        ("Our twins, Ava and Ella, start kindergarten in the fall.", ["ava", "ella"]),
    ],
)
async def test_each_name_of_a_pair_is_a_member(
    tenant: TenantCtx, said: str, members: list[str]
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "family.member", lower=True) == members


@pytest.mark.parametrize(
    ("said", "member", "fact", "not_mine"),
    [
        ("我有个双胞胎妹妹，在成都读大学", "妹妹", "在成都读大学", "education.school"),
        ("我有一个哥哥，在腾讯上班", "哥哥", "在腾讯上班", "work.employer"),
    ],
)
async def test_the_clause_after_a_relative_is_theirs(
    tenant: TenantCtx, said: str, member: str, fact: str, not_mine: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "family.member") == [member]
    assert [c for c in await _keyless(tenant) if fact in c]
    assert await tenant.values("u", not_mine) == []


async def test_a_relatives_liking_said_with_tebie_is_not_the_users(tenant: TenantCtx) -> None:
    # 特别 ("very") holds 别 ("don't"), which is no subject of the user's
    await tenant.say("u", "s1", "我儿子今年五岁，特别喜欢恐龙", at=T1)
    assert await tenant.values("u", "family.member") == ["儿子"]
    assert await tenant.values("u", "preference.likes") == []
