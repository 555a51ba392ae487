"""Corrections said in few words stick: an age said again beside a slip or a birthday, a name
said bare before the one it replaces, a spelling owned as a typo after it, an address given up
beside the new one, a team joined said in mixed script. And what looks like one is not: a
participle after "never" is no rule, a programme joined is no workplace. Through the HTTP API."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-02T09:00:00+08:00"


@pytest.mark.parametrize(
    ("first", "then", "old", "new"),
    [
        ("我今年25岁。", "不对 26 了，刚过完生日", "25", "26"),
        ("I'm 28.", "oops I'm actually 29 not 28", "28", "29"),
        ("我28岁", "今年已经32了，上次说错了", "28", "32"),
        ("I'm 29 years old.", "Just hit 30 last month, feeling old", "29", "30"),
        ("I'm 40", "wait, 41 actually, birthday was last week", "40", "41"),
    ],
)
async def test_an_age_said_again_replaces_the_one_before(
    tenant: TenantCtx, first: str, then: str, old: str, new: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    await tenant.say("u", "s1", then, at=T2)
    assert await tenant.values("u", "age") == [new]
    assert await tenant.values("u", "age", "frozen") == [old]


async def test_a_count_owned_as_a_slip_is_no_age(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I'm 34.", at=T1)
    await tenant.say("u", "s1", "I have 4 cats. actually 5 now", at=T2)
    assert await tenant.values("u", "age") == ["34"]


async def test_a_name_said_bare_before_the_one_it_replaces(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "Based in Leeds.", at=T1)
    await tenant.say(
        "u", "s1", "Correction: Sheffield, not Leeds, I always mix them up when typing fast", at=T2
    )
    assert await tenant.values("u", "residence.city") == ["Sheffield"]
    assert await tenant.values("u", "residence.city", "frozen") == ["Leeds"]


async def test_a_spelling_owned_as_a_typo_after_it(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "My name is Jon.", at=T1)
    await tenant.say("u", "s1", "It's John with an h, sorry for the typo.", at=T2)
    assert await tenant.values("u", "name.full") == ["John"]
    assert await tenant.values("u", "name.full", "frozen") == ["Jon"]


async def test_an_address_given_up_beside_the_new_one(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "email me at tom@old.example", at=T1)
    await tenant.say(
        "u", "s1", "I don't use tom@old.example anymore, it's tom@new.example now", at=T2
    )
    assert await tenant.values("u", "contact.email") == ["tom@new.example"]
    assert await tenant.values("u", "contact.email", "frozen") == ["tom@old.example"]


async def test_a_team_joined_in_mixed_script_is_the_new_employer(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我在 Stripe 做 PM", at=T1)
    await tenant.say("u", "s1", "刚 join 了 Figma，还是 PM", at=T2)
    assert await tenant.values("u", "work.employer") == ["Figma"]
    assert await tenant.values("u", "work.employer", "frozen") == ["Stripe"]
    assert await tenant.values("u", "tech.preferred") == []


@pytest.mark.parametrize(
    "text", ["I joined Slack's beta program", "我加入了 GitHub Copilot 的内测"]
)
async def test_a_programme_joined_is_no_workplace(tenant: TenantCtx, text: str) -> None:
    await tenant.say("u", "s1", "I work at Globex.", at=T1)
    await tenant.say("u", "s1", text, at=T2)
    assert await tenant.values("u", "work.employer") == ["Globex"]


async def test_a_participle_after_never_is_no_rule(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "Moved to Neovim last year, never looking back.", at=T1)
    assert await tenant.memories("u", key="assistant.constraint") == []
    assert await tenant.values("u", "tech.preferred", lower=True) == ["neovim"]
    await tenant.say("u", "s1", "Never use emojis.", at=T2)
    assert len(await tenant.memories("u", key="assistant.constraint")) == 1


async def test_a_word_of_a_name_corrected_keeps_the_rest(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "My name is Jon Smith", at=T1)
    await tenant.say("u", "s1", "sorry typo, it's John, not Jon. John Smith", at=T2)
    assert await tenant.values("u", "name.full") == ["John Smith"]
    assert await tenant.values("u", "name.full", "frozen") == ["Jon Smith"]


async def test_a_workplace_gone_to_next_week_is_the_new_employer(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我在字节跳动做产品经理", at=T1)
    await tenant.say("u", "s1", "跟你说个事，我已经从字节离职了，下周去美团上班", at=T2)
    assert await tenant.values("u", "work.employer") == ["美团"]
    assert await tenant.values("u", "work.employer", "frozen") == ["字节跳动"]


async def test_a_city_gone_to_for_work_is_no_employer(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我在字节跳动做产品经理", at=T1)
    await tenant.say("u", "s1", "我下周去北京工作", at=T2)
    assert await tenant.values("u", "work.employer") == ["字节跳动"]
