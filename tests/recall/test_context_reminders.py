"""Reminders in context: a key whose value changed recently gets one line in the block, never
the stale value as a fact (docs/time.md)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from tests.conftest import TenantCtx

NOW = datetime.now(UTC).replace(microsecond=0)


def ago(days: float) -> str:
    return (NOW - timedelta(days=days)).isoformat()


def day(days_ago: float) -> str:
    return (NOW - timedelta(days=days_ago)).date().isoformat()


async def _context(t: TenantCtx, session: str, **params: object) -> dict:
    r = await t.client.get(
        f"{t.user('u')}/sessions/{session}/context", params=params, headers=t.headers
    )
    assert r.status_code == 200, r.text
    return r.json()


def _section(text: str, title: str) -> str:
    """The lines of one section of the system block ('' when absent)."""
    for block in text.split("\n\n"):
        if block.startswith(title):
            return block
    return ""


async def test_a_recent_move_is_one_line_not_a_stale_fact(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I live in Lisbon.", at=ago(40))
    await tenant.say("u", "s1", "I moved to Porto.", at=ago(3))
    ctx = await _context(tenant, "s1", query="where do I live?")
    system = ctx["messages"][0]["content"]
    line = f"- earlier: Lisbon, superseded {day(3)} by Porto"
    assert line in _section(system, "Changed recently")
    memories = _section(system, "Relevant memories")
    assert "Porto" in memories and "Lisbon" not in memories
    assert ctx["sections"]["reminders"]["items"] == 1
    assert ctx["sections"]["reminders"]["tokens"] > 0
    # the text form carries it too
    assert line in ctx["text"]


async def test_a_recent_move_in_chinese(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我住在上海。", at=ago(40))
    await tenant.say("u", "s1", "我搬到北京了。", at=ago(2))
    ctx = await _context(tenant, "s1", query="我住在哪里？")
    system = ctx["messages"][0]["content"]
    assert f"- earlier: 上海, superseded {day(2)} by 北京" in system
    memories = _section(system, "Relevant memories")
    assert "北京" in memories and "上海" not in memories


async def test_the_latest_change_of_a_key_only(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I live in Lisbon.", at=ago(20))
    await tenant.say("u", "s1", "I moved to Porto.", at=ago(10))
    await tenant.say("u", "s1", "I moved to Braga.", at=ago(1))
    ctx = await _context(tenant, "s1", query="where do I live?")
    reminders = _section(ctx["text"], "Changed recently")
    assert reminders.splitlines()[1:] == [f"- earlier: Porto, superseded {day(1)} by Braga"]


async def test_an_old_change_gets_no_reminder(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I live in Lisbon.", at=ago(200))
    await tenant.say("u", "s1", "I moved to Porto.", at=ago(45))  # past the 30-day setting
    ctx = await _context(tenant, "s1", query="where do I live?")
    assert "Changed recently" not in ctx["text"]
    assert "Lisbon" not in _section(ctx["text"], "Relevant memories")
    assert ctx["sections"]["reminders"]["items"] == 0


async def test_a_query_elsewhere_gets_no_reminder(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I live in Lisbon.", at=ago(20))
    await tenant.say("u", "s1", "I moved to Porto.", at=ago(2))
    await tenant.remember("u", "My cat is called Miso", occurred_at=ago(5))
    ctx = await _context(tenant, "s2", query="what is my cat called?", top_k=1)
    assert "Miso" in ctx["text"]
    assert "Changed recently" not in ctx["text"]


async def test_reminders_are_budgeted_after_the_memories(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I live in Lisbon.", at=ago(20))
    await tenant.say("u", "s1", "I moved to Porto.", at=ago(2))
    # a standing rule is never dropped: it leaves the rest little room at small budgets
    await tenant.remember(
        "u",
        "Always answer in formal English, cite the source of every figure, never use "
        "emoji, and keep every answer under one hundred words unless I ask for more detail",
        type="constraint",
    )
    roomy = await _context(tenant, "s9", query="where do I live?", token_budget=2000)
    assert roomy["sections"]["reminders"]["items"] == 1
    # shrink the budget: memories go first (least relevant first), then the reminder
    kept_reminder_without_all_memories = dropped_reminder = False
    for budget in range(roomy["tokens"], 99, -4):
        ctx = await _context(tenant, "s9", query="where do I live?", token_budget=budget)
        mem, rem = ctx["sections"]["memories"], ctx["sections"]["reminders"]
        assert ctx["tokens"] <= budget or ctx["over_budget"]
        if rem["dropped"]:
            assert mem["items"] == 0  # the reminder outlives every memory
            assert "Lisbon" not in ctx["text"]
            dropped_reminder = True
        elif mem["dropped"]:
            assert rem["items"] == 1
            kept_reminder_without_all_memories = True
    assert kept_reminder_without_all_memories and dropped_reminder


async def test_a_value_that_lost_on_arrival_was_never_the_earlier_one(tenant: TenantCtx) -> None:
    # A CRM's "Lisbon" arrives after the user's own "Porto" and loses (source priority): it was
    # never the user's value, so the block must not say the user lived in Lisbon before.
    await tenant.say("u", "s1", "I live in Porto.", at=ago(10))
    r = await tenant.client.post(
        f"{tenant.user('u')}/sessions/s1/messages?wait=true",
        json={
            "messages": [
                {
                    "role": "tool",
                    "name": "crm",
                    "content": "The user lives in Lisbon.",
                    "occurred_at": ago(2),
                }
            ]
        },
        headers=tenant.headers,
    )
    assert r.status_code == 201, r.text
    assert any(a["rule"] == "source_priority" for a in r.json()["arbitrations"])

    ctx = await _context(tenant, "s2", query="where do I live?")
    system = ctx["messages"][0]["content"]
    assert "earlier: Lisbon" not in system
    assert ctx["sections"]["reminders"]["items"] == 0
