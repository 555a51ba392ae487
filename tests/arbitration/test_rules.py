"""Every arbitration rule through the HTTP API, with explicit keyed writes (infer=false).
Correction by extraction is covered in tests/ingest (it needs the user's own words)."""

from __future__ import annotations

import asyncio

from tests.conftest import TenantCtx


async def _active(t: TenantCtx, user: str, key: str) -> list[dict]:
    r = await t.client.get(
        f"{t.user(user)}/memories", params={"key": key, "status": "active"}, headers=t.headers
    )
    return r.json()["items"]


async def test_duplicate_refreshes_confirmation_and_confidence(tenant: TenantCtx) -> None:
    a = await tenant.remember(
        "u", "I live in Oslo", key="residence.city", value="Oslo", type="profile"
    )
    b = await tenant.remember(
        "u", "Oslo is where I live", key="residence.city", value="Oslo", type="profile"
    )
    assert b["memories"][0]["id"] == a["memories"][0]["id"]
    assert b["memories"][0]["confirmations"] == 2
    assert b["memories"][0]["confidence"] > a["memories"][0]["confidence"]
    [decision] = b["arbitrations"]
    assert (decision["rule"], decision["outcome"]) == ("duplicate", "refreshed")


async def test_newer_wins_by_occurred_at_not_arrival(tenant: TenantCtx) -> None:
    # The later fact arrives first; the earlier one arrives late and must not win.
    new = await tenant.remember(
        "u",
        "I live in Rome",
        key="residence.city",
        value="Rome",
        occurred_at="2026-03-01T02:00:00+00:00",
    )
    late = await tenant.remember(
        "u",
        "I live in Milan",
        key="residence.city",
        value="Milan",
        occurred_at="2026-03-01T09:00:00+08:00",
    )
    [decision] = late["arbitrations"]
    assert (decision["rule"], decision["outcome"]) == ("newer_wins", "new_frozen")
    stored = late["memories"][0]
    assert stored["status"] == "frozen" and stored["superseded_by"] == new["memories"][0]["id"]
    # 09:00+08:00 is 01:00Z, one hour before Rome began: valid until then
    assert stored["valid_to"] == "2026-03-01T02:00:00Z"
    assert [m["value"] for m in await _active(tenant, "u", "residence.city")] == ["Rome"]


async def test_newer_supersedes_older_and_the_chain_is_readable(tenant: TenantCtx) -> None:
    old = await tenant.remember(
        "u",
        "I work at Initech",
        key="work.employer",
        value="Initech",
        occurred_at="2026-01-01T00:00:00+00:00",
    )
    new = await tenant.remember(
        "u",
        "I work at Globex",
        key="work.employer",
        value="Globex",
        occurred_at="2026-02-01T00:00:00+00:00",
    )
    old_id, new_id = old["memories"][0]["id"], new["memories"][0]["id"]
    by_id = {m["id"]: m for m in new["memories"]}
    assert by_id[old_id]["status"] == "frozen" and by_id[old_id]["superseded_by"] == new_id
    assert by_id[new_id]["supersedes"] == old_id
    assert by_id[old_id]["valid_to"] == "2026-02-01T00:00:00Z"
    for start in (old_id, new_id):
        hist = (
            await tenant.client.get(
                f"{tenant.user('u')}/memories/{start}/history", headers=tenant.headers
            )
        ).json()
        assert [m["id"] for m in hist["chain"]] == [old_id, new_id]
    audit = (
        await tenant.client.get(
            f"{tenant.user('u')}/arbitrations",
            params={"memory_id": old_id, "outcome": "superseded"},
            headers=tenant.headers,
        )
    ).json()
    [row] = audit["items"]
    assert (
        row["rule"] == "newer_wins"
        and row["new_memory_id"] == new_id
        and row["trigger"] == "explicit"
    )
    recalled = await tenant.recall("u", "where do I work?", include_reminders=True)
    assert [m["content"] for m in recalled["memories"]] == ["I work at Globex"]
    assert [m["content"] for m in recalled["reminders"]] == ["I work at Initech"]
    assert recalled["reminders"][0]["status"] == "frozen"


