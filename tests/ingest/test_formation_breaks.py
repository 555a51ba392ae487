"""A later sentence that only looks like a new fact of the same kind replaces nothing: a stay
that ended ("I stayed in Tokyo for two weeks in 2019", "Spent last summer living in Bali",
"2019年我在东京住了两周"), a figure of speech ("I basically live at the gym now"), a dream
("My dream is to work at SpaceX", "我梦见自己在谷歌上班", "我的梦想是去腾讯工作"), make-believe
("Pretending I work at NASA in my D&D campaign", "我在写一个小说，主角叫张三"), a drink had once
("I had a coffee this morning"). The fact said first stays active, first in recall, and
nothing else is formed under its key. A correction owned by its opening words ("No wait, it's
Porto, not Lisbon", "不对，是来福，不是旺财") or a contact said as changed ("my email changed to
…") does replace. Through the HTTP API, in Chinese and English."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-01T09:01:00+08:00"


@pytest.mark.parametrize(
    ("first", "then", "key", "value", "query"),
    [
        ("I live in Lisbon.", "I stayed in Tokyo for two weeks in 2019.",
         "residence.city", "Lisbon", "where do I live?"),
        ("I live in Lisbon.", "Spent last summer living in Bali.",
         "residence.city", "Lisbon", "where do I live?"),
        ("I live in Lisbon.", "Haha, I basically live at the gym now.",
         "residence.city", "Lisbon", "where do I live?"),
        ("我住在杭州。", "2019年我在东京住了两周。", "residence.city", "杭州", "我住在哪里？"),
        ("I work at Google.", "My dream is to work at SpaceX.",
         "work.employer", "Google", "where do I work?"),
        ("我在阿里巴巴工作。", "我梦见自己在谷歌上班。",
         "work.employer", "阿里巴巴", "我在哪工作？"),
        ("我在阿里巴巴工作。", "我的梦想是去腾讯工作。",
         "work.employer", "阿里巴巴", "我在哪工作？"),
        # make-believe and fiction; a drink had once
        ("I work at Google.", "Pretending I work at NASA in my D&D campaign",
         "work.employer", "Google", "where do I work?"),
        ("我叫李明。", "我在写一个小说，主角叫张三。", "name.full", "李明", "我叫什么名字？"),
        ("我在阿里巴巴工作。", "开玩笑说我要去NASA上班了哈哈。",
         "work.employer", "阿里巴巴", "我在哪工作？"),
        ("I prefer tea.", "I had a coffee this morning because I was exhausted.",
         "preference.drink", "tea", "what do I like to drink?"),
    ],
)  # fmt: skip
async def test_a_look_alike_replaces_nothing(
    tenant: TenantCtx, first: str, then: str, key: str, value: str, query: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    assert await tenant.values("u", key, "active") == [value]
    await tenant.say("u", "s1", then, at=T2)
    assert await tenant.values("u", key, "active") == [value]
    assert await tenant.values("u", key, "frozen") == []
    recalled = await tenant.recall("u", query, types=["profile", "preference"])
    keyed = [m for m in recalled["memories"] if m["key"] == key]
    assert [m["value"] for m in keyed] == [value]


async def test_a_move_and_a_lasting_stay_still_replace(tenant: TenantCtx) -> None:
    """The look-alikes above stay narrow: a move, and a stay said as lasting till now, still
    say where the user lives."""
    await tenant.say("u", "s1", "I live in Lisbon.", at=T1)
    await tenant.say("u", "s1", "I basically live in Berlin now, moved last month.", at=T2)
    assert await tenant.values("u", "residence.city", "active") == ["Berlin"]
    assert await tenant.values("u", "residence.city", "frozen") == ["Lisbon"]
    await tenant.say("v", "s1", "我住在杭州。", at=T1)
    await tenant.say("v", "s1", "我已经搬到苏州了，在苏州住了两个月了。", at=T2)
    assert await tenant.values("v", "residence.city", "active") == ["苏州"]
    assert await tenant.values("v", "residence.city", "frozen") == ["杭州"]


@pytest.mark.parametrize(
    ("first", "then", "key", "old", "new"),
    [
        # a slip owned by the opening words alone, with the value it replaces named
        ("I live in Lisbon.", "No wait, it's Porto, not Lisbon.",
         "residence.city", "Lisbon", "Porto"),
        ("My dog is called Rex.", "Oops, his name is Rocky, not Rex.", "pets.name", "Rex", "Rocky"),
        ("我的狗叫旺财。", "不对，是来福，不是旺财。", "pets.name", "旺财", "来福"),
        # a contact said as changed, the thing named first
        ("My email is anna@example.com", "my email changed to anna.new@example.com",
         "contact.email", "anna@example.com", "anna.new@example.com"),
        ("My email is anna@example.com", "my email is now anna.new@example.com",
         "contact.email", "anna@example.com", "anna.new@example.com"),
    ],
)  # fmt: skip
async def test_a_correction_sticks(
    tenant: TenantCtx, first: str, then: str, key: str, old: str, new: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    await tenant.say("u", "s1", then, at=T2)
    assert await tenant.values("u", key, "active") == [new]
    assert await tenant.values("u", key, "frozen") == [old]


async def test_a_look_alike_correction_replaces_nothing(tenant: TenantCtx) -> None:
    """Another person's contact changed, and a remark on the weather, replace nothing."""
    await tenant.say("u", "s1", "My email is anna@example.com", at=T1)
    await tenant.say("u", "s1", "my boss's email changed to boss@corp.example.com", at=T2)
    assert await tenant.values("u", "contact.email", "active") == ["anna@example.com"]
    await tenant.say("v", "s1", "I live in Lisbon.", at=T1)
    await tenant.say("v", "s1", "ok it's sunny, not rainy today", at=T2)
    assert await tenant.values("v", "residence.city", "active") == ["Lisbon"]
