"""A project's decision taken again replaces the one the previous turn decided, and no other;
a firm left in lower case or a contract wrapped up ends the employer, a review left or a
meeting wrapped up does not; a name said to hold now before a question, an appointment moved
before a request, a hedged "不是X…是Y" and a taste turned round of "it" still form. Through the
HTTP API (turns on Saturday 2026-12-05)."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

AT = "2026-12-05T09:00:00+08:00"
LATER = "2026-12-05T10:00:00+08:00"
DECISION = "task.decision"


@pytest.mark.parametrize(
    ("turns", "new"),
    [
        (
            (
                "这个 project 我们 decide 用 MongoDB",
                "架构 review 完改成 PostgreSQL 了，schema 太乱 hold 不住",
            ),
            "postgresql",
        ),
        (
            (
                "for the Q3 redesign we're going with Vue",
                "team vote overruled me, it's React for the redesign now. ugh",
            ),
            "react",
        ),
        (
            (
                "项目这边决定用 MongoDB 存日志",
                "开会又改了，日志改用 Elasticsearch，Mongo 那套方案放弃",
            ),
            "elasticsearch",
        ),
        (("项目定了用 MySQL 做数据库", "数据库改用 TiDB 了"), "tidb"),
        (("这个项目我们决定用 Python", "老板拍板了，改成 Go"), "go"),
        (("we decided to use Terraform for deploys", "deploys moved to Pulumi now"), "pulumi"),
        (
            (
                "落地页我们定了用 Tailwind",
                "计划有变：团队投票决定不用 Tailwind 了，改用普通的 CSS Modules",
            ),
            "css modules",
        ),
    ],
)
async def test_a_decision_taken_again_replaces_the_one_decided_before(
    tenant: TenantCtx, turns: tuple[str, str], new: str
) -> None:
    active, frozen = await tenant.change("u", turns, DECISION, at=(AT, LATER))
    assert any(new in v for v in active), active
    assert len(frozen) == 1
    # the new decision is the project's, not a tool the user prefers
    assert not any(new in v for v in await tenant.values("u", "tech.preferred", lower=True))


@pytest.mark.parametrize(
    "turns",
    [
        # another part of the system, or another thing; one more beside it; the user's own tool
        ("后端我们决定用 Go", "前端改用 React 了"),
        ("We decided to use Postgres for user data.", "for analytics we switched to ClickHouse"),
        ("我们决定用 MongoDB 存订单", "报表那边改用 Metabase 了"),
        ("这个项目我们定了用 MongoDB", "团建改成去杭州了"),
        ("For the new CRM we decided on HubSpot", "we're also going to use Zapier now"),
        ("我们项目决定用 React", "我个人现在改用 Vim 了"),
        (
            "We decided to use Vue for the redesign.",
            "I switched to Neovim lol, VS Code kept lagging",
        ),
        # someone else's; long ago
        ("we decided on Jenkins for CI", "Sarah's startup moved to CircleCI now"),
        ("We decided to use Kubernetes.", "last year we switched to Terraform, it's been great"),
    ],
)
async def test_a_decision_beside_another_replaces_nothing(
    tenant: TenantCtx, turns: tuple[str, str]
) -> None:
    active, frozen = await tenant.change("u", turns, DECISION, at=(AT, LATER))
    assert frozen == []
    assert len(active) >= 1


async def test_a_firm_left_in_lower_case_ends_the_employer(tenant: TenantCtx) -> None:
    turns = (
        "I work in marketing at Spotify, need help tightening a campaign brief",
        "heads up — I left spotify last week. freelancing now, same marketing stuff",
    )
    active, frozen = await tenant.change("u", turns, "work.employer", at=(AT, LATER))
    assert active == []
    assert frozen == ["spotify"]


@pytest.mark.parametrize(
    ("turns", "key", "kept"),
    [
        (("I work at Spotify", "ugh I left my badge at Spotify again"), "work.employer", "spotify"),
        (
            ("I work at Uber", "I left uber a 1-star review lol, driver was rude"),
            "work.employer",
            "uber",
        ),
        (
            ("I work at Spotify", "I left spotify open all night and my battery died"),
            "work.employer",
            "spotify",
        ),
        (("I live in Beijing", "we left beijing for the weekend"), "residence.city", "beijing"),
        (("I work at Bosch", "the Bosch meeting wrapped up early"), "work.employer", "bosch"),
        (
            ("I work at Spotify", "Spotify Wrapped season wrapped up, back to normal work"),
            "work.employer",
            "spotify",
        ),
    ],
)
async def test_a_thing_left_or_wrapped_up_ends_no_employer_or_home(
    tenant: TenantCtx, turns: tuple[str, str], key: str, kept: str
) -> None:
    active, frozen = await tenant.change("u", turns, key, at=(AT, LATER))
    assert active == [kept]
    assert frozen == []


async def test_a_contract_wrapped_up_ends_the_employer(tenant: TenantCtx) -> None:
    turns = (
        "I'm a contractor at Bosch",
        "Bosch contract wrapped up last Friday, so nothing lined up right now",
    )
    active, frozen = await tenant.change("u", turns, "work.employer", at=(AT, LATER))
    assert active == []
    assert frozen == ["bosch"]


async def test_a_name_said_to_hold_now_before_a_question_replaces_the_tool(
    tenant: TenantCtx,
) -> None:
    turns = (
        "my daily driver is a thinkpad running Ubuntu",
        "caved and bought a macbook air, so macOS now. any must-have apps?",
    )
    active, frozen = await tenant.change("u", turns, "tech.preferred", at=(AT, LATER))
    assert active == ["macos"]
    assert frozen == ["ubuntu"]


async def test_an_appointment_moved_before_a_request_is_moved(tenant: TenantCtx) -> None:
    turns = (
        "dentist appt thursday 3pm",
        "they moved it to friday 10am, can u remind me the night before?",
    )
    active, frozen = await tenant.change("u", turns, "event", at=(AT, LATER))
    assert len(active) == 1 and "friday 10am" in active[0]
    assert len(frozen) == 1 and "thursday" in frozen[0]


async def test_a_hedged_denial_puts_the_allergen_right(tenant: TenantCtx) -> None:
    turns = ("我对猫毛过敏", "好像不是猫毛，测了过敏原，是尘螨")
    active, frozen = await tenant.change("u", turns, "health.allergy", at=(AT, LATER))
    assert active == ["尘螨"]
    assert frozen == ["猫毛"]


@pytest.mark.parametrize(
    ("turns", "liked", "disliked"),
    [
        (
            (
                "I hate olives. always pick them off",
                "ok hot take reversal: had them on a pizza in Naples and now i love them??"
                " who even am i",
            ),
            ["olives"],
            [],
        ),
        (("茄子是我最不喜欢的菜，软塌塌的", "我收回！昨天吃了家鱼香茄子，真香😂"), ["茄子"], []),
    ],
)
async def test_a_taste_turned_round_of_it_replaces_the_one_before(
    tenant: TenantCtx, turns: tuple[str, str], liked: list[str], disliked: list[str]
) -> None:
    for text, when in zip(turns, (AT, LATER), strict=True):
        await tenant.say("u", "s1", text, at=when)
    assert await tenant.values("u", "preference.likes", lower=True) == liked
    assert await tenant.values("u", "preference.dislikes", lower=True) == disliked


async def test_a_reaction_to_the_answer_turns_no_taste(tenant: TenantCtx) -> None:
    for text, when in zip(("I hate olives", "love it, thanks!"), (AT, LATER), strict=True):
        await tenant.say("u", "s1", text, at=when)
    assert await tenant.values("u", "preference.dislikes", lower=True) == ["olives"]
    assert await tenant.values("u", "preference.likes", lower=True) == []


@pytest.mark.parametrize(
    "turns",
    [
        # something else liked now, named in the turn or not
        ("I hate olives", "tried anchovies in Naples and now I love them"),
        ("茄子是我最不喜欢的菜", "昨天第一次吃了螺蛳粉，真香"),
        ("我讨厌吃榴莲", "这个攻略真香，现在就去试试"),
    ],
)
async def test_something_else_liked_now_turns_no_taste(
    tenant: TenantCtx, turns: tuple[str, str]
) -> None:
    for text, when in zip(turns, (AT, LATER), strict=True):
        await tenant.say("u", "s1", text, at=when)
    assert len(await tenant.values("u", "preference.dislikes", lower=True)) == 1
    assert await tenant.values("u", "preference.dislikes", "frozen", lower=True) == []


@pytest.mark.parametrize(
    ("turns", "role", "old"),
    [
        (("I work in sales", "no longer in sales, moved over to ops"), "ops", "sales"),
        (("我是老师", "不当老师了，改做教研，学校没换"), "教研", "老师"),
    ],
)
async def test_a_job_moved_to_after_one_ended_is_the_role(
    tenant: TenantCtx, turns: tuple[str, str], role: str, old: str
) -> None:
    active, frozen = await tenant.change("u", turns, "work.role", at=(AT, LATER))
    assert active == [role]
    assert frozen == [old]


@pytest.mark.parametrize(
    ("turns", "kept"),
    [
        (("I'm a nurse", "not on the night shift anymore, moved to days"), "nurse"),
        (("I work in sales", "my husband is no longer in sales, he moved over to ops"), "sales"),
        (("我是会计", "不喝奶茶了，改做咖啡了，自己在家磨豆"), "会计"),
    ],
)
async def test_a_shift_a_drink_or_someone_elses_job_moves_no_role(
    tenant: TenantCtx, turns: tuple[str, str], kept: str
) -> None:
    active, frozen = await tenant.change("u", turns, "work.role", at=(AT, LATER))
    assert active == [kept]
    assert frozen == []


async def test_the_thing_named_first_is_what_is_disliked(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "茄子是我最不喜欢的菜，软塌塌的", at=AT)
    assert await tenant.values("u", "preference.dislikes", lower=True) == ["茄子"]
