"""Facts said with an aside around them, from a writer's probe. Through the HTTP API.

- Who the user lives with, between the verb and the place, is no part of the home ("I live
  with my parents in Boise", "我和老婆孩子住在杭州").
- How long something has held, after it ("本人吃纯素五年了"), is no part of the fact.
- A word that only leads into a question ("anyway how do i reverse a list in js") leaves it a
  question: no tool is formed from it.
- A closing question after an emoji ("… tennis balls 🎾 birthday party ideas for a dog??")
  leaves what was said before it a statement.
- The net's words of praise or refusal ("火锅yyds", "苦瓜我是真的接受不了") are a taste; the one
  drink of a kind ("我喝茶基本只喝龙井") is the drink, and a refusal of it ends it.
- A firm named after its kind ("一个 startup 叫 Nuvola") is its name.
- A reaction to a thing is an allergy ("I react badly to shellfish"; not "to stress").
- A routine or a rule added in a second turn ("added yoga on sunday evenings to the mix as
  well") keeps its words as its value.
- A trip moved by a turn that names only the new day ("出差提前了，改成下周三走") is the trip at
  that day, and that day is no routine.
- "是个男孩" after a second child is born is the baby's sex, not the user's gender.
- The words a change was read by are not stored with a memory it confirms.
- A home given up ("深圳的房子已经退了") after a move is no home of now.
- How much of a drink is had ("一天三杯", "4 coffees a day") is no part of the drink, and
  giving the drink up ends it and its routine.
- A job about to start ("starting at … next Monday as head of product") names the post, and a
  post named by what it heads is a role.
"""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

AT = ("2026-12-01T09:00:00+08:00", "2026-12-01T09:01:00+08:00")


@pytest.mark.parametrize(
    ("text", "city"),
    [
        ("I live with my parents in Boise", "boise"),
        ("i'm living alone in Leeds now", "leeds"),
        ("我和老婆孩子住在杭州", "杭州"),
        ("我跟爸妈住在成都，通勤有点远", "成都"),
    ],
)
async def test_who_the_user_lives_with_is_no_part_of_the_home(
    tenant: TenantCtx, text: str, city: str
) -> None:
    await tenant.say("u", "s1", text, at=AT[0])
    assert await tenant.values("u", "residence.city", lower=True) == [city]


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        # how long a fact has held
        ("本人吃纯素五年了，给我推荐几个家常菜", "diet.style", "纯素"),
        ("我养猫快三年了", "pets.kind", "猫"),
        # the net's words of praise or refusal
        ("火锅yyds！！！尤其牛油锅底", "preference.likes", "火锅"),
        ("螺蛳粉绝绝子", "preference.likes", "螺蛳粉"),
        ("苦瓜我是真的接受不了", "preference.dislikes", "苦瓜"),
        ("咖啡喝不惯", "preference.dislikes", "咖啡"),
    ],
)
async def test_what_is_said_around_a_fact_is_no_part_of_it(
    tenant: TenantCtx, text: str, key: str, value: str
) -> None:
    await tenant.say("u", "s1", text, at=AT[0])
    assert await tenant.values("u", key) == [value]


async def test_a_question_after_a_leading_word_forms_nothing(tenant: TenantCtx) -> None:
    await tenant.say(
        "u",
        "s1",
        "ugh monday. everything is broken and my brain is mush. anyway how do i reverse a "
        "list in js",
        at=AT[0],
    )
    assert await tenant.facts("u") == []


async def test_a_statement_before_an_emoji_and_a_closing_question_stands(
    tenant: TenantCtx,
) -> None:
    await tenant.say(
        "u",
        "s1",
        "my corgi Biscuit just turned 3 and he's obsessed w tennis balls 🎾 birthday party "
        "ideas for a dog??",
        at=AT[0],
    )
    assert await tenant.values("u", "pets.name", lower=True) == ["biscuit"]


async def test_a_firm_named_after_its_kind_is_its_name(tenant: TenantCtx) -> None:
    turns = (
        "我在 Google 做 SWE，最近 perf review 好烦",
        "现在 join 了一个 startup 叫 Nuvola，Google 那边上个月走了",
    )
    active, frozen = await tenant.change("u", turns, "work.employer", at=AT)
    assert active == ["nuvola"] and frozen == ["google"]


@pytest.mark.parametrize(
    ("text", "allergens"),
    [
        ("I react badly to shellfish", ["shellfish"]),
        ("I have a bad reaction to latex", ["latex"]),
        ("I react to stress by eating", []),
    ],
)
async def test_a_reaction_to_a_thing_is_an_allergy(
    tenant: TenantCtx, text: str, allergens: list[str]
) -> None:
    await tenant.say("u", "s1", text, at=AT[0])
    assert await tenant.values("u", "health.allergy", lower=True) == allergens


