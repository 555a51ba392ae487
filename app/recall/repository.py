"""The recall query: exact per-user scan with the rerank in SQL (see docs/recall.md)."""

from __future__ import annotations

import functools
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from sqlalchemy import ColumnElement, and_, bindparam, or_, select, text
from sqlalchemy import inspect as sa_inspect
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased, load_only

from app.config import Settings
from app.db.base import transient
from app.db.models import ChatSession, Memory, Message, ScopeRead, Task
from app.db.repository import UserScopedRepository
from app.kit.types import EARLIEST, TENANT_WIDE_USER

# The mark of an entity's postings in memory_terms (no lexeme of search_text holds it).
ENTITY_MARK = "@"


def decay_params(settings: Settings) -> dict[str, float]:
    """The bind parameters of ``decay_inputs_sql``: half-lives (days) and floors (0..1) per type,
    as ``{"hl_profile": …, "fl_event": …}``, and the usage terms ``usage_alpha``, ``usage_cap``."""
    return {
        "hl_profile": settings.half_life_profile_days,
        "hl_preference": settings.half_life_preference_days,
        "hl_fact": settings.half_life_fact_days,
        "hl_event": settings.half_life_event_days,
        "hl_episode": settings.half_life_episode_days,
        "fl_profile": settings.decay_floor_profile,
        "fl_preference": settings.decay_floor_preference,
        "fl_fact": settings.decay_floor_fact,
        "fl_event": settings.decay_floor_event,
        "fl_episode": settings.decay_floor_episode,
        "usage_alpha": settings.usage_half_life_alpha,
        "usage_cap": settings.usage_half_life_cap,
    }


def decay_inputs_sql(alias: str, at: str = ":at", access_count: str | None = None) -> str:
    """SQL select-list items ``age_days, half_life_days, base_half_life_days, decay_floor`` of
    the memories row ``alias``, at the timestamptz expression ``at``; needs the binds of
    ``decay_params``.

    age_days = max(0, at - valid_from) in days (``date_part``, not ``extract``: see DESIGN.md);
    base_half_life_days = the row's own half-life, else its type's, NULL for constraints;
    half_life_days = base_half_life_days × min(usage_cap, 1 + usage_alpha · ln(1 +
    access_count)): the effective half-life, which grows with use and is bounded (the
    usage-based TTL of seed 001: what keeps being recalled is kept longer; docs/time.md);
    decay_floor = its type's floor, 1.0 for constraints.
    ``access_count``: the SQL of the row's access count (default ``<alias>.access_count``).
    Recall (``_RANKED``) and forgetting (``app/lifecycle``) both use this: one formula.
    """
    m = alias
    uses = access_count or f"{m}.access_count"
    base = f"""coalesce({m}.half_life_days, CASE {m}.type
               WHEN 'profile' THEN CAST(:hl_profile AS float8)
               WHEN 'preference' THEN CAST(:hl_preference AS float8)
               WHEN 'fact' THEN CAST(:hl_fact AS float8)
               WHEN 'event' THEN CAST(:hl_event AS float8)
               WHEN 'episode' THEN CAST(:hl_episode AS float8) END)"""
    return f"""greatest(0, date_part('epoch', CAST({at} AS timestamptz) - {m}.valid_from)) / 86400.0
               AS age_days,
           {base} * least(CAST(:usage_cap AS float8), 1.0 + CAST(:usage_alpha AS float8)
               * ln(1.0 + greatest(0, coalesce({uses}, 0)))) AS half_life_days,
           {base} AS base_half_life_days,
           CASE {m}.type
               WHEN 'profile' THEN CAST(:fl_profile AS float8)
               WHEN 'preference' THEN CAST(:fl_preference AS float8)
               WHEN 'fact' THEN CAST(:fl_fact AS float8)
               WHEN 'event' THEN CAST(:fl_event AS float8)
               WHEN 'episode' THEN CAST(:fl_episode AS float8)
               ELSE 1.0 END AS decay_floor"""


MAX_HALF_LIVES = 1000


def decay_sql(alias: str) -> str:
    """The decay factor (0..1) of a row ``alias`` that carries the columns of
    ``decay_inputs_sql``: ``greatest(decay_floor, 0.5 ^ (age_days / half_life_days))``, and 1.0
    when there is no half-life (constraints never decay)."""
    s = alias
    return (
        f"CASE WHEN {s}.half_life_days IS NULL THEN 1.0"
        # The exponent is capped: 0.5^1000 is already 0 for any floor, and 0.5^1075 underflows
        # a float8 (an event a few years old would make the query fail).
        f" ELSE greatest({s}.decay_floor,"
        f" power(0.5, least({s}.age_days / {s}.half_life_days, {MAX_HALF_LIVES}))) END"
    )


# (attribute, column) of the memory fields recall returns: all but the search columns.
_SHOWN_COLUMNS = [
    (attr.key, attr.columns[0].name)
    for attr in sa_inspect(Memory).column_attrs
    if attr.key not in ("embedding", "tsv", "search_text", "entities")
]
_SHOWN_ATTRIBUTES = [getattr(Memory, key) for key, _ in _SHOWN_COLUMNS]
_SHOWN_TYPES = {f"m_{name}": Memory.__table__.c[name].type for _, name in _SHOWN_COLUMNS}

