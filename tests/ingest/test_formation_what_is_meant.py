"""What must not be stored, or stored differently, through the HTTP API in Chinese and English:
what people at large or the assistant said, the day's chatter, a jest, a need of the moment form
nothing; a clause of the user's own after a hypothetical still forms its fact; a long message
forms only the fact it states; passwords, PINs and seed phrases said in odd shapes are stored
as secrets, never as plain facts."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1 = "2026-03-02T09:00:00+08:00"


@pytest.mark.parametrize(
    "text",
    [
        # people at large
        "Everyone on my team swears by Vim",
        "大家都说 Go 比 Java 好用",
        # the assistant's own words said back
        "You said I should drink more water, okay fine",
        "you told me 'I live in Berlin' was a fine example sentence",
        "你之前说我应该少喝咖啡，好吧",
        # the day's chatter: done today or just now
        "had pizza for lunch, not bad",
        "Had sushi for dinner tonight",
        "刚下班，累死了",
        "今天中午吃了麻辣烫",
        # said in jest
        "Oh great, I just love waiting in line for two hours",
        "Yeah right, I totally love Mondays",
        "我可真爱加班啊，呵呵",
        "我太喜欢加班了，呵呵",
    ],
)
async def test_what_the_user_does_not_state_of_themselves_forms_nothing(
    tenant: TenantCtx, text: str
) -> None:
    await tenant.say("u", "s1", text, at=T1)
    assert await tenant.facts("u") == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Long day. The meeting ran over, the coffee machine broke, my friend Jake called "
            "about his new car, and honestly I just want to sleep. Anyway, I live in Denver now.",
            [("residence.city", "denver")],
        ),
        (
            "今天真是忙疯了，早上开了两个会，中午随便吃了点，下午还被老板叫去谈话。对了，我在腾讯做前端。",
            [("work.employer", "腾讯"), ("work.role", "前端")],
        ),
        (
            "If I had more time I would travel, my coworker keeps bragging about Bali, but I "
            "have a cat named Miso who needs me at home.",
            [("pets.kind", "cat"), ("pets.name", "miso")],
        ),
    ],
)
async def test_a_long_message_forms_only_the_fact_it_states(
    tenant: TenantCtx, text: str, expected: list[tuple[str, str]]
) -> None:
    await tenant.say("u", "s1", text, at=T1)
    got = [(k, (v or "").lower()) for k, v in await tenant.facts("u")]
    assert sorted(got) == sorted(expected)


async def test_a_relatives_visit_is_no_fact_about_them(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "my mom came over and we baked cookies", at=T1)
    assert [k for k, _ in await tenant.facts("u")] == ["family.member"]


async def _secrets(tenant: TenantCtx) -> list[tuple[str, str]]:
    """The user's active memories as (key, revealed secret); each must be a sealed secret."""
    out = []
    for m in await tenant.memories("u", status="active"):
        r = await tenant.client.post(
            f"{tenant.user('u')}/memories/{m['id']}/reveal", headers=tenant.headers
        )
        assert r.status_code == 200, r.text
        out += [(m["key"], s["value"]) for s in r.json()["secrets"]]
    return out


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("u: anna p: hunter2", "hunter2"),
        ("user: mia / pw: tangerine77", "tangerine77"),
        ("my pin is one two three four", "one two three four"),
        ("PIN: seven three one nine", "seven three one nine"),
        ("密码是 abc 123", "abc 123"),
        ("我的银行卡密码是 qwe 456", "qwe 456"),
        (
            "my wallet seed phrase is apple banana cherry dog eagle frog grape house ice jelly "
            "kite lemon",
            "apple banana cherry dog eagle frog grape house ice jelly kite lemon",
        ),
    ],
)
async def test_a_secret_said_in_an_odd_shape_is_stored_as_a_secret(
    tenant: TenantCtx, text: str, secret: str
) -> None:
    await tenant.say("u", "s1", text, at=T1)
    memories = await tenant.memories("u", status="active")
    assert [m["key"] for m in memories] == ["account.password"]
    # masked wherever the user lists it, the value only behind reveal
    assert secret not in str(memories)
    assert await _secrets(tenant) == [("account.password", secret)]


async def test_a_card_number_with_dashes_is_a_card(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "my card number is 4111-1111-1111-1111", at=T1)
    memories = await tenant.memories("u", status="active")
    assert [m["key"] for m in memories] == ["finance.card"]
    assert "4111-1111-1111-1111" not in str(memories)


@pytest.mark.parametrize(
    ("first", "second", "key", "kept"),
    [
        # a workplace or school only wanted, applied or interviewed for is a plan
        ("我在字节上班", "我想去腾讯工作", "work.employer", "字节"),
        ("I work at Shopify", "I'm hoping to work at Stripe one day", "work.employer", "shopify"),
        ("I studied at McGill", "I'm applying to Stanford", "education.school", "mcgill"),
        # a mood that is no fact: a city the user could see themselves in
        ("I live in Lyon", "I could see myself living in Tokyo", "residence.city", "lyon"),
        # a question gives nothing up
        ("我一直用 iPhone", "我是不是该换个手机了", "tech.preferred", "iphone"),
    ],
)  # fmt: skip
async def test_what_is_only_wanted_or_asked_replaces_nothing(
    tenant: TenantCtx, first: str, second: str, key: str, kept: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    before = await tenant.values("u", key, "active", lower=True)
    await tenant.say("u", "s1", second, at="2026-03-02T09:05:00+08:00")
    assert await tenant.values("u", key, "active", lower=True) == before
    assert kept in before
    assert await tenant.values("u", key, "frozen") == []


async def test_a_diet_of_student_days_is_not_the_users_now(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我大学的时候吃素", at=T1)
    assert await tenant.values("u", "diet.style", "active") == []
