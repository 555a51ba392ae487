"""Corrections said the short way a person says them: an appointment moved, said by the one
who moved it (a thing moved by "it" is no appointment of the user's); a rule for the answers
asked back the other way with 还是; a name to go by offered again; a slip on the age with
someone named after it. Through the HTTP API."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

# a Monday: the weekdays said next are to come
T1, T2 = "2026-03-02T09:00:00+08:00", "2026-03-02T10:00:00+08:00"


async def test_a_move_of_something_pointed_at_freezes_no_appointment_en(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u", "s1", "dentist on Monday at 9", at=T1)
    await tenant.say(
        "u", "s1", "my package was supposed to arrive today but they pushed it to Thursday", at=T2
    )
    assert await tenant.memories("u", key="event", status="frozen") == []
    assert "dentist on Monday at 9" in await tenant.values("u", "event")


async def test_a_move_said_by_whoever_moved_it_names_the_thing_after_them_zh(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u", "s1", "下周二上午九点要去医院复查", at=T1)
    await tenant.say("u", "s1", "医生说复查推迟到下周四了", at=T2)
    assert await tenant.values("u", "event") == ["医生说复查推迟到下周四"]
    assert await tenant.values("u", "event", "frozen") == ["下周二上午九点要去医院复查"]


async def test_another_appointment_moved_leaves_the_first_zh(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "周三下午两点开组会", at=T1)
    await tenant.say("u", "s1", "医生说牙科预约推迟到下周四了", at=T2)
    assert "周三下午两点开组会" in await tenant.values("u", "event")
    assert await tenant.values("u", "event", "frozen") == []
    # two appointments hold the thing moved, one of them the user's father's: neither is meant
    await tenant.say("v", "s1", "周二去医院复查", at=T1)
    await tenant.say("v", "s1", "周三陪我爸去医院复查", at=T1)
    await tenant.say("v", "s1", "医生说我爸的复查推迟到下周四了", at=T2)
    assert await tenant.values("v", "event", "frozen") == []


@pytest.mark.parametrize(
    ("first", "then", "kept", "gone"),
    [
        (
            "以后回答我都用表格",
            "算了还是用普通段落吧，表格在手机上看不清",
            "用普通段落",
            "表格",
        ),
        ("回答的时候多用点比喻", "比喻还是少用吧，有点啰嗦", "少用比喻", "多用点比喻"),
        (
            "给我写代码的时候注释用英文",
            "注释还是改成中文吧，组里有新人英文不太好",
            "注释改成中文",
            "英文",
        ),
    ],
)
async def test_a_rule_asked_back_with_haishi_replaces_the_old_one_zh(
    tenant: TenantCtx, first: str, then: str, kept: str, gone: str
) -> None:
    active, frozen = await tenant.change("u", (first, then), "assistant.constraint", at=(T1, T2))
    assert active == [kept]
    assert len(frozen) == 1 and gone in frozen[0]
    # the language of the code's comments is no language of the user's answers
    assert await tenant.values("u", "language.preferred") == []


async def test_haishi_about_no_part_of_the_answers_is_no_rule_zh(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "还是用MySQL吧，PG我们不熟", at=T1)
    assert await tenant.values("u", "assistant.constraint") == []


@pytest.mark.parametrize(
    ("first", "then", "kept", "gone"),
    [
        (
            "you can call me Becca",
            "actually, go with Rebecca, Becca feels too casual",
            "rebecca",
            "becca",
        ),
        (
            "you can call me Tommy",
            "actually go with Tom, Tommy was my childhood name",
            "tom",
            "tommy",
        ),
        (
            "call me Mo",
            "hmm let's go with Mohammed instead, Mo is what my family calls me",
            "mohammed",
            "mo",
        ),
    ],
)
async def test_a_name_offered_again_replaces_the_nickname_en(
    tenant: TenantCtx, first: str, then: str, kept: str, gone: str
) -> None:
    active, frozen = await tenant.change("u", (first, then), "name.nickname", at=(T1, T2))
    assert (active, frozen) == ([kept], [gone])
    assert await tenant.values("u", "assistant.constraint") == []


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("call me Kat", "let's go with Kafka"),
        ("call me Al", "base image? let's go with Alpine"),
        ("call me Ben", "for the dog's name we're torn. let's go with Bella"),
        ("call me Sam", "for team chat, just use Slack"),
    ],
)
async def test_go_with_a_thing_is_no_name(tenant: TenantCtx, first: str, then: str) -> None:
    await tenant.say("a", "s1", then, at=T1)
    assert await tenant.values("a", "name.nickname") == []
    # nor does it replace a name held that it is no form of
    held = first.removeprefix("call me ").lower()
    active, frozen = await tenant.change("b", (first, then), "name.nickname", at=(T1, T2))
    assert (active, frozen) == ([held], [])


async def test_a_slip_on_the_age_with_someone_named_after_it_is_the_users_en(
    tenant: TenantCtx,
) -> None:
    active, frozen = await tenant.change(
        "u", ("I'm 29 btw", "oops 30. my sister reminded me"), "age", at=(T1, T2)
    )
    assert (active, frozen) == (["30"], ["29"])
    # someone named before the number: it is theirs
    active, frozen = await tenant.change(
        "v", ("I'm 29 btw", "my sister just had her birthday. 31 now"), "age", at=(T1, T2)
    )
    assert (active, frozen) == (["29"], [])
    # a number said before it is what the slip corrects
    active, frozen = await tenant.change(
        "w",
        ("I'm 29", "we booked a table for 25. oops 30. my sister invited more friends"),
        "age",
        at=(T1, T2),
    )
    assert (active, frozen) == (["29"], [])
