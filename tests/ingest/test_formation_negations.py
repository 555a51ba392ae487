"""Negations and withdrawals through the HTTP API: a withdrawal freezes the memory it names
however the value is placed ("可乐我早就戒了", "I don't swim anymore", "现在其实不讨厌香菜了"), an
avoidance ends when the user has the thing again ("I eat beef now"), a plan dropped by name or
as "那个计划" is withdrawn, a rule for the assistant lifted ("you don't need to … anymore")
replaces the rule — and a denial forms no junk fact ("我对花粉不过敏"), nor freezes what its own
turn states ("我不是上海人，只是在上海读书")."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1, T2, T3 = "2026-03-01T09:00:00+08:00", "2026-03-01T09:01:00+08:00", "2026-03-01T09:02:00+08:00"


@pytest.mark.parametrize(
    ("first", "withdrawal", "key", "old"),
    [
        # the object said first, before the user and the verb
        ("我每天都喝可乐", "可乐我早就戒了", "preference.drink", "可乐"),
        ("我平时用 Figma 做设计", "Figma 我已经不用了", "tech.preferred", "figma"),
        # an activity given up with no object: the verb is the thing
        ("I love swimming.", "I don't swim anymore, my shoulder is bad", "preference.likes",
         "swimming"),
        # the cue of a negative fact negated
        ("我讨厌香菜", "现在其实不讨厌香菜了", "preference.dislikes", "香菜"),
        # a routine named by its activity, without its time
        ("我每天晚上都去游泳", "我不游泳了，太累", "schedule.habit", "每天晚上游泳"),
        # a state gone, with an adverb and a contraction
        ("I have eczema.", "my eczema's completely gone now", "health.condition", "eczema"),
    ],
)  # fmt: skip
async def test_a_withdrawal_freezes_what_it_names(
    tenant: TenantCtx, first: str, withdrawal: str, key: str, old: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    assert old in await tenant.values("u", key, "active", lower=True)
    await tenant.say("u", "s1", withdrawal, at=T2)
    assert old not in await tenant.values("u", key, "active", lower=True)
    assert old in await tenant.values("u", key, "frozen", lower=True)


@pytest.mark.parametrize(
    ("first", "again", "old"),
    [
        ("I don't eat beef.", "I eat beef now, the doctor says it's fine", "beef"),
        ("我不吃羊肉", "现在羊肉也吃了", "羊肉"),
    ],
)
async def test_an_avoidance_ends_when_the_user_has_it_again(
    tenant: TenantCtx, first: str, again: str, old: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    assert await tenant.values("u", "diet.avoid", "active", lower=True) == [old]
    await tenant.say("u", "s1", again, at=T2)
    assert await tenant.values("u", "diet.avoid", "active", lower=True) == []
    assert await tenant.values("u", "diet.avoid", "frozen", lower=True) == [old]


async def test_having_a_thing_again_withdraws_no_liking(tenant: TenantCtx) -> None:
    # "I drink tea now" may end an avoidance of tea, never a liking of it
    await tenant.say("u", "s1", "I love tea.", at=T1)
    await tenant.say("u", "s1", "I drink tea now", at=T2)
    assert await tenant.values("u", "preference.likes", "active", lower=True) == ["tea"]


@pytest.mark.parametrize(
    ("rule", "lifted"),
    [
        ("Please always answer with a numbered list.",
         "You don't need to use numbered lists anymore"),
        ("Please 回答用 markdown 表格", "不需要表格了"),
    ],
)  # fmt: skip
async def test_a_rule_lifted_replaces_the_rule(tenant: TenantCtx, rule: str, lifted: str) -> None:
    await tenant.say("u", "s1", rule, at=T1)
    before = await tenant.memories("u", key="assistant.constraint", status="active")
    assert len(before) == 1
    await tenant.say("u", "s1", lifted, at=T2)
    frozen = await tenant.memories("u", key="assistant.constraint", status="frozen")
    assert [m["id"] for m in frozen] == [before[0]["id"]]
    # and it is no tool the user gave up
    assert await tenant.memories("u", key="tech.preferred") == []


async def test_a_hedged_habit_is_no_rule(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I use Emacs for everything.", at=T1)
    await tenant.say("u", "s1", "don't really use emacs anymore tbh", at=T2)
    assert await tenant.memories("u", key="assistant.constraint") == []
    assert await tenant.values("u", "tech.preferred", "frozen", lower=True) == ["emacs"]


async def test_a_denial_forms_no_junk_and_keeps_what_its_turn_states(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我对花粉不过敏，放心", at=T1)
    assert await tenant.memories("u", key="health.allergy") == []
    await tenant.say("v", "s1", "我不是上海人，只是在上海读书", at=T1)
    assert await tenant.memories("v", key="hometown", status="active") == []
    assert await tenant.memories("v", status="frozen") == []


async def test_a_dog_that_is_someone_elses_is_withdrawn(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我养了一只猫", at=T1)
    await tenant.say("u", "s1", "其实我没养猫，那是我表姐的", at=T2)
    assert await tenant.values("u", "pets.kind", "active") == []
    assert await tenant.values("u", "pets.kind", "frozen") == ["猫"]


async def test_a_pet_given_away_keeps_the_other(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我有一只猫叫年糕，还有一只狗叫豆豆", at=T1)
    await tenant.say("u", "s1", "豆豆上周送人了", at=T2)
    await tenant.say("u", "s1", "好的", at=T3)
    assert await tenant.values("u", "pets.name", "active") == ["年糕"]
    assert await tenant.values("u", "pets.name", "frozen") == ["豆豆"]


@pytest.mark.parametrize(
    ("said", "key", "value"),
    [
        ("榴莲我是真的吃不了", "diet.avoid", "榴莲"),
        ("综艺我一般不看，太吵了", "preference.dislikes", "综艺"),
    ],
)
async def test_a_thing_said_first_then_refused_is_a_standing_refusal(
    tenant: TenantCtx, said: str, key: str, value: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", key, "active") == [value]


async def test_a_meal_refused_is_no_food(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "晚饭我不吃，减肥", at=T1)
    assert await tenant.values("u", "diet.avoid", "active") == []


@pytest.mark.parametrize(
    ("first", "withdrawal", "key", "old"),
    [
        ("I'm allergic to wasps", "not allergic to wasps after all lol", "health.allergy", "wasps"),
        ("I avoid gluten.", "Gluten's fine again, I eat bread now", "diet.avoid", "gluten"),
        ("我不吃甜", "现在甜的也吃了", "diet.avoid", "甜"),
        ("我有鼻炎", "鼻炎已经好了", "health.condition", "鼻炎"),
    ],
)  # fmt: skip
async def test_a_withdrawal_without_its_subject_or_with_a_contraction(
    tenant: TenantCtx, first: str, withdrawal: str, key: str, old: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    assert await tenant.values("u", key, "active", lower=True) == [old]
    await tenant.say("u", "s1", withdrawal, at=T2)
    assert await tenant.values("u", key, "active", lower=True) == []
    assert await tenant.values("u", key, "frozen", lower=True) == [old]


async def test_a_modal_is_no_allergen(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "芒果我一般不碰，会过敏", at=T1)
    assert await tenant.values("u", "health.allergy", "active") == []
    assert await tenant.values("u", "diet.avoid", "active") == ["芒果"]


async def test_a_negated_liking_is_a_dislike(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I'm not big on musicals", at=T1)
    assert await tenant.values("u", "preference.dislikes", "active", lower=True) == ["musicals"]
