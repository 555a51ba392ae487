"""What a turn does, read whole by the trained classifier (``app.ingest.extraction.acts``):
an ending the rules read as a statement withdraws what it ends, a change whose new value the
rules did not read still ends the old one, and a turn that says nothing to store forms
nothing. Sentences of ``bench/data/acts_heldout.jsonl`` the rule extractor got wrong; through
the HTTP API, in English, Chinese and both."""

from __future__ import annotations

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-01T09:01:00+08:00"


async def test_an_ending_said_after_the_fact_ends_it(tenant: TenantCtx) -> None:
    # the rules formed diet.style=vegan again from "I was vegan"
    active, frozen = await tenant.change(
        "u", ("I'm vegan", "well, I was vegan for a year, not anymore"), "diet.style", at=(T1, T2)
    )
    assert (active, frozen) == ([], ["vegan"])


async def test_a_change_whose_new_value_is_not_read_still_ends_the_old_one(
    tenant: TenantCtx,
) -> None:
    # the rules read no drink in "switch 到 matcha", and kept the latte
    active, frozen = await tenant.change(
        "u", ("我最爱喝 latte", "现在 switch 到 matcha 了，咖啡因太多睡不着"), "preference.drink",
        at=(T1, T2),
    )  # fmt: skip
    assert "latte" not in active
    assert frozen == ["latte"]


async def test_a_tool_moved_away_from_is_no_longer_preferred(tenant: TenantCtx) -> None:
    moved = "team moved everything to Go last quarter and honestly I prefer it now"
    active, frozen = await tenant.change(
        "u", ("I mostly code in Java", moved), "tech.preferred", at=(T1, T2)
    )
    assert "java" not in active
    assert frozen == ["java"]


async def test_what_a_change_does_not_touch_stays(tenant: TenantCtx) -> None:
    # the take-back covers the key of the change only: the city said before stays
    await tenant.say("u", "s1", "I live in Leeds and I drink a flat white every morning", at=T1)
    await tenant.say("u", "s1", "kinda burned out on flat whites, it's all matcha now", at=T2)
    assert await tenant.values("u", "residence.city") == ["Leeds"]


async def test_a_musing_about_someday_forms_nothing(tenant: TenantCtx) -> None:
    # the rules formed a plan "maybe trying rust someday"
    await tenant.say("u", "s1", "thinking about maybe trying Rust someday, who knows", at=T1)
    assert await tenant.facts("u") == []