@pytest.mark.parametrize(
    ("turns", "key", "added"),
    [
        (
            (
                "I swim every Tuesday and Thursday morning",
                "added yoga on sunday evenings to the mix as well",
            ),
            "schedule.habit",
            "yoga on sunday evenings",
        ),
        (
            ("always give me code in python", "and add type hints to any functions too, please"),
            "assistant.constraint",
            "add type hints",
        ),
    ],
)
async def test_a_routine_or_rule_added_keeps_its_words_as_its_value(
    tenant: TenantCtx, turns: tuple[str, str], key: str, added: str
) -> None:
    for text, when in zip(turns, AT, strict=True):
        await tenant.say("u", "s1", text, at=when)
    values = await tenant.values("u", key, lower=True)
    assert len(values) == 2 and any(added in v for v in values), values


async def test_a_trip_moved_to_another_day_is_the_trip_at_that_day(tenant: TenantCtx) -> None:
    turns = ("下周五要去上海出差，帮我订个酒店参考下", "出差提前了，改成下周三走，老板临时通知的")
    for text, when in zip(turns, AT, strict=True):
        await tenant.say("u", "s1", text, at=when)
    active = await tenant.values("u", "event")
    assert len(active) == 1 and "上海出差" in active[0] and "周五" not in active[0], active
    assert await tenant.values("u", "event", "frozen") == ["下周五要去上海出差"]
    assert await tenant.values("u", "schedule.habit") == []


async def test_a_babys_sex_is_not_the_users_gender(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "二胎也落地啦！是个男孩，小名壮壮", at=AT[0])
    assert await tenant.values("u", "identity.gender") == []
    await tenant.say("u", "s1", "我是女生", at=AT[1])
    assert await tenant.values("u", "identity.gender") == ["女"]


async def test_the_words_a_change_was_read_by_are_not_stored_with_it(tenant: TenantCtx) -> None:
    # the kind said again is a confirmation of the cat held: nothing of the reading is merged
    turns = (
        "We have a cat named Biscuit.",
        "oops i mixed that up, our cat is called Pickles, Biscuit was my sister's cat",
    )
    active, frozen = await tenant.change("u", turns, "pets.name", at=AT)
    assert active == ["pickles"] and frozen == ["biscuit"]
    for m in await tenant.memories("u"):
        assert "instead_of" not in m["metadata"], m


@pytest.mark.parametrize(
    ("turns", "gone"),
    [
        (("我每天都喝咖啡，一天三杯", "最近戒咖啡了，改喝茶"), ["咖啡"]),
        (
            ("I drink like 4 coffees a day lol", "no more coffee for me, doctor's orders"),
            ["coffee"],
        ),
    ],
)
async def test_how_much_of_a_drink_is_no_part_of_it(
    tenant: TenantCtx, turns: tuple[str, str], gone: list[str]
) -> None:
    await tenant.say("u", "s1", turns[0], at=AT[0])
    assert await tenant.values("u", "preference.drink") == gone
    await tenant.say("u", "s1", turns[1], at=AT[1])
    assert await tenant.values("u", "preference.drink", "frozen") == gone
    assert not any(gone[0] in v for v in await tenant.values("u", "schedule.habit"))


async def test_a_job_about_to_start_names_the_post_it_heads(tenant: TenantCtx) -> None:
    turns = (
        "I work at Google as a product manager.",
        "Just quit Google — starting at a small climate startup next Monday as head of product.",
    )
    active, frozen = await tenant.change("u", turns, "work.role", at=AT)
    assert active == ["head of product"] and frozen == ["product manager"]
    assert await tenant.values("u", "work.employer", "frozen") == ["Google"]


async def test_the_one_drink_of_a_kind_is_the_drink_and_a_dislike_of_it_ends_it(
    tenant: TenantCtx,
) -> None:
    turns = ("我喝茶基本只喝龙井", "这阵子口味变了，迷上普洱，龙井反倒喝不惯了")
    active, frozen = await tenant.change("u", turns, "preference.drink", at=AT)
    assert active == [] and frozen == ["龙井"]
    assert await tenant.values("u", "preference.dislikes") == ["龙井"]


async def test_a_home_given_up_is_no_home_of_now(tenant: TenantCtx) -> None:
    turns = ("I'm based in 深圳", "最近 relocate 到香港了，深圳的房子已经退了")
    active, frozen = await tenant.change("u", turns, "residence.city", at=AT)
    assert active == ["香港"] and frozen == ["深圳"]
