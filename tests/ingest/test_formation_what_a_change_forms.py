"""A change forms one fact: the new value. The part of the turn that names what ended ("instead
of coffee", "已经离开 Shopify 了", "I used to use Vim", "以前用 Python") and the reason or time
of the change ("for my wife's job", "for uni", "可乐喝太多了", "lst week") form nothing of their
own; a job changed with the new place unnamed still ends the old employer. Through the HTTP
API, in Chinese and English."""

from __future__ import annotations

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-01T09:01:00+08:00"


async def test_what_a_change_ended_is_frozen_and_formed_nowhere(tenant: TenantCtx) -> None:
    cases = [
        ("I drink a lot of coffee.", "I've switched to green tea instead of coffee",
         "preference.drink", "coffee", "green tea"),
        ("我在 Shopify 做前端。", "已经离开 Shopify 了，现在在 Stripe 做后端",
         "work.employer", "shopify", "stripe"),
        ("I use Vim for everything.", "I used to use Vim but now I'm on VS Code",
         "tech.preferred", "vim", "vs code"),
        ("我写代码用 Python。", "以前用 Python，现在主要写 Go 了",
         "tech.preferred", "python", "go"),
    ]  # fmt: skip
    for n, (first, then, key, old, new) in enumerate(cases):
        user = f"u{n}"
        assert await tenant.change(user, (first, then), key, at=(T1, T2)) == ([new], [old]), then
        # the old value is formed again under no key: not avoided, not a second employer
        assert not [(k, v) for k, v in await tenant.facts(user) if v and v.lower() == old], then


async def test_the_reason_of_a_change_is_no_fact_of_its_own(tenant: TenantCtx) -> None:
    cases = [
        ("I live in Chicago.", "moved to Denver last month for my wife's job",
         "residence.city", "chicago", "denver"),
        ("I'm in London.", "not in London anymore - relocated to Manchester for uni",
         "residence.city", "london", "manchester"),
        ("I live in Leeds.",
         "I don't live in Leeds any more, we're in York now because of my partner's work",
         "residence.city", "leeds", "york"),
        ("我喜欢喝可乐。", "可乐喝太多了，现在改喝气泡水了", "preference.drink", "可乐", "气泡水"),
        ("i live in boston", "moved to nyc lst week, no longer in boston",
         "residence.city", "boston", "nyc"),
    ]  # fmt: skip
    for n, (first, then, key, old, new) in enumerate(cases):
        user = f"u{n}"
        assert await tenant.change(user, (first, then), key, at=(T1, T2)) == ([new], [old]), then
        # no employer, school, event or second drink from why or when it changed
        others = [
            (k, v)
            for k, v in await tenant.facts(user)
            if k != key and k != "family.member" and (k is not None or v is not None)
        ]
        assert others == [], then


async def test_a_job_changed_with_the_new_place_unnamed_ends_the_old_one(
    tenant: TenantCtx,
) -> None:
    for user, first, then in [
        ("u1", "我在招商银行做柜员。", "换工作了，现在在一家做新能源的公司当产品"),
        ("u2", "I work at Acme.", "I changed jobs last month"),
    ]:
        await tenant.say(user, "s1", first, at=T1)
        await tenant.say(user, "s1", then, at=T2)
        assert await tenant.values(user, "work.employer") == [], then
        assert len(await tenant.values(user, "work.employer", "frozen")) == 1, then
    # a change only thought about ends nothing
    await tenant.say("u3", "s1", "I work at Acme.", at=T1)
    await tenant.say("u3", "s1", "I'm thinking about changing jobs", at=T2)
    assert await tenant.values("u3", "work.employer") == ["Acme"]


async def test_a_past_home_beside_the_present_one_freezes_only_itself(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u", "s1", "I live in Boston.", at=T1)
    await tenant.say("u", "s1", "I used to live in Rome, a long time ago", at=T2)
    assert await tenant.values("u", "residence.city") == ["Boston"]
    await tenant.say("v", "s1", "I'm used to the cold now", at=T1)
    assert await tenant.facts("v") == []


async def test_a_place_left_is_withdrawn_under_the_place(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "Based in Seattle.", at=T1)
    await tenant.say("u", "s1", "Portland now. Left Seattle in June.", at=T2)
    assert await tenant.values("u", "residence.city", "frozen") == ["Seattle"]
    # the record of the withdrawal is filed under the city, not kept as an employer
    assert await tenant.memories("u", key="work.employer") == []
