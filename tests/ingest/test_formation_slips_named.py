"""A slip that names what was given wrong ("号码说错了", "I gave you the wrong number",
"航班号说错了") replaces only a memory of that; a slip stated as "说错了，我是29" replaces the
misstated age. Through the HTTP API (docs/formation.md, "Slips that name what was wrong").
"""

from __future__ import annotations

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-01T09:01:00+08:00"


async def test_a_slip_naming_something_else_leaves_the_age(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u1", ("我今年28岁", "航班号说错了，是CA929"), "age", at=(T1, T2)
    )
    assert (active, frozen) == (["28"], [])
    active, frozen = await tenant.change(
        "u2", ("I'm 41", "I typed the wrong flight number, it's UA88"), "age", at=(T1, T2)
    )
    assert (active, frozen) == (["41"], [])


async def test_a_slip_naming_the_age_replaces_it(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u1", ("我今年28岁", "不好意思，我把年龄写错了，是三十一"), "age", at=(T1, T2)
    )
    assert (active, frozen) == (["31"], ["28"])


async def test_an_age_said_again_after_a_slip_replaces_the_misstated_one(
    tenant: TenantCtx,
) -> None:
    active, frozen = await tenant.change("u1", ("我今年28岁", "说错了，我是29"), "age", at=(T1, T2))
    assert (active, frozen) == (["29"], ["28"])
    active, frozen = await tenant.change(
        "u2", ("我今年28岁", "啊说错了，我是二十九岁"), "age", at=(T1, T2)
    )
    assert (active, frozen) == (["29"], ["28"])


async def test_a_phone_number_corrected_by_name_replaces_the_old_one(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u1",
        ("我的手机号是13800138000", "号码说错了，是13900139000"),
        "contact.phone",
        at=(T1, T2),
    )
    assert (active, frozen) == (["13900139000"], ["13800138000"])
    active, frozen = await tenant.change(
        "u2",
        ("my cell is 555-0142", "sorry, I gave you the wrong number, it's 555-0199"),
        "contact.phone",
        at=(T1, T2),
    )
    assert (active, frozen) == (["555-0199"], ["555-0142"])


async def test_a_slip_naming_the_number_leaves_the_email(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u1",
        ("my email is dana.k@example.com", "oops, I gave you the wrong number, it's 555-0199"),
        "contact.email",
        at=(T1, T2),
    )
    assert (active, frozen) == (["dana.k@example.com"], [])


async def test_something_forgotten_to_mention_ends_nothing(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u1",
        ("I have a cat named Rex", "oh I forgot to mention, Rex is a rescue from the shelter"),
        "pets.name",
        at=(T1, T2),
    )
    assert (active, frozen) == (["rex"], [])
    active, frozen = await tenant.change(
        "u2", ("我会说粤语", "忘了说，粤语是我外婆教的"), "language.preferred", at=(T1, T2)
    )
    assert (active, frozen) == (["粤语"], [])


async def test_a_slip_said_twice_names_nothing_and_still_replaces(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u1", ("我生日是3月8号", "打错了打错了，是3月9号"), "birthday", at=(T1, T2)
    )
    assert (active, frozen) == (["03-09"], ["03-08"])


async def test_the_right_number_said_in_a_sentence_of_its_own_replaces_the_old(
    tenant: TenantCtx,
) -> None:
    active, frozen = await tenant.change(
        "u1",
        (
            "my cell is 555-0142",
            "Sorry, I gave you the wrong phone number. The right one is 555-0199.",
        ),
        "contact.phone",
        at=(T1, T2),
    )
    assert (active, frozen) == (["555-0199"], ["555-0142"])


async def test_a_wrong_number_said_alone_replaces_the_old(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u1",
        ("My phone number is 415-555-0100", "Oops, wrong phone number, it's 415-555-0123"),
        "contact.phone",
        at=(T1, T2),
    )
    assert (active, frozen) == (["415-555-0123"], ["415-555-0100"])


async def test_a_number_said_in_place_without_a_comma_replaces_the_old(
    tenant: TenantCtx,
) -> None:
    active, frozen = await tenant.change(
        "u1", ("I'm 34", "typo earlier lol, I'm 43 not 34"), "age", at=(T1, T2)
    )
    assert (active, frozen) == (["43"], ["34"])


async def test_a_value_asked_back_then_meant_otherwise_is_replaced(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u1",
        ("I live in Leeds", "wait did I say Leeds?? I meant Sheffield, sorry"),
        "residence.city",
        at=(T1, T2),
    )
    assert (active, frozen) == (["sheffield"], ["leeds"])
    await tenant.say("u2", "s1", "I live in Leeds", at=T1)
    await tenant.say("u2", "s1", "did I say I'd call at 5? I can make it at 6 too", at=T2)
    assert await tenant.values("u2", "residence.city", lower=True) == ["leeds"]


async def test_a_long_number_said_in_place_replaces_the_phone(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u1",
        ("我的手机号是 138-0013-8000", "手机号说错了，应该是 138-0013-8888"),
        "contact.phone",
        at=(T1, T2),
    )
    assert (active, frozen) == (["138-0013-8888"], ["138-0013-8000"])
