"""What someone outside the family is, does or says — a client, a coach, a stranger on a plane,
a character in a series, a person quoted — is not the user's, and never replaces the user's own
job or city. Through the HTTP API, in English and Chinese."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-02T09:00:00+08:00"


@pytest.mark.parametrize(
    ("first", "then", "key", "value"),
    [
        (
            "I work at Stripe as a designer",
            "the guy next to me on the plane works as a pilot for Delta, cool chat",
            "work.employer",
            "Stripe",
        ),
        ("我在平安银行做柜员", "我的客户在招商银行做风控", "work.employer", "平安银行"),
        ("我住在杭州", "我看的那部剧女主住在厦门，好想去", "residence.city", "杭州"),
    ],
)
async def test_another_persons_fact_does_not_replace_the_users(
    tenant: TenantCtx, first: str, then: str, key: str, value: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    await tenant.say("u", "s1", then, at=T2)
    assert await tenant.values("u", key) == [value]
    assert await tenant.values("u", key, status="frozen") == []


@pytest.mark.parametrize(
    ("said", "key"),
    [
        ("我健身教练吃素，天天劝我少吃肉", "diet.style"),
        ("my therapist is vegan and keeps pushing it on me lol", "diet.style"),
        ("Our nanny speaks Tagalog with the kids", "language.preferred"),
        ("我们公司的CEO是浙大毕业的", "education.school"),
        ("新来的实习生是清华的，比我厉害", "education.school"),
        ("the new hire on my team is from Kenya, super nice", "work.location"),
        (
            "\"I'm allergic to cats\" is what my date said, so I guess that's over lol",
            "health.allergy",
        ),
    ],
)
async def test_another_persons_fact_is_not_the_users(
    tenant: TenantCtx, said: str, key: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", key) == []


@pytest.mark.parametrize(
    ("said", "key", "value"),
    [
        ("我是一名小学老师", "work.role", "小学老师"),
        ("我在腾讯做HR", "work.employer", "腾讯"),
        ("Thriller novels are my jam", "preference.likes", "thriller novels"),
    ],
)
async def test_the_users_own_words_for_such_people_are_still_the_users(
    tenant: TenantCtx, said: str, key: str, value: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", key, lower=True) == [value.lower()]


@pytest.mark.parametrize(
    ("said", "key", "value"),
    [
        ("老师好，电话13812345678，有事随时找我", "contact.phone", "13812345678"),
        ("我是个小博主，邮箱是abc@163.com", "contact.email", "abc@163.com"),
    ],
)
async def test_a_person_greeted_or_a_title_of_the_users_leaves_the_users_fact(
    tenant: TenantCtx, said: str, key: str, value: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", key) == [value]


@pytest.mark.parametrize(
    "then",
    [
        "I'm on a client project at Pfizer for the next six months, commuting to their NYC office",
        "we're partnering with Globex on a big contract, I'll be at their office all week",
    ],
)
async def test_a_client_or_partner_worked_at_is_no_new_employer(
    tenant: TenantCtx, then: str
) -> None:
    await tenant.say("u", "s1", "I work at Deloitte as a consultant", at=T1)
    await tenant.say("u", "s1", then, at=T2)
    assert await tenant.values("u", "work.employer") == ["Deloitte"]
