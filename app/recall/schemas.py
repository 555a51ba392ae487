"""Recall request and response shapes (pinned in DESIGN.md)."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.kit.types import Timestamp
from app.memories.schemas import ID_PATTERN, MemoryScope, MemorySource, MemoryStatus, MemoryType


class RecallRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    query: str = Field(min_length=1, max_length=4000)
    top_k: int | None = Field(default=None, ge=1, le=100)
    session_id: str | None = Field(default=None, pattern=ID_PATTERN)
    task_id: str | None = Field(default=None, pattern=ID_PATTERN)
    types: list[MemoryType] | None = Field(default=None, min_length=1, max_length=6)
    include_reminders: bool = False
    explain: bool = False
    at: Timestamp | None = Field(default=None, description="Evaluate decay as of this time")


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
    relevance: float
    confidence: float
    decay: float
    scope_weight: float
    type_weight: float = Field(
        description="1 for facts; settings.recall_type_weight_episode for an episode"
    )
    age_days: float
    half_life_days: float | None
    decay_floor: float
    score: float


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
