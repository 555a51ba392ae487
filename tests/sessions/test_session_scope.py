"""Facts formed from a session's turns: tentative ones start in the session's scope, are
promoted to user scope after confirmation in two sessions or on "remember this", and leave
with the session when it ends (docs/sessions.md). Everything through the HTTP API."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import httpx
import pytest
from memlane_client import AsyncMemlane

from tests.conftest import TenantCtx

AT = "2026-05-01T10:00:00+08:00"
LATER = "2026-05-08T10:00:00+08:00"


async def facts(tenant: TenantCtx, user: str, session: str, *texts: str, at: str = AT) -> list:
    """The facts (not episodes) the turns wrote, as the write answered them."""
    body = await tenant.say(user, session, *texts, at=at)
    return [m for m in body["memories"] if m["type"] != "episode"]


async def memory(tenant: TenantCtx, user: str, memory_id: str) -> dict[str, Any]:
    r = await tenant.client.get(f"{tenant.user(user)}/memories/{memory_id}", headers=tenant.headers)
    assert r.status_code == 200, r.text
    return r.json()


async def recalled(tenant: TenantCtx, user: str, query: str, **fields: Any) -> list[dict]:
    body = await tenant.recall(user, query, **fields)
    return body["memories"] + body.get("constraints", [])


def texts(items: list[dict]) -> str:
    return " | ".join(m["content"] for m in items)


TEMPORARY = [
    pytest.param("这周先喝茶", "茶", "喝什么", id="zh-this-week-for-now"),
    pytest.param("这次出差我住在杭州", "杭州", "我住在哪里", id="zh-this-trip"),
    pytest.param("I drink tea for now.", "tea", "what do I drink", id="en-for-now"),
    pytest.param("For now I live in Berlin.", "Berlin", "where do I live", id="en-for-now-fronted"),
]


@pytest.mark.parametrize(("said", "value", "query"), TEMPORARY)
async def test_a_temporary_fact_starts_in_its_session_and_stays_there(
    tenant: TenantCtx, said: str, value: str, query: str
) -> None:
    [fact] = await facts(tenant, "u", "s1", said)

    assert (fact["scope"], fact["scope_id"], fact["value"]) == ("session", "s1", value)
    assert fact["origin"]["tentative"] == "temporary"
    inside = await recalled(tenant, "u", query, session_id="s1")
    assert any(m["id"] == fact["id"] for m in inside)
    # another session, or no session, never sees it
    assert value not in texts(await recalled(tenant, "u", query, session_id="s2"))
    assert value not in texts(await recalled(tenant, "u", query))


@pytest.mark.parametrize(
    ("first", "second", "value", "query"),
    [
        pytest.param("这周先喝茶", "这次先喝茶", "茶", "喝什么", id="zh"),
        pytest.param(
            "I drink tea for now.", "Just for today, I drink tea.", "tea", "drink", id="en"
        ),
    ],
)
async def test_confirmed_in_two_sessions_a_temporary_fact_is_promoted_to_user_scope(
    tenant: TenantCtx, first: str, second: str, value: str, query: str
) -> None:
    [one] = await facts(tenant, "u", "s1", first)
    body = await tenant.say("u", "s2", second, at=LATER)

    promoted = await memory(tenant, "u", one["id"])
    assert (promoted["scope"], promoted["scope_id"], promoted["status"]) == ("user", None, "active")
    assert promoted["origin"]["sessions"] == ["s1", "s2"]
    assert any(a["rule"] == "session_layer" for a in body["arbitrations"])
    # a third session, and a recall without session, see it now
    assert value in texts(await recalled(tenant, "u", query, session_id="s3"))
    assert value in texts(await recalled(tenant, "u", query))


async def test_a_fact_stated_plainly_stays_in_user_scope(tenant: TenantCtx) -> None:
    [zh] = await facts(tenant, "u", "s1", "我住在上海")
    [en] = await facts(tenant, "v", "s1", "I live in Porto")
    assert (zh["scope"], en["scope"]) == ("user", "user")
    assert "tentative" not in zh["origin"] and "tentative" not in en["origin"]


@pytest.mark.parametrize(
    ("said", "temporary", "lasting"),
    [
        pytest.param("我对花生过敏，这周先喝茶", "preference.drink", "health.allergy", id="zh"),
        pytest.param(
            "这周先喝茶，但我女儿叫小雨", "preference.drink", "family.member", id="zh-but"
        ),
        pytest.param(
            "I drink tea for now, but I live in Porto.",
            "preference.drink",
            "residence.city",
            id="en-but",
        ),
    ],
)
async def test_a_temporary_cue_covers_its_clause_not_the_whole_turn(
    tenant: TenantCtx, said: str, temporary: str, lasting: str
) -> None:
    found = await facts(tenant, "u", "s1", said)
    scopes = {m["key"]: m["scope"] for m in found}
    assert scopes == {temporary: "session", lasting: "user"}


@pytest.mark.parametrize(
    ("said", "value"),
    [
        pytest.param("记住，我对花生过敏", "花生", id="zh-remember"),
        pytest.param("我对花生过敏。记住了！", "花生", id="zh-remember-after"),
        pytest.param("Remember that I'm allergic to peanuts.", "peanuts", id="en-remember"),
        pytest.param("Please remember: I am allergic to peanuts.", "peanuts", id="en-please"),
    ],
)
async def test_remember_this_keeps_the_fact_in_user_scope_pinned(
    tenant: TenantCtx, said: str, value: str
) -> None:
    [fact] = await facts(tenant, "u", "s1", said)
    assert (fact["scope"], fact["value"]) == ("user", value)
    assert fact["metadata"]["pinned"] is True and fact["metadata"]["emphasis"]
    assert fact["confidence"] == pytest.approx(1.0)  # 0.9 (user_declared) + 0.1


@pytest.mark.parametrize(
    ("temporary", "remember", "value"),
    [
        pytest.param("这周先喝茶", "记住这个", "茶", id="zh"),
        pytest.param("I drink tea for now.", "Remember that!", "tea", id="en"),
    ],
)
async def test_remember_this_in_a_later_turn_promotes_the_temporary_fact(
    tenant: TenantCtx, temporary: str, remember: str, value: str
) -> None:
    [fact] = await facts(tenant, "u", "s1", temporary)
    assert fact["scope"] == "session"

    body = await tenant.say("u", "s1", remember, at=LATER)

    now = await memory(tenant, "u", fact["id"])
    assert (now["scope"], now["status"], now["value"]) == ("user", "active", value)
    assert now["metadata"]["pinned"] is True
    assert [a["rule"] for a in body["arbitrations"]] == ["session_layer"]
    assert value in texts(await recalled(tenant, "u", value, session_id="s9"))


@pytest.mark.parametrize(
    ("temporary", "remember", "value"),
    [
        pytest.param("这周先喝茶", "记住，这周先喝茶", "茶", id="zh"),
        pytest.param("I drink tea for now.", "Remember that I drink tea.", "tea", id="en"),
    ],
)
async def test_remembering_a_temporary_fact_of_the_session_promotes_that_row(
    tenant: TenantCtx, temporary: str, remember: str, value: str
) -> None:
    [fact] = await facts(tenant, "u", "s1", temporary)
    [again] = await facts(tenant, "u", "s1", remember, at=LATER)
    assert again["id"] == fact["id"]  # the session's row itself moved, not a second one
    assert (again["scope"], again["value"]) == ("user", value)


async def test_ending_a_session_archives_its_tentative_memories_and_keeps_the_rest(
    tenant: TenantCtx,
) -> None:
    [tea] = await facts(tenant, "u", "s1", "这周先喝茶")
    [home] = await facts(tenant, "u", "s1", "我住在上海")
    [promoted] = await facts(tenant, "u", "s1", "I'm vegetarian for now.")
    await tenant.say("u", "s2", "Just for today, I am vegetarian.", at=LATER)
    listed = await tenant.client.get(
        f"{tenant.user('u')}/memories?scope=session&status=active", headers=tenant.headers
    )
    in_session = [m["id"] for m in listed.json()["items"] if m["scope_id"] == "s1"]
    assert tea["id"] in in_session and len(in_session) >= 2  # the fact and its turn

    r = await tenant.client.post(f"{tenant.user('u')}/sessions/s1/end", headers=tenant.headers)

    assert r.status_code == 200, r.text
    assert r.json()["session_id"] == "s1" and r.json()["archived"] == len(in_session)
    assert (await memory(tenant, "u", tea["id"]))["status"] == "archived"
    assert (await memory(tenant, "u", home["id"]))["status"] == "active"
    assert (await memory(tenant, "u", promoted["id"]))["scope"] == "user"
    assert (await memory(tenant, "u", promoted["id"]))["status"] == "active"
    assert "茶" not in texts(await recalled(tenant, "u", "喝茶", session_id="s1"))
    history = await tenant.client.get(
        f"{tenant.user('u')}/memories/{tea['id']}/history", headers=tenant.headers
    )
    [entry] = [e for e in history.json()["entries"] if e["action"] == "archive"]
    assert entry["new"]["reason"] == "session_ended"
    # ending again changes nothing and keeps the first time
    again = await tenant.client.post(f"{tenant.user('u')}/sessions/s1/end", headers=tenant.headers)
    assert again.status_code == 200
    assert again.json()["ended_at"] == r.json()["ended_at"] and again.json()["archived"] == 0


async def test_an_ended_session_takes_no_more_turns_nor_session_writes(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I live in Porto", at=AT)
    context_url = f"{tenant.user('u')}/sessions/s1/context?query=where"
    open_ctx = await tenant.client.get(context_url, headers=tenant.headers)
    assert open_ctx.status_code == 200 and open_ctx.json()["session_ended_at"] is None
    ended = await tenant.client.post(f"{tenant.user('u')}/sessions/s1/end", headers=tenant.headers)
    assert ended.status_code == 200

    r = await tenant.client.post(
        f"{tenant.user('u')}/sessions/s1/messages",
        json={"messages": [{"role": "user", "content": "我搬到杭州了"}]},
        headers=tenant.headers,
    )
    assert r.status_code == 409
    assert r.headers["content-type"].startswith("application/problem+json")
    assert r.json()["type"].endswith("session-ended")
    w = await tenant.client.post(
        f"{tenant.user('u')}/memories",
        json={"content": "I drink tea", "scope": "session", "scope_id": "s1"},
        headers=tenant.headers,
    )
    assert w.status_code == 409 and w.json()["type"].endswith("session-ended")
    # the window is archived: the context of the ended session replays no turn
    ctx = await tenant.client.get(context_url, headers=tenant.headers)
    assert ctx.status_code == 200
    assert [m for m in ctx.json()["messages"] if m["role"] in ("user", "assistant")] == []
    # ... and says that the session ended, and when
    assert datetime.fromisoformat(ctx.json()["session_ended_at"]) == datetime.fromisoformat(
        ended.json()["ended_at"]
    )
    # a new session goes on, with what was not tentative
    assert "Porto" in texts(await recalled(tenant, "u", "where do I live", session_id="s2"))


async def test_ending_an_unknown_session_is_not_found(tenant: TenantCtx) -> None:
    r = await tenant.client.post(f"{tenant.user('u')}/sessions/nope/end", headers=tenant.headers)
    assert r.status_code == 404
    assert r.headers["content-type"].startswith("application/problem+json")


async def test_another_tenant_cannot_end_a_session(
    tenant: TenantCtx, other_tenant: TenantCtx
) -> None:
    await tenant.say("u", "s1", "这周先喝茶", at=AT)
    r = await other_tenant.client.post(
        f"{tenant.user('u')}/sessions/s1/end", headers=other_tenant.headers
    )
    assert r.status_code == 404
    again = await tenant.say("u", "s1", "这次先喝茶", at=LATER)  # still open
    assert again["memories"]


async def test_the_async_sdk_ends_a_session(app: Any, tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "这周先喝茶", at=AT)
    transport = httpx.ASGITransport(app=app)
    async with AsyncMemlane(
        "http://memlane.test", tenant.key, tenant_id=tenant.id, transport=transport
    ) as client:
        ended = await client.user("u").end_session("s1")
        assert ended.session_id == "s1" and ended.archived == 2  # the fact and its turn
        again = await client.user("u").end_session("s1")
        assert again.ended_at == ended.ended_at and again.archived == 0


async def test_a_session_known_only_by_explicit_session_writes_can_be_ended(
    tenant: TenantCtx,
) -> None:
    [m] = (await tenant.remember("u", "Prefers the aisle seat", scope="session", scope_id="s7"))[
        "memories"
    ]
    r = await tenant.client.post(f"{tenant.user('u')}/sessions/s7/end", headers=tenant.headers)
    assert r.status_code == 200, r.text
    assert r.json()["archived"] == 1
    assert (await memory(tenant, "u", m["id"]))["status"] == "archived"


async def test_the_number_of_sessions_that_promote_is_a_setting(
    app: Any, tenant: TenantCtx
) -> None:
    rt = app.state.memlane
    before = rt.settings
    rt.settings = before.model_copy(update={"promote_after_sessions": 3})
    try:
        [fact] = await facts(tenant, "u", "s1", "I drink tea for now.")
        await tenant.say("u", "s2", "Just for today, I drink tea.", at=LATER)
        assert (await memory(tenant, "u", fact["id"]))["scope"] == "session"  # 2 of 3
        await tenant.say("u", "s3", "For the time being I drink tea.", at=LATER)
        promoted = await memory(tenant, "u", fact["id"])
        assert promoted["scope"] == "user"
        assert promoted["origin"]["sessions"] == ["s1", "s2", "s3"]
    finally:
        rt.settings = before


@pytest.mark.parametrize(
    ("first", "plain", "second", "kept", "query"),
    [
        pytest.param("这周先喝茶", "我喜欢喝咖啡", "这次先喝茶", "咖啡", "喝什么", id="zh"),
        pytest.param(
            "I drink tea for now.",
            "I drink coffee.",
            "I drink tea for now.",
            "coffee",
            "what do I drink",
            id="en",
        ),
    ],
)
async def test_a_promotion_never_replaces_a_value_the_user_stated_after_it(
    tenant: TenantCtx, first: str, plain: str, second: str, kept: str, query: str
) -> None:
    # Turns carry their own time (a client replaying a history): both temporary statements
    # were made before the plain one, so confirming them must not retire the user's later word.
    await facts(tenant, "u", "s1", first, at="2026-05-01T10:00:00+08:00")
    [said] = await facts(tenant, "u", "s2", plain, at="2026-05-03T10:00:00+08:00")
    await tenant.say("u", "s3", second, at="2026-05-02T10:00:00+08:00")

    current = await memory(tenant, "u", said["id"])
    assert current["status"] == "active"
    assert kept in texts(await recalled(tenant, "u", query))
    at_may_4 = await tenant.recall("u", query, valid_at="2026-05-04T00:00:00Z")
    assert kept in texts(at_may_4["memories"])


@pytest.mark.parametrize(
    ("first", "second", "value", "query"),
    [
        pytest.param("这周先喝茶", "这次先喝茶", "茶", "喝什么", id="zh"),
        pytest.param(
            "I drink tea for now.", "I drink tea for now.", "tea", "what do I drink", id="en"
        ),
    ],
)
async def test_a_fact_confirmed_after_its_first_session_ended_is_still_promoted(
    tenant: TenantCtx, first: str, second: str, value: str, query: str
) -> None:
    # Ending every conversation is the documented lifecycle: the first session's tentative row
    # is archived then, and its confirmation must still count toward the N sessions.
    await facts(tenant, "u", "s1", first)
    ended = await tenant.client.post(f"{tenant.user('u')}/sessions/s1/end", headers=tenant.headers)
    assert ended.status_code == 200, ended.text
    [fact] = await facts(tenant, "u", "s2", second, at=LATER)

    assert (fact["scope"], fact["status"]) == ("user", "active")
    assert fact["origin"]["sessions"] == ["s1", "s2"]
    assert value in texts(await recalled(tenant, "u", query, session_id="s3"))
    ended = await tenant.client.post(f"{tenant.user('u')}/sessions/s2/end", headers=tenant.headers)
    assert ended.status_code == 200, ended.text
    assert value in texts(await recalled(tenant, "u", query))
