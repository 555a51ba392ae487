"""Single statements of health, plans, diet and work said the way people write to a chat
assistant — lower case, no subject, the fact before a question, the thing as the subject — form
the user's fact, and look-alikes form none; through the HTTP API."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1 = "2026-03-01T09:00:00+08:00"


async def _contents(tenant: TenantCtx, user_id: str) -> list[str]:
    """The contents of the user's active memories that have no key."""
    return [
        m["content"] for m in await tenant.memories(user_id, status="active") if m["key"] is None
    ]


# --- a medicine the user takes ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "medicine"),
    [
        ("my doctor put me on metformin last month", "metformin"),
        ("I'm on antidepressants, so no alcohol suggestions please", "antidepressants"),
        ("my doctor prescribed me sertraline in March", "sertraline"),
    ],
)
async def test_a_medicine_taken_is_kept(tenant: TenantCtx, said: str, medicine: str) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert any(medicine in c for c in await _contents(tenant, "u"))


# --- a condition said without "I have" ------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "condition"),
    [
        ("I've had insomnia for years, nothing really helps", "insomnia"),
        ("asthmatic since childhood, inhaler always in my bag", "asthmatic"),
        ("tore my ACL skiing in february so no running for a while", "torn acl"),
        ("I have 高血压, doctor says cut down on salt", "高血压"),
        ("I'm recovering from knee surgery", "knee surgery"),
    ],
)
async def test_a_condition_said_in_passing_is_kept(
    tenant: TenantCtx, said: str, condition: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert condition in await tenant.values("u", "health.condition", lower=True)


async def test_an_adjective_before_a_noun_is_no_condition_of_its_own(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "chronic back pain for years, desk job", at=T1)
    assert "chronic" not in await tenant.values("u", "health.condition", lower=True)


# --- an allergen as the subject of what the body does ----------------------------------------


@pytest.mark.parametrize(
    ("said", "allergen"),
    [
        ("shellfish gives me hives so i stay away from it", "shellfish"),
        ("bee stings make me swell up like crazy, i carry an epipen", "bee stings"),
    ],
)
async def test_what_gives_the_user_a_reaction_is_an_allergy(
    tenant: TenantCtx, said: str, allergen: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "health.allergy", lower=True) == [allergen]


# --- food avoided, said with the food first or as a refusal ----------------------------------


@pytest.mark.parametrize(
    ("said", "food"),
    [
        ("no red meat for me, just fish and chicken", "red meat"),
        ("dairy and me don't get along, so oat milk for everything", "dairy"),
        ("trying to cut sugar completely, doctor's orders", "sugar"),
        ("onions don't agree with me at all", "onions"),
        ("dairy makes me bloated", "dairy"),
    ],
)
async def test_food_refused_or_disagreeing_is_avoided(
    tenant: TenantCtx, said: str, food: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert food in await tenant.values("u", "diet.avoid", lower=True)


# --- what is coming up -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "plan"),
    [
        ("I'm running a half marathon in October", "half marathon"),
        ("Moving to Austin at the end of the month", "austin"),
        ("we're heading to Bali for our honeymoon in september", "bali"),
    ],
)
async def test_the_progressive_with_a_time_ahead_is_a_plan(
    tenant: TenantCtx, said: str, plan: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert any(plan in v for v in await tenant.values("u", "plan", lower=True))


async def test_what_the_user_has_been_doing_is_no_plan(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "been learning to knit this winter, it's relaxing", at=T1)
    assert await tenant.values("u", "plan") == []


async def test_an_appointment_beside_a_feeling_is_one_event(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "job interview at Stripe on thursday, super nervous", at=T1)
    assert len(await tenant.values("u", "event")) == 1
    assert await tenant.values("u", "plan") == []


# --- a firm named in lower case --------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "employer", "role"),
    [
        (
            "quick q about excel — i'm an accountant at deloitte and my pivot tables keep breaking",
            "deloitte",
            "accountant",
        ),
        ("i'm a barista at starbucks, part time while i finish school", "starbucks", "barista"),
    ],
)
async def test_a_firm_in_a_lower_case_turn_is_the_employer(
    tenant: TenantCtx, said: str, employer: str, role: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "work.employer") == [employer]
    assert await tenant.values("u", "work.role") == [role]


@pytest.mark.parametrize(
    "said",
    [
        "im a nurse at night mostly",
        "I'm a teacher at heart, really",
        "I'm a nurse at home",
        "i work for the state as a social worker",
    ],
)
async def test_a_time_or_a_spot_after_at_is_no_employer(tenant: TenantCtx, said: str) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "work.employer") == []


async def test_im_read_as_a_pronoun_does_not_stop_a_lower_case_firm(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "im a software dev at shopify", at=T1)
    assert await tenant.values("u", "work.employer") == ["shopify"]


# --- a clause whose structure says what it is, however unsure the classifier -----------------


@pytest.mark.parametrize(
    ("said", "key", "value"),
    [
        ("I teach 3rd grade at a public school in Queens", "work.role", "3rd grade teacher"),
        ("just got promoted to senior PM!! 🎉", "work.role", "senior pm"),
        ("peanuts make my throat close up", "health.allergy", "peanuts"),
    ],
)
async def test_a_structure_that_names_the_fact_is_read(
    tenant: TenantCtx, said: str, key: str, value: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert value in await tenant.values("u", key, lower=True)


async def test_a_trip_said_in_the_progressive_is_a_plan(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "we're flying to Tokyo in March", at=T1)
    assert any("tokyo" in v for v in await tenant.values("u", "plan", lower=True))


# --- a day in the calendar is an event -------------------------------------------------------


async def test_an_interview_on_a_day_is_an_event_not_a_plan(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "下周三 I have a job interview with Google", at=T1)
    assert await tenant.values("u", "plan") == []
    assert any("interview" in v for v in await tenant.values("u", "event", lower=True))


async def test_a_wish_on_a_day_stays_a_plan(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I want to move to Berlin next Friday", at=T1)
    assert any("berlin" in v for v in await tenant.values("u", "plan", lower=True))


# --- a body fact in one compound word, a condition with its type ------------------------------


@pytest.mark.parametrize(
    ("said", "word"), [("I'm left-handed", "left-handed"), ("I'm half-Japanese", "half-Japanese")]
)
async def test_a_compound_adjective_of_the_user_is_kept(
    tenant: TenantCtx, said: str, word: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert any(word in c for c in await _contents(tenant, "u"))


async def test_a_condition_keeps_its_type(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I'm type 1 diabetic, so carbs matter", at=T1)
    assert await tenant.values("u", "health.condition") == ["type 1 diabetic"]


# --- a relative's occasion on a day ----------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "occasion"),
    [
        ("my sister's baby shower is this saturday and i'm hosting", "baby shower"),
        ("我姐的婚礼是8月9号", "婚礼"),
    ],
)
async def test_a_relatives_occasion_on_a_day_is_an_event(
    tenant: TenantCtx, said: str, occasion: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert any(occasion in v for v in await tenant.values("u", "event", lower=True))


@pytest.mark.parametrize("said", ["my mom's birthday is may 3", "我妈的生日是5月3号"])
async def test_a_relatives_birthday_is_no_event(tenant: TenantCtx, said: str) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "event") == []