async def test_source_priority_lower_source_cannot_override(tenant: TenantCtx) -> None:
    await tenant.remember(
        "u",
        "I drink tea",
        key="preference.drink",
        value="tea",
        source="user_declared",
        occurred_at="2026-01-01T00:00:00+00:00",
    )
    guess = await tenant.remember(
        "u",
        "Probably drinks coffee",
        key="preference.drink",
        value="coffee",
        source="model_inferred",
        occurred_at="2026-02-01T00:00:00+00:00",
    )
    [decision] = guess["arbitrations"]
    assert (decision["rule"], decision["outcome"]) == ("source_priority", "new_frozen")
    assert [m["value"] for m in await _active(tenant, "u", "preference.drink")] == ["tea"]
    # and the other way round: a declaration replaces an inference
    await tenant.remember(
        "u2",
        "Seems to like jazz",
        key="preference.drink",
        value="juice",
        source="behavior_observed",
    )
    stated = await tenant.remember(
        "u2", "I drink water", key="preference.drink", value="water", source="form"
    )
    assert stated["arbitrations"][0]["rule"] == "source_priority"
    assert stated["arbitrations"][0]["outcome"] == "superseded"


async def test_multi_valued_keys_accumulate(tenant: TenantCtx) -> None:
    for item in ("coriander", "scallion", "peanuts"):
        r = await tenant.remember(
            "u", f"I avoid {item}", key="diet.avoid", value=item, type="preference"
        )
        assert r["arbitrations"][0]["outcome"] == "stored"
    assert sorted(m["value"] for m in await _active(tenant, "u", "diet.avoid")) == [
        "coriander",
        "peanuts",
        "scallion",
    ]


async def test_opposing_keys_conflict_on_the_same_value(tenant: TenantCtx) -> None:
    await tenant.remember(
        "u",
        "I love spicy food",
        key="preference.likes",
        value="spicy food",
        type="preference",
        occurred_at="2026-02-01T00:00:00+00:00",
    )
    r = await tenant.remember(
        "u",
        "I can't eat spicy food",
        key="diet.avoid",
        value="spicy food",
        type="preference",
        occurred_at="2026-02-20T00:00:00+00:00",
    )
    assert [(a["rule"], a["outcome"]) for a in r["arbitrations"]] == [("newer_wins", "superseded")]
    assert await _active(tenant, "u", "preference.likes") == []


async def test_range_policy_widens_numeric_values(tenant: TenantCtx) -> None:
    await tenant.remember(
        "u", "预算50万", key="project.budget", value="50万", occurred_at="2026-08-01T10:00:00+08:00"
    )
    again = await tenant.remember(
        "u", "预算50万", key="project.budget", value="50万", occurred_at="2026-08-03T10:00:00+08:00"
    )
    assert again["arbitrations"][0]["rule"] == "duplicate"
    r = await tenant.remember(
        "u",
        "预算最多30万",
        key="project.budget",
        value="30万",
        occurred_at="2026-08-05T10:00:00+08:00",
    )
    assert [(a["rule"], a["outcome"]) for a in r["arbitrations"]] == [("range", "superseded")]
    [active] = await _active(tenant, "u", "project.budget")
    assert active["value"] == "30万–50万"
    assert active["content"] == "预算30万–50万"


async def test_session_fact_is_promoted_after_two_sessions(tenant: TenantCtx) -> None:
    first = await tenant.remember("u", "Call me Max", scope="session", scope_id="s1")
    assert first["memories"][0]["scope"] == "session"
    assert (await tenant.recall("u", "what is my name", session_id="s2"))["memories"] == []
    second = await tenant.remember("u", "Call me Max", scope="session", scope_id="s2")
    [m] = second["memories"]
    assert m["id"] == first["memories"][0]["id"] and m["scope"] == "user"
    assert second["arbitrations"][0]["rule"] == "session_layer"
    assert [x["content"] for x in (await tenant.recall("u", "what is my name"))["memories"]] == [
        "Call me Max"
    ]


async def test_session_value_wins_inside_its_session(tenant: TenantCtx) -> None:
    await tenant.remember(
        "u", "I live in Paris", key="residence.city", value="Paris", type="profile"
    )
    await tenant.remember(
        "u",
        "This week I live in Nice",
        key="residence.city",
        value="Nice",
        type="profile",
        scope="session",
        scope_id="trip",
    )
    inside = await tenant.recall("u", "where do I live", session_id="trip")
    assert [m["value"] for m in inside["memories"] if m["key"] == "residence.city"] == ["Nice"]
    outside = await tenant.recall("u", "where do I live")
    assert [m["value"] for m in outside["memories"] if m["key"] == "residence.city"] == ["Paris"]


