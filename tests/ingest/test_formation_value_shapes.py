"""Values that have the shape of their key, and changes said without their subject. Through
the HTTP API, in Chinese and English (docs/formation.md, "Values shaped like their key")."""

from __future__ import annotations

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-01T09:01:00+08:00"


async def test_a_change_said_without_its_subject_is_the_users(tenant: TenantCtx) -> None:
    await tenant.say("u1", "s1", "I'm a line cook at a bistro downtown", at=T1)
    await tenant.say(
        "u1", "s1", "quit the kitchen life!! just started at Blue Bottle as a barista", at=T2
    )
    assert await tenant.values("u1", "work.employer") == ["Blue Bottle"]
    assert await tenant.values("u1", "work.role", lower=True) == ["barista"]
    # the role first, and the day it began left out of the employer
    await tenant.say("u2", "s1", "I started as an intern at Stripe on monday", at=T1)
    assert await tenant.facts("u2") == [("work.employer", "Stripe"), ("work.role", "intern")]


async def test_a_number_holds_digits_of_its_own(tenant: TenantCtx) -> None:
    await tenant.say("u1", "s1", "my passport number is K48291735", at=T1)
    await tenant.say(
        "u1", "s1", "ugh, the old passport expired in march, the new number is K55306418", at=T2
    )
    # neither "expired" as a document nor the new number's digits as a phone
    assert await tenant.values("u1", "contact.phone") == []
    assert "expired" not in await tenant.values("u1", "identity.document", lower=True)


async def test_a_piece_of_a_clause_is_no_thing_or_name(tenant: TenantCtx) -> None:
    await tenant.say("u1", "s1", "我不喝酒，一滴都不碰", at=T1)
    assert await tenant.values("u1", "diet.avoid") == ["酒"]
    await tenant.say("u2", "s1", "我超爱喝奶茶，一天不喝就浑身难受", at=T1)
    assert await tenant.values("u2", "diet.avoid") == []
    await tenant.say("u3", "s1", "还是叫我远远吧，小陈听着跟被领导喊似的", at=T1)
    assert await tenant.values("u3", "name.nickname") == ["远远"]


async def test_a_hedge_is_no_part_of_the_value(tenant: TenantCtx) -> None:
    await tenant.say("u1", "s1", "I'm allergic to penicillin I think", at=T1)
    assert await tenant.values("u1", "health.allergy", lower=True) == ["penicillin"]


async def test_a_language_named_in_either_script_is_one_value(tenant: TenantCtx) -> None:
    await tenant.say("u1", "s1", "I speak English", at=T1)
    await tenant.say("u1", "s1", "我会说英语", at=T2)
    assert await tenant.values("u1", "language.preferred", lower=True) == ["english"]
