"""Speaker match through the HTTP API: a turn sent with the participant's `name` is kept with
its speaker, and a query that names the speaker lifts that speaker's turns (docs/recall.md,
"Speaker match")."""

from __future__ import annotations

from typing import Any

from app.config import Settings
from tests.conftest import TenantCtx

AT = "2026-06-01T12:00:00+00:00"


async def say(t: TenantCtx, user: str, name: str | None, content: str) -> None:
    message: dict[str, Any] = {"role": "user", "content": content, "occurred_at": AT}
    if name is not None:
        message["name"] = name
    r = await t.client.post(
        f"{t.user(user)}/sessions/s1/messages?wait=true",
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


async def test_a_name_outside_the_allowed_characters_is_refused(tenant: TenantCtx) -> None:
    r = await tenant.client.post(
        f"{tenant.user('speaker-bad')}/sessions/s1/messages",
        json={"messages": [{"role": "user", "name": "Ann<script>", "content": "hi there"}]},
        headers=tenant.headers,
    )
    assert r.status_code == 422
    assert r.headers["content-type"].startswith("application/problem+json")
