"""A request in conversation to forget what the user holds of a kind ("please forget my email
address", "别存我的手机号", "can you delete my passport number?") withdraws every value of that
kind the user gave before, in any earlier turn or session: frozen, recalled no more, its turn
no longer recalled as what holds. "I always forget my password", "忘了我的密码怎么办" and "I
deleted my number from the site" say what the user did, and withdraw nothing. Through the HTTP
API (turns on Monday 2026-12-07)."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

AT = "2026-12-07T09:00:00+08:00"
LATER = "2026-12-07T10:00:00+08:00"


@pytest.mark.parametrize(
    ("turns", "key", "old"),
    [
        (
            ("my email is sam@oldmail.com", "please forget my email address"),
            "contact.email",
            "sam@oldmail.com",
        ),
        (
            ("my email is sam@oldmail.com", "actually don't keep my email on file, forget it"),
            "contact.email",
            "sam@oldmail.com",
        ),
        (
            ("my cell is 415-555-0134", "could you delete my phone number?"),
            "contact.phone",
            "415-555-0134",
        ),
        (("我的手机号是13812345678", "别存我的手机号"), "contact.phone", "13812345678"),
        (("我的邮箱是 wei@example.cn", "把我邮箱删了吧，别存"), "contact.email", "wei@example.cn"),
        (("I live in Denver", "please don't store where I live"), "residence.city", "denver"),
        (("我住在成都", "别记我住哪儿"), "residence.city", "成都"),
        (
            ("my email is sam@oldmail.com", "could you not keep my email on record?"),
            "contact.email",
            "sam@oldmail.com",
        ),
    ],
)
async def test_a_kind_asked_to_be_forgotten_is_withdrawn(
    tenant: TenantCtx, turns: tuple[str, str], key: str, old: str
) -> None:
    active, frozen = await tenant.change("u", turns, key, at=(AT, LATER))
    assert active == []
    assert frozen == [old]


async def test_every_value_of_the_kind_from_any_session_is_withdrawn(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "my email is sam@oldmail.com", at=AT)
    await tenant.say("u", "s1", "my work email is sam@acme.example", at=AT)
    await tenant.say("u", "s2", "what's a good pasta recipe?", at=LATER)
    await tenant.say("u", "s2", "forget my email", at=LATER)
    assert await tenant.values("u", "contact.email") == []
    assert await tenant.values("u", "contact.email", "frozen") == [
        "sam@acme.example",
        "sam@oldmail.com",
    ]
    recalled = await tenant.recall("u", "what is my email address")
    assert not any("sam@" in (m["content"] or "") for m in recalled["memories"]), recalled


async def test_a_secret_asked_to_be_forgotten_is_withdrawn(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "my passport number is K4829113", at=AT)
    assert len(await tenant.memories("u", key="identity.document", status="active")) == 1
    await tenant.say("u", "s1", "can you delete my passport number?", at=LATER)
    # what stays active is the record of the request, with no value
    assert await tenant.values("u", "identity.document") == []
    assert await tenant.values("u", "identity.document", "frozen") == ["****9113"]


@pytest.mark.parametrize(
    ("turns", "key", "kept"),
    [
        (("my email is sam@oldmail.com", "I always forget my email password"), "contact.email",
         "sam@oldmail.com"),
        (("我的邮箱是 wei@example.cn", "忘了我的邮箱密码怎么办"), "contact.email",
         "wei@example.cn"),
        (("my cell is 415-555-0134", "I deleted my number from the site"), "contact.phone",
         "415-555-0134"),
        (("my email is sam@oldmail.com", "don't forget my birthday is friday"), "contact.email",
         "sam@oldmail.com"),
        # never mind it, another way offered: no request to forget what was told
        (("my cell is 415-555-0134", "forget my phone, I'll call from the landline"),
         "contact.phone", "415-555-0134"),
        (("my email is sam@oldmail.com", "forget my email, just text me"), "contact.email",
         "sam@oldmail.com"),
    ],
)  # fmt: skip
async def test_what_the_user_forgot_or_deleted_withdraws_nothing(
    tenant: TenantCtx, turns: tuple[str, str], key: str, kept: str
) -> None:
    active, frozen = await tenant.change("u", turns, key, at=(AT, LATER))
    assert active == [kept]
    assert frozen == []


async def test_an_address_asked_to_be_forgotten_is_the_home_not_the_email(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u", "s1", "my email is sam@oldmail.com", at=AT)
    await tenant.say("u", "s1", "I live in Denver", at=AT)
    await tenant.say("u", "s1", "please delete my address", at=LATER)
    assert await tenant.values("u", "residence.city") == []
    assert await tenant.values("u", "contact.email") == ["sam@oldmail.com"]
