"""Speaker match through the HTTP API: a turn sent with the participant's `name` is kept with
its speaker, and a query that names the speaker lifts that speaker's turns (docs/recall.md,
"Speaker match"); at its edges: the same words from two participants stay two turns; names of
any cased script, with apostrophes and hyphens, are lifted; a blank name or one holding a
sealed value is refused; export keeps who said each turn; one participant's statement does
not retire another's turn."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from app.config import Settings
from tests.conftest import TenantCtx

AT = "2026-06-01T12:00:00+00:00"


async def say(t: TenantCtx, user: str, name: str | None, content: str, session: str = "s1") -> None:
    message: dict[str, Any] = {"role": "user", "content": content, "occurred_at": AT}
    if name is not None:
        message["name"] = name
    r = await t.client.post(
        f"{t.user(user)}/sessions/{session}/messages?wait=true",
        json={"messages": [message]},
        headers=t.headers,
    )
    assert r.status_code == 201, r.text


def fused(settings: Settings, e: dict[str, Any], speaker_counted: bool) -> float:
    """The minmax relevance from its components (docs/recall.md, "Fusion by normalised
    scores" and "Speaker match")."""
    wv, wt = settings.recall_fusion_weight_vector, settings.recall_fusion_weight_text
    we, ws = settings.recall_fusion_weight_entity, settings.recall_fusion_weight_speaker
    parts = wv * e["vector_score"] + wt * e["text_score"] + we * (e["entity_score"] or 0)
    weights = wv + wt + we
    if speaker_counted:
        parts += ws * e["speaker_score"]
        weights += ws
    return parts / weights


async def test_a_query_naming_the_speaker_lifts_the_speakers_turns(
    tenant: TenantCtx, settings: Settings
) -> None:
    user = "speaker-en"
    # Two participants say nearly the same thing; the question asks about one of them.
    await say(tenant, user, "Melanie", "We went to the pottery class on Saturday morning.")
    await say(tenant, user, "Caroline", "We went to the pottery class on Sunday morning.")
    await say(tenant, user, "Melanie", "The kids loved the museum downtown.")
    for name in ("Melanie", "Caroline"):
        r = await tenant.recall(
            user,
            f"When did {name} go to the pottery class?",
            at=AT,
            explain=True,
            types=["episode"],
        )
        first = r["memories"][0]
        assert first["explain"]["speaker_score"] == 1.0
        assert first["content"].endswith(
            "Saturday morning." if name == "Melanie" else "Sunday morning."
        )
        for m in r["memories"]:
            assert abs(m["explain"]["relevance"] - fused(settings, m["explain"], True)) < 1e-9


async def test_a_multi_word_or_chinese_speaker_is_matched_by_a_name_the_query_uses(
    tenant: TenantCtx,
) -> None:
    user = "speaker-names"
    await say(tenant, user, "Melanie Smith", "I painted a lake at sunrise last summer.")
    await say(tenant, user, "张伟", "我上周末去爬了泰山。")
    await say(tenant, user, None, "I painted a barn last summer.")
    r = await tenant.recall(
        user, "What did Melanie paint last summer?", at=AT, explain=True, types=["episode"]
    )
    by_content = {m["content"]: m["explain"]["speaker_score"] for m in r["memories"]}
    assert by_content["I painted a lake at sunrise last summer."] == 1.0
    assert by_content["I painted a barn last summer."] == 0.0
    r = await tenant.recall(user, "张伟上周末去哪儿了？", at=AT, explain=True, types=["episode"])
    assert r["memories"][0]["content"] == "我上周末去爬了泰山。"
    assert r["memories"][0]["explain"]["speaker_score"] == 1.0


async def test_no_named_speaker_leaves_the_fusion_as_it_was(
    tenant: TenantCtx, settings: Settings
) -> None:
    """When no candidate's speaker is named, the speaker weight is not in the divisor: the
    relevance is the fusion without the speaker term."""
    user = "speaker-none"
    await say(tenant, user, "Caroline", "I adopted a rescue dog named Biscuit.")
    await say(tenant, user, None, "Melanie adopted a cat last spring.")
    r = await tenant.recall(user, "What did Melanie adopt?", at=AT, explain=True, types=["episode"])
    assert r["memories"]
    for m in r["memories"]:
        assert m["explain"]["speaker_score"] == 0.0
        assert abs(m["explain"]["relevance"] - fused(settings, m["explain"], False)) < 1e-9
    # A query naming nobody computes no speaker score at all.
    r = await tenant.recall(user, "what pets were adopted", at=AT, explain=True)
    assert all(m["explain"]["speaker_score"] is None for m in r["memories"])


async def refused(t: TenantCtx, user: str, name: str, content: str) -> httpx.Response:
    """The answer to a user turn named ``name``: a 422 problem+json (asserted here)."""
    r = await t.client.post(
        f"{t.user(user)}/sessions/s1/messages",
        json={"messages": [{"role": "user", "name": name, "content": content}]},
        headers=t.headers,
    )
    assert r.status_code == 422, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    return r


async def test_a_name_outside_the_allowed_characters_is_refused(tenant: TenantCtx) -> None:
    await refused(tenant, "speaker-bad", "Ann<script>", "hi there")


async def test_the_same_words_from_two_speakers_keep_both_speakers(tenant: TenantCtx) -> None:
    user = "speaker-same-words"
    await say(
        tenant, user, "Caroline", "I finally finished reading the whole trilogy.", session="s1"
    )
    await say(
        tenant, user, "Melanie", "I finally finished reading the whole trilogy.", session="s2"
    )
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
    await say(tenant, user, name, "I adopted a small grey cat from the shelter.")
    await say(tenant, user, "Other", "I adopted a small grey dog from the shelter.")
    r = await tenant.recall(user, query, at=AT, explain=True, types=["episode"])
    scores = {m["content"]: m["explain"]["speaker_score"] for m in r["memories"]}
    # The name was accepted as the speaker (docs: "letters of any script … and `_.:'-`"),
    # and the query names that speaker: the speaker's turn is lifted.
    assert scores.get("I adopted a small grey cat from the shelter.") == 1.0, scores


async def test_a_name_of_only_spaces_is_refused_and_said_blank(tenant: TenantCtx) -> None:
    r = await refused(tenant, "speaker-blank", "   ", "I like green tea.")
    assert "blank" in r.text


async def test_export_with_messages_keeps_who_said_each_turn(tenant: TenantCtx) -> None:
    user = "speaker-export"
    await say(tenant, user, "Caroline", "I went to the pottery class on Saturday.")
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
    await say(tenant, user, "Caroline", "I live in Lisbon.")
    await say(tenant, user, "Melanie", "I live in Porto.")
    r = await tenant.recall(
        user, "Where does Caroline live?", at=AT, explain=True, types=["episode"]
    )
    scores = {m["content"]: m["explain"]["speaker_score"] for m in r["memories"]}
    assert scores == {"I live in Lisbon.": 1.0, "I live in Porto.": 0.0}, scores


async def test_a_name_holding_a_sealed_value_is_refused(tenant: TenantCtx) -> None:
    r = await refused(tenant, "speaker-secret", "4111 1111 1111 1111", "I like green tea.")
    assert r.json()["type"].endswith("secret-in-name")
    # the path and the request's id are random hex, which may hold "4111" by chance
    said = {k: v for k, v in r.json().items() if k not in ("instance", "request_id")}
    assert "4111" not in str(said)


async def test_a_fact_formed_from_a_named_turn_is_lifted_by_its_speaker(
    tenant: TenantCtx,
) -> None:
    user = "speaker-fact"
    await say(tenant, user, "Caroline", "I work at Hooli.")
    r = await tenant.recall(user, "Where does Caroline work?", at=AT, explain=True)
    fact = next(m for m in r["memories"] if m["key"] == "work.employer")
    assert fact["explain"]["speaker_score"] == 1.0


async def test_recall_and_the_context_say_who_said_it(tenant: TenantCtx) -> None:
    user = "speaker-context"
    await say(tenant, user, "Caroline", "I went to the LGBTQ support group yesterday.")
    await say(tenant, user, "Melanie", "I signed up for a pottery class.")
    r = await tenant.recall(user, "What did Caroline do yesterday?", types=["episode"])
    speakers = {m["content"]: m["speaker"] for m in r["memories"]}
    assert speakers["I went to the LGBTQ support group yesterday."] == "Caroline"
    assert speakers["I signed up for a pottery class."] == "Melanie"
    ctx = await tenant.client.get(
        f"{tenant.user(user)}/sessions/s1/context",
        params={"query": "What did Caroline do?"},
        headers=tenant.headers,
    )
    assert ctx.status_code == 200, ctx.text
    turns = [(m["role"], m["name"], m["content"]) for m in ctx.json()["messages"][1:]]
    assert ("user", "Caroline", "I went to the LGBTQ support group yesterday.") in turns
    assert ("user", "Melanie", "I signed up for a pottery class.") in turns
    assert "user (Caroline): I went to the LGBTQ support group yesterday." in ctx.json()["text"]
