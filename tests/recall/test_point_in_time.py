"""Point-in-time recall and listing: ``valid_at`` returns what was true then (docs/time.md)."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

LEAD = "On project Falcon I am the tech lead"
PM = "On project Falcon I am now the product manager"
ADVISOR = "On project Falcon I am only an advisor now"


async def _falcon(t: TenantCtx, *, third: bool = False) -> dict[str, str]:
    """Two (or three) successive values of one single-valued key, each superseding the last."""
    ids = {}
    for content, value, at in [
        (LEAD, "tech lead", "2024-01-10T09:00:00+00:00"),
        (PM, "product manager", "2024-06-01T09:00:00+00:00"),
        *([(ADVISOR, "advisor", "2024-09-01T09:00:00+00:00")] if third else []),
    ]:
        out = await t.remember(
            "u", content, type="profile", key="work.role", value=value, occurred_at=at
        )
        ids[value] = out["memories"][0]["id"]
    return ids


def _contents(answer: dict, part: str = "memories") -> list[str]:
    return [m["content"] for m in answer[part]]


async def test_the_fact_true_on_that_date_comes_first(tenant: TenantCtx) -> None:
    await _falcon(tenant)
    then = await tenant.recall("u", "project Falcon", valid_at="2024-03-01T00:00:00Z", explain=True)
    assert _contents(then)[0] == LEAD
    assert PM not in _contents(then)  # valid only from 2024-06-01
    first = then["memories"][0]
    assert first["status"] == "frozen"  # superseded later, but true on that date
    assert first["valid_to"].startswith("2024-06-01T09:00:00")
    # today's answer is unchanged: the current value only
    now = await tenant.recall("u", "project Falcon")
    assert _contents(now)[0] == PM and LEAD not in _contents(now)
    later = await tenant.recall("u", "project Falcon", valid_at="2024-07-01T00:00:00+02:00")
    assert _contents(later)[0] == PM and LEAD not in _contents(later)


async def test_validity_interval_is_half_open(tenant: TenantCtx) -> None:
    await _falcon(tenant)
    # at the very instant of the change the new value holds, the old one no longer
    at_change = await tenant.recall("u", "project Falcon", valid_at="2024-06-01T09:00:00Z")
    assert _contents(at_change) == [PM]
    before_any = await tenant.recall("u", "project Falcon", valid_at="2023-12-31T00:00:00Z")
    assert before_any["memories"] == []


async def test_decay_is_computed_at_that_time(tenant: TenantCtx) -> None:
    await _falcon(tenant)
    then = await tenant.recall("u", "project Falcon", valid_at="2024-03-01T09:00:00Z", explain=True)
    ex = then["memories"][0]["explain"]
    assert ex["age_days"] == pytest.approx(51.0)  # 2024-01-10 → 2024-03-01
    # profile: 60-day half-life, floor 0.6; never recalled before, so no usage bonus
    assert ex["half_life_days"] == pytest.approx(60.0)
    assert ex["decay"] == pytest.approx(max(0.6, 0.5 ** (51 / 60)))
    now = await tenant.recall("u", "project Falcon", explain=True)
    assert now["memories"][0]["explain"]["age_days"] > 51 + 365


async def test_where_did_i_live_in_march(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I live in Lisbon.", at="2026-01-10T10:00:00+00:00")
    await tenant.say("u", "s1", "I moved to Porto.", at="2026-06-01T10:00:00+00:00")
    march = await tenant.recall("u", "where do I live?", valid_at="2026-03-15T12:00:00+00:00")
    assert "Lisbon" in march["memories"][0]["content"]
    assert not any("Porto" in c for c in _contents(march))
    today = await tenant.recall("u", "where do I live?")
    assert "Porto" in today["memories"][0]["content"]
    assert not any("Lisbon" in c for c in _contents(today))


async def test_where_did_i_live_in_march_in_chinese(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我住在上海。", at="2026-01-10T10:00:00+08:00")
    await tenant.say("u", "s1", "我搬到北京了。", at="2026-06-01T10:00:00+08:00")
    march = await tenant.recall("u", "我住在哪里？", valid_at="2026-03-15T12:00:00+08:00")
    assert "上海" in march["memories"][0]["content"]
    assert not any("北京" in c for c in _contents(march))
    today = await tenant.recall("u", "我住在哪里？")
    assert "北京" in today["memories"][0]["content"]
    assert not any("上海" in c for c in _contents(today))


async def test_reminders_at_a_point_in_time_are_what_had_ended_by_then(
    tenant: TenantCtx,
) -> None:
    await _falcon(tenant, third=True)
    july = await tenant.recall(
        "u", "project Falcon", valid_at="2024-07-01T00:00:00Z", include_reminders=True
    )
    assert _contents(july) == [PM]
    assert _contents(july, "reminders") == [LEAD]  # ended 2024-06-01; ADVISOR came later
    today = await tenant.recall("u", "project Falcon", include_reminders=True)
    assert _contents(today) == [ADVISOR]
    assert sorted(_contents(today, "reminders")) == sorted([LEAD, PM])


@pytest.mark.parametrize("naive", ["2024-03-01T00:00:00", "2024-03-01", "March 2024"])
async def test_a_time_without_offset_is_refused(tenant: TenantCtx, naive: str) -> None:
    r = await tenant.client.post(
        f"{tenant.user('u')}/recall",
        json={"query": "project Falcon", "valid_at": naive},
        headers=tenant.headers,
    )
    assert r.status_code == 422, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    assert r.json()["type"] == "urn:memlane:problem:validation-error"
    listed = await tenant.client.get(
        f"{tenant.user('u')}/memories", params={"valid_at": naive}, headers=tenant.headers
    )
    assert listed.status_code == 422, listed.text
    assert listed.headers["content-type"].startswith("application/problem+json")


async def test_a_number_is_not_a_time(tenant: TenantCtx) -> None:
    r = await tenant.client.post(
        f"{tenant.user('u')}/recall",
        json={"query": "project Falcon", "valid_at": 1709251200},
        headers=tenant.headers,
    )
    assert r.status_code == 422, r.text
    assert "ISO-8601" in r.text


@pytest.mark.parametrize("number", ["1709251200", "5", "1709251200.5"])
async def test_a_number_in_a_string_or_a_query_is_not_a_time(
    tenant: TenantCtx, number: str
) -> None:
    # A query string is always text: '?valid_at=5' was read as 5 s after 1970 (UTC).
    listed = await tenant.client.get(
        f"{tenant.user('u')}/memories", params={"valid_at": number}, headers=tenant.headers
    )
    assert listed.status_code == 422, listed.text
    assert "ISO-8601" in listed.text
    r = await tenant.client.post(
        f"{tenant.user('u')}/recall",
        json={"query": "project Falcon", "valid_at": number},
        headers=tenant.headers,
    )
    assert r.status_code == 422, r.text
    assert "ISO-8601" in r.text


async def _listed(t: TenantCtx, **params: str) -> list[str]:
    r = await t.client.get(f"{t.user('u')}/memories", params=params, headers=t.headers)
    assert r.status_code == 200, r.text
    return [m["content"] for m in r.json()["items"]]


async def test_list_filters_by_validity(tenant: TenantCtx) -> None:
    await _falcon(tenant, third=True)
    assert await _listed(tenant, valid_at="2024-03-01T00:00:00Z") == [LEAD]
    assert await _listed(tenant, valid_at="2024-07-01T00:00:00+00:00") == [PM]
    assert await _listed(tenant, valid_at="2025-01-01T00:00:00+00:00") == [ADVISOR]
    assert await _listed(tenant, valid_at="2023-01-01T00:00:00+00:00") == []
    # with a status, both filters hold
    assert await _listed(tenant, valid_at="2024-03-01T00:00:00Z", status="active") == []
    assert await _listed(tenant, valid_at="2024-03-01T00:00:00Z", status="frozen") == [LEAD]
    # without valid_at the list is unchanged: every status but deleted, newest first
    assert await _listed(tenant) == [ADVISOR, PM, LEAD]


async def test_an_archived_memory_is_not_what_was_true(tenant: TenantCtx) -> None:
    out = await tenant.remember(
        "u", "I keep a sailing boat in Cascais", occurred_at="2024-01-01T00:00:00Z"
    )
    memory_id = out["memories"][0]["id"]
    r = await tenant.client.patch(
        f"{tenant.user('u')}/memories/{memory_id}",
        json={"status": "archived"},
        headers=tenant.headers,
    )
    assert r.status_code == 200, r.text
    then = await tenant.recall("u", "sailing boat", valid_at="2024-02-01T00:00:00Z")
    assert then["memories"] == []
    assert await _listed(tenant, valid_at="2024-02-01T00:00:00Z") == []


@pytest.mark.parametrize("blank", ["   ", "\u3000\u200b", "\ufeff"])
async def test_a_query_of_nothing_visible_is_refused(tenant: TenantCtx, blank: str) -> None:
    """A recall query of spaces or zero-width characters asks for nothing: refused like blank
    memory content; the context of a session falls back to the latest user turn."""
    await tenant.remember("u", "I keep bees on the roof of my flat")
    r = await tenant.client.post(
        f"{tenant.user('u')}/recall", json={"query": blank}, headers=tenant.headers
    )
    assert r.status_code == 422, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    assert r.json()["type"] == "urn:memlane:problem:validation-error"
    await tenant.say("u", "s1", "tell me about my bees")
    context = await tenant.client.get(
        f"{tenant.user('u')}/sessions/s1/context", params={"query": blank}, headers=tenant.headers
    )
    assert context.status_code == 200, context.text
    assert "I keep bees on the roof of my flat" in context.json()["text"]


async def test_facts_arriving_out_of_time_order_leave_one_value_at_each_time(
    tenant: TenantCtx,
) -> None:
    """The latest value arrives first, then the two earlier ones in reverse order: each one
    that arrives late takes its place in the key's timeline (the row it began inside ends
    where it begins), so no two home cities hold at one time."""
    written = {}
    for city, at in [
        ("Hamburg", "2026-03-01T00:00:00Z"),
        ("Cologne", "2026-01-01T00:00:00Z"),
        ("Bonn", "2026-02-01T00:00:00Z"),
    ]:
        out = await tenant.remember(
            "u",
            f"I live in {city}",
            type="profile",
            key="residence.city",
            value=city,
            occurred_at=at,
        )
        written[city] = out["memories"][0]["id"]
    for valid_at, city in [
        ("2026-01-15T00:00:00Z", "Cologne"),
        ("2026-02-15T00:00:00Z", "Bonn"),
        ("2026-03-15T00:00:00Z", "Hamburg"),
    ]:
        then = await tenant.recall("u", "where do I live?", valid_at=valid_at)
        assert _contents(then) == [f"I live in {city}"], valid_at
        assert await _listed(tenant, valid_at=valid_at) == [f"I live in {city}"], valid_at
    today = await tenant.recall("u", "where do I live?")
    assert _contents(today) == ["I live in Hamburg"]

    rows = {m["value"]: m for m in await tenant.memories("u", key="residence.city")}
    intervals = {city: (m["status"], m["valid_from"], m["valid_to"]) for city, m in rows.items()}
    assert intervals == {
        "Cologne": ("frozen", "2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z"),
        "Bonn": ("frozen", "2026-02-01T00:00:00Z", "2026-03-01T00:00:00Z"),
        "Hamburg": ("active", "2026-03-01T00:00:00Z", None),
    }
    # the history reads as the user's timeline: Cologne, then Bonn, then Hamburg
    hist = await tenant.client.get(
        f"{tenant.user('u')}/memories/{written['Cologne']}/history", headers=tenant.headers
    )
    assert hist.status_code == 200, hist.text
    assert [m["value"] for m in hist.json()["chain"]] == ["Cologne", "Bonn", "Hamburg"]
    cut = [
        e
        for e in hist.json()["entries"]
        if e["memory_id"] == written["Cologne"] and e["action"] == "supersede"
    ]
    assert [(e["old"]["valid_to"], e["new"]["valid_to"]) for e in cut] == [
        ("2026-03-01T00:00:00+00:00", "2026-02-01T00:00:00+00:00")
    ]
    # one decision says why Cologne's validity ended earlier than first recorded
    audit = await tenant.client.get(
        f"{tenant.user('u')}/arbitrations",
        params={"memory_id": written["Cologne"], "outcome": "superseded"},
        headers=tenant.headers,
    )
    [row] = audit.json()["items"]
    assert (row["rule"], row["new_memory_id"]) == ("newer_wins", written["Bonn"])


@pytest.mark.parametrize(
    "arrivals",
    [
        # the latest first, then the two earlier ones in reverse order: Bonn cuts Cologne
        ["Hamburg", "Cologne", "Bonn"],
        # the latest first, then the two earlier ones in order: Cologne fits before Bonn
        ["Hamburg", "Bonn", "Cologne"],
    ],
)
async def test_turns_told_out_of_time_order_say_one_city_at_each_time(
    tenant: TenantCtx, arrivals: list[str]
) -> None:
    """Each turn is also kept as an episode, retired with the fact formed from it: its words
    hold exactly as long as the fact does. A frozen fact whose validity a late, earlier value
    cut takes its turn's validity down with it, so the old sentence "I live in Cologne." never
    speaks for February, when the user lived in Bonn."""
    began = {"Cologne": "2026-01-01", "Bonn": "2026-02-01", "Hamburg": "2026-03-01"}
    for city in arrivals:
        await tenant.say("u", "s1", f"I live in {city}.", at=f"{began[city]}T00:00:00Z")
    for valid_at, city in [
        ("2026-01-15T00:00:00Z", "Cologne"),
        ("2026-02-15T00:00:00Z", "Bonn"),
        ("2026-03-15T00:00:00Z", "Hamburg"),
    ]:
        then = await tenant.recall("u", "where do I live", valid_at=valid_at, top_k=20)
        said = _contents(then)
        assert said and all(city in c for c in said), (valid_at, said)
        assert not [c for c in said for other in began if other != city and other in c], (
            valid_at,
            said,
        )
    today = await tenant.recall("u", "where do I live", top_k=20)
    assert _contents(today) and all("Hamburg" in c for c in _contents(today)), _contents(today)


async def test_a_turn_of_two_facts_is_cut_with_the_one_cut_and_the_other_stays(
    tenant: TenantCtx,
) -> None:
    """A turn that formed a fact still current and one whose validity is cut later: the turn
    is frozen as a whole with the retired one (docs/formation.md, Episodes) and cut with it,
    so it speaks of Cologne only while the user lived there; its other fact stays current."""
    await tenant.say("u", "s1", "I live in Hamburg.", at="2026-03-01T00:00:00Z")
    both = await tenant.say(
        "u", "s1", "I live in Cologne and I work as a nurse.", at="2026-01-01T00:00:00Z"
    )
    [episode_id] = both["episode_ids"]
    await tenant.say("u", "s1", "I live in Bonn.", at="2026-02-01T00:00:00Z")

    r = await tenant.client.get(f"{tenant.user('u')}/memories/{episode_id}", headers=tenant.headers)
    assert r.status_code == 200, r.text
    assert (r.json()["status"], r.json()["valid_to"]) == ("frozen", "2026-02-01T00:00:00Z")
    bonn = await tenant.recall("u", "where do I live", valid_at="2026-02-15T00:00:00Z", top_k=20)
    assert not [c for c in _contents(bonn) if "Cologne" in c or "Hamburg" in c], _contents(bonn)
    january = await tenant.recall("u", "where do I live", valid_at="2026-01-15T00:00:00Z", top_k=20)
    assert "I live in Cologne and I work as a nurse." in _contents(january)
    # what the turn said that still holds is still known, from its own fact
    [role] = await tenant.memories("u", key="work.role", status="active")
    assert role["value"] == "nurse" and role["origin"]["episode_ids"] == [episode_id]
