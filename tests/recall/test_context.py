"""Context assembly: sections, budget, the rolling window and its summary."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta

from tests.conftest import TenantCtx

T0 = datetime.fromisoformat("2026-10-01T09:00:00+00:00")


async def _context(t: TenantCtx, user: str, session: str, **params: object) -> dict:
    r = await t.client.get(
        f"{t.user(user)}/sessions/{session}/context", params=params, headers=t.headers
    )
    assert r.status_code == 200, r.text
    return r.json()


async def _folded_context(t: TenantCtx, session: str) -> dict:
    """The context once the queued compression has folded the first turn (the constraint) into
    the summary: compression runs on the queue, after the request that moved the window."""
    for _ in range(100):
        ctx = await _context(t, "u", session, query="what's the plan?", token_budget=1000)
        if ctx["sections"]["summary"]["items"] >= 1:
            return ctx
        await asyncio.sleep(0.1)
    raise AssertionError("the window was not compressed")


async def _chat(t: TenantCtx, user: str, session: str, first: int, count: int) -> None:
    for start in range(first, first + count, 100):
        n = min(100, first + count - start)
        messages = [
            {
                "role": "user" if i % 2 else "assistant",
                "content": f"Message {i:04d}: let's keep chatting about the weekend.",
                "occurred_at": (T0 + timedelta(minutes=i)).isoformat(),
            }
            for i in range(start, start + n)
        ]
        r = await t.client.post(
            f"{t.user(user)}/sessions/{session}/messages?wait=true",
            json={"messages": messages},
            headers=t.headers,
        )
        assert r.status_code == 201, r.text


async def test_context_has_every_section_in_both_forms(tenant: TenantCtx) -> None:
    await tenant.say(
        "u", "s1", "以后回答不要用比喻，控制在三句话以内。", at="2026-07-01T10:00:00+08:00"
    )
    await tenant.say("u", "s1", "我对花生过敏。", at="2026-07-01T10:01:00+08:00")
    ctx = await _context(tenant, "u", "s1", query="推荐一个零食", token_budget=800)
    assert ctx["text"].startswith("MemoryContext")
    assert "current input wins" in ctx["text"]
    assert "比喻" in ctx["text"] and "三句话" in ctx["text"] and "花生" in ctx["text"]
    assert [m["role"] for m in ctx["messages"]] == ["system", "user", "user"]
    assert ctx["messages"][0]["content"] in ctx["text"]
    # the two rules and the allergy, which binds every recommendation
    assert ctx["sections"]["constraints"]["items"] == 3
    assert ctx["sections"]["recent_turns"]["items"] == 2
    assert ctx["tokens"] <= 800 and ctx["text_tokens"] <= ctx["tokens"]
    assert ctx["tokenizer"] == "cl100k"


async def test_query_defaults_to_the_latest_user_turn(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I have a dog named Rex.", "What should I feed my dog?")
    ctx = await _context(tenant, "u", "s1")
    assert ctx["query"] == "What should I feed my dog?"
    assert "Rex" in ctx["text"]


async def test_tight_budget_drops_low_value_parts_but_never_constraints(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "Please always answer me in bullet points.")
    for i in range(6):
        await tenant.remember(
            "u", f"I visited museum number {i} in Madrid last year and loved the paintings there"
        )
    await _chat(tenant, "u", "s1", 1, 10)
    roomy = await _context(tenant, "u", "s1", query="museums", token_budget=3000)
    tight = await _context(tenant, "u", "s1", query="museums", token_budget=150)
    assert (
        roomy["sections"]["memories"]["items"] == 6
        and roomy["sections"]["memories"]["dropped"] == 0
    )
    assert tight["tokens"] <= 150 and not tight["over_budget"]
    assert "bullet points" in tight["text"]
    assert tight["sections"]["constraints"]["dropped"] == 0
    # older turns go first, then memories, the last two turns last
    assert tight["sections"]["recent_turns"]["dropped"] > 0
    assert tight["sections"]["memories"]["dropped"] > 0


async def test_constraints_alone_over_budget_are_kept_and_flagged(tenant: TenantCtx) -> None:
    for i in range(8):
        await tenant.remember(
            "u",
            f"Constraint {i}: never mention topic number {i} or anything close to it in any answer",
            type="constraint",
        )
    ctx = await _context(tenant, "u", "s1", query="hello", token_budget=100)
    assert ctx["sections"]["constraints"]["items"] == 8
    assert ctx["over_budget"] is True


async def test_500_turns_keep_the_same_size_and_the_first_constraint(tenant: TenantCtx) -> None:
    r = await tenant.client.post(
        f"{tenant.user('u')}/sessions/long/messages?wait=true",
        json={
            "messages": [
                {
                    "role": "user",
                    "content": "Please always answer me in bullet points.",
                    "occurred_at": T0.isoformat(),
                }
            ]
        },
        headers=tenant.headers,
    )
    assert r.status_code == 201
    await _chat(tenant, "u", "long", 1, 19)
    at_20 = await _folded_context(tenant, "long")
    await _chat(tenant, "u", "long", 20, 480)
    at_500 = await _folded_context(tenant, "long")
    assert at_500["tokens"] == at_20["tokens"] <= 1000
    assert (
        at_500["sections"]["recent_turns"]["items"]
        == at_20["sections"]["recent_turns"]["items"]
        == 12
    )
    for ctx in (at_20, at_500):
        assert "bullet points" in ctx["text"]
        assert "Message 0499" in at_500["text"] and "Message 0001" not in at_500["text"]


async def test_turns_that_leave_the_window_are_summarised_keeping_constraints(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u", "s9", "以后回答不要用比喻。", at="2026-07-01T10:00:00+08:00")
    await tenant.say("u", "s9", "我在星河科技做后端开发。", at="2026-07-01T10:01:00+08:00")
    await _chat(tenant, "u", "s9", 1, 30)
    for _ in range(100):
        ctx = await _context(tenant, "u", "s9", query="工作", token_budget=4000)
        if ctx["sections"]["summary"]["items"] >= 2:
            break
        await asyncio.sleep(0.1)
    assert "[constraint] User: 以后回答不要用比喻。" in ctx["text"]
    assert "User: 我在星河科技做后端开发。" in ctx["text"]
    # chatter is not worth a summary line
    assert "Message 0001" not in ctx["text"]


async def test_a_turn_in_the_recent_conversation_is_not_repeated_as_a_memory(
    tenant: TenantCtx,
) -> None:
    said = "The lighthouse tour near the harbour was the best part of our trip."
    await tenant.say("u", "s1", said, at="2026-07-01T10:00:00+00:00")
    # the turn is kept (an episode) and recall finds it …
    recalled = await tenant.recall("u", "the lighthouse tour")
    assert said in [m["content"] for m in recalled["memories"]]
    # … but the context shows it once: in the recent conversation, not again as a memory
    ctx = await _context(tenant, "u", "s1", query="the lighthouse tour")
    assert ctx["text"].count(said) == 1
    assert ctx["sections"]["recent_turns"]["items"] == 1
    # in another session the same turn is a memory (no window shows it there)
    other = await _context(tenant, "u", "s2", query="the lighthouse tour")
    assert other["text"].count(said) == 1
