"""Recall request and response shapes (pinned in DESIGN.md)."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, field_validator

from app.kit.types import JsonInteger, Timestamp
from app.memories.schemas import (
    ID_PATTERN,
    MemoryScope,
    MemorySource,
    MemoryStatus,
    MemoryType,
    not_blank,
)

MAX_SCOPE_OVERRIDES = 10


class ScopeRef(BaseModel):
    """One task's or one session's memories, named for ``scope_override``."""

    model_config = ConfigDict(extra="forbid")

    scope: Literal["task", "session"]
    scope_id: str = Field(pattern=ID_PATTERN, max_length=128)


class RecallRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    query: str = Field(min_length=1, max_length=4000)
    # a query of nothing visible (spaces, zero-width characters) asks for nothing
    _query = field_validator("query")(lambda v: not_blank(v))
    top_k: Annotated[int | None, JsonInteger] = Field(default=None, ge=1, le=100)
    session_id: str | None = Field(default=None, pattern=ID_PATTERN)
    task_id: str | None = Field(default=None, pattern=ID_PATTERN)
    types: list[MemoryType] | None = Field(default=None, min_length=1, max_length=6)
    include_reminders: StrictBool = False
    explain: StrictBool = False
    at: Timestamp | None = Field(default=None, description="Evaluate decay as of this time")
    agent_id: str | None = Field(
        default=None,
        pattern=ID_PATTERN,
        max_length=128,
        description="The agent asking: its own agent-scope memories are read besides the "
        "user's; another agent's never are (docs/scopes.md)",
    )
    scope_override: list[ScopeRef] | None = Field(
        default=None,
        min_length=1,
        max_length=MAX_SCOPE_OVERRIDES,
        description="Also read these other tasks' or sessions' memories. Needs a key with the "
        "scope recall:override (403 insufficient-scope without); every such recall is "
        "audited (GET …/scope-reads)",
    )

    valid_at: Timestamp | None = Field(
        default=None,
        description="Point in time: what was true then — the memories whose validity "
        "[valid_from, valid_to) contains it, superseded (frozen) ones included, decay computed "
        "at that time (docs/time.md). Default: now, active memories only",
    )


class ScopeReadEntry(BaseModel):
    """One audited recall with ``scope_override``: who read which scopes, and what came back
    of them."""

    id: int
    actor: str = Field(description="key:<api key id> of the caller")
    scopes: list[ScopeRef]
    memory_ids: list[uuid.UUID] = Field(
        description="Memories of the overridden scopes the recall returned"
    )
    request_id: str | None
    created_at: datetime


class ScopeReadList(BaseModel):
    items: list[ScopeReadEntry]


class ScoreFactors(BaseModel):
    """Every factor of ``score = relevance × confidence × recency × scope_weight ×
    type_weight``
    (docs/recall.md says how relevance comes from similarity and the text rank)."""

    similarity: float | None = Field(description="Cosine similarity; null when recall degraded")
    text_rank: float | None = Field(
        description="Full-text score (BM25, or ts_rank with recall_text_rank=ts_rank); null if "
        "the memory is not among the query's full-text matches"
    )
    vector_score: float | None = Field(
        default=None,
        description="The similarity min-max normalised over the query's vector candidates "
        "(0..1; 0 outside them), a term of the hybrid minmax fusion; null without a vector "
        "ranking",
    )
    text_score: float | None = Field(
        default=None,
        description="text_rank min-max normalised over the query's full-text candidates "
        "(0..1; 0 outside them), a term of the hybrid minmax fusion; null without a full-text "
        "ranking",
    )
    entity_score: float | None = Field(
        default=None,
        description="Share (by idf) of the query's named entities the memory mentions (0..1); "
        "null when the query names none or the signal is off",
    )
    speaker_score: float | None = Field(
        default=None,
        description="1 when the memory is a turn whose speaker (the message's `name`) the "
        "query names, else 0; null when the query names nobody or the signal is off",
    )
    relevance: float
    confidence: float
    decay: float
    recency: float = Field(
        description="The bounded time factor of the score: 1 - w × (1 - decay), w = "
        "settings.recall_recency_weight (0..1; 1 when w is 0)"
    )
    scope_weight: float
    type_weight: float = Field(
        description="1 for facts; settings.recall_type_weight_episode for an episode"
    )
    age_days: float
    half_life_days: float | None = Field(
        description="Effective half-life: the base one lengthened by use (docs/time.md)"
    )
    decay_floor: float
    score: float
    pinned: bool = Field(
        default=False,
        description='The user emphasised it ("记住", "don\'t forget"): forgetting never '
        "archives it (metadata.pinned; docs/sessions.md)",
    )
    base_half_life_days: float | None = Field(
        default=None, description="The memory's own or its type's half-life, before use"
    )
    access_count: int = Field(default=0, description="Times recall returned this memory")
    rerank: Literal["off", "applied", "failed"] = Field(
        default="off",
        description="The optional reranker (docs/recall.md, Reranking): off (none configured), "
        "applied (relevance blended with its score), failed (it erred or was late: recall's own "
        "ranking)",
    )
    rerank_score: float | None = Field(
        default=None, description="The reranker's score of this memory; null when not reranked"
    )


class RecalledMemory(BaseModel):
    id: uuid.UUID
    content: str
    type: MemoryType
    key: str | None
    value: str | None
    score: float
    similarity: float | None
    confidence: float
    decay: float
    status: MemoryStatus
    source: MemorySource
    scope: MemoryScope
    scope_id: str | None
    metadata: dict[str, Any]
    occurred_at: datetime
    created_at: datetime
    superseded_by: uuid.UUID | None = None
    speaker: str | None = Field(
        default=None,
        description="Who said it: the `name` of the turn it was kept or formed from, when the "
        "turn named its speaker (docs/sessions.md, Who said it)",
    )
    valid_to: datetime | None = Field(
        default=None, description="When the fact stopped holding (null: still holds)"
    )
    explain: ScoreFactors | None = None


class ConstraintRead(BaseModel):
    id: uuid.UUID
    content: str
    key: str | None
    value: str | None
    scope: MemoryScope
    scope_id: str | None
    occurred_at: datetime


class RecallResponse(BaseModel):
    memories: list[RecalledMemory]
    constraints: list[ConstraintRead]
    reminders: list[RecalledMemory] = Field(
        default_factory=list,
        description="Superseded (frozen) memories close to the query, flagged status=frozen: "
        "'you said earlier … — still true?'",
    )
    mode: Literal["vector", "text", "hybrid"] = Field(description="How relevance was computed")
    degraded: bool = Field(
        default=False,
        description="True when the embedder failed and recall fell back to full-text search",
    )


class ChatMessage(BaseModel):
    role: str
    content: str
    name: str | None = Field(
        default=None, description="Who said a user turn, when the turn named its speaker"
    )


class ContextSection(BaseModel):
    tokens: int = Field(description="Tokens this section costs in the text form")
    items: int = Field(description="Items kept (memories, turns, lines, constraints)")
    dropped: int = Field(default=0, description="Items dropped to fit the budget")


class ContextResponse(BaseModel):
    """A prompt-ready block: as one text, and as OpenAI-style chat messages."""

    text: str
    messages: list[ChatMessage]
    tokens: int = Field(description="Tokens of the messages form (≥ the text form's)")
    text_tokens: int
    token_budget: int
    over_budget: bool = Field(
        description="True only when the constraints alone exceed the budget (they are never cut)"
    )
    tokenizer: str
    query: str | None
    sections: dict[str, ContextSection]
    session_ended_at: datetime | None = Field(
        default=None,
        description="When the session was ended (POST …/sessions/{id}/end): it takes no more "
        "turns and its window and session memories are out of the block; null while it is "
        "open or has no turns yet (docs/sessions.md)",
    )
