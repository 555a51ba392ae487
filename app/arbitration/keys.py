"""The key catalogue: canonical attributes, their cardinality and conflict policy.

Single-valued keys hold one active value per user and scope (a new value conflicts with the
old); multi-valued keys accumulate values (a new value is no conflict). ``policy="range"``
keys are numeric: conflicting values widen into a range instead of replacing each other.
``opposes`` names keys whose equal value contradicts this one (liking X vs. avoiding X).
The catalogue is documented in docs/keys.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Cardinality = Literal["single", "multi"]
Policy = Literal["replace", "range"]


@dataclass(frozen=True, slots=True)
class KeySpec:
    name: str
    cardinality: Cardinality
    type: str  # default memory type of facts under this key
    policy: Policy = "replace"
    opposes: tuple[str, ...] = field(default_factory=tuple)
    description: str = ""


def _spec(
    name: str,
    cardinality: Cardinality,
    type_: str,
    description: str,
    *,
    policy: Policy = "replace",
    opposes: tuple[str, ...] = (),
) -> tuple[str, KeySpec]:
    return name, KeySpec(name, cardinality, type_, policy, opposes, description)


CATALOGUE: dict[str, KeySpec] = dict(
    [
        # identity
        _spec("name.full", "single", "profile", "the user's name"),
        _spec("name.nickname", "single", "profile", "what the user wants to be called"),
        _spec("name.family", "single", "profile", "the user's family name (surname, 姓)"),
        _spec(
            "name.alias",
            "multi",
            "profile",
            "the user's name in another language or script (中文名, English name)",
        ),
        _spec("identity.gender", "single", "profile", "gender as the user states it"),
        _spec("identity.document", "multi", "profile", "government ID / passport (secret)"),
        _spec("finance.card", "multi", "profile", "bank or credit card number (secret)"),
        _spec("account.password", "multi", "profile", "a password the user shared (secret)"),
        _spec("birthday", "single", "profile", "birthday as MM-DD or YYYY-MM-DD"),
        _spec("age", "single", "profile", "age in years"),
        _spec("hometown", "single", "profile", "where the user is from"),
        _spec("residence.city", "single", "profile", "where the user lives now"),
        # work and study
        _spec("work.employer", "single", "profile", "current employer"),
        _spec("work.role", "single", "profile", "current job title or occupation"),
        _spec("work.location", "single", "profile", "city the user works in"),
        _spec("education.school", "multi", "profile", "schools attended"),
        # tastes
        # a drink the user has is a liking: what they dislike or avoid contradicts it
        _spec(
            "preference.drink",
            "single",
            "preference",
            "the drink the user usually has",
            opposes=("preference.dislikes", "diet.avoid"),
        ),
        _spec(
            "preference.likes",
            "multi",
            "preference",
            "things the user likes",
            opposes=("preference.dislikes", "diet.avoid"),
        ),
        _spec(
            "preference.dislikes",
            "multi",
            "preference",
            "things the user dislikes",
            opposes=("preference.likes", "preference.drink"),
        ),
        _spec(
            "diet.avoid",
            "multi",
            "preference",
            "food or drink the user does not or cannot have",
            opposes=("preference.likes", "preference.drink"),
        ),
        _spec("diet.style", "single", "preference", "vegetarian, vegan, halal, ..."),
        _spec("language.preferred", "multi", "preference", "languages the user speaks/prefers"),
        _spec("tech.preferred", "multi", "preference", "preferred languages, tools, stacks"),
        _spec("schedule.habit", "multi", "preference", "recurring routines"),
        # health, family, pets, contacts
        # an allergy binds every recommendation: a standing constraint, never decayed
        _spec("health.allergy", "multi", "constraint", "allergens"),
        _spec("health.condition", "multi", "profile", "chronic conditions"),
        _spec("pets.name", "multi", "profile", "names of the user's pets"),
        _spec("pets.kind", "multi", "profile", "kinds of pets the user has"),
        _spec("family.member", "multi", "profile", "family members (name, or relation)"),
        _spec("contact.email", "multi", "profile", "email addresses (personal)"),
        _spec("contact.phone", "multi", "profile", "phone numbers (personal)"),
        # work in hand, plans, behaviour rules
        _spec("project.budget", "single", "fact", "budget of the project", policy="range"),
        _spec("task.decision", "multi", "fact", "decisions taken for the task"),
        _spec("plan", "multi", "event", "intentions, with a date when given"),
        _spec("event", "multi", "event", "dated happenings and appointments"),
        _spec("assistant.constraint", "multi", "constraint", "rules for the assistant"),
    ]
)


def key_spec(key: str | None) -> KeySpec | None:
    """The catalogue entry of ``key``; ``None`` for an unknown or missing key.

    Unknown keys are treated as multi-valued by arbitration (they never supersede).
    """
    if key is None:
        return None
    return CATALOGUE.get(key)