async def test_concurrent_writers_leave_exactly_one_active_value(tenant: TenantCtx) -> None:
    cities = [f"City{i}" for i in range(12)]
    await asyncio.gather(
        *[
            tenant.remember(
                "race",
                f"I live in {c}",
                key="residence.city",
                value=c,
                occurred_at=f"2026-01-01T00:00:{i:02d}+00:00",
            )
            for i, c in enumerate(cities)
        ]
    )
    active = await _active(tenant, "race", "residence.city")
    assert [m["value"] for m in active] == ["City11"]
    frozen = (
        await tenant.client.get(
            f"{tenant.user('race')}/memories",
            params={"key": "residence.city", "status": "frozen"},
            headers=tenant.headers,
        )
    ).json()["items"]
    assert len(frozen) == 11
    # every frozen row points at a row that exists, and the chain ends at the active one
    ids = {m["id"] for m in frozen} | {active[0]["id"]}
    assert all(m["superseded_by"] in ids for m in frozen)


async def test_concurrent_recall_never_sees_two_values_of_a_single_key(tenant: TenantCtx) -> None:
    stop = asyncio.Event()
    seen: list[list[str]] = []

    async def reader() -> None:
        while not stop.is_set():
            got = await tenant.recall("r", "where do I live", top_k=20)
            seen.append([m["value"] for m in got["memories"] if m["key"] == "residence.city"])

    readers = [asyncio.create_task(reader()) for _ in range(3)]
    await asyncio.gather(
        *[
            tenant.remember(
                "r",
                f"I live in Town{i}",
                key="residence.city",
                value=f"Town{i}",
                occurred_at=f"2026-01-01T00:{i:02d}:00+00:00",
            )
            for i in range(15)
        ]
    )
    stop.set()
    await asyncio.gather(*readers)
    assert seen and all(len(values) <= 1 for values in seen), [v for v in seen if len(v) > 1]
    assert (
        seen[-1] == ["Town14"]
        or (await tenant.recall("r", "where do I live"))["memories"][0]["value"] == "Town14"
    )


# The same rules in Chinese: arbitration reads keys, sources and times, not the language, and
# these prove it on Chinese contents.
async def test_rules_on_chinese_contents(tenant: TenantCtx) -> None:
    a = await tenant.remember(
        "zh",
        "我住在杭州",
        key="residence.city",
        value="杭州",
        type="profile",
        occurred_at="2026-01-01T00:00:00+08:00",
    )
    b = await tenant.remember(
        "zh",
        "我住在杭州。",
        key="residence.city",
        value="杭州",
        type="profile",
        occurred_at="2026-01-02T00:00:00+08:00",
    )
    assert (
        b["memories"][0]["id"] == a["memories"][0]["id"]
        and b["arbitrations"][0]["rule"] == "duplicate"
    )
    late = await tenant.remember(
        "zh",
        "我住在苏州",
        key="residence.city",
        value="苏州",
        type="profile",
        occurred_at="2025-12-01T00:00:00+08:00",
    )
    assert (late["arbitrations"][0]["rule"], late["arbitrations"][0]["outcome"]) == (
        "newer_wins",
        "new_frozen",
    )
    newer = await tenant.remember(
        "zh",
        "我住在南京",
        key="residence.city",
        value="南京",
        type="profile",
        occurred_at="2026-03-01T00:00:00+08:00",
    )
    assert (newer["arbitrations"][0]["rule"], newer["arbitrations"][0]["outcome"]) == (
        "newer_wins",
        "superseded",
    )
    guess = await tenant.remember(
        "zh", "可能喜欢喝咖啡", key="preference.drink", value="咖啡", source="model_inferred"
    )
    stated = await tenant.remember(
        "zh", "我喜欢喝茶", key="preference.drink", value="茶", source="user_declared"
    )
    assert guess["arbitrations"][0]["outcome"] == "stored"
    assert (stated["arbitrations"][0]["rule"], stated["arbitrations"][0]["outcome"]) == (
        "source_priority",
        "superseded",
    )
    await tenant.remember(
        "zh",
        "我喜欢吃辣",
        key="preference.likes",
        value="辣",
        type="preference",
        occurred_at="2026-02-01T00:00:00+08:00",
    )
    no_spice = await tenant.remember(
        "zh",
        "我不能吃辣了",
        key="diet.avoid",
        value="辣",
        type="preference",
        occurred_at="2026-02-20T00:00:00+08:00",
    )
    assert [(x["rule"], x["outcome"]) for x in no_spice["arbitrations"]] == [
        ("newer_wins", "superseded")
    ]
    s1 = await tenant.remember("zh", "叫我小王", scope="session", scope_id="s1")
    s2 = await tenant.remember("zh", "叫我小王", scope="session", scope_id="s2")
    assert (
        s2["memories"][0]["id"] == s1["memories"][0]["id"] and s2["memories"][0]["scope"] == "user"
    )
    assert [m["value"] for m in await _active(tenant, "zh", "residence.city")] == ["南京"]
