"""A turn that denies or withdraws what the user said before — "I never said I liked jazz",
"that's wrong, I don't work at Acme", "不对，我不在腾讯", "that was my sister's cat", "never
mind the bullet points", a diet denied in another spelling — freezes what it withdraws and lists
nothing of its own; a place denied under one key leaves the same place under another, and a plan
denied forms no plan. Through the HTTP API, in Chinese and English."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-01T09:01:00+08:00"


@pytest.mark.parametrize(
    ("first", "then", "key", "old"),
    [
        # a take-back that opens the turn and names what it withdraws
        ("I like jazz", "I never said I liked jazz", "preference.likes", "jazz"),
        ("I work at Acme", "that's wrong, I don't work at Acme", "work.employer", "acme"),
        ("我在腾讯上班", "不对，我不在腾讯，是我哥在腾讯", "work.employer", "腾讯"),
        ("我喜欢爵士乐", "我没说过我喜欢爵士乐", "preference.likes", "爵士乐"),
        # the same value in another spelling
        ("I'm gluten-free", "ignore that, i'm not gluten free, typo", "diet.style", "gluten-free"),
        # a pet said to be another's, by its kind or by a name in lower case
        ("I have a cat.", "Oh wait, no, that was my sister's cat", "pets.kind", "cat"),
        ("my dog Max loves the park", "max isnt my dog, he's my neighbors", "pets.name", "max"),
        # named in other words than the first turn: by nothing, a pronoun, its verb alone,
        # the thing given away, or "that's no longer true"
        # named by nothing, or by a pronoun: what the user just spoke of
        ("I use Emacs", "I don't use it anymore", "tech.preferred", "emacs"),
        ("I run every morning", "I don't really do that anymore", "schedule.habit",
         "run every morning"),
        ("我每天早上跑步", "最近膝盖疼，不跑了", "schedule.habit", "每天早上跑步"),
        # named by its verb alone
        ("I play tennis on weekends", "I no longer play", "schedule.habit",
         "play tennis on weekends"),
        # given away, or gone, said by its kind or its name
        ("我养了一只猫", "猫送人了", "pets.kind", "猫"),
        ("我养了一只狗叫旺财", "最近搬家挺累的，旺财送给我爸妈养了", "pets.name", "旺财"),
        ("I have a hamster", "the hamster died last week", "pets.kind", "hamster"),
        # not at a place any more, its name in Latin letters
        ("我在 Google 工作", "我已经不在 Google 了", "work.employer", "google"),
        # what held and holds no more
        ("I'm a nurse", "that's no longer true, I quit", "work.role", "nurse"),
    ],
)  # fmt: skip
async def test_a_withdrawal_freezes_what_it_names(
    tenant: TenantCtx, first: str, then: str, key: str, old: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    assert await tenant.values("u", key, "active", lower=True) == [old]
    await tenant.say("u", "s1", then, at=T2)
    assert await tenant.values("u", key, "active", lower=True) == []
    assert await tenant.values("u", key, "frozen", lower=True) == [old]


async def test_one_of_two_pets_said_to_be_another_s_leaves_the_other(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I have a dog. I also have a cat.", at=T1)
    await tenant.say("u", "s1", "oh the cat's actually my mom's, not mine", at=T2)
    assert await tenant.values("u", "pets.kind", "active", lower=True) == ["dog"]
    assert await tenant.values("u", "pets.kind", "frozen", lower=True) == ["cat"]


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("我养了一只猫叫咪咪", "哦不对，咪咪是我朋友家的猫"),
        ("My son Leo started school", "sorry, Leo is my friend's son, I don't have kids"),
    ],
)
async def test_a_withdrawal_of_several_keys_lists_no_fact_of_its_own(
    tenant: TenantCtx, first: str, then: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    await tenant.say("u", "s1", then, at=T2)
    listed = [m for m in await tenant.memories("u", status="active") if m["value"] is None]
    assert [m["content"] for m in listed if m["key"] is None] == []


async def test_never_mind_a_rule_withdraws_it(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "Please answer in bullet points", at=T1)
    await tenant.say("u", "s1", "never mind the bullet points, normal text is fine", at=T2)
    assert await tenant.values("u", "assistant.constraint", "active") == []
    assert await tenant.values("u", "assistant.constraint", "frozen", lower=True) == [
        "answer in bullet points"
    ]


@pytest.mark.parametrize(
    ("first", "then", "home"),
    [
        ("我住在杭州", "我不是杭州人，老家在湖南", "湖南"),
        ("I live in Boston", "I'm not from Boston though, I'm from Ohio", "ohio"),
    ],
)
async def test_a_place_denied_as_home_stays_where_the_user_lives(
    tenant: TenantCtx, first: str, then: str, home: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    lives = await tenant.values("u", "residence.city", "active", lower=True)
    await tenant.say("u", "s1", then, at=T2)
    assert await tenant.values("u", "residence.city", "active", lower=True) == lives
    assert await tenant.values("u", "hometown", "active", lower=True) == [home]


@pytest.mark.parametrize("said", ["我不打算换工作了", "I'm not planning to move"])
async def test_a_plan_denied_is_no_plan(tenant: TenantCtx, said: str) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "plan", "active") == []


@pytest.mark.parametrize(
    ("first", "then", "drink"),
    [
        ("我喜欢喝咖啡", "我其实不喜欢咖啡，是我老婆爱喝", "咖啡"),
        ("I usually drink green tea", "I don't drink green tea, it keeps me up", "green tea"),
    ],
)
async def test_a_drink_disliked_or_avoided_is_no_longer_the_user_s_drink(
    tenant: TenantCtx, first: str, then: str, drink: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    assert await tenant.values("u", "preference.drink", "active", lower=True) == [drink]
    await tenant.say("u", "s1", then, at=T2)
    assert await tenant.values("u", "preference.drink", "active") == []
    assert await tenant.values("u", "preference.drink", "frozen", lower=True) == [drink]


async def test_an_allergy_that_is_the_daughter_s_is_no_allergen_of_the_user_s(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u", "s1", "我对芒果过敏", at=T1)
    await tenant.say("u", "s1", "其实我不对芒果过敏，是我女儿过敏", at=T2)
    assert await tenant.values("u", "health.allergy", "active") == []
    assert await tenant.values("u", "health.allergy", "frozen") == ["芒果"]


@pytest.mark.parametrize(
    ("first", "then", "key", "old"),
    [
        ("I have asthma", "I don't have asthma, my son does", "health.condition", "asthma"),
        ("I have a dog named Rex", "I don't have a dog anymore", "pets.kind", "dog"),
    ],
)
async def test_what_the_user_says_they_do_not_have_is_withdrawn(
    tenant: TenantCtx, first: str, then: str, key: str, old: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    await tenant.say("u", "s1", then, at=T2)
    assert await tenant.values("u", key, "active", lower=True) == []
    assert await tenant.values("u", key, "frozen", lower=True) == [old]
    # "my son does" says nothing of its own about the son
    keyless = [m["content"] for m in await tenant.memories("u", status="active") if not m["key"]]
    assert not any(c.strip().endswith("does") for c in keyless)


@pytest.mark.parametrize(
    ("said", "disliked"),
    [
        ("我对篮球一点兴趣都没有", "篮球"),
        ("我对编程不太感兴趣", "编程"),
        ("I don't like horror movies that much", "horror movies"),
        ("honestly I'm not big on seafood tbh", "seafood"),
    ],
)
async def test_no_interest_is_a_dislike_of_the_thing_alone(
    tenant: TenantCtx, said: str, disliked: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "preference.dislikes", "active", lower=True) == [disliked]
    assert await tenant.values("u", "preference.likes", "active") == []


@pytest.mark.parametrize(
    "then",
    [
        "that's wrong, it's raining here",  # of an answer, not of the user's words
        "I didn't mean to be rude",
        "never mind the weather, what should I cook?",  # names nothing the user said
    ],
)
async def test_a_remark_that_takes_back_nothing_of_the_user_s_keeps_their_facts(
    tenant: TenantCtx, then: str
) -> None:
    await tenant.say("u", "s1", "I live in Paris", at=T1)
    await tenant.say("u", "s1", then, at=T2)
    assert await tenant.values("u", "residence.city", "active") == ["Paris"]
