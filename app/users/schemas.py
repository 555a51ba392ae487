"""Request and response shapes of users and their memory settings."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from app.kit.types import JsonInteger
from app.memories.schemas import MemoryRead
from app.users.policy import MemoryMode

MAX_RETENTION_DAYS = 36_500


class UserSummary(BaseModel):
    """One user of a tenant and the counts of what Memlane holds about them."""

    user_id: str
    active: int = Field(description="Active memories")
    frozen: int = Field(description="Frozen (superseded) memories")
    sessions: int = Field(description="Conversation sessions")
    last_activity_at: datetime | None = Field(
        description="Latest change of a memory or a session of the user"
    )


class UserList(BaseModel):
    items: list[UserSummary]
    next_cursor: str | None


class UserSettingsUpdate(BaseModel):
    """A user's memory settings (docs/vault.md, "Memory settings")."""

    model_config = ConfigDict(extra="forbid")

    memory_mode: MemoryMode = Field(
        description="full | facts_only (no preferences or events formed) | session_only (no "
        "cross-session memory) | paused (nothing new formed; recall still works)"
    )
    retention_days: Annotated[int | None, JsonInteger] = Field(
        default=None,
        ge=1,
        le=MAX_RETENTION_DAYS,
        description="Memories older than this (by valid_from) leave recall and are archived "
        "by the forgetting pass; null = no limit",
    )


class UserSettingsRead(UserSettingsUpdate):
    user_id: str
    updated_at: datetime | None = Field(description="Last change; null while never set")


class UserSettingsChange(BaseModel):
    """One audited change of the settings."""

    old: dict[str, object] | None
    new: dict[str, object]
    actor: str
    request_id: str | None
    created_at: datetime


class UserSettingsHistoryRead(BaseModel):
    user_id: str
    items: list[UserSettingsChange]


class ToConfirmList(BaseModel):
    """Active memories formed with low confidence (model_inferred, behavior_observed)."""

    items: list[MemoryRead]


class ConfirmResult(BaseModel):
    """The memory after the user confirmed it (source user_declared)."""

    memory: MemoryRead


class SessionSummary(BaseModel):
    session_id: str
    messages: int
    summary: str = Field(description="The rolling summary of turns out of the window")
    created_at: datetime
    updated_at: datetime


class TaskSummary(BaseModel):
    task_id: str
    name: str
    status: str
    slots: dict[str, Any]
    conclusion: str | None
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None


class UserActivity(BaseModel):
    """The user's latest sessions and tasks (at most 50 of each), newest first."""

    user_id: str
    sessions: list[SessionSummary]
    tasks: list[TaskSummary]
