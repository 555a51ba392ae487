"""The polarity a user states holds: an add-on that says its own predicate ("还有我喜欢喝豆浆",
"and I also love swimming") forms a liking even after a negated turn, a double negation
("我不是不吃鸡蛋") forms no avoidance, a change of mind ("以后回答详细一点", "his name is
Tigger") takes the place of the old memory, and a withdrawal or an ended avoidance leaves no
empty fact behind — through the HTTP API, in Chinese and English."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-01T09:01:00+08:00"
LIKES, DISLIKES, AVOID = "preference.likes", "preference.dislikes", "diet.avoid"


async def _active(tenant: TenantCtx) -> list[tuple[str | None, str | None, str]]:
    listed = await tenant.memories("u", status="active")
    return [(m["key"], m["value"], m["content"]) for m in listed]


@pytest.mark.parametrize(
    ("first", "addon", "liked"),
    [
        ("我不喝牛奶。", "还有我喜欢喝豆浆。", "豆浆"),
        ("我不喜欢踢足球。", "还有我也喜欢游泳。", "游泳"),
        ("我不吃香菜", "另外我挺爱吃芒果的", "芒果"),
        ("I don't drink milk.", "Also, I love soy milk.", "soy milk"),
        ("I hate running.", "And I really like swimming.", "swimming"),
    ],
)  # fmt: skip
async def test_an_addon_with_its_own_predicate_keeps_its_polarity(
    tenant: TenantCtx, first: str, addon: str, liked: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    await tenant.say("u", "s1", addon, at=T2)
    active = await _active(tenant)
    assert liked.lower() not in await tenant.values("u", AVOID, lower=True), active
    assert liked.lower() not in await tenant.values("u", DISLIKES, lower=True), active
    assert any(liked.lower() in (v or c).lower() for k, v, c in active if k == LIKES), active


@pytest.mark.parametrize(
    ("first", "addon", "avoided"),
    [
        ("我不吃猪肉。", "还有牛肉。", "牛肉"),
        ("I don't eat pork.", "no beef either", "beef"),
    ],
)  # fmt: skip
async def test_a_bare_addon_still_inherits_the_avoidance(
    tenant: TenantCtx, first: str, addon: str, avoided: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    await tenant.say("u", "s1", addon, at=T2)
    assert avoided in await tenant.values("u", AVOID, lower=True), await _active(tenant)


@pytest.mark.parametrize(
    ("first", "second", "eaten", "avoided"),
    [
        ("我是素食者。", "我不是不吃鸡蛋，只是不吃肉。", "鸡蛋", "肉"),
        ("我吃素", "我并不是不吃海鲜，只是不吃牛肉", "海鲜", None),
        ("I'm vegetarian.", "It's not that I don't eat eggs, I just don't eat meat.",
         "eggs", "meat"),
    ],
)  # fmt: skip
async def test_a_double_negation_is_no_avoidance(
    tenant: TenantCtx, first: str, second: str, eaten: str, avoided: str | None
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    await tenant.say("u", "s1", second, at=T2)
    avoids = await tenant.values("u", AVOID, lower=True)
    assert eaten not in avoids, await _active(tenant)
    if avoided:
        assert avoided in avoids, await _active(tenant)


@pytest.mark.parametrize(
    ("first", "second", "old", "new"),
    [
        ("回答尽量简短。", "以后回答详细一点，不要太短。", "简短", "详细"),
        ("Keep your answers short.", "Actually I changed my mind, give me detailed answers.",
         "short", "detailed"),
        ("回复简洁一些就好", "回复可以写得详细些", "简洁", "详细"),
        ("Keep it brief please.", "Please write detailed replies.", "brief", "detailed"),
    ],
)  # fmt: skip
async def test_a_changed_answer_rule_replaces_the_old_one(
    tenant: TenantCtx, first: str, second: str, old: str, new: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    await tenant.say("u", "s1", second, at=T2)
    active = await _active(tenant)
    rules = [c.lower() for k, v, c in active if k == "assistant.constraint"]
    assert any(new in r for r in rules), active
    assert not any(old in r for r in rules), active


@pytest.mark.parametrize(
    ("first", "second", "old", "new"),
    [
        ("My cat is called Tiger.", "Oops, typo, his name is Tigger.", "tiger", "tigger"),
        ("My dog is called Bella.", "Sorry, typo: her name is Stella.", "bella", "stella"),
    ],
)  # fmt: skip
async def test_a_corrected_name_replaces_the_old_one(
    tenant: TenantCtx, first: str, second: str, old: str, new: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    await tenant.say("u", "s1", second, at=T2)
    active = await _active(tenant)
    values = [(v or "").lower() for k, v, c in active]
    assert new in values and old not in values, active


@pytest.mark.parametrize(
    ("first", "second", "old"),
    [
        ("我吃素。", "最近开始吃肉了，不再吃素了。", "素"),
        ("我是吃素的", "现在不再吃素了，偶尔吃点鱼", "素"),
        ("I'm vegetarian.", "I'm not vegetarian anymore, I eat chicken now.", "vegetarian"),
    ],
)  # fmt: skip
async def test_a_diet_given_up_is_withdrawn(
    tenant: TenantCtx, first: str, second: str, old: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    await tenant.say("u", "s1", second, at=T2)
    active = await _active(tenant)
    assert not any(old in (v or "") for k, v, _ in active if k and k.startswith("diet.")), active
    assert any(old in v for v in await tenant.values("u", "diet.style", "frozen", lower=True))


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("回答尽量简短。", "回答用中文。"),
        ("Keep your answers short.", "Use bullet points in your answers."),
    ],
)  # fmt: skip
async def test_a_rule_on_something_else_leaves_the_length_rule(
    tenant: TenantCtx, first: str, second: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    await tenant.say("u", "s1", second, at=T2)
    rules = await tenant.values("u", "assistant.constraint")
    assert len(rules) == 2, await _active(tenant)


@pytest.mark.parametrize(
    ("first", "second", "thing"),
    [
        ("I love sushi.", "Forget what I said about sushi.", "sushi"),
        ("我不能吃辣", "现在能吃辣了", "辣"),
        ("I'm into jazz.", "Please forget what I said about jazz.", "jazz"),
    ],
)  # fmt: skip
async def test_a_withdrawal_leaves_no_empty_fact(
    tenant: TenantCtx, first: str, second: str, thing: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    await tenant.say("u", "s1", second, at=T2)
    active = await _active(tenant)
    kept = [(k, v) for k, v, _ in active if k and k.startswith(("diet.", "preference."))]
    assert not any(v is None or thing in v.lower() for _, v in kept), active
