"""Plans dropped by what they are about, rules lifted or no longer needed, a gathering moved;
and what only looks like a job left, an age said again or a workplace joined. Through the
HTTP API."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1, T2, T3 = (
    "2026-03-01T09:00:00+08:00",
    "2026-03-02T09:00:00+08:00",
    "2026-03-03T09:00:00+08:00",
)


@pytest.mark.parametrize(
    ("plan", "dropped"),
    [
        (
            "I'm planning to run the Boston marathon in April.",
            "I've decided against the marathon, my knee isn't up for it.",
        ),
        (
            "We're thinking about getting a dog next year.",
            "Scrap the dog idea, our landlord said no pets.",
        ),
        ("我准备下个月考驾照", "驾照先不考了，太忙"),
        ("打算今年年底换车", "换车的事黄了，预算不够"),
        ("我打算明年去日本读研", "读研不去了，直接工作"),
    ],
)
async def test_a_plan_dropped_by_what_it_is_about_ends(
    tenant: TenantCtx, plan: str, dropped: str
) -> None:
    await tenant.say("u", "s1", plan, at=T1)
    [held] = await tenant.memories("u", key="plan")
    await tenant.say("u", "s1", dropped, at=T2)
    assert [m["id"] for m in await tenant.memories("u", key="plan", status="frozen")] == [
        held["id"]
    ]
    assert await tenant.values("u", "plan") == []
    assert await tenant.memories("u", key="assistant.constraint") == []  # "直接工作": no rule


@pytest.mark.parametrize(
    ("rule", "lifted"),
    [
        ("以后回答都用 bullet points", "bullet points 不用了，正常写就行"),
        ("Don't ever suggest Starbucks to me.", "Ok you can suggest Starbucks again."),
    ],
)
async def test_a_rule_lifted_in_other_words_ends(tenant: TenantCtx, rule: str, lifted: str) -> None:
    await tenant.say("u", "s1", rule, at=T1)
    [held] = await tenant.memories("u", key="assistant.constraint")
    await tenant.say("u", "s1", lifted, at=T2)
    frozen = await tenant.memories("u", key="assistant.constraint", status="frozen")
    assert [m["id"] for m in frozen] == [held["id"]]


@pytest.mark.parametrize(
    "moved", ["年会改到杭州了", "年会不在三亚了，换成杭州", "年会不去三亚了，改成在杭州办。"]
)
async def test_a_gathering_moved_is_no_move_of_home(tenant: TenantCtx, moved: str) -> None:
    await tenant.say("u", "s1", "我住在北京", at=T1)
    await tenant.say("u", "s1", "我们定了，今年年会在三亚办", at=T2)
    await tenant.say("u", "s1", moved, at=T3)
    assert await tenant.values("u", "residence.city") == ["北京"]
    assert await tenant.values("u", "task.decision", "frozen") == ["今年年会在三亚办"]
    [decision] = await tenant.values("u", "task.decision")
    assert "杭州" in decision


async def test_an_offsite_moved_is_no_move_of_home(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I live in Austin.", at=T1)
    await tenant.say("u", "s1", "The offsite moves to Denver this year.", at=T2)
    assert await tenant.values("u", "residence.city") == ["Austin"]


@pytest.mark.parametrize(
    "said",
    [
        "I gave notice to my landlord, we're moving out in March.",
        "I got fired up about the new project at the hackathon.",
        "I finally retired my old laptop.",
        "I resigned as treasurer of the PTA.",
        "I'm retired from competitive swimming, my knees are shot.",
        "I got a new job offer but I'm staying at Stripe.",
        "I went solo to the concert last night.",
        "我快失业了",
        "我可能要被裁了",
        "我们部门经理上周辞职了",
        "我们公司好多人被裁了",
        "我的电脑退休了，换了台新的",
    ],
)
async def test_what_only_looks_like_a_job_left_ends_nothing(tenant: TenantCtx, said: str) -> None:
    await tenant.say("u", "s1", "I'm a data analyst at Stripe.", at=T1)
    await tenant.say("u", "s1", said, at=T2)
    assert await tenant.values("u", "work.employer") == ["Stripe"]
    assert await tenant.values("u", "work.role") == ["data analyst"]


@pytest.mark.parametrize(
    ("left", "employer", "role"),
    [
        ("上个月被优化了", [], []),
        ("Handed in my two weeks yesterday.", [], []),
        ("I switched jobs last month, still nursing of course.", [], ["nurse"]),
    ],
)
async def test_a_job_left_in_other_words(
    tenant: TenantCtx, left: str, employer: list[str], role: list[str]
) -> None:
    await tenant.say("u", "s1", "I'm a nurse at Kaiser.", at=T1)
    await tenant.say("u", "s1", left, at=T2)
    assert await tenant.values("u", "work.employer") == employer
    assert await tenant.values("u", "work.role") == role


@pytest.mark.parametrize(
    ("first", "slip"),
    [
        ("We have 28 people coming to the party.", "oops actually 29 not 28"),
        ("我们组 12 个人", "不对，13 了，刚来了个新人"),
    ],
)
async def test_a_count_said_again_is_no_age(tenant: TenantCtx, first: str, slip: str) -> None:
    await tenant.say("u", "s1", first, at=T1)
    await tenant.say("u", "s1", slip, at=T2)
    assert await tenant.values("u", "age") == []


async def test_a_slip_naming_another_number_leaves_the_age(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I'm 34.", at=T1)
    await tenant.say("u", "s1", "We ordered 28 chairs. oops actually 29 not 28", at=T2)
    assert await tenant.values("u", "age") == ["34"]


@pytest.mark.parametrize(
    "joined",
    [
        "刚 join 了 Figma 的社区",
        "我刚 join 了会议",
        "刚 join 了 Figma 的 beta",
        "Just joined the Arc browser waitlist",
        "I joined the Figma Config volunteer crew",
        "I joined a running club",
    ],
)
async def test_something_joined_is_no_workplace(tenant: TenantCtx, joined: str) -> None:
    await tenant.say("u", "s1", "我在字节做产品经理", at=T1)
    await tenant.say("u", "s1", joined, at=T2)
    assert await tenant.values("u", "work.employer") == ["字节"]
    assert await tenant.values("u", "work.role") == ["产品经理"]


async def test_a_pronoun_names_no_one(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "My sister got a beagle last month, named her Pepper", at=T1)
    assert "her" not in await tenant.values("u", "family.member", lower=True)


async def test_a_spelling_owned_as_my_bad(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "My name is Sarah.", at=T1)
    await tenant.say("u", "s1", "It's Sara without the h, my bad", at=T2)
    assert await tenant.values("u", "name.full") == ["Sara"]
