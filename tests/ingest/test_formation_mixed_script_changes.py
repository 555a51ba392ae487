"""Changes said in mixed Chinese and English: a Chinese clause that leaves the user out and
names the new value in Latin letters ("最近搬去了Seattle", "现在住 Oakland", "已经离职了，现在在
ByteDance"), an English one that leaves it out after a clause of theirs ("I left ByteDance, now
at Google"), an address or a name renewed in English words ("email 换了，新的是 …", "我的
nickname 改成 Kiki 了"), a job in English after 转 ("最近转 PM 了"), and a fact first said in
the other script. Through the HTTP API."""

from __future__ import annotations

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-01T09:01:00+08:00"


async def test_a_change_without_its_subject_freezes_what_it_replaces(tenant: TenantCtx) -> None:
    cases = [
        ("我住在Boston", "最近搬去了Seattle", "residence.city", "boston", "seattle"),
        ("I'm based in 杭州", "最近搬回Toronto了", "residence.city", "杭州", "toronto"),
        ("我住 San Jose", "搬家了，现在住 Oakland", "residence.city", "san jose", "oakland"),
        ("我叫 Jenny Wang", "actually 我改名了，现在叫 Jennifer Wang",
         "name.full", "jenny wang", "jennifer wang"),
        ("我在 Microsoft 工作", "我已经不在 Microsoft 了，现在在 Google",
         "work.employer", "microsoft", "google"),
        ("I work at 腾讯", "已经离职了，现在在 ByteDance", "work.employer", "腾讯", "bytedance"),
        ("我在字节跳动工作", "I left ByteDance last month, now at Google",
         "work.employer", "字节跳动", "google"),
        ("我在 Shopee 上班", "上个月跳到了Netflix", "work.employer", "shopee", "netflix"),
        # a Chinese name in an English clause, the date no part of it
        ("我在 Grab 上班", "I joined 小红书 last month", "work.employer", "grab", "小红书"),
        ("I work at 美团", "I'm now working at 字节", "work.employer", "美团", "字节"),
        # a job in English after a verb of turning (a tool after it stays a tool)
        ("I'm a software engineer", "最近转 PM 了，不写 code 了",
         "work.role", "software engineer", "pm"),
    ]  # fmt: skip
    for n, (first, then, key, old, new) in enumerate(cases):
        active, frozen = await tenant.change(f"u{n}", (first, then), key, at=(T1, T2))
        assert (active, frozen) == ([new], [old]), then


async def test_an_address_a_nickname_or_a_drink_renewed_in_english_words(
    tenant: TenantCtx,
) -> None:
    cases = [
        # contact.email holds many values: only a renewal freezes the old one
        ("my email is amy@old.io", "email 换了，新的是 amy@new.io",
         "contact.email", "amy@old.io", "amy@new.io"),
        ("叫我 Tony 就行", "我的 nickname 改成 Kiki 了", "name.nickname", "tony", "kiki"),
        # a Chinese drink in an English clause is the drink, so a later switch freezes it
        ("I drink 普洱 every day", "我现在改喝white tea了",
         "preference.drink", "普洱", "white tea"),
    ]  # fmt: skip
    for n, (first, then, key, old, new) in enumerate(cases):
        active, frozen = await tenant.change(f"u{n}", (first, then), key, at=(T1, T2))
        assert (active, frozen) == ([new], [old]), then


async def test_what_is_moved_or_visited_is_no_home_or_employer(tenant: TenantCtx) -> None:
    # a tool or things moved to are no home; the user's city stays
    active, frozen = await tenant.change(
        "u1", ("我住在 Boston", "笔记全搬到 Obsidian 了"), "residence.city", at=(T1, T2)
    )
    assert (active, frozen) == (["boston"], [])
    await tenant.say("u2", "s1", "照片全部迁到 iCloud 了", at=T1)
    assert await tenant.values("u2", "residence.city") == []
    # "现在在 X" with no word of a job: a spot, not an employer
    active, frozen = await tenant.change(
        "u3", ("我在 Shopee 上班", "现在在 Costco"), "work.employer", at=(T1, T2)
    )
    assert (active, frozen) == (["shopee"], [])
    # what a company does is no workplace of the user's, in either script
    for user, news in (("u5", "Google 又裁员了，好可怕"), ("u6", "腾讯又裁员了")):
        active, frozen = await tenant.change(
            user, ("我在阿里上班", news), "work.employer", at=(T1, T2)
        )
        assert (active, frozen) == (["阿里"], []), user
    # an English predicate after a Chinese relative is no name of theirs
    await tenant.say("u4", "s1", "我老公 works at Apple", at=T1)
    assert await tenant.values("u4", "family.member", lower=True) == ["老公"]
    assert await tenant.values("u4", "work.employer") == []


async def test_a_fact_said_again_or_changed_in_the_other_script(tenant: TenantCtx) -> None:
    # Values in two scripts are not compared by meaning (no transliteration): a single-valued
    # key keeps the newer statement, so the user still holds one city, as said last
    active, frozen = await tenant.change(
        "u1", ("I live in Beijing", "我住在北京"), "residence.city", at=(T1, T2)
    )
    assert (active, frozen) == (["北京"], ["beijing"])
    active, frozen = await tenant.change(
        "u2", ("我住在北京", "I moved to Shanghai last month"), "residence.city", at=(T1, T2)
    )
    assert (active, frozen) == (["shanghai"], ["北京"])
    active, frozen = await tenant.change(
        "u3", ("I live in Beijing", "我去年搬到了深圳"), "residence.city", at=(T1, T2)
    )
    assert (active, frozen) == (["深圳"], ["beijing"])