RecallMode = Literal["vector", "text", "hybrid"]
VectorRelevance = Literal["rank", "cosine"]
TextRank = Literal["bm25", "ts_rank"]
Fusion = Literal["minmax", "rrf"]
# The rank constant k of rank-based relevance, (k+1)/(k+rank), and of reciprocal rank fusion
# (Cormack, Clarke & Büttcher, SIGIR 2009) is the bind ``:rank_k`` (settings.recall_rank_k).
_K = "CAST(:rank_k AS float8)"
# Min-max normalisation per query over each ranking's candidate list: (x - lo) / (hi - lo), hi
# the list's best, lo its worst — but never closer to hi than a minimum spread, so that in a
# short list (a user with few memories, a query few memories match) the worst candidate is not
# put at 0, level with a memory that does not match at all: lo = min(worst, best - spread) with
# spread :spread_vector (cosine units) for the vector list and best × :spread_text for the
# full-text list (1 = divide by the best). 1 when hi = lo; 0 for a row not in the list.
_VECTOR_LO = "least(b.sim_min, b.sim_max - CAST(:spread_vector AS float8))"
_TEXT_LO = "least(b.text_min, b.text_max * (1.0 - CAST(:spread_text AS float8)))"
_VECTOR_SCORE = (
    "CASE WHEN b.vector_pos IS NULL THEN 0.0"
    f" ELSE coalesce((b.similarity - {_VECTOR_LO}) / nullif(b.sim_max - {_VECTOR_LO}, 0), 1.0)"
    " END"
)
_TEXT_SCORE = (
    "CASE WHEN b.text_pos IS NULL THEN 0.0"
    f" ELSE coalesce((b.text_rank - {_TEXT_LO}) / nullif(b.text_max - {_TEXT_LO}, 0), 1.0)"
    " END"
)
_W_VECTOR = "CAST(:w_vector AS float8)"
_W_TEXT = "CAST(:w_text AS float8)"
_W_ENTITY = "CAST(:w_entity AS float8)"
_W_SPEAKER = "CAST(:w_speaker AS float8)"
# The speaker score (docs/recall.md, "Speaker match"): 1 when a word of the turn's speaker
# (``origin.speaker``, the message's ``name``, lower-cased) is one of the query's named
# entities (``:speakers``), else 0. Read from the memories row the base CTE joins by primary
# key, for the candidates only.
_SPEAKER_SCORE = (
    "CASE WHEN string_to_array(lower(u.origin ->> 'speaker'), ' ')"
    " && CAST(:speakers AS text[]) THEN 1.0 ELSE 0.0 END"
)
# Which rows a ranking reads. A row is the user's own — of an open scope, or of a task, session
# or agent the request names — or a tenant-wide row (owner :tenant_owner) of a template the user
# matches (docs/scopes.md). ``:owners`` is [user] or [user, tenant_owner]: one index range each.
# ``:statuses``: ``{active}`` normally, ``{frozen}`` for reminders, ``{active, frozen}`` at a
# point in time. ``:valid_at`` (NULL: now) keeps the rows whose validity [valid_from, valid_to)
# contains it; ``:ended_by`` (NULL: no limit) the rows whose validity ended by then
# (docs/time.md). Every column read is in the covering indexes. Among the rows of ``:owners``
# (the user, and the tenant-wide owner, which no user id can be: ``ID_PATTERN``) the user's
# are those not of the tenant-wide owner: written ``<> :tenant_owner``, not ``= :user_id``, so
# that the planner does not count the user's share of the table twice (``= ANY(:owners)`` and
# ``= :user_id``), which estimated a few rows for any user — a generic plan then read the
# user's rows from the heap (a Bitmap Heap Scan) instead of the covering indexes.
_FILTERS = """m.tenant_id = :tenant_id
       AND m.user_id = ANY(:owners)
       AND m.status = ANY(CAST(:statuses AS text[]))
       AND m.type = ANY(:types)
       AND m.valid_from >= :not_before
       AND (CAST(:valid_at AS timestamptz) IS NULL
            OR (m.valid_from <= CAST(:valid_at AS timestamptz)
                AND (m.valid_to IS NULL OR m.valid_to > CAST(:valid_at AS timestamptz))))
       AND (CAST(:ended_by AS timestamptz) IS NULL
            OR m.valid_to <= CAST(:ended_by AS timestamptz))
       AND ((m.user_id <> :tenant_owner
             AND (m.scope = ANY(:open_scopes)
                  OR (m.scope = 'task' AND m.scope_id = ANY(:task_ids))
                  OR (m.scope = 'session' AND m.scope_id = ANY(:session_ids))
                  OR (m.scope = 'agent' AND m.scope_id = :agent_id)))
            OR (m.user_id = :tenant_owner AND m.scope = 'tenant'
                AND m.scope_id = ANY(:templates)))"""
# The scopes every recall of a user reads unless the user's memory mode narrows them
# (app/users/policy.py, recall_scopes).
OPEN_SCOPES = ("user", "global")


