"""Rule extractor, English pattern families."""

from __future__ import annotations

import asyncio
from datetime import datetime

from app.ingest.extraction.base import ExtractedFact, Turn
from app.ingest.extraction.rules import RuleExtractor, third_person

AT = datetime.fromisoformat("2026-05-10T09:00:00+00:00")  # a Sunday


def extract(text: str, *, has_task: bool = False) -> list[ExtractedFact]:
    return asyncio.run(RuleExtractor().extract([Turn("m1", "user", text, AT)], has_task=has_task))


def one(text: str, key: str, *, has_task: bool = False) -> ExtractedFact:
    facts = [f for f in extract(text, has_task=has_task) if f.key == key]
    assert len(facts) == 1, (text, facts)
    return facts[0]


def test_extractor_name_and_many_turns() -> None:
    extractor = RuleExtractor()
    assert extractor.name == "rules"
    turns = [
        Turn("a", "user", "My name is Sam.", AT),
        Turn("b", "assistant", "I live in Paris.", AT),
        Turn("c", "user", "I live in Shenzhen.", AT),
    ]
    facts = asyncio.run(extractor.extract(turns))
    assert [(f.key, f.message_ids) for f in facts] == [
        ("name.full", ["a"]),
        ("residence.city", ["c"]),
    ]


def test_name_and_nickname() -> None:
    assert one("my name is Sam", "name.full").value == "Sam"
    assert one("call me Sammy", "name.nickname").value == "Sammy"


def test_residence_and_hometown() -> None:
    facts = extract("I live in Shenzhen and I work as a nurse.")
    assert [(f.key, f.value) for f in facts] == [
        ("residence.city", "Shenzhen"),
        ("work.role", "nurse"),
    ]
    assert facts[0].content == "lives in Shenzhen"
    assert facts[1].content == "works as a nurse"
    assert one("I'm from Texas", "hometown").value == "Texas"


def test_move_last_month() -> None:
    fact = one("I moved to Shanghai last month.", "residence.city")
    assert fact.value == "Shanghai" and fact.is_correction
    assert fact.valid_from == datetime.fromisoformat("2026-04-01T00:00:00+00:00")
    assert "Shanghai" in fact.content and "live in Shenzhen" not in fact.content


def test_employer_role_and_job_changes() -> None:
    assert one("I work at Acme", "work.employer").value == "Acme"
    facts = extract("I joined Globex as a designer")
    assert [(f.key, f.value, f.is_correction) for f in facts] == [
        ("work.employer", "Globex", True),
        ("work.role", "designer", True),
    ]
    quit_only = one("I quit Acme", "work.employer")
    assert quit_only.value is None and quit_only.retracts == ["acme"]
    moved_on = one("I quit Acme. Now I work at Globex.", "work.employer")
    assert moved_on.value == "Globex" and moved_on.retracts == ["acme"]
    role = one("I'm a software engineer at Google", "work.role")
    assert role.value == "software engineer"


def test_corrections() -> None:
    fact = one("I'm not a programmer but a designer", "work.role")
    assert (fact.value, fact.retracts, fact.is_correction) == ("designer", ["programmer"], True)
    fact = one("I don't live in Shenzhen anymore, I live in Beijing now", "residence.city")
    assert fact.value == "Beijing" and fact.retracts == ["shenzhen"]
    fact = one("I no longer live in Shenzhen", "residence.city")
    assert fact.value is None and fact.retracts == ["shenzhen"]


def test_likes_are_multi_valued_and_lower_cased() -> None:
    facts = extract("I love spicy food, the hotter the better.")
    assert len(facts) == 1
    assert (facts[0].key, facts[0].value) == ("preference.likes", "spicy food")
    assert one("I hate Cilantro", "preference.dislikes").value == "cilantro"


def test_actually_cannot_eat_is_a_diet_correction() -> None:
    facts = extract("Actually I can't eat spicy food anymore, my doctor told me to stop.")
    assert len(facts) == 1
    fact = facts[0]
    assert (fact.key, fact.value, fact.is_correction) == ("diet.avoid", "spicy food", True)
    assert "spicy" in fact.content
    assert "love spicy" not in fact.content and "hotter the better" not in fact.content


