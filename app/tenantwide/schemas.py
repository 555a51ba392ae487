"""Request and response shapes of tenant-wide memories, templates and user attributes."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from app.kit.types import ID_PATTERN, Timestamp
from app.memories.schemas import (
    KEY_PATTERN,
    MAX_CONTENT_CHARS,
    MemoryCreate,
    MemorySource,
    WritableMemoryType,
)

ATTRIBUTE_PATTERN = r"^[a-z][a-z0-9_]{0,63}$"
MAX_ATTRIBUTES = 32
MAX_ATTRIBUTE_CHARS = 256


class TenantMemoryCreate(BaseModel):
    """A tenant-wide memory: shared knowledge or a template's memory, read-only to users."""

    model_config = ConfigDict(extra="forbid")

    content: str = Field(min_length=1, max_length=MAX_CONTENT_CHARS)
    type: WritableMemoryType = "fact"
    key: str | None = Field(default=None, max_length=128, pattern=KEY_PATTERN)
    value: str | None = Field(default=None, max_length=2000)
    source: MemorySource = "user_declared"
    confidence: float | None = Field(default=None, ge=0, le=1)
    template: str | None = Field(
        default=None,
        pattern=ID_PATTERN,
        max_length=128,
        description="Only users matching this template read it (PUT …/templates/{id} first); "
        "omitted: every user of the tenant",
    )
    occurred_at: Timestamp | None = Field(
        default=None, description="When the fact became true (ISO-8601 with offset); default now."
    )
    metadata: dict[str, Any] = Field(default_factory=dict)

    def as_memory(self) -> MemoryCreate:
        """The same write in the shape of a user's explicit write, in scope ``tenant``
        (``scope_id`` = the template, None for every user). Validated as a user write would
        be (content, value, metadata), then moved to the tenant scope no client may name."""
        fields = self.model_dump(exclude={"template"})
        base = MemoryCreate.model_validate(fields)
        return base.model_copy(update={"scope": "tenant", "scope_id": self.template or None})


class TemplatePut(BaseModel):
    """A match rule: a user whose attribute ``attribute`` equals ``equals`` (case-insensitive;
    ``domain`` defaults to the domain of ``email``) reads the template's memories."""

    model_config = ConfigDict(extra="forbid")

    attribute: str = Field(
        pattern=ATTRIBUTE_PATTERN, description='The user attribute to match, e.g. "domain"'
    )
    equals: str = Field(
        min_length=1,
        max_length=MAX_ATTRIBUTE_CHARS,
        description='The value it must equal, e.g. "acme.com"',
    )


class TemplateRead(TemplatePut):
    id: str
    created_at: datetime


class TemplateList(BaseModel):
    items: list[TemplateRead]


class UserAttributesPut(BaseModel):
    """What the tenant knows of a user for its templates, e.g. ``{"domain": "acme.com"}`` or
    ``{"email": "li@acme.com", "plan": "pro"}``. Replaces the previous attributes."""

    model_config = ConfigDict(extra="forbid")

    attributes: dict[str, str] = Field(max_length=MAX_ATTRIBUTES)

    @field_validator("attributes")
    @classmethod
    def _names_and_sizes(cls, value: dict[str, str]) -> dict[str, str]:
        for name, v in value.items():
            if not re.fullmatch(ATTRIBUTE_PATTERN, name):
                raise ValueError(f"attribute name {name!r} must match {ATTRIBUTE_PATTERN}")
            if len(v) > MAX_ATTRIBUTE_CHARS or "\x00" in v:
                raise ValueError(
                    f"attribute {name!r}: at most {MAX_ATTRIBUTE_CHARS} characters, no NUL"
                )
        return value


class UserAttributesRead(UserAttributesPut):
    user_id: str
    templates: list[str] = Field(
        description="Ids of the templates these attributes match (their memories reach recall)"
    )
    updated_at: datetime | None