@dataclass(frozen=True, slots=True)
class ScopeReach:
    """What a recall reads beyond the open scopes and the request's task and session
    (docs/scopes.md): the agent's own scope, other tasks and sessions (``scope_override``),
    and the tenant-wide memories of ``templates`` (None: none at all; ``""`` is the template
    of every user)."""

    agent_id: str | None = None
    task_ids: tuple[str, ...] = ()
    session_ids: tuple[str, ...] = ()
    templates: tuple[str, ...] | None = None

    def binds(self, user_id: str, task_id: str | None, session_id: str | None) -> dict[str, Any]:
        """The bind parameters of ``_FILTERS`` besides tenant, status, types and dates."""
        return {
            "user_id": user_id,
            "owners": [user_id] if self.templates is None else [user_id, TENANT_WIDE_USER],
            "tenant_owner": TENANT_WIDE_USER,
            "templates": list(self.templates or ()),
            "agent_id": self.agent_id or "",
            "task_ids": [t for t in (task_id, *self.task_ids) if t],
            "session_ids": [t for t in (session_id, *self.session_ids) if t],
        }


def recency_sql(alias: str) -> str:
    """The recency factor of the score (docs/recall.md, "Ranking formula"): ``1 - w × (1 -
    decay)`` with ``w`` = ``:w_recency`` (``settings.recall_recency_weight``). It lies in
    ``[1 - w, 1]``: age can lower a memory's score by at most ``w``, however old it is. ``w =
    1`` is the plain ``× decay``. Fading is separate: a row whose ``decay`` is below
    ``min_decay`` leaves recall whatever ``w`` is."""
    return f"(1.0 - CAST(:w_recency AS float8) * (1.0 - {alias}.decay))"


# The owners whose postings a BM25 ranking reads (``:owner_ids``, text[]): the user of the
# request, and the tenant-wide owner when the user reads tenant-wide memories (``ScopeReach``).
_OWNERS = "p.tenant_id = :tenant_id AND p.user_id = ANY(CAST(:owner_ids AS text[]))"


def bm25_sql(entity: bool) -> list[str]:
    """The CTEs of the BM25 ranking (``st``, ``bm``; with ``entity`` also ``ent``), to be put
    before ``txt`` (docs/recall.md, "BM25").

    Okapi BM25 (Robertson & Zaragoza, "The Probabilistic Relevance Framework: BM25 and Beyond",
    2009), with Lucene's non-negative idf:
    ``bm25(d) = Σ_{t ∈ q ∩ d} idf(t) · tf(t,d) · (k1 + 1) / (tf(t,d) + k1 · (1 − b + b · |d| /
    avgdl))``, ``idf(t) = ln(1 + (N − df(t) + 0.5) / (df(t) + 0.5))``; N and avgdl from
    ``memory_term_stats`` of the owners and ``:statuses``, df(t) and tf from ``memory_terms``
    (each posting carries |d|, its memory's length in lexemes). The query's terms are the
    lexemes of ``to_tsvector('english', :bm25_text)``, the stored side's ``tsv`` being
    ``to_tsvector('english', search_text)``: the same stemming on both sides. Binds:
    ``:owner_ids``, ``:statuses``, ``:bm25_text``, ``:bm25_k1``, ``:bm25_b``; with ``entity``,
    ``:entities`` (text[], each ``@`` + a lower-cased entity).

    ``ent``: ``entity_score(d) = Σ_{e ∈ q ∩ d} idf(e) / Σ_{e ∈ q, df(e) > 0} idf(e)`` in 0..1,
    the share of the query's named entities (by idf) that the memory mentions.
    """
    ctes = [
        """st AS MATERIALIZED (
    SELECT coalesce(sum(s.docs), 0)::float8 AS n,
           coalesce(sum(s.total_len), 0)::float8 / greatest(coalesce(sum(s.docs), 0), 1) AS avgdl
      FROM memory_term_stats s
     WHERE s.tenant_id = :tenant_id AND s.user_id = ANY(CAST(:owner_ids AS text[]))
       AND s.status = ANY(CAST(:statuses AS text[]))
)""",
        f"""bm AS MATERIALIZED (
    SELECT x.memory_id,
           sum(x.idf * x.tf * (CAST(:bm25_k1 AS float8) + 1.0)
               / (x.tf + CAST(:bm25_k1 AS float8)
                  * (1.0 - CAST(:bm25_b AS float8) + CAST(:bm25_b AS float8) * x.rel_len)))
           AS bm25
      FROM (SELECT p.memory_id, p.tf::float8 AS tf,
                   ln(1.0 + (st.n - count(*) OVER w + 0.5) / (count(*) OVER w + 0.5)) AS idf,
                   CASE WHEN st.avgdl > 0 THEN p.doc_len / st.avgdl ELSE 1.0 END AS rel_len
              FROM (SELECT DISTINCT u.lexeme AS term
                      FROM unnest(to_tsvector('english', :bm25_text)) u) q
              JOIN memory_terms p ON {_OWNERS} AND p.term = q.term
                   AND p.status = ANY(CAST(:statuses AS text[]))
             CROSS JOIN st
            WINDOW w AS (PARTITION BY p.term)) x
     GROUP BY x.memory_id
)""",
    ]
    if entity:
        ctes.append(
            f"""ent_p AS MATERIALIZED (
    SELECT p.memory_id, p.term,
           ln(1.0 + (st.n - count(*) OVER w + 0.5) / (count(*) OVER w + 0.5)) AS idf
      FROM (SELECT DISTINCT e AS term FROM unnest(CAST(:entities AS text[])) e) q
      JOIN memory_terms p ON {_OWNERS} AND p.term = q.term
                   AND p.status = ANY(CAST(:statuses AS text[]))
     CROSS JOIN st
    WINDOW w AS (PARTITION BY p.term)
),
ent AS MATERIALIZED (
    SELECT e.memory_id AS id,
           sum(e.idf) / nullif((SELECT sum(d.idf)
                                  FROM (SELECT DISTINCT term, idf FROM ent_p) d), 0)
           AS entity_score
      FROM ent_p e
     GROUP BY e.memory_id
)"""
        )
    return ctes


