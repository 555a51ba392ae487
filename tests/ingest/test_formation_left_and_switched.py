"""Leaving a rule to the assistant ("you can stop with the emojis now") ends it and asks
nothing; an English name after "switched to" or "transferred to" replaces the value the user
holds of the key its clause is about, and nothing else. Through the HTTP API (turns on Saturday
2026-12-05)."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

AT = "2026-12-05T09:00:00+08:00"
LATER = "2026-12-05T10:00:00+08:00"
RULE = "assistant.constraint"


@pytest.mark.parametrize(
    "turns",
    [
        ("Always add emojis when you reply!", "you can stop with the emojis now, it's a bit much"),
        (
            "please include a Chinese translation under every answer",
            "no need for the translations anymore",
        ),
        ("please cite your sources at the end of each answer", "I don't need the sources anymore"),
    ],
)
async def test_a_rule_left_to_the_assistant_ends_and_asks_nothing(
    tenant: TenantCtx, turns: tuple[str, str]
) -> None:
    active, frozen = await tenant.change("u", turns, RULE, at=(AT, LATER))
    assert active == []
    assert len(frozen) == 1


async def test_a_rule_forbidding_what_was_asked_is_kept(tenant: TenantCtx) -> None:
    turns = ("Give me code examples in Python always", "stop giving me code examples")
    active, frozen = await tenant.change("u", turns, RULE, at=(AT, LATER))
    assert active == ["stop giving me code examples"]
    assert len(frozen) == 1


@pytest.mark.parametrize(
    ("turns", "key", "expected"),
    [
        (("I study at UCLA", "transferred to USC this fall"), "education.school", "usc"),
        (("I work at IBM", "got poached by Oracle 😅"), "work.employer", "oracle"),
        (
            (
                "I do all my coding in VS Code",
                "ok I caved and switched to Zed, VS Code got way too sluggish on this machine",
            ),
            "tech.preferred",
            "zed",
        ),
    ],
)
async def test_a_name_switched_to_replaces_the_value_held_of_its_clauses_key(
    tenant: TenantCtx, turns: tuple[str, str], key: str, expected: str
) -> None:
    active, frozen = await tenant.change("u", turns, key, at=(AT, LATER))
    assert [v.lower() for v in active] == [expected]
    assert len(frozen) == 1


@pytest.mark.parametrize(
    ("turns", "key", "kept"),
    [
        # someone else's switch; a switch of another kind than what is held; a thing named after
        # a place; a school switched to for another degree; a question
        (("I work at Google", "my sister switched to Apple last year"), "work.employer", "google"),
        (("I work at Google", "I switched to Zed as my editor"), "work.employer", "google"),
        (("I work at Google", "I moved to Mountain View office"), "work.employer", "google"),
        (
            ("I did my undergrad at HKU", "switched to LSE for my master's"),
            "education.school",
            "hku",
        ),
        # long ago, once, in jest
        (
            ("I work at Amazon", "Google hired me as an intern back in 2015"),
            "work.employer",
            "amazon",
        ),
        (("I work at Uber", "Lyft poached me lol jk"), "work.employer", "uber"),
        (
            ("I do all my coding in VS Code", "if I switched to Zed, would it be faster?"),
            "tech.preferred",
            "vs code",
        ),
    ],
)
async def test_a_switch_of_something_else_replaces_nothing(
    tenant: TenantCtx, turns: tuple[str, str], key: str, kept: str
) -> None:
    active, frozen = await tenant.change("u", turns, key, at=(AT, LATER))
    assert kept in [v.lower() for v in active]
    assert frozen == []


async def test_a_firm_that_poached_the_user_is_the_employer_now(tenant: TenantCtx) -> None:
    turns = ("I'm an engineer at Uber", "Lyft poached me, started there this week")
    active, frozen = await tenant.change("u", turns, "work.employer", at=(AT, LATER))
    assert ([v.lower() for v in active], [v.lower() for v in frozen]) == (["lyft"], ["uber"])


async def test_a_club_joined_is_no_employer(tenant: TenantCtx) -> None:
    turns = ("I work at Google", "I joined the Sierra Club")
    assert await tenant.change("u", turns, "work.employer", at=(AT, LATER)) == (["google"], [])


@pytest.mark.parametrize(
    ("turns", "key", "active", "frozen"),
    [
        (
            (
                "My cell is (312) 555-0148",
                "lost my phone AND the number with it, long story. new one: (312) 555-0199",
            ),
            "contact.phone",
            ["(312) 555-0199"],
            ["(312) 555-0148"],
        ),
        (
            ("邮箱 xiaohe@163.com", "163那个不用了，老收不到邮件，改用 xiaohe2024@qq.com"),
            "contact.email",
            ["xiaohe2024@qq.com"],
            ["xiaohe@163.com"],
        ),
    ],
)
async def test_a_contact_given_as_the_new_one_replaces_the_one_held(
    tenant: TenantCtx, turns: tuple[str, str], key: str, active: list[str], frozen: list[str]
) -> None:
    assert await tenant.change("u", turns, key, at=(AT, LATER)) == (active, frozen)


@pytest.mark.parametrize(
    "then",
    [
        "call the new pizza place at (312) 555-0111 for me",
        "my wife's new number is (312) 555-0177",
        "my dentist's new number: (312) 555-0199",
    ],
)
async def test_a_new_number_of_someone_else_replaces_nothing(tenant: TenantCtx, then: str) -> None:
    turns = ("My cell is (312) 555-0148", then)
    active, frozen = await tenant.change("u", turns, "contact.phone", at=(AT, LATER))
    assert "(312) 555-0148" in active
    assert frozen == []


@pytest.mark.parametrize(
    ("turns", "frozen"),
    [
        (("我超愛吃辣", "最近胃不好，醫生說我不能再吃辣了"), ["辣"]),
        (
            (
                "I love horror movies, the gorier the better",
                "ok since having a kid I genuinely can't watch horror anymore",
            ),
            ["horror movies"],
        ),
    ],
)
async def test_a_liking_said_to_be_over_ends(
    tenant: TenantCtx, turns: tuple[str, str], frozen: list[str]
) -> None:
    assert await tenant.change("u", turns, "preference.likes", at=(AT, LATER)) == ([], frozen)


@pytest.mark.parametrize(
    ("turns", "kept"),
    [
        (("我爱吃辣", "我妈不能再吃辣了"), "辣"),
        (("我超爱吃辣", "医生说我爸不能再吃辣了"), "辣"),
        (("I love horror movies", "ok the gym is done for me today"), "horror movies"),
    ],
)
async def test_what_only_looks_like_a_liking_over_ends_nothing(
    tenant: TenantCtx, turns: tuple[str, str], kept: str
) -> None:
    assert await tenant.change("u", turns, "preference.likes", at=(AT, LATER)) == ([kept], [])


@pytest.mark.parametrize("then", ["今天不喝茶了，喝了两杯了", "今晚不喝茶了，明天再说"])
async def test_a_drink_left_out_for_the_day_is_no_drink_given_up(
    tenant: TenantCtx, then: str
) -> None:
    turns = ("我爱喝茶", then)
    assert await tenant.change("u", turns, "preference.drink", at=(AT, LATER)) == (["茶"], [])
    assert await tenant.values("u", "diet.avoid") == []
