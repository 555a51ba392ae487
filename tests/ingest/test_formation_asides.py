"""What is said beside a value is no part of it — an aside after the fact ("and honestly I like
it"), a word of chatter ("btw"), the other side of a comparison ("tea over coffee"), the next
name of a list said without a comma — and a second predicate after "I'm" is the user's too;
through the HTTP API."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1 = "2026-03-01T09:00:00+08:00"


@pytest.mark.parametrize(
    ("said", "key", "value"),
    [
        ("I work at Shopify and honestly I like it", "work.employer", "Shopify"),
        ("I live in Austin and actually I love it here", "residence.city", "Austin"),
        ("We moved to Leeds so obviously I'm still unpacking", "residence.city", "Leeds"),
    ],
)
async def test_an_aside_after_and_is_no_part_of_the_value(
    tenant: TenantCtx, said: str, key: str, value: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", key) == [value]
    assert await tenant.values("u", "preference.likes") == []


@pytest.mark.parametrize("said", ["I love it here", "honestly I really like it here", "我喜欢这里"])
async def test_liking_a_place_said_as_it_is_no_taste(tenant: TenantCtx, said: str) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "preference.likes") == []


async def test_a_thing_liked_is_still_a_taste(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I live in Austin and honestly I love the BBQ", at=T1)
    assert await tenant.values("u", "residence.city") == ["Austin"]
    assert await tenant.values("u", "preference.likes") == ["bbq"]


@pytest.mark.parametrize(
    "said", ["I'd like a coffee", "I'd love a cup of tea right now", "I'd kill for a burger"]
)
async def test_a_want_of_the_moment_is_no_taste(tenant: TenantCtx, said: str) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "preference.drink") == []
    assert await tenant.values("u", "preference.likes") == []


@pytest.mark.parametrize(
    ("said", "drink"),
    [
        ("My go-to drink is a flat white", "flat white"),
        ("my drink of choice is a negroni", "negroni"),
        ("these days I'm more of a chai latte person", "chai latte"),
    ],
)
async def test_a_drink_named_as_the_users_drink_is_the_drink(
    tenant: TenantCtx, said: str, drink: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "preference.drink") == [drink]
    assert await tenant.values("u", "preference.likes") == []


async def test_a_new_drink_person_replaces_the_go_to_drink(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "My go-to drink is a flat white", at=T1)
    await tenant.say(
        "u", "s1", "these days I'm more of a chai latte person", at="2026-03-01T09:01:00+08:00"
    )
    assert await tenant.values("u", "preference.drink") == ["chai latte"]


# what is said beside a value, and the values it must leave: (said, [(key, values)])
_BESIDE = [
    # a word of chatter at the end
    ("I live in Denver btw, is it going to snow tomorrow?", [("residence.city", ["Denver"])]),
    ("I work at Google btw", [("work.employer", ["Google"])]),
    ("I'm from Ohio though", [("hometown", ["Ohio"])]),
    ("I love sushi tho", [("preference.likes", ["sushi"])]),
    # the other side of a comparison
    ("I prefer tea over coffee", [("preference.drink", ["tea"])]),
    ("I'd rather have tea than coffee", [("preference.drink", ["tea"])]),
    ("I like cats more than dogs", [("preference.likes", ["cats"])]),
    ("比起咖啡我更喜欢茶", [("preference.drink", ["茶"])]),
    ("我更喜欢茶，不太喝咖啡", [("preference.drink", ["茶"])]),
    ("我喜欢更新系统", [("preference.likes", ["更新系统"])]),  # 更 of 更新 is no comparison
    # a second predicate after I'm / but, its "I" left out; a reason after the value
    ("I'm 34 and live in Austin", [("age", ["34"]), ("residence.city", ["Austin"])]),
    ("I'm a nurse and live in Boston", [("work.role", ["nurse"]), ("residence.city", ["Boston"])]),
    ("I'm originally from Kerala but live in Dubai now", [("residence.city", ["Dubai"])]),
    ("I don't eat pork for religious reasons", [("diet.avoid", ["pork"])]),
    # named ones listed without a comma
    ("我养了两只猫，一只叫可乐一只叫雪碧", [("pets.name", ["可乐", "雪碧"])]),
]  # fmt: skip


@pytest.mark.parametrize(("said", "held"), _BESIDE)
async def test_what_is_said_beside_a_value_is_no_part_of_it(
    tenant: TenantCtx, said: str, held: list[tuple[str, list[str]]]
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    for key, values in held:
        assert sorted(await tenant.values("u", key)) == sorted(values)