@functools.cache
def ranked_sql(
    mode: RecallMode,
    vector_relevance: VectorRelevance = "rank",
    text_rank: TextRank = "bm25",
    fusion: Fusion = "minmax",
    entity: bool = False,
    speaker: bool = False,
) -> str:
    """The recall query for ``mode`` (see docs/recall.md, "Query plan").

    Each ranking contributes its best ``:candidates`` rows (settings.recall_candidates):
    ``vec`` — the rows nearest to the query by cosine distance, found by an exact scan of the
    user's rows in ix_memories_recall (index-only: every column it reads is in the index) with
    a top-N sort; ``txt`` — the rows whose ``tsv`` matches the query, best ``ts_rank``
    first. Only their union is scored, so the per-row work of the rerank (decay, recency, scope
    weight) is done for at most 2 × candidates rows, however many memories the user has.

    ``text_rank="bm25"`` (default): ``txt`` is the BM25 ranking over the per-user postings
    (``bm25_sql``), its matches read best first until ``:candidates`` pass the filters;
    ``"ts_rank"`` the ``ts_rank`` scan above. ``fusion="minmax"`` (default):
    hybrid relevance is ``(w_v · vector_score + w_t · text_score [+ w_e · entity_score]) /
    (w_v + w_t [+ w_e])``, each score min-max normalised over its candidate list with a
    minimum spread (``_VECTOR_SCORE``, ``_TEXT_SCORE``), the entity term only with
    ``entity`` (``ent``, ``bm25_sql``); docs/recall.md, "Fusion by normalised scores". With
    ``speaker``, ``+ w_s · speaker_score`` joins the sum (``_SPEAKER_SCORE``) and ``w_s`` the
    divisor when at least one candidate's speaker is named (docs/recall.md, "Speaker match").

    relevance, in 0..1: ``vector`` — by rank of the cosine similarity, ``(k+1) / (k+rank)``
    (``vector_relevance="rank"``), or the cosine similarity itself (``"cosine"``); ``text``
    (the embedder is down) — the text rank of the row divided by the best one; ``hybrid``
    with ``fusion="minmax"`` — as above; with ``fusion="rrf"`` — reciprocal rank fusion of
    both rankings, ``(1/(k+rank_vector) + 1/(k+rank_text)) /
    (2/(k+1))`` so that the best possible is 1, a ranking the row is not a candidate of
    contributing 0 (Cormack, Clarke & Büttcher, SIGIR 2009, fuse the top of each list).
    score = relevance × confidence × recency × scope_weight × type_weight, recency =
    ``recency_sql``; type_weight is ``:w_episode`` for an episode (a verbatim turn ranks below
    a fact of equal relevance), 1 otherwise. ``similarity`` is NULL for a row that entered by
    its text rank only. The ``top_k`` best come back with their memory's columns as
    ``m_<column>`` (``_SHOWN_COLUMNS``).
    """
    vector = mode in ("vector", "hybrid")
    textual = mode in ("text", "hybrid")
    model_filter = "AND m.embedding_model = :model" if vector else ""
    columns = "m.id, m.confidence, m.scope, m.type, m.valid_from, m.half_life_days"
    ctes = []
    if vector:
        ctes.append(
            # the distance is computed once a row, as the sort key; the similarity from it
            f"""vec AS MATERIALIZED (
    SELECT c.*, row_number() OVER (ORDER BY c.similarity DESC, c.id) AS vector_pos,
           min(c.similarity) OVER () AS sim_min, max(c.similarity) OVER () AS sim_max
      FROM (SELECT d.*, 1 - d.distance AS similarity
              FROM (SELECT {columns}, m.embedding <=> CAST(:query AS halfvec) AS distance
                      FROM memories m
                     WHERE {_FILTERS} {model_filter}
                     ORDER BY distance, m.id
                     LIMIT :candidates) d) c
)"""
        )
    entity = entity and mode == "hybrid" and fusion == "minmax"
    speaker = speaker and mode == "hybrid" and fusion == "minmax"
    if (textual and text_rank == "bm25") or entity:
        ctes += bm25_sql(entity)
    if textual and text_rank == "bm25":
        # The postings give the candidates and their BM25; the memories row (by primary key)
        # gives the filters, so every filter of _FILTERS applies as in the other rankings. The
        # matches are read best first and the reading stops at :candidates rows that pass
        # (LATERAL keeps the nested loop in that order): a common word matches thousands of a
        # large user's memories, of which only the best :candidates are needed.
        ctes.append(
            f"""txt AS MATERIALIZED (
    SELECT c.*, row_number() OVER (ORDER BY c.text_rank DESC, c.id) AS text_pos,
           min(c.text_rank) OVER () AS text_min, max(c.text_rank) OVER () AS text_max
      FROM (SELECT m.*, b.bm25 AS text_rank
              FROM (SELECT bm.memory_id, bm.bm25 FROM bm
                     ORDER BY bm.bm25 DESC, bm.memory_id) b
             CROSS JOIN LATERAL (
                   SELECT {columns}
                     FROM memories m
                    WHERE m.tenant_id = :tenant_id AND m.id = b.memory_id
                      AND {_FILTERS} {model_filter}) m
             ORDER BY b.bm25 DESC, b.memory_id
             LIMIT :candidates) c
)"""
        )
    elif textual:
        ctes.append(
            f"""txt AS MATERIALIZED (
    SELECT c.*, row_number() OVER (ORDER BY c.text_rank DESC, c.id) AS text_pos,
           min(c.text_rank) OVER () AS text_min, max(c.text_rank) OVER () AS text_max
      FROM (SELECT {columns}, ts_rank(m.tsv, q.query) AS text_rank
              FROM memories m, (SELECT to_tsquery('english', :tsquery) AS query) q
             WHERE {_FILTERS} {model_filter} AND m.tsv @@ q.query
             ORDER BY text_rank DESC, m.id
             LIMIT :candidates) c
)"""
        )
    # Each candidate list gives its rows with its own columns, the others' as NULL; the rows are
    # gathered by id (one aggregate, no join back to a list: the planner cannot estimate the
    # size of a list, and a nested loop over them costs candidates² comparisons). A row the
    # entity ranking found that neither list holds is no candidate (entity lifts, adds none).
    # The list columns (and their SQL types) of a candidate row:
    fields = {
        "similarity": "float8", "vector_pos": "bigint", "sim_min": "float8",
        "sim_max": "float8", "text_rank": "float8", "text_pos": "bigint",
        "text_min": "float8", "text_max": "float8", "entity_score": "float8",
    }  # fmt: skip

    row_columns = ("confidence", "scope", "type", "valid_from", "half_life_days")

    def one_list(source: str, own: tuple[str, ...], has_row: bool = True) -> str:
        cells = ["id"] + [c if has_row else f"NULL AS {c}" for c in row_columns]
        cells += [c if c in own else f"NULL::{t} AS {c}" for c, t in fields.items()]
        return f"SELECT {', '.join(cells)} FROM {source}"

    lists = []
    if vector:
        lists.append(one_list("vec", ("similarity", "vector_pos", "sim_min", "sim_max")))
    if textual:
        lists.append(one_list("txt", ("text_rank", "text_pos", "text_min", "text_max")))
    if entity:
        lists.append(one_list("ent", ("entity_score",), has_row=False))
    columns_of = ", ".join(f"max({c}) AS {c}" for c in (*row_columns, *fields))
    candidates = (
        f"SELECT id, {columns_of} FROM ({' UNION ALL '.join(lists)}) l"
        " GROUP BY id HAVING max(type) IS NOT NULL"
    )
    ctes.append(
        f"""base AS (
    SELECT m.id, m.similarity, m.vector_pos, m.sim_min, m.sim_max, m.text_rank, m.text_pos,
           m.text_min, m.text_max, m.entity_score, m.confidence, m.scope, m.type,
           {decay_inputs_sql("m", access_count="u.access_count")},
           CASE m.scope
               WHEN 'user' THEN CAST(:w_user AS float8)
               WHEN 'global' THEN CAST(:w_global AS float8)
               WHEN 'session' THEN CAST(:w_session AS float8)
               WHEN 'agent' THEN CAST(:w_agent AS float8)
               WHEN 'tenant' THEN CAST(:w_tenant AS float8)
               ELSE CAST(:w_task AS float8) END AS scope_weight,
           CASE m.type
               WHEN 'episode' THEN CAST(:w_episode AS float8)
               ELSE 1.0 END AS type_weight,
           {_SPEAKER_SCORE if speaker else "NULL::float8"} AS speaker_score
      FROM ({candidates}) m
      -- the use count, read by primary key for the candidates only: the scans stay
      -- index-only and recording access stays a HOT update (docs/time.md)
      JOIN memories u ON u.tenant_id = :tenant_id AND u.id = m.id
)"""
    )
    if mode == "vector":
        relevance = (
            f"({_K} + 1.0) / ({_K} + b.vector_pos)"
            if vector_relevance == "rank"
            else "b.similarity"
        )
    elif mode == "text":
        relevance = "b.text_rank / nullif(max(b.text_rank) OVER (), 0)"
    elif fusion == "rrf":
        relevance = (
            f"(coalesce(1.0 / ({_K} + b.vector_pos), 0)"
            f" + coalesce(1.0 / ({_K} + b.text_pos), 0)) / (2.0 / ({_K} + 1.0))"
        )
    else:
        # Weighted sum of the min-max normalised scores (and the entity score), divided by the
        # sum of the weights so that the best possible relevance is 1.
        parts = [f"{_W_VECTOR} * {_VECTOR_SCORE}", f"{_W_TEXT} * {_TEXT_SCORE}"]
        weights = [_W_VECTOR, _W_TEXT]
        if entity:
            parts.append(f"{_W_ENTITY} * coalesce(b.entity_score, 0)")
            weights.append(_W_ENTITY)
        if speaker:
            parts.append(f"{_W_SPEAKER} * b.speaker_score")
            weights.append(f"{_W_SPEAKER} * max(b.speaker_score) OVER ()")
        relevance = f"coalesce(({' + '.join(parts)}) / nullif({' + '.join(weights)}, 0), 0)"
    vector_score = _VECTOR_SCORE if vector else "NULL::float8"
    text_score = _TEXT_SCORE if textual else "NULL::float8"
    ctes.append(
        f"""fused AS (
    SELECT b.*, {vector_score} AS vector_score, {text_score} AS text_score,
           {relevance} AS relevance, {decay_sql("b")} AS decay
      FROM base b
)"""
    )
    # The winners' own columns come with them (one round trip, no second statement), except
    # those recall never shows (embedding, tsv, search_text).
    shown = ", ".join(f'm."{name}" AS "m_{name}"' for _, name in _SHOWN_COLUMNS)
    return (
        "WITH "
        + ",\n".join(ctes)
        + f""",
top AS (
    SELECT f.*, {recency_sql("f")} AS recency,
           f.relevance * f.confidence * {recency_sql("f")} * f.scope_weight * f.type_weight
           AS score
      FROM fused f
     WHERE f.decay >= :min_decay
     ORDER BY score DESC, f.id
     LIMIT :top_k
)
SELECT t.*, {shown}
  FROM top t JOIN memories m ON m.tenant_id = :tenant_id AND m.id = t.id
 ORDER BY t.score DESC, t.id"""
    )


