"""Changes that stick, said the Chinese way: a parting that names no one ends the user's
partner, a job turned to with the subject left out replaces the role, meat eaten again ends a
meatless diet, and a correction opened by 纠正一下 puts the value said in place of the old one.
Look-alikes (a relative's parting or meal, a daughter, 转正) replace nothing. Through the HTTP
API, in Chinese and English."""

from __future__ import annotations

from tests.conftest import TenantCtx

AT = ("2026-03-01T09:00:00+08:00", "2026-03-01T09:01:00+08:00")


async def test_a_parting_that_names_no_one_ends_the_partner(tenant: TenantCtx) -> None:
    cases = [
        ("u1", ("我女朋友叫小雯", "上个月我们分手了"), [], ["小雯"]),
        ("u2", ("My husband is called Mark", "We got divorced last year"), [], ["mark"]),
        # no partner held: a daughter is no one the user parts from
        ("u3", ("我女儿叫朵朵", "我们分手了"), ["朵朵"], []),
        # the parents' divorce is theirs
        ("u4", ("我老公叫阿强", "我姐上个月离婚了"), ["姐", "阿强"], []),
    ]
    for user, turns, active, frozen in cases:
        assert await tenant.change(user, turns, "family.member", at=AT) == (active, frozen), turns


async def test_a_job_turned_to_without_a_subject_replaces_the_role(tenant: TenantCtx) -> None:
    assert await tenant.change("u1", ("我是做运维的", "后来转测试了"), "work.role", at=AT) == (
        ["测试"],
        ["运维"],
    )
    # made permanent (转正) is no job turned to
    assert await tenant.change("u2", ("我是做运维的", "上周转正了"), "work.role", at=AT) == (
        ["运维"],
        [],
    )


async def test_meat_eaten_again_ends_a_meatless_diet(tenant: TenantCtx) -> None:
    cases = [
        ("u1", ("我吃素", "最近又开始吃肉了"), [], ["素食"]),
        ("u2", ("I'm vegan", "I'm eating fish again these days"), [], ["vegan"]),
        # someone else's meal, and a wish not to, end nothing
        ("u3", ("我吃素", "我老公开始吃肉了"), ["素食"], []),
        ("u4", ("我吃素", "我不想开始吃肉"), ["素食"], []),
    ]
    for user, turns, active, frozen in cases:
        assert await tenant.change(user, turns, "diet.style", at=AT) == (active, frozen), turns


async def test_a_correction_puts_the_value_in_place_of_the_old(tenant: TenantCtx) -> None:
    turns = ("我在百度上班", "纠正一下，我在网易，不是百度")
    assert await tenant.change("u1", turns, "work.employer", at=AT) == (["网易"], ["百度"])
    # where the user is at the moment is no employer said in place of one
    turns = ("我在百度上班", "我在家，不是在公司")
    assert await tenant.change("u2", turns, "work.employer", at=AT) == (["百度"], [])
