"""Sentences that look like a fact of the user's but are not that fact: a language spoken
weakly, a tool used because it must be, a client worked for, someone else's pet or address, a
partner of before, a pet named beside a relative, a holiday or a verb read as a place. None
of them forms the wrong memory, and the user's own facts beside them still form. Through the
HTTP API, in English and Chinese."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-02T09:00:00+08:00"


@pytest.mark.parametrize(
    "said",
    [
        "my French is rusty, haven't used it since school",
        "我英语一般，看文档还行",
        "my Spanish is pretty basic tbh",
        "我的 German 大概 A1 水平吧",
        "I speak a little Dutch",
        "I can get by in German, but just barely",
        "I speak Portuguese, but badly",
        "法语我只懂皮毛",
        "我法语说得磕磕巴巴的",
    ],
)
async def test_a_language_spoken_weakly_is_no_preferred_language(
    tenant: TenantCtx, said: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "language.preferred") == []
    assert await tenant.values("u", "preference.dislikes") == []


async def test_a_weak_language_beside_a_fluent_one_leaves_the_fluent_one(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u", "s1", "my French is rusty but I speak Spanish fluently", at=T1)
    assert await tenant.values("u", "language.preferred") == ["spanish"]


async def test_a_language_that_is_not_the_first_is_no_dislike(tenant: TenantCtx) -> None:
    await tenant.say(
        "u", "s1", "english isnt my first language, Im a native Portuguese speaker", at=T1
    )
    assert await tenant.values("u", "preference.dislikes") == []
    assert await tenant.values("u", "language.preferred") == ["portuguese"]


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("at work we use java, I don't get a say", []),
        ("I mostly code in TypeScript, python only when I absolutely have to lol", ["typescript"]),
        ("公司要求用Java，我自己更喜欢Go", ["go"]),
    ],
)
async def test_a_tool_used_because_it_must_be_is_no_preference(
    tenant: TenantCtx, said: str, kept: list[str]
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert sorted(await tenant.values("u", "tech.preferred")) == kept


@pytest.mark.parametrize(
    "said",
    [
        "我在给华为做项目，下个月结项",
        "I'm consulting for Nike this quarter",
        "帮 Google 做的那个 contract 项目终于收尾了",
    ],
)
async def test_a_client_worked_for_is_no_employer(tenant: TenantCtx, said: str) -> None:
    await tenant.say("u", "s1", "I work at Deloitte", at=T1)
    await tenant.say("u", "s1", said, at=T2)
    assert await tenant.values("u", "work.employer") == ["Deloitte"]
    assert await tenant.values("u", "work.role") == []


@pytest.mark.parametrize(
    ("said", "key"),
    [
        ("Mike's email is mike.r@example.com, can you cc him", "contact.email"),
        ("I'm pet sitting my friend's dog Charlie this week", "pets.name"),
        ("I'm pet sitting my friend's dog Charlie this week", "pets.kind"),
        ("这周帮朋友养几天狗，有啥要注意的", "pets.kind"),
    ],
)
async def test_someone_elses_pet_or_address_is_not_the_users(
    tenant: TenantCtx, said: str, key: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", key) == []


async def test_the_users_own_pet_and_address_still_form(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "my email is sam@example.org and I have a dog named Rex", at=T1)
    assert await tenant.values("u", "contact.email") == ["sam@example.org"]
    assert await tenant.values("u", "pets.name") == ["Rex"]


@pytest.mark.parametrize("said", ["我前夫叫王磊，现在孩子周末归他带", "我前男友叫小刘"])
async def test_a_partner_of_before_is_no_family_member(tenant: TenantCtx, said: str) -> None:
    await tenant.say("u", "s1", said, at=T1)
    names = await tenant.values("u", "family.member")
    assert "王磊" not in names and "小刘" not in names


async def test_a_parting_ends_the_partner_and_is_no_event(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "my boyfriend is called Tom, he's a line cook", at=T1)
    await tenant.say("u", "s1", "Tom and I split up a few weeks ago", at=T2)
    assert await tenant.values("u", "event") == []
    assert "tom" in [v.lower() for v in await tenant.values("u", "family.member", status="frozen")]


@pytest.mark.parametrize(
    ("said", "member"),
    [("我对象养了一只柯基叫可乐", "可乐"), ("my sister has a dog named Max", "max")],
)
async def test_a_pet_named_beside_a_relative_is_no_relative(
    tenant: TenantCtx, said: str, member: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert member not in [v.lower() for v in await tenant.values("u", "family.member")]


@pytest.mark.parametrize(
    "said", ["I'm at my folks' place in Ohio for Christmas", "我从小在首尔长大，韩语才是我的母语"]
)
async def test_a_holiday_or_a_verb_is_no_place(tenant: TenantCtx, said: str) -> None:
    await tenant.say("u", "s1", said, at=T1)
    for key in ("hometown", "residence.city"):
        values = await tenant.values("u", key)
        assert "Christmas" not in values and "长大" not in values


async def test_how_much_a_thing_is_liked_is_no_part_of_it(tenant: TenantCtx) -> None:
    await tenant.say(
        "u", "s1", "Thinking about Rust, but honestly I love Python too much to switch", at=T1
    )
    assert await tenant.values("u", "tech.preferred") == ["python"]


@pytest.mark.parametrize(
    ("said", "key", "value"),
    [
        ("At work we use Python, and honestly I love it.", "tech.preferred", "python"),
        ("公司要求用Rust，正合我意，Rust是我的首选", "tech.preferred", "rust"),
        ("My company uses Rust, which I adore.", "tech.preferred", "rust"),
        ("我母语是粤语，粤语一般在家里讲", "language.preferred", "粤语"),
        (
            "I speak Chinese natively; sorry for the bad Chinese in my last message",
            "language.preferred",
            "chinese",
        ),
        ("I'm taking care of my own dog Rex after his surgery.", "pets.name", "Rex"),
        ("I'm pet sitting my neighbor's dog, but my own dog Rex is jealous.", "pets.name", "Rex"),
        ("I'm pet sitting my neighbor's dog, but my own dog Rex is jealous.", "pets.kind", "dog"),
        (
            "Please send Mike's report to my email jane@example.com.",
            "contact.email",
            "jane@example.com",
        ),
        ("我和前夫有一个女儿叫朵朵", "family.member", "朵朵"),
        ("My husband Tom is an ex-Marine.", "family.member", "tom"),
    ],
)
async def test_the_users_own_fact_beside_a_look_alike_still_forms(
    tenant: TenantCtx, said: str, key: str, value: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert value in await tenant.values("u", key)


@pytest.mark.parametrize(
    ("said", "key", "value"),
    [
        ("mike's email is mike.r@example.com", "contact.email", "mike.r@example.com"),
        ("Mike’s email is mike.r@example.com", "contact.email", "mike.r@example.com"),
        ("小王的邮箱是 xw@example.com", "contact.email", "xw@example.com"),
        ("我姐的狗叫豆豆", "family.member", "豆豆"),
        ("My mom's cat is called Tiger", "family.member", "tiger"),
        ("My dad has a cat whose name is Oscar", "family.member", "oscar"),
        ("I was born in December", "hometown", "December"),
    ],
)
async def test_more_look_alikes_form_no_wrong_memory(
    tenant: TenantCtx, said: str, key: str, value: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert value not in await tenant.values("u", key)