@functools.cache
def _vector_format(dim: int) -> str:
    return "[" + ",".join(["%.6f"] * dim) + "]"


def effective_mode(mode: RecallMode, query_terms: Sequence[str]) -> RecallMode:
    """The mode a ranking really runs in: ``hybrid`` with no full-text term (a query of stop
    words) ranks by vector alone, so it is ``vector``."""
    return "vector" if mode == "hybrid" and not query_terms else mode


def vector_literal(vec: list[float]) -> str:
    """``vec`` as a pgvector text literal, six decimals per component (``[0.012345,…]``); one
    %-format of the whole vector, about half the time of formatting the floats one by one."""
    return _vector_format(len(vec)) % tuple(vec)


def to_tsquery_text(terms: list[str]) -> str:
    """An OR-query of plain terms for ``to_tsquery`` (each term quoted as a phrase)."""
    return " | ".join("'" + t.replace("'", "") + "'" for t in terms if t)


@dataclass(slots=True)
class RankedRow:
    memory: Memory
    similarity: float | None
    text_rank: float | None
    relevance: float
    confidence: float
    decay: float
    scope_weight: float
    type_weight: float
    age_days: float
    half_life_days: float | None
    decay_floor: float
    score: float
    base_half_life_days: float | None = None
    recency: float = 1.0  # 1 - w × (1 - decay), ``recency_sql``
    # The components of a minmax-fused relevance (0..1 each; None when not computed).
    vector_score: float | None = None
    text_score: float | None = None
    entity_score: float | None = None
    speaker_score: float | None = None