def test_drinks() -> None:
    fact = one("I switched to tea", "preference.drink")
    assert fact.value == "tea" and fact.is_correction
    fact = one("I've switched from coffee to tea", "preference.drink")
    assert fact.retracts == ["coffee"] and "coffee" not in fact.content
    assert one("I drink coffee every morning", "preference.drink").value == "coffee"


def test_constraints() -> None:
    fact = one("Please always answer me in bullet points.", "assistant.constraint")
    assert fact.type == "constraint" and "bullet points" in fact.content
    assert "bullet points" in one("always answer in bullet points", "assistant.constraint").content
    assert one("don't mention my ex", "assistant.constraint").content == "don't mention my ex"
    turn = "I moved to Shanghai last month. Please don't recommend Cantonese restaurants anymore."
    facts = extract(turn)
    assert [f.key for f in facts] == ["residence.city", "assistant.constraint"]
    assert "Cantonese" in facts[1].content and not facts[1].is_correction


def test_contacts() -> None:
    assert one("my email is sam@example.org", "contact.email").value == "sam@example.org"
    assert one("my phone number is +1 415-555-0100", "contact.phone").value == "+1 415-555-0100"


def test_birthday_and_age() -> None:
    fact = one("my birthday is May 5", "birthday")
    assert (fact.value, fact.content) == ("05-05", "birthday is May 5")
    assert one("I'm 30 years old", "age").value == "30"


def test_pets_and_family() -> None:
    fact = one("I have a dog named Rex", "pets.name")
    assert fact.value == "Rex" and "Rex" in fact.content
    fact = one("my daughter's name is Emma", "family.member")
    assert fact.value == "emma" and fact.metadata["relation"] == "daughter"


def test_budget() -> None:
    fact = one("budget is $5,000", "project.budget")
    assert fact.value == "$5,000" and "$5,000" in fact.content


def test_health() -> None:
    facts = extract("I'm allergic to peanuts and shellfish")
    assert [f.value for f in facts] == ["peanuts", "shellfish"]
    assert all(f.key == "health.allergy" for f in facts)


def test_event_next_friday() -> None:
    fact = one("I'm flying to Tokyo next Friday", "event")
    assert fact.type == "event"
    assert fact.valid_from == datetime.fromisoformat("2026-05-15T00:00:00+00:00")
    assert "Tokyo" in fact.content and "next Friday" not in fact.content


def test_tools_languages_and_habits() -> None:
    assert one("I prefer Python over Java", "tech.preferred").value == "python"
    facts = extract("I speak English and Spanish")
    assert [f.value for f in facts] == ["english", "spanish"]
    assert one("I usually go running in the morning", "schedule.habit").type == "preference"


def test_task_decision() -> None:
    fact = one("We decided to use Postgres for the queue", "task.decision", has_task=True)
    assert fact.scope == "task" and "Postgres" in fact.content


def test_small_talk_and_questions_yield_nothing() -> None:
    texts = [
        "hi",
        "thanks!",
        "What's my name?",
        "Where do I live?",
        "Message 7: let's keep chatting about the weekend plans and the weather.",
    ]
    for text in texts:
        assert extract(text) == [], text


def test_third_person() -> None:
    assert third_person("I live in Shenzhen") == "lives in Shenzhen"
    assert third_person("I'm allergic to nuts") == "is allergic to nuts"
    assert third_person("I don't eat pork") == "doesn't eat pork"
    assert third_person("I usually go to bed early") == "usually goes to bed early"


def test_chatty_sentences_are_not_rules_or_facts() -> None:
    texts = [
        "Don't give up on your dreams!",
        "Never had a chance to visit it.",
        "Don't worry about it.",
        "I don't have big plans anyway.",
        "So I joined in.",
        "I just left for our European vacation.",
        "I love how art lets us get our emotions out.",
    ]
    for text in texts:
        assert extract(text) == [], text
