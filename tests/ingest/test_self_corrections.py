"""A user who corrects a slip of their own ("sorry, autocorrect — it's Leo, not Liam", "打错了，
是小虹", "oops, I meant UCSD") gets the corrected memory under the same key and the misstated one
frozen — through the HTTP API, in Chinese and English; what is not a slip of theirs changes
nothing."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-01T09:01:00+08:00"


async def _values(t: TenantCtx, user: str, key: str, status: str) -> list[str]:
    r = await t.client.get(
        f"{t.user(user)}/memories", params={"key": key, "status": status}, headers=t.headers
    )
    assert r.status_code == 200, r.text
    return sorted(m["value"].lower() for m in r.json()["items"] if m["value"] is not None)


@pytest.mark.parametrize(
    ("first", "slip", "key", "old", "new"),
    [
        ("叫我小红就行", "不好意思打错了，是小虹，彩虹的虹", "name.nickname", "小红", "小虹"),
        ("my name is Li Wei", "sorry 打错了，是 Li Wen，不是 Li Wei", "name.full",
         "Li Wei", "Li Wen"),
        ("I went to UCLA", "oops, I meant UCSD — I always mix those two up", "education.school",
         "UCLA", "UCSD"),
    ],
)  # fmt: skip
async def test_a_value_said_in_place_of_a_slip_replaces_it(
    tenant: TenantCtx, first: str, slip: str, key: str, old: str, new: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    assert await _values(tenant, "u", key, "active") == [old.lower()]
    await tenant.say("u", "s1", slip, at=T2)
    assert await _values(tenant, "u", key, "active") == [new.lower()]
    assert await _values(tenant, "u", key, "frozen") == [old.lower()]
    hits = (await tenant.recall("u", new, top_k=8))["memories"]
    assert [m["value"].lower() for m in hits if m["key"] == key] == [new.lower()]


async def test_the_slip_named_by_not_is_the_one_replaced(tenant: TenantCtx) -> None:
    # the previous turn formed two memories: "not Hooli" says which one the new value replaces
    await tenant.say("u", "s1", "I work at Hooli as a designer", at=T1)
    await tenant.say("u", "s1", "sorry, typo: it's Initech, not Hooli", at=T2)
    assert await _values(tenant, "u", "work.employer", "active") == ["initech"]
    assert await _values(tenant, "u", "work.employer", "frozen") == ["hooli"]
    assert await _values(tenant, "u", "work.role", "active") == ["designer"]


async def test_an_unclear_slip_withdraws_nothing(tenant: TenantCtx) -> None:
    # two memories, neither named nor spelled alike: which one was meant is unknown
    await tenant.say("u", "s1", "I work at Hooli as a designer", at=T1)
    await tenant.say("u", "s1", "oops, I meant Initech", at=T2)
    assert await _values(tenant, "u", "work.employer", "active") == ["hooli"]
    assert await _values(tenant, "u", "work.role", "active") == ["designer"]


async def test_a_fact_of_the_users_own_in_a_take_back_replaces_its_key(tenant: TenantCtx) -> None:
    # education.school holds several schools: only the take-back says the first was wrong
    await tenant.say("u", "s1", "我是南京大学毕业的", at=T1)
    await tenant.say("u", "s1", "不对不对，我记错了，我是南京师范大学毕业的", at=T2)
    assert await _values(tenant, "u", "education.school", "active") == ["南京师范大学"]
    assert await _values(tenant, "u", "education.school", "frozen") == ["南京大学"]


async def test_someone_elses_fact_in_a_take_back_is_no_value_in_place(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I'm a teacher", at=T1)
    await tenant.say("u", "s1", "sorry, my mistake, it's my mom who is a teacher", at=T2)
    assert await _values(tenant, "u", "work.role", "active") == []
    assert "my mom" not in await _values(tenant, "u", "work.role", "frozen")


async def test_a_slip_with_nothing_before_it_forms_nothing(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "sorry, autocorrect — it's Leo, not Liam", at=T1)
    r = await tenant.client.get(
        f"{tenant.user('u')}/memories", params={"status": "active"}, headers=tenant.headers
    )
    assert [m for m in r.json()["items"] if m["type"] != "episode"] == []


async def test_a_value_in_place_after_a_secret_and_a_city_replaces_the_city(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u", "s1", "I live in Lyon and my wifi password is sunflower88", at=T1)
    await tenant.say("u", "s1", "oops, I meant Lille", at=T2)
    assert await _values(tenant, "u", "residence.city", "active") == ["lille"]
    assert len(await tenant.memories("u", key="account.password", status="active")) == 1


async def test_a_plan_is_not_replaced_by_a_word_said_in_place(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "下周三下午两点约了牙医", at=T1)
    await tenant.say("u", "s1", "打错了，应该是周五", at=T2)
    r = await tenant.client.get(
        f"{tenant.user('u')}/memories", params={"status": "active"}, headers=tenant.headers
    )
    assert [m for m in r.json()["items"] if m["value"] == "周五"] == []


# --- something of the user's ended, said without the words that isolate what -----------------


async def test_a_taste_that_ended_is_withdrawn_by_naming_it(tenant: TenantCtx) -> None:
    await tenant.say("en", "s1", "I love spicy food, the hotter the better", at=T1)
    await tenant.say(
        "en", "s1", "ugh, since my stomach surgery I can't handle spicy food at all anymore", at=T2
    )
    assert await _values(tenant, "en", "preference.likes", "active") == []
    assert await _values(tenant, "en", "preference.likes", "frozen") == ["spicy food"]
    await tenant.say("zh", "s1", "我超爱吃榴莲", at=T1)
    await tenant.say("zh", "s1", "上次吃榴莲吃到吐了，现在闻到就反胃，不喜欢了", at=T2)
    assert await _values(tenant, "zh", "preference.likes", "active") == []
    assert await _values(tenant, "zh", "preference.likes", "frozen") == ["榴莲"]


async def test_a_language_forgotten_is_no_language_of_the_user(tenant: TenantCtx) -> None:
    await tenant.say("zh", "s1", "我平时说粤语比较多", at=T1)
    assert await _values(tenant, "zh", "language.preferred", "active") == ["粤语"]
    await tenant.say("zh", "s1", "搬到北京以后基本都讲普通话了，粤语都快忘光了", at=T2)
    assert await _values(tenant, "zh", "language.preferred", "frozen") == ["粤语"]
    assert "粤语" not in await _values(tenant, "zh", "language.preferred", "active")


async def test_what_ended_for_someone_else_or_was_never_stored_changes_nothing(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u", "s1", "I love spicy food", at=T1)
    await tenant.say("u", "s1", "My brother can't handle spicy food anymore", at=T2)
    await tenant.say("u", "s1", "I don't watch reality TV anymore", at=T2)
    assert await _values(tenant, "u", "preference.likes", "active") == ["spicy food"]
    r = await tenant.client.get(
        f"{tenant.user('u')}/memories", params={"status": "active"}, headers=tenant.headers
    )
    # nothing stored was ended: no record of it is kept as a fact (the turn is an episode)
    facts = [m for m in r.json()["items"] if m["type"] != "episode"]
    assert [m["content"] for m in facts if "reality" in m["content"].lower()] == []


# --- a rule for the assistant that takes the place of an earlier one --------------------------


async def _rules(t: TenantCtx, user: str, status: str) -> list[str]:
    r = await t.client.get(
        f"{t.user(user)}/memories",
        params={"key": "assistant.constraint", "status": status},
        headers=t.headers,
    )
    assert r.status_code == 200, r.text
    return sorted(m["content"] for m in r.json()["items"])


async def test_a_rule_said_again_differently_replaces_the_earlier_one(tenant: TenantCtx) -> None:
    await tenant.say("en", "s1", "Keep your answers super short, like 2-3 sentences max", at=T1)
    await tenant.say(
        "en", "s1", "Actually I need more detail than that — you can write longer answers", at=T2
    )
    assert len(await _rules(tenant, "en", "frozen")) == 1
    assert "short" in (await _rules(tenant, "en", "frozen"))[0]
    assert all("short" not in r for r in await _rules(tenant, "en", "active"))
    await tenant.say("zh", "s1", "以后回答都用英文", at=T1)
    await tenant.say("zh", "s1", "还是用中文回答吧，英文看着太累", at=T2)
    assert [r for r in await _rules(tenant, "zh", "frozen") if "英文" in r] != []
    assert [r for r in await _rules(tenant, "zh", "active") if "英文" in r] == []
    assert [r for r in await _rules(tenant, "zh", "active") if "中文" in r] != []


async def test_rules_of_one_kind_that_can_hold_together_both_stay(tenant: TenantCtx) -> None:
    await tenant.say("zh", "s1", "请用中文回答我", at=T1)
    await tenant.say("zh", "s1", "代码注释请用英文写", at=T2)
    assert len(await _rules(tenant, "zh", "active")) == 2
    await tenant.say("en", "s1", "Please use bullet points", at=T1)
    await tenant.say("en", "s1", "Also answer with a table when you compare options", at=T2)
    assert len(await _rules(tenant, "en", "active")) == 2
    assert await _rules(tenant, "en", "frozen") == []


async def test_what_the_user_says_they_are_not_is_withdrawn(tenant: TenantCtx) -> None:
    await tenant.say("en", "s1", "My name is Alex", at=T1)
    await tenant.say(
        "en",
        "s1",
        "hmm, it's my roommate's account. I'm not Alex, please don't call me that",
        at=T2,
    )
    assert await _values(tenant, "en", "name.full", "active") == []
    assert await _values(tenant, "en", "name.full", "frozen") == ["alex"]
    # what the user is not doing today is no denial of a habit
    await tenant.say("g", "s1", "I go to the gym every morning", at=T1)
    before = await _values(tenant, "g", "schedule.habit", "active")
    assert before != []
    await tenant.say("g", "s1", "I'm not going to the gym today, I'm sick", at=T2)
    assert await _values(tenant, "g", "schedule.habit", "active") == before


async def test_a_pet_given_up_takes_its_kind_with_it(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "My dog Biscuit is 14 and still going strong", at=T1)
    assert await _values(tenant, "u", "pets.kind", "active") == ["dog"]
    await tenant.say("u", "s1", "We had to put Biscuit down on Friday. Heartbroken.", at=T2)
    assert await _values(tenant, "u", "pets.name", "frozen") == ["biscuit"]
    assert await _values(tenant, "u", "pets.kind", "active") == []
    assert await _values(tenant, "u", "pets.kind", "frozen") == ["dog"]
    # one message, two pets: only the kind said with the name goes
    await tenant.say("v", "s1", "I have a dog named Rex. I also have a cat named Tom.", at=T1)
    await tenant.say("v", "s1", "We had to put Rex down last week", at=T2)
    assert await _values(tenant, "v", "pets.name", "active") == ["tom"]
    assert await _values(tenant, "v", "pets.kind", "active") == ["cat"]


async def test_an_ended_condition_is_frozen_by_naming_it(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I have really bad eczema on my hands", at=T1)
    await tenant.say("u", "s1", "good news — the eczema's completely cleared up", at=T2)
    assert await _values(tenant, "u", "health.condition", "active") == []
    assert len(await _values(tenant, "u", "health.condition", "frozen")) == 1


# --- what must change nothing (each was seen to freeze or replace a memory) -------------------


@pytest.mark.parametrize(
    ("first", "then", "key"),
    [
        ("I live in Boston and I work at Hooli.", "oops, I meant juice", "residence.city"),
        ("I live in Boston and I work at Hooli.", "oops, I meant juice", "work.employer"),
        ("I'm allergic to peanuts.", "oops, I meant 2019", "health.allergy"),
        ("My name is Tom.", "oops, I meant my son", "name.full"),
        ("我在上海工作。", "打错了，是我哥哥", "work.location"),
        ("My sister lives in Berlin.", "oops, I meant Munich", "family.member"),
        ("I love broccoli", "my son doesn't like broccoli anymore", "preference.likes"),
        ("我每天都喝可乐", "我老公不喝可乐了", "preference.drink"),
        ("I love spicy food", "spicy food isn't a problem anymore", "preference.likes"),
        ("I love jazz", "Jazz isn't the only thing I listen to anymore", "preference.likes"),
        ("I'm a nurse", "I'm not a doctor", "work.role"),
        ("I'm vegetarian", "I'm not vegan but I avoid dairy", "diet.style"),
        ("My name is Alex", "I'm not Alex's brother", "name.full"),
        ("I work at Hooli", "I'm not the CEO of Hooli", "work.employer"),
        ("Keep your answers short", "Use short paragraphs", "assistant.constraint"),
        ("No emojis in your answers", "Emojis are fine in titles", "assistant.constraint"),
    ],
)
async def test_what_names_no_slip_or_ending_of_the_users_changes_nothing(
    tenant: TenantCtx, first: str, then: str, key: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    if key == "assistant.constraint":
        before = await _rules(tenant, "u", "active")
    else:
        before = await _values(tenant, "u", key, "active")
    assert before != []
    await tenant.say("u", "s1", then, at=T2)
    if key == "assistant.constraint":
        assert set(before) <= set(await _rules(tenant, "u", "active"))
    else:
        assert await _values(tenant, "u", key, "active") == before


async def test_a_slip_named_by_not_is_found_turns_later(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "My dog is called Rex.", at=T1)
    await tenant.say("u", "s1", "I live in Paris.", at=T1)
    await tenant.say("u", "s1", "sorry, typo: it's Max, not Rex", at=T2)
    assert await _values(tenant, "u", "residence.city", "active") == ["paris"]
    assert await _values(tenant, "u", "pets.name", "active") == ["max"]
    assert await _values(tenant, "u", "pets.name", "frozen") == ["rex"]


async def test_forget_that_withdraws_what_it_says(tenant: TenantCtx) -> None:
    await tenant.say("a", "s1", "Forget that I live in Paris.", at=T1)
    assert await _values(tenant, "a", "residence.city", "active") == []
    await tenant.say("b", "s1", "I live in Paris.", at=T1)
    await tenant.say("b", "s1", "Forget that I live in Paris.", at=T2)
    assert await _values(tenant, "b", "residence.city", "active") == []
    assert await _values(tenant, "b", "residence.city", "frozen") == ["paris"]


async def test_a_take_back_passes_over_small_talk(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I work at Hooli.", at=T1)
    await tenant.say("u", "s1", "thanks!", at=T1)
    await tenant.say("u", "s1", "hmm, I take that back", at=T2)
    assert await _values(tenant, "u", "work.employer", "active") == []
    assert await _values(tenant, "u", "work.employer", "frozen") == ["hooli"]


@pytest.mark.parametrize(
    ("first", "slip", "kind"),
    [
        ("我的狗叫 Lucky", "打错了，是 Lucy，不是 Lucky", "狗"),
        ("I have a cat named Tiger.", "Oops, typo, his name is Tigger.", "cat"),
    ],
)
async def test_a_pet_named_again_after_a_slip_keeps_its_kind(
    tenant: TenantCtx, first: str, slip: str, kind: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    await tenant.say("u", "s1", slip, at=T2)
    assert len(await _values(tenant, "u", "pets.name", "active")) == 1
    assert len(await _values(tenant, "u", "pets.name", "frozen")) == 1
    assert await _values(tenant, "u", "pets.kind", "frozen") == []
    assert await _values(tenant, "u", "pets.kind", "active") == [kind]