def _float(value: Any) -> float | None:
    return None if value is None else float(value)


@functools.cache
def _ranked_statement(
    mode: RecallMode,
    vector_relevance: VectorRelevance,
    text_rank: TextRank,
    fusion: Fusion,
    entity: bool,
    speaker: bool,
) -> Any:
    """``ranked_sql`` as a statement, built once per variant: ``text()`` scans the whole SQL for
    its bind parameters, a cost paid on every recall otherwise."""
    return (
        text(ranked_sql(mode, vector_relevance, text_rank, fusion, entity, speaker))
        .bindparams(bindparam("types", expanding=False))
        .columns(**_SHOWN_TYPES)
    )


class RecallRepository:
    def __init__(self, session: AsyncSession, tenant_id: uuid.UUID, user_id: str):
        self.session = session
        self.tenant_id = tenant_id
        self.user_id = user_id

    async def ranked(
        self,
        *,
        query_embedding: list[float] | None,
        query_terms: list[str],
        mode: RecallMode,
        model: str,
        at: datetime,
        types: list[str],
        task_id: str | None,
        session_id: str | None,
        status: str | Sequence[str],
        top_k: int,
        params: dict[str, float],
        candidates: int,
        vector_relevance: VectorRelevance = "rank",
        open_scopes: Sequence[str] = OPEN_SCOPES,
        not_before: datetime | None = None,
        reach: ScopeReach | None = None,
        valid_at: datetime | None = None,
        ended_by: datetime | None = None,
        text_rank: TextRank = "bm25",
        fusion: Fusion = "minmax",
        query_entities: Sequence[str] = (),
    ) -> list[RankedRow]:
        """The top_k rows by score, best first, with every factor. ``text`` and ``hybrid`` need
        ``query_terms``; ``vector`` and ``hybrid`` need ``query_embedding``. With no terms,
        ``hybrid`` ranks by vector alone and ``text`` finds nothing. Rows are read from the
        scopes ``open_scopes``, the task ``task_id`` and the session ``session_id``, and only
        when ``valid_from >= not_before`` (a retention limit), of the status ``status`` (or any
        of several); ``valid_at`` keeps the rows valid at that time, ``ended_by`` those whose
        validity ended by then (``_FILTERS``); ``reach`` adds the agent's scope, other tasks
        and sessions (an override) and the tenant's templates. Decay is computed at ``at``.
        ``text_rank`` picks BM25 over the postings or ``ts_rank``; ``fusion`` the hybrid
        relevance; ``query_entities`` (the query's named entities, ``app/recall/entities.py``)
        feed the entity score of the ``minmax`` fusion when ``params["w_entity"]`` > 0, and
        the speaker score when ``params["w_speaker"]`` > 0.
        ``params`` holds the binds of ``RecallService._params`` (decay, weights, ``rank_k``,
        ``bm25_k1``, ``bm25_b``, ``w_vector``, ``w_text``, ``w_entity``, ``w_speaker``)."""
        mode = effective_mode(mode, query_terms)
        if mode == "text" and not query_terms:
            return []
        entity = bool(query_entities) and float(params.get("w_entity", 0)) > 0
        speaker = bool(query_entities) and float(params.get("w_speaker", 0)) > 0
        stmt = _ranked_statement(mode, vector_relevance, text_rank, fusion, entity, speaker)
        binds = (reach or ScopeReach()).binds(self.user_id, task_id, session_id)
        rows = (
            (
                await self.session.execute(
                    stmt,
                    {
                        "query": vector_literal(query_embedding)
                        if query_embedding is not None
                        else None,
                        "tsquery": to_tsquery_text(query_terms),
                        "bm25_text": " ".join(query_terms),
                        "entities": [ENTITY_MARK + e for e in query_entities],
                        "speakers": list(query_entities),
                        "at": at,
                        "tenant_id": self.tenant_id,
                        "statuses": [status] if isinstance(status, str) else list(status),
                        "valid_at": valid_at,
                        "ended_by": ended_by,
                        "model": model,
                        "types": types,
                        "open_scopes": list(open_scopes),
                        "not_before": not_before or EARLIEST,
                        **binds,
                        "owner_ids": binds["owners"],
                        "top_k": top_k,
                        "candidates": max(candidates, top_k),
                        **params,
                    },
                )
            )
            .mappings()
            .all()
        )
        return [
            RankedRow(
                memory=transient(Memory, {key: r[f"m_{name}"] for key, name in _SHOWN_COLUMNS}),
                similarity=_float(r["similarity"]),
                text_rank=_float(r["text_rank"]),
                vector_score=_float(r["vector_score"]),
                text_score=_float(r["text_score"]),
                entity_score=_float(r["entity_score"]),
                speaker_score=_float(r["speaker_score"]),
                relevance=float(r["relevance"]),
                confidence=float(r["confidence"]),
                decay=float(r["decay"]),
                recency=float(r["recency"]),
                scope_weight=float(r["scope_weight"]),
                type_weight=float(r["type_weight"]),
                age_days=float(r["age_days"]),
                half_life_days=r["half_life_days"],
                decay_floor=float(r["decay_floor"]),
                score=float(r["score"]),
                base_half_life_days=r["base_half_life_days"],
            )
            for r in rows
        ]

    async def constraints(
        self,
        *,
        task_id: str | None,
        session_id: str | None,
        open_scopes: Sequence[str] = OPEN_SCOPES,
        not_before: datetime | None = None,
        reach: ScopeReach | None = None,
    ) -> list[Memory]:
        """Active constraints of ``open_scopes``, the task and the session (and of ``reach``:
        the agent, overridden scopes, tenant templates), oldest first (with
        ``valid_from >= not_before`` when given)."""
        r = (reach or ScopeReach()).binds(self.user_id, task_id, session_id)
        stmt = (
            select(Memory)
            # The columns the ranking returns too: not the embedding (384 numbers parsed from
            # text per row), tsv, search_text or entities, which no reader of constraints uses.
            .options(load_only(*_SHOWN_ATTRIBUTES, raiseload=True))
            .where(
                Memory.tenant_id == self.tenant_id,
                Memory.user_id.in_(r["owners"]),
                # Literals, not bind parameters: the planner must see that the partial index
                # ix_memories_active_constraints covers the query, in generic plans too.
                text("memories.status = 'active' AND memories.type = 'constraint'"),
            )
            .order_by(Memory.created_at, Memory.id)
        )
        if not_before is not None:
            stmt = stmt.where(Memory.valid_from >= not_before)
        allowed: list[ColumnElement[bool]] = [Memory.scope.in_(list(open_scopes))]
        if r["task_ids"]:
            allowed.append(and_(Memory.scope == "task", Memory.scope_id.in_(r["task_ids"])))
        if r["session_ids"]:
            allowed.append(and_(Memory.scope == "session", Memory.scope_id.in_(r["session_ids"])))
        if r["agent_id"]:
            allowed.append(and_(Memory.scope == "agent", Memory.scope_id == r["agent_id"]))
        visible = and_(Memory.user_id == r["user_id"], or_(*allowed))
        if r["templates"]:
            visible = or_(
                visible,
                and_(
                    Memory.user_id == TENANT_WIDE_USER,
                    Memory.scope == "tenant",
                    Memory.scope_id.in_(r["templates"]),
                ),
            )
        return list((await self.session.scalars(stmt.where(visible))).all())

    async def record_access(self, counts: dict[uuid.UUID, int], at: datetime) -> None:
        """Add ``counts`` (memory id -> times recalled) to the access statistics, in one
        statement for the batch."""
        ids = sorted(counts)
        await self.session.execute(
            text(
                "UPDATE memories m SET access_count = m.access_count + c.n, last_accessed_at = :at"
                " FROM unnest(CAST(:ids AS uuid[]), CAST(:ns AS int[])) AS c(id, n)"
                " WHERE m.tenant_id = :t AND m.user_id = :u AND m.id = c.id"
            ),
            {
                "at": at,
                "t": self.tenant_id,
                "u": self.user_id,
                "ids": ids,
                "ns": [counts[i] for i in ids],
            },
        )


