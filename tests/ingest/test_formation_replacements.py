"""What a later turn replaces, read by meaning: a pet lost or rehomed by its name, a body part
healed, a state stopped ("stopped being vegan"), a stack moved off a tool said without its
suffix ("off Mongo" after MongoDB), a routine done "instead" beside a reason with "too", the
language of the answers changed; and an add-on drink that replaces no drink. Through the HTTP
API, in Chinese and English."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-01T09:01:00+08:00"


@pytest.mark.parametrize(
    ("first", "then", "key", "old", "new"),
    [
        ("I have a rabbit called Pip.", "We had to rehome Pip, my daughter is allergic.",
         "pets.name", "pip", None),
        ("I have a collie named Rusty.", "We lost Rusty last spring. Just adopted a pug, Bao.",
         "pets.name", "rusty", "bao"),
        ("I have a sprained ankle.", "My ankle has fully healed, back to running.",
         "health.condition", "sprained ankle", None),
        ("I'm vegetarian.", "I've stopped being vegetarian, I eat meat again.",
         "diet.style", "vegetarian", None),
        ("We use MongoDB for everything.", "We moved our stack off Mongo and onto Postgres.",
         "tech.preferred", "mongodb", "postgres"),
        ("I swim every morning.", "I now swim in the evenings instead, mornings are too busy.",
         "schedule.habit", "swim every morning", "swim in the evenings"),
    ],
)  # fmt: skip
async def test_a_change_said_by_meaning_freezes_what_it_replaces(
    tenant: TenantCtx, first: str, then: str, key: str, old: str, new: str | None
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    assert await tenant.values("u", key, "active", lower=True) == [old]
    await tenant.say("u", "s1", then, at=T2)
    assert await tenant.values("u", key, "active", lower=True) == ([new] if new else [])
    assert await tenant.values("u", key, "frozen", lower=True) == [old]


@pytest.mark.parametrize(
    ("first", "then", "old", "new"),
    [
        ("Please reply in English.", "From now on reply in German please.", "english", "german"),
        ("请用英文回答我", "以后都用中文回复吧，英文看着累", "英文", "中文"),
        (
            "Can you answer me in French from now on?",
            "Actually switch to German please.",
            "french",
            "german",
        ),
        ("我 prefer 用中文跟你聊", "算了还是 English 吧", "中文", "english"),
    ],
)
async def test_the_language_of_the_answers_changed_is_the_language_preferred(
    tenant: TenantCtx, first: str, then: str, old: str, new: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    assert await tenant.values("u", "language.preferred", "active", lower=True) == [old]
    await tenant.say("u", "s1", then, at=T2)
    assert await tenant.values("u", "language.preferred", "active", lower=True) == [new]
    assert await tenant.values("u", "language.preferred", "frozen", lower=True) == [old]
    rules = await tenant.values("u", "assistant.constraint", "active", lower=True)
    assert all(new in rule for rule in rules)  # the reason ("英文看着累") is no rule


async def test_a_language_found_hard_is_no_language_of_the_users(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "麻烦用中文回复我，英文我看着累", at=T1)
    assert await tenant.values("u", "language.preferred", "active") == ["中文"]


@pytest.mark.parametrize(
    ("first", "then", "old", "added"),
    [
        ("我喜欢喝绿茶", "也挺爱喝柠檬水的", "绿茶", "柠檬水"),
        ("I drink black coffee.", "I also drink kombucha.", "black coffee", "kombucha"),
    ],
)
async def test_a_drink_said_as_an_add_on_replaces_no_drink(
    tenant: TenantCtx, first: str, then: str, old: str, added: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    await tenant.say("u", "s1", then, at=T2)
    assert await tenant.values("u", "preference.drink", "active", lower=True) == [old]
    assert await tenant.values("u", "preference.drink", "frozen") == []
    assert await tenant.values("u", "preference.likes", "active", lower=True) == [added]


async def test_a_drink_changed_still_replaces_the_drink(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我每天都喝咖啡。", at=T1)
    await tenant.say("u", "s1", "咖啡戒了，现在改喝茶了", at=T2)
    assert await tenant.values("u", "preference.drink", "active") == ["茶"]
    assert await tenant.values("u", "preference.drink", "frozen") == ["咖啡"]


@pytest.mark.parametrize(
    ("first", "then", "key", "old", "new"),
    [
        ("叫我 Amy 就行", "从现在开始叫我 Amelia 吧", "name.nickname", "amy", "amelia"),
        ("I go to bed around 1am.", "new year new me, I'm in bed by 10:30 these days",
         "schedule.habit", "go to bed around 1am", "in bed by 10:30"),
        ("I usually work out at lunch.", "switched my workouts to early mornings, lunch was too "
         "hectic", "schedule.habit", "work out at lunch", "workouts to early mornings"),
        ("I don't eat gluten.", "Turns out I'm fine with gluten after all, the test came back "
         "negative.", "diet.avoid", "gluten", None),
    ],
)  # fmt: skip
async def test_a_change_keeps_its_value_alone(
    tenant: TenantCtx, first: str, then: str, key: str, old: str, new: str | None
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    assert old in await tenant.values("u", key, "active", lower=True)
    await tenant.say("u", "s1", then, at=T2)
    assert await tenant.values("u", key, "active", lower=True) == ([new] if new else [])
    assert old in await tenant.values("u", key, "frozen", lower=True)
    assert await tenant.values("u", "event", "active") == []


@pytest.mark.parametrize(
    ("first", "then", "city"),
    [
        ("I'm based in 深圳.", "上周搬去 Singapore 了，公司外派", "Singapore"),
        (
            "I live in Seattle.",
            "Quick update - Im in Chicago now, moved for my partner's job.",
            "Chicago",
        ),
        ("I live in Denver.", "I moved to Seattle for a job at Amazon", "Seattle"),
    ],
)
async def test_a_move_for_a_job_names_no_workplace_and_keeps_the_city_alone(
    tenant: TenantCtx, first: str, then: str, city: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    await tenant.say("u", "s1", then, at=T2)
    assert await tenant.values("u", "residence.city", "active") == [city]
    assert len(await tenant.values("u", "residence.city", "frozen")) == 1
    assert city not in await tenant.values("u", "work.employer", "active")
    assert await tenant.values("u", "work.location", "active") == []


@pytest.mark.parametrize(
    ("first", "then", "name"),
    [
        ("My boyfriend's name is Tom.", "I broke up with Tom last month.", "tom"),
        ("我男朋友叫阿杰", "我和阿杰分手了", "阿杰"),
    ],
)
async def test_a_partner_parted_from_is_frozen(
    tenant: TenantCtx, first: str, then: str, name: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    assert name in await tenant.values("u", "family.member", "active", lower=True)
    await tenant.say("u", "s1", then, at=T2)
    assert name not in await tenant.values("u", "family.member", "active", lower=True)
    assert await tenant.values("u", "family.member", "frozen", lower=True) == [name]


async def test_a_thing_of_one_day_stays_an_event(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I go to the gym at 7 on Friday", at=T1)
    assert await tenant.values("u", "schedule.habit", "active") == []
    assert len(await tenant.values("u", "event", "active")) == 1


async def test_a_language_the_user_speaks_stays_beside_a_new_language_of_the_answers(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u", "s1", "I speak French.", at=T1)
    await tenant.say("u", "s1", "From now on reply in English please.", at=T2)
    assert await tenant.values("u", "language.preferred", "active", lower=True) == [
        "english",
        "french",
    ]
    assert await tenant.values("u", "language.preferred", "frozen") == []
