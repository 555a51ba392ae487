"""A change said of someone else ("My buddy Dave just got hired at Apple", "帮我妈换成 Android
了", "switched the team's CI over to …") or of a thing that is no standing fact of the user's
("公司电脑换成 Mac 了", "酒店改订到深圳了", "把快递地址改成公司了", "今天的咖啡换成了燕麦奶的")
replaces nothing the user holds; the same verbs said of the user still do. Through the HTTP
API, in Chinese and English."""

from __future__ import annotations

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-01T09:01:00+08:00"


async def test_a_change_of_someone_elses_keeps_the_users_fact(tenant: TenantCtx) -> None:
    cases = [
        # another person as the subject
        ("I work at Microsoft.", "My buddy Dave just got hired at Apple.",
         "work.employer", "microsoft"),
        ("I'm at Stripe.", "A coworker of mine just left for Google.", "work.employer", "stripe"),
        ("I live in Bristol.", "Priya, my flatmate, moved to Leeds.", "residence.city", "bristol"),
        # done for another, or another's thing
        ("我用 iPhone", "帮我妈换成 Android 了", "tech.preferred", "iphone"),
        ("我喜欢喝美式", "帮同事把奶茶换成了大杯", "preference.drink", "美式"),
        ("I use Jenkins.", "Switched the team's CI over to GitHub Actions.",
         "tech.preferred", "jenkins"),
    ]  # fmt: skip
    for i, (first, then, key, value) in enumerate(cases):
        got = await tenant.change(f"u{i}", (first, then), key, at=(T1, T2))
        assert got == ([value], []), then


async def test_a_thing_changed_that_is_no_fact_of_the_users_replaces_nothing(
    tenant: TenantCtx,
) -> None:
    cases = [
        ("我平时用 Windows", "公司电脑换成 Mac 了", "tech.preferred", "windows"),
        ("我用 Mac", "把显示器换成 4K 的了", "tech.preferred", "mac"),
        ("我住在广州", "酒店改订到深圳了", "residence.city", "广州"),
        ("我在美团做产品", "把快递地址改成公司了", "work.employer", "美团"),
        # a thing of one day
        ("我喝美式", "今天的咖啡换成了燕麦奶的", "preference.drink", "美式"),
    ]
    for i, (first, then, key, value) in enumerate(cases):
        got = await tenant.change(f"u{i}", (first, then), key, at=(T1, T2))
        assert got == ([value], []), then
    found = await tenant.recall("u2", "我住在哪个城市")
    assert any(m.get("value") == "广州" for m in found["memories"])


async def test_the_same_verbs_said_of_the_user_still_replace(tenant: TenantCtx) -> None:
    cases = [
        ("I work at Microsoft.", "I just got hired at Apple.", "work.employer", "microsoft",
         "apple"),
        ("我用 iPhone", "我换成 Android 了", "tech.preferred", "iphone", "android"),
        ("我喜欢喝美式", "咖啡换成茶了", "preference.drink", "美式", "茶"),
        ("我喝美式", "我把美式换成了燕麦拿铁", "preference.drink", "美式", "燕麦拿铁"),
    ]  # fmt: skip
    for i, (first, then, key, old, new) in enumerate(cases):
        got = await tenant.change(f"u{i}", (first, then), key, at=(T1, T2))
        assert got == ([new], [old]), then
