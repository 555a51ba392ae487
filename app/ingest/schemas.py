"""Conversation turns sent for ingestion."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from app.kit.types import Timestamp
from app.memories.schemas import ID_PATTERN, MAX_CONTENT_CHARS, is_blank, small_metadata

_TOOL_NAME = re.compile(r"[A-Za-z0-9_.:-]+")


class MessageIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    role: Literal["user", "assistant", "system", "tool"]
    name: str | None = Field(
        default=None,
        min_length=1,
        max_length=64,
        description="Who said it, as in the chat completions API: for a `tool` turn the tool "
        "(what it states is remembered with source `tool_observed`), for a `user` turn the "
        "participant, e.g. `Caroline` in a group conversation (a query that names the speaker "
        "lifts the turn's episode: docs/sessions.md, docs/recall.md Speaker match). Letters of "
        "any script, digits, spaces inside and `_.:'-` (leading and trailing spaces are "
        "dropped); a tool's name `A-Z a-z 0-9 _ . : -` only; ignored on assistant and system "
        "turns",
    )
    tool_call_id: str | None = Field(
        default=None,
        min_length=1,
        max_length=128,
        pattern=r"^[A-Za-z0-9_.:-]+$",
        description="The call a `tool` turn answers (the chat completions API's "
        "`tool_call_id`); stored with the turn (docs/sessions.md, Tool results)",
    )
    content: str = Field(min_length=1, max_length=MAX_CONTENT_CHARS)
    occurred_at: Timestamp | None = Field(
        default=None, description="When it was said (ISO-8601 with offset); default arrival time"
    )
    metadata: dict[str, Any] = Field(default_factory=dict)

    _metadata = field_validator("metadata")(lambda v: small_metadata(v))

    @field_validator("content")
    @classmethod
    def _no_nul(cls, value: str) -> str:
        if "\x00" in value:
            raise ValueError("must not contain NUL characters")
        if is_blank(value):  # nothing visible ("\u200b"), as a memory's content (POST /memories)
            raise ValueError("must not be blank")
        return value

    @field_validator("name")
    @classmethod
    def _participant(cls, value: str | None) -> str | None:
        if value is None:
            return None
        value = value.strip(" ")
        if not value:
            raise ValueError("a name must not be blank")
        if not all(c.isalnum() or c in "_.:' -" for c in value):
            raise ValueError(
                "a name is letters of any script, digits, spaces inside and _ . : ' - only"
            )
        return value

    @model_validator(mode="after")
    def _tool_name(self) -> MessageIn:
        # A tool is named as a function is in the chat completions API: no spaces, Latin only.
        if self.role == "tool" and self.name is not None and not _TOOL_NAME.fullmatch(self.name):
            raise ValueError("a tool's name is A-Z a-z 0-9 _ . : - only")
        return self


class MessagesCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    messages: list[MessageIn] = Field(min_length=1, max_length=200)
    task_id: str | None = Field(
        default=None,
        pattern=ID_PATTERN,
        description="The task these turns belong to: decisions and project facts (keys "
        "project.*, task.*) said here are remembered in that task's scope only, and facts "
        "whose key names one of the task's required slots fill that slot.",
    )


class SessionEndRead(BaseModel):
    """A session that ended: no more turns; its session-scoped memories archived."""

    session_id: str
    ended_at: datetime = Field(description="When the session was ended (the first end call)")
    archived: int = Field(
        description="Session-scoped memories archived by this call (kept for audit, out of "
        "recall); facts promoted to user scope before the end are not among them"
    )
