"""Optional reranking of recall's best candidates by a configured rerank endpoint.

Off by default (no ``MEMLANE_RERANK_BASE_URL``). When on, the ``rerank_candidates`` best rows
of recall's own ranking are sent to the endpoint (``app.providers.rerank``) with the query, each
as the text the embedder sees (``embedding_text``: personal values as ``[kind]``, secrets
already masked — an outside service never reads them), and their relevance becomes

    relevance' = (1 − w) × relevance + w × (s − s_min) / (s_max − s_min)      w = rerank_weight

where ``s`` is the reranker's score of the row and ``s_min``/``s_max`` the lowest and highest
of the rows sent (all equal: 1 each; a row the endpoint did not score: 0). The other factors
of the score (confidence, recency, scope and type weights) are kept:
``score' = score × relevance' / relevance``. The rows sent are ordered by ``score'`` (ties
keep recall's order) and stay ahead of the rows not sent. Min-max normalisation puts any
server's scale (probabilities, logits) on recall's 0–1 relevance scale.

When the endpoint fails — error status, timeout (``rerank_timeout_s``), a body of the wrong
shape — the answer is recall's own ranking, unchanged; the failure is logged and counted in
``memlane_recall_rerank_total{outcome="failed"}``, and ``explain`` says ``rerank: failed``.
docs/recall.md, "Reranking".
"""

from __future__ import annotations

import asyncio
import logging
import math
import uuid
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Literal

from app.kit.metrics import RECALL_LATENCY, RECALL_RERANK, timed
from app.privacy.protect import embedding_text
from app.providers.rerank import RerankClient, RerankError
from app.recall.repository import RankedRow

if TYPE_CHECKING:
    from app.config import Settings

log = logging.getLogger(__name__)

RERANKER_KEY = "reranker"
RerankOutcome = Literal["off", "applied", "failed"]


@dataclass(slots=True)
class Reranked:
    """Rows in their final order, what happened, and the reranker's own score of each row it
    scored (by memory id; the server's scale)."""

    rows: list[RankedRow]
    outcome: RerankOutcome = "off"
    scores: dict[uuid.UUID, float] = field(default_factory=dict)


def pool_size(settings: Settings, reranker: RerankClient | None, base: int) -> int:
    """How many rows recall should rank: ``base``, or enough to fill the reranker's
    ``rerank_candidates`` when one is configured."""
    return max(base, settings.rerank_candidates) if reranker is not None else base


def blend(rows: list[RankedRow], scores: list[float], weight: float) -> list[RankedRow]:
    """``rows`` with relevance and score blended with the reranker's ``scores`` (one per row,
    ``-inf`` for a row it did not score) and reordered by the new score; see the module
    docstring for the formula. Pure."""
    finite = [s for s in scores if math.isfinite(s)]
    lo, hi = (min(finite), max(finite)) if finite else (0.0, 0.0)
    out = []
    for r, s in zip(rows, scores, strict=True):
        norm = ((s - lo) / (hi - lo) if hi > lo else 1.0) if math.isfinite(s) else 0.0
        relevance = (1 - weight) * r.relevance + weight * norm
        factor = r.score / r.relevance if r.relevance > 0 else 0.0
        out.append(replace(r, relevance=relevance, score=relevance * factor))
    order = sorted(range(len(out)), key=lambda i: (-out[i].score, i))
    return [out[i] for i in order]


async def rerank(
    reranker: RerankClient | None, settings: Settings, query: str, rows: list[RankedRow]
) -> Reranked:
    """Rerank the first ``settings.rerank_candidates`` of ``rows`` (recall's order) for
    ``query`` (the text the embedder saw). ``reranker`` None: the rows unchanged, outcome
    ``off``. On any failure of the endpoint, or past ``rerank_timeout_s``: the rows unchanged,
    outcome ``failed`` (logged, counted). Never raises for the endpoint's faults."""
    if reranker is None or not rows:
        return Reranked(rows)
    head, tail = rows[: settings.rerank_candidates], rows[settings.rerank_candidates :]
    documents = [embedding_text(r.memory.content) for r in head]
    try:
        with timed(RECALL_LATENCY, "rerank"):
            scores = await asyncio.wait_for(
                reranker.rerank(embedding_text(query), documents), settings.rerank_timeout_s
            )
    except (RerankError, TimeoutError) as exc:
        log.warning("recall answered without reranking: %s", exc or type(exc).__name__)
        RECALL_RERANK.labels("failed").inc()
        return Reranked(rows, "failed")
    RECALL_RERANK.labels("applied").inc()
    return Reranked(
        blend(head, scores, settings.rerank_weight) + tail,
        "applied",
        {r.memory.id: s for r, s in zip(head, scores, strict=True) if math.isfinite(s)},
    )
