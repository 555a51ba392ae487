"""Speaker match at its edges (docs/recall.md "Speaker match", docs/sessions.md "Who said
it"): the same words from two participants stay two turns; names of any cased script, with
apostrophes and hyphens, are lifted; a blank name or one holding a sealed value is refused;
export keeps who said each turn; one participant's statement does not retire another's turn."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import TenantCtx

AT = "2026-06-01T12:00:00+00:00"


async def say(t: TenantCtx, user: str, session: str, name: str | None, content: str) -> dict:
    message: dict[str, Any] = {"role": "user", "content": content, "occurred_at": AT}
    if name is not None:
        message["name"] = name
    r = await t.client.post(
        f"{t.user(user)}/sessions/{session}/messages?wait=true",
        json={"messages": [message]},
        headers=t.headers,
    )
    assert r.status_code == 201, r.text
    return r.json()


async def test_the_same_words_from_two_speakers_keep_both_speakers(tenant: TenantCtx) -> None:
    user = "speaker-same-words"
    await say(tenant, user, "s1", "Caroline", "I finally finished reading the whole trilogy.")
    await say(tenant, user, "s2", "Melanie", "I finally finished reading the whole trilogy.")
    r = await tenant.recall(
        user, "What did Melanie finish reading?", at=AT, explain=True, types=["episode"]
    )
    assert r["memories"], r
    # Melanie said it too: her own turn is lifted by a query naming her.
    assert r["memories"][0]["explain"]["speaker_score"] == 1.0


@pytest.mark.parametrize(
    ("name", "query"),
    [
        ("José", "What did José say about the cat?"),
        ("Zoë", "What did Zoë say about the cat?"),
        ("Łukasz", "What did Łukasz say about the cat?"),
        ("Наташа", "What did Наташа say about the cat?"),
        ("O'Brien", "What did O'Brien say about the cat?"),
        ("Mary-Jane", "What did Mary-Jane say about the cat?"),
    ],
)
async def test_a_speaker_the_api_accepts_is_lifted_when_the_query_names_them(
    tenant: TenantCtx, name: str, query: str
) -> None:
    user = "speaker-script-" + name.encode("utf-8").hex()[:16]
    await say(tenant, user, "s1", name, "I adopted a small grey cat from the shelter.")
    await say(tenant, user, "s1", "Other", "I adopted a small grey dog from the shelter.")
    r = await tenant.recall(user, query, at=AT, explain=True, types=["episode"])
    scores = {m["content"]: m["explain"]["speaker_score"] for m in r["memories"]}
    # The name was accepted as the speaker (docs: "letters of any script … and `_.:'-`"),
    # and the query names that speaker: the speaker's turn is lifted.
    assert scores.get("I adopted a small grey cat from the shelter.") == 1.0, scores


async def test_a_name_of_only_spaces_is_refused(tenant: TenantCtx) -> None:
    r = await tenant.client.post(
        f"{tenant.user('speaker-blank')}/sessions/s1/messages",
        json={"messages": [{"role": "user", "name": "   ", "content": "I like green tea."}]},
        headers=tenant.headers,
    )
    assert r.status_code == 422, r.text
    assert r.headers["content-type"].startswith("application/problem+json")


async def test_export_with_messages_keeps_who_said_each_turn(tenant: TenantCtx) -> None:
    user = "speaker-export"
    await say(tenant, user, "s1", "Caroline", "I went to the pottery class on Saturday.")
    r = await tenant.client.get(
        f"{tenant.user(user)}/export?include_messages=true", headers=tenant.headers
    )
    assert r.status_code == 200, r.text
    messages = r.json()["messages"]
    assert [m.get("name") for m in messages] == ["Caroline"], messages


async def test_another_participants_correction_does_not_freeze_the_speakers_turn(
    tenant: TenantCtx,
) -> None:
    """Facts formed from a named turn are the user's (docs/sessions.md): in a group
    conversation Melanie's "I live in Porto." supersedes the fact of Caroline's "I live in
    Lisbon.", but Caroline's own turn stays current, and a query naming her lifts it."""
    user = "speaker-group-correction"
    await say(tenant, user, "s1", "Caroline", "I live in Lisbon.")
    await say(tenant, user, "s1", "Melanie", "I live in Porto.")
    r = await tenant.recall(
        user, "Where does Caroline live?", at=AT, explain=True, types=["episode"]
    )
    scores = {m["content"]: m["explain"]["speaker_score"] for m in r["memories"]}
    assert scores == {"I live in Lisbon.": 1.0, "I live in Porto.": 0.0}, scores


async def test_a_name_holding_a_sealed_value_is_refused(tenant: TenantCtx) -> None:
    r = await tenant.client.post(
        f"{tenant.user('speaker-secret')}/sessions/s1/messages",
        json={
            "messages": [
                {"role": "user", "name": "4111 1111 1111 1111", "content": "I like green tea."}
            ]
        },
        headers=tenant.headers,
    )
    assert r.status_code == 422, r.text
    assert r.json()["type"].endswith("secret-in-name")
    assert "4111" not in r.text


async def test_a_fact_formed_from_a_named_turn_is_lifted_by_its_speaker(
    tenant: TenantCtx,
) -> None:
    user = "speaker-fact"
    await say(tenant, user, "s1", "Caroline", "I work at Hooli.")
    r = await tenant.recall(user, "Where does Caroline work?", at=AT, explain=True)
    fact = next(m for m in r["memories"] if m["key"] == "work.employer")
    assert fact["explain"]["speaker_score"] == 1.0
