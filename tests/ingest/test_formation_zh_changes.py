"""Changes said the Chinese way — a pet gone ("咪咪去年走了"), an address changed with the
thing named first ("邮箱换成 … 了") — freeze what they end, through the HTTP API; someone
else leaving or the power going out ends nothing of the user's."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-01T09:01:00+08:00"


async def test_a_pet_gone_is_frozen(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我养了一只猫叫咪咪", at=T1)
    await tenant.say("u", "s1", "咪咪去年走了", at=T2)
    assert await tenant.values("u", "pets.name") == []
    assert await tenant.values("u", "pets.name", "frozen") == ["咪咪"]


async def test_someone_leaving_or_the_power_going_ends_nothing(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我养了一只猫叫咪咪，我住在上海", at=T1)
    await tenant.say("u", "s1", "老板走了，我们可以下班了", at=T2)
    await tenant.say("u", "s1", "电没了，手机也快没电了", at="2026-03-01T09:02:00+08:00")
    assert await tenant.values("u", "pets.name") == ["咪咪"]
    assert await tenant.values("u", "residence.city") == ["上海"]


async def test_an_email_changed_with_the_thing_named_first_replaces_the_old(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u", "s1", "我的邮箱是 a@163.com", at=T1)
    await tenant.say("u", "s1", "邮箱换成 b@gmail.com 了", at=T2)
    assert await tenant.values("u", "contact.email") == ["b@gmail.com"]
    assert await tenant.values("u", "contact.email", "frozen") == ["a@163.com"]


async def test_an_allergy_corrected_by_contrast_replaces_the_old(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我对花生过敏", at=T1)
    await tenant.say("u", "s1", "其实我不是花生过敏，是芒果过敏", at=T2)
    assert await tenant.values("u", "health.allergy") == ["芒果"]
    assert await tenant.values("u", "health.allergy", "frozen") == ["花生"]


async def test_a_routine_moved_in_one_word_replaces_the_one_it_names(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我每天早上六点跑步", at=T1)
    await tenant.say("u", "s1", "我每天晚上十一点睡觉", at=T2)
    await tenant.say("u", "s1", "现在改成晚上跑了", at="2026-03-01T09:02:00+08:00")
    frozen = await tenant.values("u", "schedule.habit", "frozen")
    assert len(frozen) == 1 and "跑步" in frozen[0]
    active = await tenant.values("u", "schedule.habit")
    assert any("睡觉" in v for v in active) and any("晚上跑" in v for v in active)


async def test_pets_named_after_their_kind_with_no_naming_word(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我家有两只狗，大黄和小黑", at=T1)
    assert await tenant.values("u", "pets.name") == ["大黄", "小黑"]


async def test_leaving_and_joining_in_one_breath_replaces_the_employer(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I work at Google", at=T1)
    await tenant.say("u", "s1", "I quit Google last month and joined Stripe", at=T2)
    assert await tenant.values("u", "work.employer") == ["Stripe"]
    assert await tenant.values("u", "work.employer", "frozen") == ["Google"]


async def test_where_the_user_is_now_after_leaving_is_the_employer(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我在阿里上班", at=T1)
    await tenant.say("u", "s1", "我从阿里离职了，现在在字节", at=T2)
    assert await tenant.values("u", "work.employer") == ["字节"]
    assert await tenant.values("u", "work.employer", "frozen") == ["阿里"]


async def test_being_home_after_leaving_is_no_employer(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我从阿里离职了，现在在家", at=T1)
    assert await tenant.values("u", "work.employer") == []


async def test_a_pet_the_user_used_to_have_is_not_kept_as_theirs(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I used to have a dog called Bruno", at=T1)
    assert await tenant.values("u", "pets.name") == []
    assert await tenant.values("u", "pets.kind") == []


@pytest.mark.parametrize("employer", ["京东", "大疆", "中兴"])
async def test_an_employer_the_dictionary_takes_for_a_place_is_the_employer(
    tenant: TenantCtx, employer: str
) -> None:
    await tenant.say("u", "s1", f"我在{employer}做仓储管理", at=T1)
    assert await tenant.values("u", "work.employer") == [employer]
    assert await tenant.values("u", "work.location") == []
    await tenant.say("u", "s1", f"离开{employer}了，现在在顺丰", at=T2)
    assert await tenant.values("u", "work.employer") == ["顺丰"]
    assert await tenant.values("u", "work.employer", "frozen") == [employer]
