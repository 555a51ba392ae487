"""A later turn that replaces an earlier fact — a thing given up by its short name ("篮球基本不
打了" after "我喜欢打篮球"), a condition healed, a rule for the assistant changed "from now on"
(以后…), a slip owned at the end of the turn, a place moved out of, a pet named in a clause of
its own — freezes what it replaces and forms nothing beside it; a look-alike (a trip, a brother's
name, an add-on) replaces nothing. Through the HTTP API, in Chinese and English."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-01T09:01:00+08:00"


@pytest.mark.parametrize(
    ("first", "then", "key", "old", "new"),
    [
        # given up by the thing's short name: the verb or the kind dropped
        ("我喜欢打篮球。", "现在更喜欢羽毛球，篮球基本不打了",
         "preference.likes", "打篮球", "羽毛球"),
        ("我喜欢看日剧。", "最近更爱看韩剧了，日剧看腻了", "preference.likes", "看日剧", "韩剧"),
        ("我有慢性胃炎。", "胃炎已经好了", "health.condition", "慢性胃炎", None),
        ("I have plantar fasciitis.", "my plantar fasciitis finally healed up",
         "health.condition", "plantar fasciitis", None),
        # a place moved out of is the old one, not the new
        ("I'm in Brooklyn.", "moved out of Brooklyn, now in Jersey City",
         "residence.city", "brooklyn", "jersey city"),
        ("I live in 上海.", "搬到 Singapore 了 last month", "residence.city", "上海", "singapore"),
        # a title held now
        ("I'm a line cook.", "got promoted!! I'm the head chef now",
         "work.role", "line cook", "head chef"),
        # a slip owned at the end of the turn, and a Latin name in a Chinese slot
        ("我是前端开发。", "其实是后端，不是前端，刚才打错了", "work.role", "前端开发", "后端"),
        ("我的狗叫 Lucky", "sorry 打错了，是 Lacky 不是 Lucky", "pets.name", "lucky", "lacky"),
        ("叫我 Tony 就行", "Actually call me 小唐 instead", "name.nickname", "tony", "小唐"),
    ],
)  # fmt: skip
async def test_a_change_freezes_what_it_replaces(
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
        ("回答请用繁体中文。", "以后改用简体吧", "繁体", "简体"),
        ("Please answer in English.", "以后用中文回答吧", "english", "中文"),
    ],
)
async def test_a_rule_said_from_now_on_replaces_the_rule_of_its_kind(
    tenant: TenantCtx, first: str, then: str, old: str, new: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    await tenant.say("u", "s1", then, at=T2)
    active = await tenant.values("u", "assistant.constraint", "active", lower=True)
    frozen = await tenant.values("u", "assistant.constraint", "frozen", lower=True)
    assert len(active) == 1 and new in active[0]
    assert len(frozen) == 1 and old in frozen[0]


async def test_no_longer_at_an_employer_is_no_rule_for_the_assistant(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I work for Deloitte as an auditor.", at=T1)
    await tenant.say("u", "s1", "no longer at Deloitte — I'm with KPMG now", at=T2)
    assert await tenant.values("u", "work.employer", "active") == ["KPMG"]
    assert await tenant.values("u", "work.employer", "frozen") == ["Deloitte"]
    assert await tenant.values("u", "assistant.constraint", "active") == []


async def test_a_diet_given_up_leaves_no_avoidance_behind(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I eat keto.", at=T1)
    await tenant.say(
        "u", "s1", "gave up keto, it wasn't sustainable. just eating normally now", at=T2
    )
    assert await tenant.values("u", "diet.style", "frozen", lower=True) == ["keto"]
    assert await tenant.memories("u", key="diet.avoid", status="active") == []


@pytest.mark.parametrize(
    ("first", "then", "kinds", "names"),
    [
        ("I have a cat named Miso.", "We just got a puppy too! His name is Taco.",
         ["cat", "puppy"], ["miso", "taco"]),
        ("我养了一只猫叫团子。", "最近又领养了一只狗，叫豆豆", ["狗"], ["团子", "豆豆"]),
    ],
)  # fmt: skip
async def test_a_name_in_a_clause_of_its_own_is_the_new_pets(
    tenant: TenantCtx, first: str, then: str, kinds: list[str], names: list[str]
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    await tenant.say("u", "s1", then, at=T2)
    assert await tenant.values("u", "pets.name", "active", lower=True) == sorted(names)
    assert set(kinds) <= set(await tenant.values("u", "pets.kind", "active", lower=True))
    assert await tenant.values("u", "name.nickname", "active") == []


async def test_a_name_without_a_pet_in_the_turn_is_no_pets(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "My brother lives in Oslo. His name is Erik.", at=T1)
    assert await tenant.values("u", "pets.name", "active") == []


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("我住在成都。", "国庆不去云南了，改去海南"),
        ("我住在成都。", "我们项目决定迁到 GCP 了"),
    ],
)
async def test_a_trip_or_a_migration_is_no_move(tenant: TenantCtx, first: str, then: str) -> None:
    await tenant.say("u", "s1", first, at=T1)
    await tenant.say("u", "s1", then, at=T2)
    assert await tenant.values("u", "residence.city", "active") == ["成都"]
    assert await tenant.values("u", "residence.city", "frozen") == []


async def test_something_new_done_at_the_same_workplace_keeps_the_role(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I'm a nurse at St. Luke's.", at=T1)
    await tenant.say("u", "s1", "I just started doing night shifts in the ICU there.", at=T2)
    assert await tenant.values("u", "work.role", "active", lower=True) == ["nurse"]
    assert await tenant.values("u", "work.role", "frozen") == []
