"""Request and response shapes of memories."""

from __future__ import annotations

import json
import unicodedata
import uuid
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, field_validator, model_validator

from app.arbitration.service import MAX_METADATA_BYTES
from app.jobs.schemas import JobAccepted, JobRead
from app.kit.types import ID_PATTERN, JsonNumber, Timestamp

__all__ = ["ID_PATTERN", "JobAccepted", "JobRead"]  # re-exported for the routers

MemoryType = Literal["profile", "preference", "fact", "event", "constraint", "episode"]
# What a client may write: an ``episode`` (a verbatim user turn) is only ever formed from the
# conversation's messages (docs/formation.md, Episodes).
WritableMemoryType = Literal["profile", "preference", "fact", "event", "constraint"]
MemorySource = Literal[
    "user_declared", "form", "tool_observed", "behavior_observed", "model_inferred", "import"
]
# docs/scopes.md: ``agent`` is one user's memories as one agent (``scope_id``) sees them;
# ``tenant`` is a tenant-wide memory, written only through POST /v1/tenants/{id}/memories.
MemoryScope = Literal["user", "task", "session", "global", "agent", "tenant"]
WritableScope = Literal["user", "task", "session", "global", "agent"]
# The scopes whose memories belong to one task, session or agent: named by ``scope_id``.
SCOPES_WITH_ID = ("task", "session", "agent")
MemoryStatus = Literal["active", "frozen", "archived", "deleted"]

MAX_CONTENT_CHARS = 8000
MAX_VALUE_CHARS = 2000
# the memory key column's size (app/db/models.py)
MAX_KEY_CHARS = 128
KEY_PATTERN = r"^[a-z][a-z0-9_]*(\.[a-z0-9_]+)*$"
# Items of one batch write. A request-shape limit, like the 200 turns of a messages request: it
# is part of the OpenAPI contract, so it is a constant rather than a setting (the committed
# document and the clients generated from it would otherwise depend on the environment).
MAX_BATCH_MEMORIES = 100


def is_blank(value: str) -> bool:
    """True for text with nothing visible: whitespace (``\\u3000`` included) and format
    characters (Unicode category Cf: zero-width space, joiners, BOM) only."""
    return all(ch.isspace() or unicodedata.category(ch) == "Cf" for ch in value)


def not_blank(value: str | None) -> str | None:
    """Refuses text with nothing visible (``is_blank``)."""
    if value is not None and is_blank(value):
        raise ValueError("must not be blank")
    return value


def small_metadata(value: dict[str, Any] | None) -> dict[str, Any] | None:
    """At most MAX_METADATA_BYTES once serialised."""
    if value is not None and len(json.dumps(value, ensure_ascii=False)) > MAX_METADATA_BYTES:
        raise ValueError(f"must serialise to at most {MAX_METADATA_BYTES} bytes")
    return value


def _check_text(value: str) -> str:
    if "\x00" in value:
        raise ValueError("must not contain NUL characters")
    return value


class MemoryCreate(BaseModel):
    """An explicit memory write. With ``infer=true`` the content goes through extraction."""

    model_config = ConfigDict(extra="forbid")

    content: str = Field(min_length=1, max_length=MAX_CONTENT_CHARS)
    type: WritableMemoryType = "fact"
    key: str | None = Field(default=None, max_length=MAX_KEY_CHARS, pattern=KEY_PATTERN)
    value: str | None = Field(default=None, max_length=MAX_VALUE_CHARS)
    source: MemorySource = "user_declared"
    confidence: Annotated[float | None, JsonNumber] = Field(default=None, ge=0, le=1)
    scope: WritableScope = "user"
    scope_id: str | None = Field(default=None, pattern=ID_PATTERN)
    agent_id: str | None = Field(
        default=None,
        pattern=ID_PATTERN,
        description="The agent this memory belongs to: the same as scope=agent, "
        "scope_id=agent_id (recall reads it only with that agent_id; docs/scopes.md)",
    )
    occurred_at: Timestamp | None = Field(
        default=None, description="When the fact became true (ISO-8601 with offset); default now."
    )
    metadata: dict[str, Any] = Field(default_factory=dict)
    infer: StrictBool = False
    corrects: uuid.UUID | None = Field(
        default=None,
        description="Id of an active memory this write corrects: arbitration freezes it by "
        "rule user_correction, superseded by the new memory",
    )

    _text = field_validator("content", "value")(lambda v: v if v is None else _check_text(v))

    _content = field_validator("content")(lambda v: not_blank(v))
    _metadata = field_validator("metadata")(lambda v: small_metadata(v))

    @model_validator(mode="after")
    def _scope_needs_id(self) -> MemoryCreate:
        if self.corrects is not None and self.infer:
            raise ValueError("corrects is for explicit writes (infer=false)")
        if self.agent_id is not None:
            # Only the default scope (not sent) or an explicit scope=agent go with agent_id: an
            # explicit "user" (or any other) scope would otherwise be silently dropped.
            scope_given = "scope" in self.model_fields_set
            if (scope_given and self.scope != "agent") or self.scope_id not in (
                None,
                self.agent_id,
            ):
                raise ValueError(
                    "agent_id writes to scope=agent with scope_id=agent_id; "
                    "do not combine it with another scope or scope_id"
                )
            self.scope, self.scope_id = "agent", self.agent_id
        if self.scope in SCOPES_WITH_ID and not self.scope_id:
            raise ValueError(f"scope={self.scope} needs a scope_id")
        if self.scope in ("user", "global") and self.scope_id:
            raise ValueError(
                f"scope_id is for task, session and agent scopes, not scope={self.scope}"
            )
        return self


