"""What the user asks of the assistant and what they do for a living, read by the shape of
the clause. A habit asked to end ("别老给我列清单") or disliked ("我不喜欢你每次都先总结一遍",
"I hate it when you keep apologizing") is a standing rule; a request about this one question
("这个问题 answer in English 就好") stores nothing. A job is the user's when said as the
standpoint of what follows ("As a nurse on night shifts I…"), after "the" or a dropped "I've"
("I'm the only designer at…", "Been a paralegal at…"), as a subject taught at a school
("我现在在一所小学教数学"), as the line of work of the user's team ("我们组做推荐算法"), as a
verb of the work opening the clause ("teaching 3rd grade this year") or as an English title
before 在<organisation> ("I'm a PM 在美团"); "As a kid …" and "Teaching is hard" name none.
A language alone said to stand ("Actually, English from now on.") replaces the language of
the answers asked before, and so does one switched back to ("还是用中文吧", "换回中文吧", "let's
go back to English"). Through the HTTP API, in Chinese, English and both."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-01T09:01:00+08:00"
RULE = "assistant.constraint"


async def test_a_habit_asked_to_end_or_disliked_is_a_standing_rule(tenant: TenantCtx) -> None:
    said = {
        "u1": ("别老给我列清单", "列清单"),
        "u2": ("我不喜欢你每次都先总结一遍", "总结"),
        "u3": ("I hate it when you keep apologizing", "apologizing"),
        "u4": ("I don't like it when you use so many emojis", "emojis"),
        "u7": ("I can't stand it when you keep asking follow-up questions", "follow-up"),
        "u8": ("不要动不动就给我列表格", "表格"),
    }
    for user, (text, _) in said.items():
        await tenant.say(user, "s1", text, at=T1)
    for user, (_, rule) in said.items():
        stored = await tenant.memories(user, status="active")
        assert [m["key"] for m in stored] == [RULE], stored
        assert rule in stored[0]["value"]
    # a standing rule comes with every recall, among the constraints to follow
    [rule] = await tenant.memories("u1", key=RULE)
    recalled = await tenant.recall("u1", "推荐几本书")
    assert rule["id"] in [c["id"] for c in recalled["constraints"]]
    # someone else's habit, a dislike of a person, a habit only pointed at: no rule
    for user, text in (
        ("u5", "我不喜欢他每次都迟到"),
        ("u6", "I hate it when you're late"),
        ("u9", "你别老这样"),
    ):
        await tenant.say(user, "s1", text, at=T1)
        assert [m for m in await tenant.memories(user) if m["key"] == RULE] == []


async def test_a_request_about_this_question_only_stores_nothing(tenant: TenantCtx) -> None:
    for user, text in (
        ("u1", "这个问题 answer in English 就好"),
        ("u2", "Can you answer this one in Spanish?"),
        ("u3", "这道题用英文解释"),
    ):
        await tenant.say(user, "s1", text, at=T1)
        assert await tenant.memories(user) == [], text


async def test_a_job_said_in_passing_is_the_users(tenant: TenantCtx) -> None:
    said = {
        "u1": ("As a nurse on night shifts I barely see daylight", {"work.role": "nurse"}),
        "u2": ("As a teacher, I get summers off", {"work.role": "teacher"}),
        "u3": ("I'm the only designer at a 12-person startup", {"work.role": "designer"}),
        "u4": (
            "Been a paralegal at Hogan & Pratt since 2019",
            {"work.role": "paralegal", "work.employer": "Hogan & Pratt"},
        ),
        "u5": ("teaching 3rd grade this year", {"work.role": "3rd grade teacher"}),
        "u6": ("我现在在一所小学教数学", {"work.role": "数学老师"}),
        "u7": ("我们组做推荐算法", {"work.role": "推荐算法"}),
        "u8": ("I'm a PM 在美团", {"work.role": "PM", "work.employer": "美团"}),
    }
    for user, (text, _) in said.items():
        await tenant.say(user, "s1", text, at=T1)
    for user, (text, want) in said.items():
        stored = await tenant.memories(user, status="active")
        got = {m["key"]: m["value"] for m in stored if m["key"].startswith("work.")}
        assert got == want, (text, stored)
    recalled = await tenant.recall("u4", "where do I work")
    assert any(m.get("value") == "Hogan & Pratt" for m in recalled["memories"])


async def test_a_standpoint_or_a_remark_that_is_no_job_forms_none(tenant: TenantCtx) -> None:
    for user, text in (
        ("u1", "As a kid, I loved trains"),
        ("u2", "Teaching is hard"),
        ("u3", "我们组做了一个新功能"),
        ("u4", "I'm the only one here"),
    ):
        await tenant.say(user, "s1", text, at=T1)
        stored = await tenant.memories(user)
        assert [m for m in stored if (m["key"] or "").startswith("work.")] == [], (text, stored)


async def test_a_language_said_to_stand_replaces_the_answer_language(tenant: TenantCtx) -> None:
    await tenant.say("u1", "s1", "Please answer in Chinese.", at=T1)
    await tenant.say("u1", "s1", "Actually, English from now on.", at=T2)
    active = await tenant.memories("u1", status="active")
    assert [m["value"] for m in active if m["key"] == "language.preferred"] == ["english"]
    assert [m["value"] for m in active if m["key"] == RULE] == ["english"]
    frozen = await tenant.memories("u1", status="frozen")
    assert {m["value"] for m in frozen} >= {"chinese", "answer in chinese"}, frozen


@pytest.mark.parametrize(
    ("first", "then", "now", "before"),
    [
        ("以后回答都用英文", "还是用中文吧，英文看着累", "中文", "英文"),
        ("以后回答我都用英文吧，我想练练", "还是换回中文吧，英文看着太累了", "中文", "英文"),
        (
            "please answer me in Spanish from now on",
            "actually let's go back to English, my Spanish isn't there yet",
            "english",
            "spanish",
        ),
    ],
)
async def test_the_answers_switched_back_to_a_language_replace_the_one_asked_before(
    tenant: TenantCtx, first: str, then: str, now: str, before: str
) -> None:
    await tenant.say("u1", "s1", first, at=T1)
    await tenant.say("u1", "s1", then, at=T2)
    assert await tenant.values("u1", "language.preferred") == [now]
    assert await tenant.values("u1", "language.preferred", "frozen") == [before]
    assert len(await tenant.values("u1", RULE)) == 1
