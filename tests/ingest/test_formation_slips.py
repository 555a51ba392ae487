"""Slips of typing and spacing in what a user says become the memories a person would expect —
through the HTTP API: a misspelt cue word ("i wrk", "alergic", "nmae") or an input method's
homophone ("我住再杭州", "上周般到苏州了", "我队花生过敏") is read as meant; a space between a
Chinese word and a number or an English word ("我今年 32 了", "养了一只 cat 叫 Mochi") changes
nothing; a name in Latin letters after 我叫 keeps its two words; and a word that is spelt right
is left as it is ("我再想想", "一般到晚上", "IM")."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-01T09:01:00+08:00"


@pytest.mark.parametrize(
    ("said", "key", "value"),
    [
        ("my nmae is Priya", "name.full", "Priya"),
        ("im alergic to shellfish", "health.allergy", "shellfish"),
        ("I lve in Denver", "residence.city", "Denver"),
        ("honestly i luv sushi, could eat it every day", "preference.likes", "sushi"),
        ("Im a sofware enginer at a bank", "work.role", "software engineer"),
        ("我住再杭州", "residence.city", "杭州"),
        ("我队花生过敏", "health.allergy", "花生"),
        ("我现在再阿里做运营", "work.employer", "阿里"),
    ],
)
async def test_a_slip_of_typing_is_read_as_meant(
    tenant: TenantCtx, said: str, key: str, value: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", key) == [value]


async def test_a_misspelt_move_replaces_the_city(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我住在南京", at=T1)
    await tenant.say("u", "s1", "上周般到苏州了", at=T2)
    assert await tenant.values("u", "residence.city") == ["苏州"]
    assert await tenant.values("u", "residence.city", "frozen") == ["南京"]


async def test_a_misspelt_allergy_is_no_condition(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "im alergic to shellfish", at=T1)
    assert await tenant.values("u", "health.condition") == []


@pytest.mark.parametrize("said", ["我再想想怎么做", "我一般到晚上才回家", "我用 IM 聊天"])
async def test_words_spelt_right_are_not_put_right(tenant: TenantCtx, said: str) -> None:
    await tenant.say("u", "s1", said, at=T1)
    for key in ("residence.city", "work.employer", "health.allergy"):
        assert await tenant.values("u", key) == []


@pytest.mark.parametrize(
    ("said", "key", "value"),
    [
        ("btw 我今年 32 了", "age", "32"),
        ("我是 female，今年 35", "age", "35"),
        ("我叫 Kevin Zhang", "name.full", "Kevin Zhang"),
        ("我家 cat 叫 Mochi", "pets.name", "Mochi"),
        ("我家 cat 叫 Mochi", "pets.kind", "cat"),
    ],
)
async def test_a_space_beside_a_chinese_word_changes_nothing(
    tenant: TenantCtx, said: str, key: str, value: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", key) == [value]


@pytest.mark.parametrize(
    ("said", "key", "value"),
    [
        ("I work at 字节", "work.employer", "字节"),
        ("I graduated from 浙大 in 2018", "education.school", "浙大"),
        ("I moved to 成都 last month", "residence.city", "成都"),
        ("my hometown 是大连", "hometown", "大连"),
        ("我的 email 是 wei.chen@example.com", "contact.email", "wei.chen@example.com"),
        ("我本科在 UCLA 读的 CS", "education.school", "ucla"),
    ],
)
async def test_a_clause_is_read_by_its_grammar_with_the_other_script_as_values(
    tenant: TenantCtx, said: str, key: str, value: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", key, lower=True) == [value.lower()]


async def test_a_chinese_word_after_have_is_no_drink(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I have 高血压", at=T1)
    assert await tenant.values("u", "preference.drink") == []


@pytest.mark.parametrize(
    ("said", "key", "value"),
    [
        (
            "anyway enough about me — oh wait, we adopted a kitten last weekend, her name is "
            "Pickle!",
            "pets.name",
            "Pickle",
        ),
        ("we adopted a kitten last weekend", "pets.kind", "kitten"),
        ("thx! also fyi im vegan now so no dairy pls", "diet.style", "vegan"),
        ("ugh my migraines have been bad this week", "health.condition", "migraines"),
    ],
)
async def test_a_fact_inside_a_chatty_message_is_kept(
    tenant: TenantCtx, said: str, key: str, value: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", key) == [value]
