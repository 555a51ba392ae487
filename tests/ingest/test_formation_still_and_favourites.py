"""What a change leaves as it was, and favourites replaced the other way round. A turn that
ends one thing and says another still holds ("不做运营了，转产品了，还在美团", "same job at
Shopify") freezes only what ended; a favourite no longer the favourite is no dislike, and a
new one said after it replaces it; a request for the answers' language claims no language
spoken. Through the HTTP API."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1, T2 = "2026-03-02T09:00:00+08:00", "2026-03-02T10:00:00+08:00"


@pytest.mark.parametrize(
    ("first", "then", "employer"),
    [
        ("我在美团做运营", "不做运营了，转产品了，还在美团", "美团"),
        ("我在上海的字节上班", "我不在上海了，调到北京了，还是字节", "字节"),
    ],
)
async def test_what_a_change_says_still_holds_stays_active_zh(
    tenant: TenantCtx, first: str, then: str, employer: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    await tenant.say("u", "s1", then, at=T2)
    assert await tenant.values("u", "work.employer") == [employer]
    assert await tenant.values("u", "work.employer", "frozen") == []


async def test_a_move_beside_the_same_job_is_no_new_employer_en(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I'm a PM at Shopify in Ottawa", at=T1)
    await tenant.say(
        "u", "s1", "I'm not in Ottawa anymore, moved to Toronto, same job at Shopify", at=T2
    )
    assert await tenant.values("u", "work.employer") == ["Shopify"]
    assert await tenant.values("u", "work.employer", "frozen") == []
    assert await tenant.values("u", "residence.city") == ["Toronto"]


async def test_the_role_ended_is_frozen_the_employer_kept_zh(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我在美团做运营", at=T1)
    await tenant.say("u", "s1", "不做运营了，转产品了，还在美团", at=T2)
    assert await tenant.values("u", "work.role") == ["产品"]
    assert await tenant.values("u", "work.role", "frozen") == ["运营"]


@pytest.mark.parametrize(
    ("first", "then", "new", "old"),
    [
        (
            "my favourite band is Coldplay",
            "eh, Coldplay isn't my favourite anymore, it's Radiohead these days",
            "radiohead",
            "coldplay",
        ),
        ("我最喜欢的歌手是周杰伦", "现在最喜欢的不是周杰伦了，是陈奕迅", "陈奕迅", "周杰伦"),
        ("我最喜欢的歌手是周杰伦", "现在最喜欢的歌手不是周杰伦了，是陈奕迅", "陈奕迅", "周杰伦"),
    ],
)
async def test_a_favourite_no_longer_is_replaced_by_the_one_said_after(
    tenant: TenantCtx, first: str, then: str, new: str, old: str
) -> None:
    active, frozen = await tenant.change("u", (first, then), "preference.likes", at=(T1, T2))
    assert active == [new]
    assert frozen == [old]
    assert await tenant.values("u", "preference.dislikes") == []


async def test_no_longer_the_favourite_is_no_dislike_nor_a_liking(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "Coldplay isn't my favourite band anymore", at=T1)
    assert await tenant.values("u", "preference.dislikes") == []
    await tenant.say("v", "s1", "最喜欢的不是周杰伦了", at=T1)
    assert await tenant.values("v", "preference.likes") == []


async def test_what_is_liked_said_with_de_shi_is_the_thing_zh(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我喜欢的是猫", at=T1)
    assert await tenant.values("u", "preference.likes") == ["猫"]


@pytest.mark.parametrize(
    ("said", "language", "content"),
    [
        ("以后回答我请用中文，不要夹英文。", "中文", "希望用中文回答"),
        ("please reply in Spanish from now on", "spanish", "wants answers in Spanish"),
    ],
)
async def test_the_answers_language_asked_for_claims_no_language_spoken(
    tenant: TenantCtx, said: str, language: str, content: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    [memory] = await tenant.memories("u", key="language.preferred")
    assert memory["value"].lower() == language
    assert memory["content"] == content


async def test_a_corrected_role_lives_on_in_no_other_memory_zh(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我在上海一家广告公司做设计师。", at=T1)
    await tenant.say("u", "s1", "更正一下，我不是设计师，是做文案策划的。", at=T2)
    assert await tenant.values("u", "work.role") == ["文案策划"]
    active = await tenant.memories("u", status="active")
    assert [m["content"] for m in active if "设计师" in m["content"]] == []
