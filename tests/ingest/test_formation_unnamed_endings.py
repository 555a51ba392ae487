"""Withdrawals that name what they take back in other words than the first turn — by a pronoun
or by nothing ("I don't use it anymore", "不跑了"), by the verb alone ("I no longer play"), by
giving the thing away ("猫送人了"), by "that's no longer true" — freeze what they name and only
that; a denial followed by "only X" states X, not a rule for the assistant. Through the HTTP
API, in Chinese and English."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-01T09:01:00+08:00"


async def test_an_ending_by_its_verb_leaves_what_it_does_not_name(tenant: TenantCtx) -> None:
    # "不跑了" ends the running, not the city said in the same turn
    await tenant.say("u", "s1", "我住在成都，每天早上跑步", at=T1)
    await tenant.say("u", "s1", "最近膝盖疼，不跑了", at=T2)
    assert await tenant.values("u", "schedule.habit", "active") == []
    assert await tenant.values("u", "residence.city", "active") == ["成都"]


async def test_a_switch_after_an_unnamed_ending_replaces_the_tool(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我用 VS Code 写代码", at=T1)
    await tenant.say("u", "s1", "现在不用了，换了 Cursor", at=T2)
    assert await tenant.values("u", "tech.preferred", "active", lower=True) == ["cursor"]
    assert await tenant.values("u", "tech.preferred", "frozen", lower=True) == ["vs code"]


async def test_an_unnamed_ending_with_nothing_before_it_ends_nothing(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I don't use it anymore", at=T1)
    assert await tenant.memories("u", status="active") == []


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("I don't speak French, only English", "english"),
        ("I don't speak Spanish, only Portuguese", "portuguese"),
    ],
)
async def test_only_after_a_denied_verb_is_the_users_not_a_rule(
    tenant: TenantCtx, text: str, language: str
) -> None:
    await tenant.say("u", "s1", text, at=T1)
    assert await tenant.values("u", "language.preferred", "active", lower=True) == [language]
    assert await tenant.values("u", "assistant.constraint", "active") == []


async def test_not_from_one_place_but_from_another(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I'm not from Boston but from Chicago", at=T1)
    assert await tenant.values("u", "hometown", "active") == ["Chicago"]


async def test_a_thing_given_up_completely_is_named_without_the_adverb(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u", "s1", "I drink a lot of Coke", at=T1)
    await tenant.say("u", "s1", "cut out Coke completely", at=T2)
    assert await tenant.values("u", "preference.drink", "active") == []
    assert await tenant.values("u", "preference.drink", "frozen", lower=True) == ["coke"]
    assert await tenant.values("u", "diet.avoid", "active", lower=True) == ["coke"]


async def test_what_the_user_has_not_is_no_rule_for_the_assistant(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "no pets here, never had one tbh", at=T1)
    assert await tenant.values("u", "assistant.constraint", "active") == []
    assert await tenant.values("u", "pets.kind", "active") == []


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("It's not that I don't like dogs, I'm just allergic to them", "health.allergy", "dogs"),
        ("Please don't suggest anything with nuts in it. Not allergic, I just really can't eat"
         " them.", "diet.avoid", "nuts"),
    ],
)  # fmt: skip
async def test_a_pronoun_names_the_thing_said_before_it(
    tenant: TenantCtx, text: str, key: str, value: str
) -> None:
    await tenant.say("u", "s1", text, at=T1)
    assert await tenant.values("u", key, "active", lower=True) == [value]
    assert await tenant.values("u", "preference.dislikes", "active") == []


async def test_a_pronoun_with_nothing_before_it_is_no_value(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I'm allergic to them", at=T1)
    assert await tenant.values("u", "health.allergy", "active") == []
