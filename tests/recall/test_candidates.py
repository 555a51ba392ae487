"""The two candidate lists of the recall query (docs/recall.md, "Query plan"): each ranking
contributes its best ``recall_candidates`` rows, and only their union is scored."""

from __future__ import annotations

from typing import Any

from tests.conftest import TenantCtx
from tests.recall.support import ranked

TEXTS = (
    "My cat Miso sleeps on the windowsill",
    "My cat Miso chases the neighbour's birds",
    "I repaired the bicycle chain on Sunday",
    "Our team ships the release every second Thursday",
)


async def test_top_k_widens_the_candidate_lists(tenant: TenantCtx, app: Any) -> None:
    for text in TEXTS:
        await tenant.remember("u", text, type="fact")
    rows = await ranked(app, tenant, [], vector_of=TEXTS[0], mode="vector", top_k=4, candidates=1)
    # a list is never shorter than top_k: every row is a vector candidate, best first
    assert {r.memory.content for r in rows} == set(TEXTS) and rows[0].memory.content == TEXTS[0]
    assert all(r.similarity is not None for r in rows)


async def test_a_text_only_candidate_has_no_similarity(tenant: TenantCtx, app: Any) -> None:
    for text in TEXTS:
        await tenant.remember("u", text, type="fact")
    vector_only = await ranked(
        app, tenant, [], vector_of=TEXTS[0], mode="hybrid", top_k=2, candidates=2
    )
    assert TEXTS[3] not in {r.memory.content for r in vector_only}  # not among the 2 nearest
    rows = await ranked(
        app, tenant, ["thursday"], vector_of=TEXTS[0], mode="hybrid", top_k=2, candidates=2
    )
    by_content = {r.memory.content: r for r in rows}
    assert by_content.keys() == {TEXTS[0], TEXTS[3]}
    ship = by_content[TEXTS[3]]
    # it entered by its text rank alone: rank 1 of the text list, no vector rank
    assert ship.similarity is None and ship.text_rank is not None and ship.text_rank > 0
    assert abs(ship.relevance - 0.5) < 1e-9  # (1/(k+1)) / (2/(k+1))
    assert abs(by_content[TEXTS[0]].relevance - 0.5) < 1e-9  # vector rank 1, no text match


async def test_the_entity_signal_lifts_candidates_and_adds_none(
    tenant: TenantCtx, app: Any
) -> None:
    for text in TEXTS:
        await tenant.remember("u", text, type="fact")
    # "Miso" is named in two memories; the vector list (the one nearest) and the text list
    # ("bicycle") hold neither the second Miso memory nor the release
    rows = await ranked(
        app,
        tenant,
        ["bicycle"],
        vector_of=TEXTS[0],
        mode="hybrid",
        top_k=1,
        candidates=1,
        query_entities=["miso"],
    )
    by_content = {r.memory.content: r for r in rows}
    assert TEXTS[1] not in by_content, "an entity match alone is no candidate"
    assert by_content.keys() <= {TEXTS[0], TEXTS[2]}
    assert by_content[TEXTS[0]].entity_score == 1.0


async def test_the_text_list_skips_matches_the_filters_drop(tenant: TenantCtx, app: Any) -> None:
    """The full-text list reads its matches best first and stops at ``candidates`` rows that
    pass the filters: better matches of a task not asked for are skipped, not counted."""
    for i in range(3):
        await tenant.remember("u", f"bees bees bees {i}", type="fact", scope="task", scope_id="t9")
    await tenant.remember("u", "I keep bees on the roof of my flat in town", type="fact")
    await tenant.remember("u", "bees", type="fact", scope="task", scope_id="t1")
    rows = await ranked(app, tenant, ["bees"], mode="text", top_k=1, candidates=1)
    assert [r.memory.content for r in rows] == ["I keep bees on the roof of my flat in town"]
