"""What makes a request to the assistant a standing rule rather than a one-off, and which
tools a user works with — through the HTTP API, in Chinese and English.

A request said to stand (always / ever / from now on / whenever you … / 以后 / 每次 / "给我…的
时候") is a rule whatever it is about ("whenever you write SQL, use uppercase keywords", "以后
别再问我要不要继续了"); a request about the answer just given ("Make it shorter", "再详细一点",
"这次简短点", "shorter pls") and an errand ("帮我查一下明天去上海的火车票") store nothing; a
standing word in another clause of the sentence makes no rule of a remark ("说真的，以后别叫我亲
了，听着别扭" holds one rule). A tool is named in lower case too ("I'm a vim person"), two tools
joined by "and" are two, a tool the user can't stand is no preference, and a tool the user
"lives in" is no city."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1 = "2026-03-01T09:00:00+08:00"


async def _active(t: TenantCtx, user: str) -> list[dict]:
    r = await t.client.get(
        f"{t.user(user)}/memories", params={"status": "active"}, headers=t.headers
    )
    assert r.status_code == 200, r.text
    return [m for m in r.json()["items"] if m["type"] != "episode"]


@pytest.mark.parametrize(
    ("said", "rule"),
    [
        ("hey quick thing - whenever you write SQL, use uppercase keywords", "uppercase keywords"),
        ("Don't ever recommend Starbucks to me", "starbucks"),
        ("always give me the code first, then explain", "code first"),
        ("Remember: no spoilers when we talk about books or shows", "no spoilers"),
        ("ok so going forward, assume I'm on a Mac when you give terminal commands", "on a mac"),
        ("以后别再问我要不要继续了，直接往下写", "要不要继续"),
        ("给我讲东西的时候别太学术，说人话就行", "别太学术"),
        ("我看不懂缩写，解释的时候都写全称吧", "写全称"),
    ],
)
async def test_a_request_said_to_stand_is_a_rule_whatever_it_is_about(
    tenant: TenantCtx, said: str, rule: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    stored = await _active(tenant, "u")
    rules = [m["value"] for m in stored if m["key"] == "assistant.constraint"]
    assert len(rules) == 1 and rule in rules[0], stored


@pytest.mark.parametrize(
    "said",
    [
        "Make it shorter.",
        "can u make that a table",
        "Can you answer in Spanish this time?",
        "再详细一点",
        "用英文再说一遍",
        "这次简短点回答就好",
        "Never again will I eat there",
        "shorter pls",
        "Try again, but in German",
        "Never",
        "帮我查一下明天去上海的火车票",
    ],
)
async def test_a_request_about_the_last_answer_stores_nothing(tenant: TenantCtx, said: str) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await _active(tenant, "u") == []


async def test_a_standing_word_makes_no_rule_of_the_clauses_around_it(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "说真的，以后别叫我亲了，听着别扭", at=T1)
    stored = await _active(tenant, "u")
    assert [(m["key"], m["value"]) for m in stored] == [("assistant.constraint", "别叫我亲")]


@pytest.mark.parametrize(
    ("said", "tools"),
    [
        ("I'm a vim person", {"vim"}),
        ("i do most of my data stuff in pandas", {"pandas"}),
        ("Our stack is Django and React", {"django", "react"}),
        ("TypeScript all the way, plain JS drives me nuts", {"typescript"}),
        ("公司强制用 Teams，不过我自己更喜欢 Slack", {"slack"}),
        ("honestly i live in tmux", set()),
    ],
)
async def test_the_tools_a_user_works_with(tenant: TenantCtx, said: str, tools: set[str]) -> None:
    await tenant.say("u", "s1", said, at=T1)
    stored = await _active(tenant, "u")
    held = {m["value"].lower() for m in stored if m["key"] == "tech.preferred"}
    assert tools <= held and "js" not in held, stored
    assert not [m for m in stored if m["key"] == "residence.city"], stored  # "live in tmux"