class ContextRepository(UserScopedRepository):
    """The reads of context assembly besides recall: the session, its window, the task."""

    async def chat_session(self, session_id: str) -> ChatSession | None:
        stmt = select(ChatSession).where(self.mine(ChatSession), ChatSession.id == session_id)
        return (await self.session.scalars(stmt)).first()

    async def recent_messages(self, session_id: str, after_seq: int, limit: int) -> list[Message]:
        """At most ``limit`` newest messages of the session after ``after_seq``, oldest first."""
        stmt = (
            select(Message)
            .where(self.mine(Message), Message.session_id == session_id, Message.seq > after_seq)
            .order_by(Message.seq.desc())
            .limit(limit)
        )
        return list((await self.session.scalars(stmt)).all())[::-1]

    async def task(self, task_id: str) -> Task | None:
        stmt = select(Task).where(self.mine(Task), Task.id == task_id)
        return (await self.session.scalars(stmt)).first()

    async def recent_changes(
        self,
        *,
        current_ids: Sequence[uuid.UUID],
        since: datetime,
        limit: int,
    ) -> list[tuple[Memory, Memory]]:
        """``(earlier, current)`` pairs, newest change first, at most ``limit``: a frozen memory
        with a key, superseded by an active memory of the same key, scope and scope id, whose
        validity was not empty and ended (``valid_to``) at or after ``since``, where the
        current memory is one of ``current_ids`` (what the query recalled)."""
        if not current_ids:
            return []
        old, new = aliased(Memory), aliased(Memory)
        stmt = (
            select(old, new)
            .join(new, and_(new.tenant_id == old.tenant_id, new.id == old.superseded_by))
            .where(
                self.mine(old),
                self.mine(new),
                old.status == "frozen",
                new.status == "active",
                old.key.is_not(None),
                new.key == old.key,
                new.scope == old.scope,
                new.scope_id == old.scope_id,
                old.valid_to >= since,
                # It held for a while: a value that lost on arrival (an empty interval, docs/
                # time.md) was never the user's, so there was no change to remind of.
                old.valid_to > old.valid_from,
                new.id.in_(list(current_ids)),
            )
            .order_by(old.valid_to.desc(), old.id)
            .limit(limit)
        )
        return [(a, b) for a, b in (await self.session.execute(stmt)).all()]


class ScopeReadRepository(UserScopedRepository):
    """The audit of recalls that read overridden scopes (``scope_reads``)."""

    def add(
        self,
        *,
        actor: str,
        scopes: list[dict[str, str]],
        memory_ids: list[uuid.UUID],
        request_id: str | None,
    ) -> None:
        self.session.add(
            ScopeRead(
                tenant_id=self.tenant_id,
                user_id=self.user_id,
                actor=actor,
                scopes=scopes,
                memory_ids=[str(i) for i in memory_ids],
                request_id=request_id,
            )
        )

    async def latest(self, limit: int) -> list[ScopeRead]:
        """The user's audited override reads, newest first, at most ``limit``."""
        stmt = (
            select(ScopeRead).where(self.mine(ScopeRead)).order_by(ScopeRead.id.desc()).limit(limit)
        )
        return list((await self.session.scalars(stmt)).all())
