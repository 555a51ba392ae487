"""The export document (schema version 1) and the import result.

The document is what ``GET …/export`` streams and what ``POST …/import`` accepts; its fields
are described in docs/portability.md. It is validated strictly: unknown fields, a wrong type or
a value outside the limits of a memory write is a 422, and a ``schema_version`` this server does
not read is a 422 with its own problem type.
"""

from __future__ import annotations

import json
import uuid
from typing import Annotated, Any, Literal

from fastapi.exceptions import RequestValidationError
from pydantic import (
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from app.kit.errors import InvalidRequest, UnsupportedSchemaVersion
from app.kit.types import JsonInteger
from app.memories.schemas import (
    ID_PATTERN,
    KEY_PATTERN,
    MAX_CONTENT_CHARS,
    MAX_KEY_CHARS,
    MAX_METADATA_BYTES,
    SCOPES_WITH_ID,
    MemorySource,
    MemoryType,
    WritableScope,
)
from app.users.schemas import UserSettingsUpdate

SCHEMA_VERSION = 1
SUPPORTED_SCHEMA_VERSIONS = (1,)
# In the stream, a line starts with this exactly when it is a memory: `memlane export` counts
# memories by it without parsing (JSON encoders never write a raw newline inside a value).
MEMORY_MARKER = b'\n{"id":'
MessageRole = Literal["user", "assistant", "system", "tool"]
ExportedStatus = Literal["active", "frozen", "archived"]
Outcome = Literal["stored", "refreshed", "superseded", "new_frozen"]


def _no_nul(value: str | None) -> str | None:
    if value is not None and "\x00" in value:
        raise ValueError("must not contain NUL characters")
    return value


def _small(value: dict[str, Any]) -> dict[str, Any]:
    if len(json.dumps(value, ensure_ascii=False)) > MAX_METADATA_BYTES:
        raise ValueError(f"must serialise to at most {MAX_METADATA_BYTES} bytes")
    return value


class ExportedHistoryEntry(BaseModel):
    """One change of a memory on the server that exported it."""

    model_config = ConfigDict(extra="forbid")

    action: str = Field(max_length=32)
    old: dict[str, Any] | None
    new: dict[str, Any] | None
    actor: str = Field(max_length=64)
    created_at: AwareDatetime


class ExportedMemory(BaseModel):
    """A memory as exported: every field a client can see, no embedding, and its history."""

    model_config = ConfigDict(extra="forbid")

    id: uuid.UUID = Field(description="Its id on the exporting server (remapped on import)")
    content: str = Field(min_length=1, max_length=MAX_CONTENT_CHARS)
    type: MemoryType
    key: str | None = Field(max_length=MAX_KEY_CHARS, pattern=KEY_PATTERN)
    value: str | None = Field(max_length=2000)
    source: MemorySource
    confidence: float = Field(ge=0, le=1)
    status: ExportedStatus
    scope: WritableScope
    scope_id: str | None = Field(pattern=ID_PATTERN)
    supersedes: uuid.UUID | None
    superseded_by: uuid.UUID | None
    confirmations: Annotated[int, JsonInteger] = Field(ge=1)
    metadata: dict[str, Any]
    origin: dict[str, Any]
    valid_from: AwareDatetime
    valid_to: AwareDatetime | None
    created_at: AwareDatetime
    updated_at: AwareDatetime
    superseded_at: AwareDatetime | None
    history: list[ExportedHistoryEntry]

    _text = field_validator("content", "value")(_no_nul)
    _metadata = field_validator("metadata")(_small)

    @model_validator(mode="after")
    def _scope_needs_id(self) -> ExportedMemory:
        if self.scope in SCOPES_WITH_ID and not self.scope_id:
            raise ValueError(f"scope={self.scope} needs a scope_id")
        return self


class ExportedMessage(BaseModel):
    """A conversation turn as exported; ``occurred_at`` keeps the sender's UTC offset."""

    model_config = ConfigDict(extra="forbid")

    session_id: str = Field(pattern=ID_PATTERN)
    task_id: str | None = Field(pattern=ID_PATTERN)
    role: MessageRole
    content: str = Field(min_length=1, max_length=MAX_CONTENT_CHARS)
    occurred_at: AwareDatetime
    metadata: dict[str, Any]
    name: str | None = Field(
        default=None,
        max_length=64,
        description="Who said it (the message's `name`: a tool, or a participant); see "
        "MessageIn.name",
    )
    session_ended_at: AwareDatetime | None = Field(
        default=None,
        description="When its session was ended (POST …/sessions/{id}/end); an import ends that "
        "session too, so its turns stay out of the context and it takes no new ones",
    )

    _text = field_validator("content")(_no_nul)


class ExportDocument(BaseModel):
    """Everything Memlane knows about one user, in a form another server can import."""

    model_config = ConfigDict(extra="forbid")

    schema_version: Literal[1] = Field(description="Version of this format; 1 today")
    exported_at: AwareDatetime
    tenant_id: uuid.UUID = Field(description="The exporting tenant (informational on import)")
    user_id: str = Field(
        pattern=ID_PATTERN, description="The exported user (informational on import)"
    )
    memories: list[ExportedMemory] = Field(
        description="Every memory that is not deleted, oldest first"
    )
    messages: list[ExportedMessage] | None = Field(
        default=None,
        description="Conversation turns, by session and time; only with include_messages=true",
    )
    settings: UserSettingsUpdate | None = Field(
        default=None,
        description="The user's memory settings (memory_mode, retention_days); an import "
        "gives them to the target user",
    )

    @model_validator(mode="after")
    def _unique_ids(self) -> ExportDocument:
        ids = {m.id for m in self.memories}
        if len(ids) != len(self.memories):
            raise ValueError("memory ids must be unique within the document")
        return self


def parse_document(raw: bytes) -> ExportDocument:
    """The validated document of an import request body.

    Raises InvalidRequest (422) when the body is not a JSON object, UnsupportedSchemaVersion
    (422, ``urn:memlane:problem:unsupported-schema-version``) when its ``schema_version`` is
    not one of SUPPORTED_SCHEMA_VERSIONS, and RequestValidationError (422, with every error)
    when it does not match the schema.
    """
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise InvalidRequest(f"the body is not valid JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise InvalidRequest("the body must be a JSON object: an export document")
    # Checked before the shape: another version may well have another shape.
    if "schema_version" in data:
        version = data["schema_version"]
        if type(version) is not int or version not in SUPPORTED_SCHEMA_VERSIONS:
            supported = ", ".join(str(v) for v in SUPPORTED_SCHEMA_VERSIONS)
            raise UnsupportedSchemaVersion(
                f"schema_version {version!r} is not supported; this server reads {supported}"
            )
    try:
        return ExportDocument.model_validate(data)
    except ValidationError as exc:
        errors = exc.errors(include_url=False, include_context=False, include_input=False)
        raise RequestValidationError([{**e, "loc": ("body", *e["loc"])} for e in errors]) from exc


class ImportDecision(BaseModel):
    """One arbitration decision the import took (or, in a dry run, would take)."""

    document_memory_id: uuid.UUID = Field(description="The document entry it is about")
    new_memory_id: uuid.UUID | None = Field(
        description="The memory written for the entry (in a dry run: an id that was not kept)"
    )
    existing_memory_id: uuid.UUID | None = Field(
        description="The target user's memory it was arbitrated against"
    )
    rule: str
    outcome: Outcome
    reason: str


class OutcomeCounts(BaseModel):
    stored: int = 0
    refreshed: int = 0
    superseded: int = 0
    new_frozen: int = 0


class ImportResult(BaseModel):
    """What an import did, or with ``dry_run`` what it would do (then nothing is written)."""

    dry_run: bool
    memories_in_document: int
    imported: int = Field(description="Active and frozen entries arbitrated into the user")
    created: int = Field(description="New memories written (the rest refreshed known ones)")
    unchanged: int = Field(
        default=0,
        description="Entries imported before (or the target's own memories): left as they are",
    )
    skipped: int = Field(description="Archived entries, which are not imported")
    outcomes: OutcomeCounts = Field(description="Decisions per outcome")
    rules: dict[str, int] = Field(description="Decisions per rule")
    decisions: list[ImportDecision]
    messages_in_document: int
    messages_imported: int = Field(description="Messages written (already known ones skipped)")
    settings_imported: bool = Field(
        default=False, description="The document's memory settings were given to the user"
    )
