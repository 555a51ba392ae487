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


@pytest.mark.parametrize(
    ("plan", "said"),
    [
        (
            "I'm planning to visit Japan in April.",
            "Our Japan trip is off to a great start — booked all the hotels today",
        ),
        (
            "I'm planning to run the Boston marathon in April.",
            "I'm not giving up on the marathon, no matter how tough the training gets",
        ),
        ("我准备下个月考驾照", "别的证书先不考了，专心考驾照"),
    ],
)
async def test_a_plan_only_spoken_of_stays(tenant: TenantCtx, plan: str, said: str) -> None:
    await tenant.say("u", "s1", plan, at=T1)
    [held] = await tenant.memories("u", key="plan")
    await tenant.say("u", "s1", said, at=T2)
    assert held["id"] in [m["id"] for m in await tenant.memories("u", key="plan", status="active")]


@pytest.mark.parametrize(
    ("home", "moved", "city"),
    [
        ("我现在住在南京。", "毕业典礼结束后我就搬到北京了。", "北京"),
        ("I live in Boston.", "We moved to Chicago right after the reunion.", "Chicago"),
    ],
)
async def test_a_move_said_beside_a_gathering_is_a_move(
    tenant: TenantCtx, home: str, moved: str, city: str
) -> None:
    await tenant.say("u", "s1", home, at=T1)
    await tenant.say("u", "s1", moved, at=T2)
    assert await tenant.values("u", "residence.city") == [city]


@pytest.mark.parametrize(
    "turns",
    [
        ("女儿上周过生日了。过完生日已经15了。",),
        ("Budget for the kitchen remodel is 40 grand.", "oops, 45"),
    ],
)
async def test_someone_elses_or_anothers_number_is_no_age(
    tenant: TenantCtx, turns: tuple[str, ...]
) -> None:
    await tenant.say("u", "s1", "I'm 35.", at=T1)
    for text in turns:
        await tenant.say("u", "s1", text, at=T2)
    assert await tenant.values("u", "age") == ["35"]


@pytest.mark.parametrize(
    "said",
    [
        "That's my old number from college and I still use it.",
        "This is my old address book export, can you help me dedupe it?",
        "That's my old phone on the desk, I use it as a music player now.",
    ],
)
async def test_an_old_thing_still_in_use_ends_no_contact(tenant: TenantCtx, said: str) -> None:
    await tenant.say("u", "s1", "My cell is 415-555-0199. My email is sam.k@example.com", at=T1)
    await tenant.say("u", "s1", said, at=T2)
    assert await tenant.values("u", "contact.phone") == ["415-555-0199"]
    assert await tenant.values("u", "contact.email") == ["sam.k@example.com"]


@pytest.mark.parametrize(
    ("employer", "went"),
    [
        ("我是护士，在协和医院上班。", "明天一早要去医院上班，先睡了。"),
        ("我在阿里上班。", "下周要去客户那边上班，驻场两周。"),
    ],
)
async def test_a_kind_of_workplace_gone_to_is_no_new_employer(
    tenant: TenantCtx, employer: str, went: str
) -> None:
    await tenant.say("u", "s1", employer, at=T1)
    [held] = await tenant.values("u", "work.employer")
    await tenant.say("u", "s1", went, at=T2)
    assert await tenant.values("u", "work.employer") == [held]


async def test_an_employer_corrected_is_the_new_name_whole(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I work at Goldman Sachs", at=T1)
    await tenant.say("u", "s1", "Sorry, actually it's JPMorgan, not Goldman", at=T2)
    assert await tenant.values("u", "work.employer") == ["JPMorgan"]


async def test_a_drink_quit_is_no_job_left(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I work at Acme as a designer.", at=T1)
    await tenant.say("u", "s1", "I drink a lot of Diet Coke.", at=T1)
    await tenant.say("u", "s1", "I quit Diet Coke cold turkey last week.", at=T2)
    assert await tenant.values("u", "work.employer") == ["Acme"]
    assert await tenant.values("u", "preference.drink", "frozen") == ["Diet Coke"]


async def test_a_city_that_names_its_university_is_a_school(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我本科在武汉大学，后来去剑桥读了个硕士。", at=T1)
    assert await tenant.values("u", "education.school") == ["剑桥", "武汉大学"]
