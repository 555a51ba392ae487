"""One active row per single-valued key and scope, whatever path a fact takes through the
memory and messages endpoints: two value-less statements of one key, a
"remember" cue, a promotion to user scope where the user scope holds the key, a restated
fact and an emphasis on a fact already active. Through the HTTP API: the messages job must
succeed (a job that fails loses the request's turns for formation)."""

from __future__ import annotations

from typing import Any

from tests.conftest import TenantCtx


async def active(tenant: TenantCtx, user: str, key: str, **params: str) -> list[dict[str, Any]]:
    r = await tenant.client.get(
        f"{tenant.user(user)}/memories",
        params={"status": "active", "limit": "100", **params},
        headers=tenant.headers,
    )
    assert r.status_code == 200, r.text
    return [m for m in r.json()["items"] if m["key"] == key]


async def test_a_second_value_less_statement_of_a_single_valued_key_supersedes_the_first(
    tenant: TenantCtx,
) -> None:
    # Two statements of one single-valued key without a value (the sentence kept as the
    # content): the second supersedes the first; none may stay active beside it.
    async def write(content: str, at: str) -> dict[str, Any]:
        r = await tenant.client.post(
            f"{tenant.user('u')}/memories?wait=true",
            json={
                "content": content,
                "type": "profile",
                "key": "work.employer",
                "infer": False,
                "occurred_at": at,
            },
            headers=tenant.headers,
        )
        assert r.status_code == 201, r.text
        [m] = [m for m in r.json()["memories"] if m["content"] == content]
        return m

    old = await write("works somewhere new, did not say where", "2023-07-21T17:44:00+00:00")
    assert old["value"] is None
    new = await write("changed jobs again, still not saying where", "2023-07-23T18:46:00+00:00")
    assert new["status"] == "active" and new["value"] is None
    [kept] = await active(tenant, "u", "work.employer")
    assert kept["id"] == new["id"]
    r = await tenant.client.get(f"{tenant.user('u')}/memories/{old['id']}", headers=tenant.headers)
    assert r.json()["status"] == "frozen" and r.json()["superseded_by"] == new["id"]


async def test_a_remembered_session_fact_replaces_the_user_scope_value_of_its_key(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u", "s1", "I live in Porto.", at="2026-05-01T10:00:00+00:00")
    await tenant.say("u", "s2", "For now I live in Berlin.", at="2026-05-02T10:00:00+00:00")
    await tenant.say("u", "s2", "Remember that!", at="2026-05-02T10:05:00+00:00")
    await tenant.say("u", "s3", "Remember that I live in Berlin.", at="2026-05-03T10:00:00+00:00")

    [kept] = await active(tenant, "u", "residence.city")
    assert (kept["value"], kept["scope"]) == ("Berlin", "user")


async def test_a_promotion_meets_the_same_value_of_a_multi_valued_key_in_user_scope(
    tenant: TenantCtx,
) -> None:
    first = await tenant.say("u", "s1", "I like jazz for now.", at="2026-05-01T10:00:00+00:00")
    [tentative] = [m for m in first["memories"] if m["key"] == "preference.likes"]
    assert tentative["scope"] == "session"
    plain = await tenant.say("u", "s2", "I like jazz.", at="2026-05-02T10:00:00+00:00")
    [long_term] = [m for m in plain["memories"] if m["key"] == "preference.likes"]
    assert long_term["scope"] == "user"

    # Confirmed in a second session: the session row moves to user scope, where the same
    # value is already held.
    await tenant.say("u", "s3", "Just for today, I like jazz.", at="2026-05-03T10:00:00+00:00")

    rows = await active(tenant, "u", "preference.likes")
    assert [(m["value"].lower(), m["scope"]) for m in rows] == [("jazz", "user")]


async def test_an_emphasis_on_a_fact_already_active_refreshes_and_pins_it(
    tenant: TenantCtx,
) -> None:
    first = await tenant.say("u", "s1", "I live in Porto.")
    [fact] = [m for m in first["memories"] if m["key"] == "residence.city"]
    await tenant.say("u", "s2", "Don't forget, I live in Porto.")
    await tenant.say("u", "s3", "Remember that I live in Porto.")

    [kept] = await active(tenant, "u", "residence.city")
    assert kept["id"] == fact["id"] and kept["metadata"]["pinned"] is True
    assert kept["confirmations"] == 3


async def test_two_value_less_explicit_writes_and_a_confirmation_keep_one_active_row(
    tenant: TenantCtx,
) -> None:
    first = await tenant.remember(
        "u", "Ann probably quit her job", key="work.employer", source="model_inferred"
    )
    second = await tenant.remember(
        "u", "Ann seems to have left her job", key="work.employer", source="model_inferred"
    )
    [old_id, new_id] = [first["memories"][0]["id"], second["memories"][0]["id"]]
    assert old_id != new_id
    [kept] = await active(tenant, "u", "work.employer")
    assert kept["id"] == new_id and kept["value"] is None

    # Confirming (the fact restated as user_declared) refreshes that row: no second one.
    r = await tenant.client.post(
        f"{tenant.user('u')}/memories/{new_id}/confirm", headers=tenant.headers
    )
    assert r.status_code == 200, r.text
    assert r.json()["memory"]["id"] == new_id
    [kept] = await active(tenant, "u", "work.employer")
    assert (kept["id"], kept["source"]) == (new_id, "user_declared")
