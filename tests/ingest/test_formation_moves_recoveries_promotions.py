"""Changes said the way people tell them in passing. An appointment moved by whoever keeps it
("客户刚说会议改到周五早上了", "they rang and bumped me to Monday 10am", "flight got moved, I'm
now leaving on the 20th") replaces the one held; a plan dropped verb first ("不考研了") or put
off ("CPA 以后再说") ends it. A recovery told by the doctor ("医生说已经没问题了", "the doc
cleared me to run again") ends the one condition held. A job quit after its workplace is named
ends the role too, unless another job is taken up. A promotion to a level alone ("got promoted
to senior") puts the level on the job held. Working remotely for good is where the user works.
A contrast said as a cleft ("过敏的是头孢，不是青霉素") puts the allergy right, and a hedge's
question mark ("so pescatarian I guess?") asks nothing. Through the HTTP API (turns on Monday
2026-12-07)."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

AT = "2026-12-07T09:00:00+08:00"
LATER = "2026-12-07T10:00:00+08:00"


@pytest.mark.parametrize(
    ("turns", "old"),
    [
        (("下周二下午三点跟供应商开电话会", "供应商刚说会议改到周三上午了"), "供应商"),
        (("got a physio appointment thursday at 4", "they rang and bumped me to monday 10am"),
         "physio"),
        (("flying to Lisbon on the 18th for a conference", "flight got moved, I'm now leaving on "
          "the 20th"), "lisbon"),
        (("我下個禮拜四約咗睇眼科", "診所話要改期，變咗下個禮拜二"), "眼科"),
    ],
)  # fmt: skip
async def test_an_appointment_moved_by_whoever_keeps_it_replaces_the_one_held(
    tenant: TenantCtx, turns: tuple[str, str], old: str
) -> None:
    await tenant.say("u", "s1", turns[0], at=AT)
    await tenant.say("u", "s1", turns[1], at=LATER)
    frozen = await tenant.values("u", "event", "frozen", lower=True)
    assert len(frozen) == 1 and old in frozen[0]
    assert len(await tenant.values("u", "event")) == 1


@pytest.mark.parametrize(
    "second",
    [
        "my car got moved by the council for street cleaning, so annoying",
        "我同事说他的面试改到周五了",
    ],
)
async def test_a_thing_of_someone_elses_moved_leaves_the_appointment(
    tenant: TenantCtx, second: str
) -> None:
    await tenant.say("u", "s1", "dinner with Priya on friday at 7", at=AT)
    await tenant.say("u", "s1", second, at=LATER)
    assert await tenant.values("u", "event", "frozen") == []
    active = await tenant.values("u", "event", lower=True)
    assert len(active) == 1 and "priya" in active[0]


@pytest.mark.parametrize(
    ("turns", "old"),
    [
        (("我打算明年去考公务员", "不考公务员了，想了想还是去私企"), "考公务员"),
        (("我打算年底考 PMP", "改主意了，PMP 以后再说"), "pmp"),
        (("今年想把驾照考了", "驾照的事先放一放，最近太忙"), "驾照"),
    ],
)
async def test_a_plan_dropped_verb_first_or_put_off_ends_it(
    tenant: TenantCtx, turns: tuple[str, str], old: str
) -> None:
    await tenant.say("u", "s1", turns[0], at=AT)
    await tenant.say("u", "s1", turns[1], at=LATER)
    frozen = await tenant.values("u", "plan", "frozen", lower=True)
    assert len(frozen) == 1 and old in frozen[0]


async def test_this_put_off_ends_no_plan(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我打算这个周末去爬山", at=AT)
    await tenant.say("u", "s1", "这个以后再说吧，先帮我改下简历", at=LATER)
    assert await tenant.values("u", "plan", "frozen") == []
    assert len(await tenant.values("u", "plan")) == 1


async def test_changed_ones_mind_is_no_routine(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我打算明年考 CPA", at=AT)
    await tenant.say("u", "s1", "改主意了，CPA 以后再说", at=LATER)
    assert await tenant.values("u", "schedule.habit") == []


@pytest.mark.parametrize(
    ("turns", "old"),
    [
        (("I've got tendonitis in my right elbow", "physio gave me the all clear yesterday, back "
          "to climbing next week"), "tendonitis"),
        (("I broke my wrist last month", "cast came off and the doctor cleared me to play "
          "again"), "broke"),
        (("我有慢性咽炎", "上周复查了，医生说已经没什么问题了"), "咽炎"),
        (("我有胃炎", "胃炎已经好了，不用再提醒我少吃辣了"), "胃炎"),
    ],
)  # fmt: skip
async def test_a_recovery_told_by_the_doctor_ends_the_condition(
    tenant: TenantCtx, turns: tuple[str, str], old: str
) -> None:
    await tenant.say("u", "s1", turns[0], at=AT)
    await tenant.say("u", "s1", turns[1], at=LATER)
    frozen = await tenant.values("u", "health.condition", "frozen", lower=True)
    assert len(frozen) == 1 and old in frozen[0]
    assert await tenant.values("u", "health.condition") == []
    assert await tenant.values("u", "tech.preferred") == []


async def test_a_clearance_for_surgery_is_no_recovery(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I have a hernia", at=AT)
    await tenant.say("u", "s1", "the surgeon cleared me for the operation next week", at=LATER)
    assert await tenant.values("u", "health.condition", lower=True) == ["hernia"]


async def test_a_job_quit_after_its_workplace_ends_the_role(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我在美团做产品运营", at=AT)
    await tenant.say("u", "s1", "已经从美团辞职了，打算休息两个月", at=LATER)
    assert await tenant.values("u", "work.employer") == []
    assert await tenant.values("u", "work.role") == []
    assert await tenant.values("u", "work.role", "frozen") == ["产品运营"]


async def test_a_job_quit_beside_another_leaves_the_roles(tenant: TenantCtx) -> None:
    await tenant.say(
        "u", "s1", "I'm a barista at Blue Bottle and I also teach piano for Yamaha", at=AT
    )
    await tenant.say("u", "s1", "I quit Blue Bottle, the early shifts were too much", at=LATER)
    assert await tenant.values("u", "work.employer", lower=True) == ["yamaha"]
    assert "piano teacher" in await tenant.values("u", "work.role", lower=True)


async def test_a_job_changed_with_the_title_kept_keeps_the_role(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我在腾讯做数据分析师", at=AT)
    await tenant.say("u", "s1", "我已经从腾讯辞职去了字节，title 没变", at=LATER)
    assert await tenant.values("u", "work.role") == ["数据分析师"]


@pytest.mark.parametrize(
    ("turns", "role"),
    [
        (("I'm a junior designer at Canva", "update: got promoted to senior last month!"),
         "senior designer"),
        (("I'm an engineer at Atlassian", "I was promoted to staff this week"), "staff engineer"),
        (("我是一名销售", "我升职成销售经理了"), "销售经理"),
    ],
)  # fmt: skip
async def test_a_promotion_names_the_job_held(
    tenant: TenantCtx, turns: tuple[str, str], role: str
) -> None:
    active, frozen = await tenant.change("u", turns, "work.role", at=(AT, LATER))
    assert active == [role]
    assert len(frozen) == 1


@pytest.mark.parametrize(
    ("turns", "place"),
    [
        (("I work at the Leeds office", "they closed the Leeds office so I'm fully remote now"),
         "remote"),
        (("我在上海张江上班", "我现在完全远程办公了"), "远程"),
    ],
)  # fmt: skip
async def test_working_remotely_for_good_is_where_the_user_works(
    tenant: TenantCtx, turns: tuple[str, str], place: str
) -> None:
    active, frozen = await tenant.change("u", turns, "work.location", at=(AT, LATER))
    assert active == [place]
    assert len(frozen) == 1


async def test_working_from_home_one_day_moves_nothing(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I work in Manchester", at=AT)
    await tenant.say("u", "s1", "I work from home on Fridays", at=LATER)
    assert await tenant.values("u", "work.location") == ["Manchester"]


async def test_a_name_the_user_would_rather_be_called_replaces_the_nickname(
    tenant: TenantCtx,
) -> None:
    active, frozen = await tenant.change(
        "u", ("Everyone calls me Nat.", "Honestly I'd rather you use Natalia — Nat feels too "
              "casual for work stuff."), "name.nickname", at=(AT, LATER),
    )  # fmt: skip
    assert active == ["natalia"]
    assert frozen == ["nat"]


async def test_a_cleft_contrast_puts_the_allergy_right(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u", ("我对芒果过敏", "刚想起来，过敏的是菠萝，不是芒果"), "health.allergy", at=(AT, LATER)
    )
    assert active == ["菠萝"]
    assert frozen == ["芒果"]


async def test_a_place_ends_before_a_clause_of_its_own(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I live in Phoenix and honestly the summers are brutal.", at=AT)
    assert await tenant.values("u", "residence.city") == ["Phoenix"]


async def test_a_hedged_diet_is_said_not_asked(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u", ("I've been vegan for years.", "Started having eggs again, so vegetarian I guess?"),
        "diet.style", at=(AT, LATER),
    )  # fmt: skip
    assert active == ["vegetarian"]
    assert frozen == ["vegan"]


async def test_a_taste_taken_up_without_its_subject(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "去了趟云南，回来居然爱上菌子了", at=AT)
    assert await tenant.values("u", "preference.likes") == ["菌子"]


@pytest.mark.parametrize(
    "second",
    [
        "医生说我的膝盖没问题了",
        "医生说我女儿没问题了",
        "等医生说没问题了，我就去游泳",
    ],
)
async def test_an_all_clear_of_something_else_or_to_come_ends_no_condition(
    tenant: TenantCtx, second: str
) -> None:
    await tenant.say("u", "s1", "我有糖尿病", at=AT)
    await tenant.say("u", "s1", second, at=LATER)
    assert await tenant.values("u", "health.condition") == ["糖尿病"]


@pytest.mark.parametrize(
    "second",
    [
        "I nearly quit Pixar last month but they gave me a raise",
        "我差点就从网易辞职了，后来还是留下了",
    ],
)
async def test_a_job_nearly_quit_is_kept(tenant: TenantCtx, second: str) -> None:
    await tenant.say("u", "s1", "I work at Pixar" if second.isascii() else "我在网易工作", at=AT)
    await tenant.say("u", "s1", second, at=LATER)
    assert await tenant.values("u", "work.employer", "frozen") == []


@pytest.mark.parametrize(
    ("first", "second", "held"),
    [
        ("我对花生过敏", "超市断货的是腰果，不是花生", "花生"),
        ("I'm allergic to sulfa drugs", "my husband's allergy is to codeine, not sulfa drugs",
         "sulfa drugs"),
        ("I'm allergic to sulfa drugs", "the one on sale is codeine, not sulfa drugs",
         "sulfa drugs"),
    ],
)  # fmt: skip
async def test_a_contrast_of_something_else_puts_nothing_right(
    tenant: TenantCtx, first: str, second: str, held: str
) -> None:
    await tenant.say("u", "s1", first, at=AT)
    await tenant.say("u", "s1", second, at=LATER)
    assert await tenant.values("u", "health.allergy", lower=True) == [held]


@pytest.mark.parametrize(
    "second",
    ["我问的是成都的房价，不是深圳的", "I meant the rent in Boston, not Seattle"],
)
async def test_what_was_asked_about_a_place_moves_no_home(tenant: TenantCtx, second: str) -> None:
    first = "我住在深圳" if not second.isascii() else "I live in Seattle"
    await tenant.say("u", "s1", first, at=AT)
    await tenant.say("u", "s1", second, at=LATER)
    assert await tenant.values("u", "residence.city", "frozen") == []


async def test_a_clause_after_a_value_is_no_second_item(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I'm allergic to kiwi and it's such a pain at brunch", at=AT)
    assert await tenant.values("u", "health.allergy", lower=True) == ["kiwi"]


@pytest.mark.parametrize(
    "second",
    [
        "我女朋友的高铁票改到周日了",
        "那场演唱会改到下个月举办了",
        "the grocery delivery got pushed to Saturday",
        "my manager's offsite got moved to the 22nd",
    ],
)
async def test_someone_elses_or_a_public_thing_moved_is_no_appointment(
    tenant: TenantCtx, second: str
) -> None:
    await tenant.say("u", "s1", "dentist on Thursday at 3pm", at=AT)
    await tenant.say("u", "s1", second, at=LATER)
    active = await tenant.values("u", "event", lower=True)
    assert len(active) == 1 and "dentist" in active[0]
    assert await tenant.values("u", "event", "frozen") == []


@pytest.mark.parametrize(
    "turns",
    [
        ("我下周一上午要去做体检", "医院打电话来，把我的体检改到周三了"),
        ("我周五晚上的火车回家", "火车票被改签到周六早上了"),
        ("I'm flying to Oslo on the 9th", "the airline rebooked me, I fly out on the 11th now"),
    ],
)
async def test_a_booking_moved_by_its_kind_replaces_the_one_held(
    tenant: TenantCtx, turns: tuple[str, str]
) -> None:
    await tenant.say("u", "s1", turns[0], at=AT)
    await tenant.say("u", "s1", turns[1], at=LATER)
    assert len(await tenant.values("u", "event", "frozen")) == 1
    assert len(await tenant.values("u", "event")) == 1
