"""Changes that stick, said the Chinese way: a parting that names no one ends the user's
partner, a job turned to with the subject left out replaces the role, meat eaten again ends a
meatless diet, a correction opened by 纠正一下 or 准确地说 puts the value said in place of the
old one, and an ending that names only the thing (那只狗) or the liking (不爱吃了) ends what the
user held. Look-alikes (a relative's parting or meal, a daughter, 转正, how far a place is)
replace nothing. Through the HTTP API, in Chinese and English."""

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
    turned = ("我是做开发的", "我现在转去做运营了")
    assert await tenant.change("u3", turned, "work.role", at=AT) == (["运营"], ["开发"])
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


async def test_an_ending_that_names_only_the_thing_or_the_liking(tenant: TenantCtx) -> None:
    cases = [
        # the verb of liking with no object ends what the user just said they like
        ("u1", ("我很爱吃螺蛳粉", "最近不爱吃了"), "preference.likes", [], ["螺蛳粉"]),
        # a pet pointed at by its kind
        ("u2", ("我家有只狗", "那只狗前几天送人了"), "pets.kind", [], ["狗"]),
        # a new partner beside the parting: the old one ends, the new one stays
        ("u3", ("我女朋友叫佳佳", "我们分手了，现在的女朋友叫晓晓"), "family.member",
         ["晓晓"], ["佳佳"]),
    ]  # fmt: skip
    for user, turns, key, active, frozen in cases:
        assert await tenant.change(user, turns, key, at=AT) == (active, frozen), turns


async def test_a_value_said_more_precisely_replaces_and_a_distance_is_no_home(
    tenant: TenantCtx,
) -> None:
    cases = [
        ("u1", ("我住在北京", "确切地说是顺义"), ["顺义"], ["北京"]),
        # how far a place is names no home of the user's
        ("u2", ("我住在佛山", "离广州很近"), ["佛山"], []),
        ("u3", ("我住在北京", "我家离地铁站挺远"), ["北京"], []),
    ]
    for user, turns, active, frozen in cases:
        assert await tenant.change(user, turns, "residence.city", at=AT) == (active, frozen), turns


async def test_a_move_after_a_clause_of_the_past_replaces_the_home(tenant: TenantCtx) -> None:
    turns = ("我住在苏州", "之前一直住苏州，后来搬到了常州")
    assert await tenant.change("u1", turns, "residence.city", at=AT) == (["常州"], ["苏州"])