class MemoryBatchCreate(BaseModel):
    """Explicit memories stored as given (``infer=false``), in item order, by one job."""

    model_config = ConfigDict(extra="forbid")

    memories: list[MemoryCreate] = Field(
        min_length=1,
        max_length=MAX_BATCH_MEMORIES,
        description="Each item is a memory write with the rules of POST …/memories; "
        "infer=true is refused (422): send such content to POST …/memories one at a time",
    )

    @field_validator("memories")
    @classmethod
    def _explicit_only(cls, items: list[MemoryCreate]) -> list[MemoryCreate]:
        inferred = [str(i) for i, m in enumerate(items) if m.infer]
        if inferred:
            raise ValueError(
                f"infer=true is not accepted in a batch (items {', '.join(inferred)}); "
                "a batch stores memories as given"
            )
        return items


class MemoryUpdate(BaseModel):
    """Fields a client may change on a memory. Changing content re-embeds it."""

    model_config = ConfigDict(extra="forbid")

    content: str | None = Field(default=None, min_length=1, max_length=MAX_CONTENT_CHARS)
    value: str | None = Field(default=None, max_length=MAX_VALUE_CHARS)
    confidence: Annotated[float | None, JsonNumber] = Field(default=None, ge=0, le=1)
    metadata: dict[str, Any] | None = None

    _content = field_validator("content")(lambda v: not_blank(v))
    _metadata = field_validator("metadata")(lambda v: small_metadata(v))
    status: Literal["active", "archived"] | None = None

    _text = field_validator("content", "value")(lambda v: v if v is None else _check_text(v))


class SecretRef(BaseModel):
    """A secret value sealed out of the memory: its kind and the mask shown in its place."""

    kind: str
    mask: str


class MemoryRead(BaseModel):
    id: uuid.UUID
    user_id: str
    content: str
    type: MemoryType
    key: str | None
    value: str | None
    source: MemorySource
    confidence: float
    status: MemoryStatus
    scope: MemoryScope
    scope_id: str | None
    supersedes: uuid.UUID | None
    superseded_by: uuid.UUID | None
    confirmations: int
    metadata: dict[str, Any]
    origin: dict[str, Any]
    occurred_at: datetime = Field(description="valid_from: when the fact became true")
    valid_from: datetime
    valid_to: datetime | None
    created_at: datetime
    updated_at: datetime
    superseded_at: datetime | None
    last_accessed_at: datetime | None
    access_count: int
    embedding_model: str | None
    secrets: list[SecretRef] = Field(
        default_factory=list,
        description="Secret values masked in content/value; POST …/reveal opens them (audited)",
    )


class RevealedSecret(BaseModel):
    kind: str
    mask: str
    value: str


class RevealResponse(BaseModel):
    """The secret values of a memory, in the clear. Every reveal is written to its history."""

    memory_id: uuid.UUID
    secrets: list[RevealedSecret]


class MemoryList(BaseModel):
    items: list[MemoryRead]
    next_cursor: str | None


class ArbitrationRead(BaseModel):
    id: uuid.UUID
    new_memory_id: uuid.UUID | None
    existing_memory_id: uuid.UUID | None
    trigger: str
    rule: str
    outcome: str
    reason: str
    actor: str
    request_id: str | None
    created_at: datetime


class WriteResult(BaseModel):
    """What a finished write did: memories stored or refreshed, and the decisions taken."""

    job_id: uuid.UUID
    memories: list[MemoryRead]
    arbitrations: list[ArbitrationRead]
    episode_ids: list[uuid.UUID] = Field(
        default_factory=list,
        description="Conversation turns: the episodes (verbatim user turns) stored or refreshed",
    )


class HistoryEntry(BaseModel):
    id: int
    memory_id: uuid.UUID
    action: str
    old: dict[str, Any] | None
    new: dict[str, Any] | None
    actor: str
    request_id: str | None
    created_at: datetime


class MemoryHistoryRead(BaseModel):
    """The supersession chain of a memory, both ways, oldest first, and every change of it."""

    memory_id: uuid.UUID
    chain: list[MemoryRead]
    entries: list[HistoryEntry]


class ArbitrationList(BaseModel):
    items: list[ArbitrationRead]
