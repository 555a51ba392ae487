"""Task working memory shapes."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.memories.schemas import ID_PATTERN, KEY_PATTERN, MemoryRead

SLOT_PATTERN = r"^[A-Za-z][A-Za-z0-9_.\-]{0,63}$"


class TaskCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str | None = Field(default=None, pattern=ID_PATTERN, description="Default: generated")
    name: str = Field(min_length=1, max_length=200)
    required_slots: list[str] = Field(default_factory=list, max_length=50)


class TaskStep(BaseModel):
    model_config = ConfigDict(extra="forbid")

    description: str = Field(min_length=1, max_length=2000)
    status: Literal["done", "pending", "failed"] = "done"


class TaskUpdate(BaseModel):
    """Fill slots (a null value clears one) and append steps."""

    model_config = ConfigDict(extra="forbid")

    name: str | None = Field(default=None, min_length=1, max_length=200)
    slots: dict[str, str | int | float | bool | None] = Field(default_factory=dict, max_length=50)
    steps: list[TaskStep] = Field(default_factory=list, max_length=50)


class TaskFinish(BaseModel):
    model_config = ConfigDict(extra="forbid")

    conclusion: str | None = Field(default=None, min_length=1, max_length=4000)
    promote: bool = Field(
        default=False,
        description="Also remember the conclusion at user scope (audited); by default it stays "
        "task-scoped and never reaches other tasks",
    )
    key: str | None = Field(default=None, max_length=128, pattern=KEY_PATTERN)


class TaskRead(BaseModel):
    id: str
    name: str
    status: Literal["open", "finished"]
    required_slots: list[str]
    slots: dict[str, Any]
    missing_slots: list[str]
    steps: list[dict[str, Any]]
    conclusion: str | None
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None


class TaskFinished(BaseModel):
    task: TaskRead
    memories: list[MemoryRead]


class TaskList(BaseModel):
    items: list[TaskRead]
