"""Task working memory shapes."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StringConstraints

from app.memories.schemas import ID_PATTERN, KEY_PATTERN, MAX_KEY_CHARS, MemoryRead

SLOT_PATTERN = r"^[A-Za-z][A-Za-z0-9_.\-]{0,63}$"
# Size limits of task working memory (422 validation-error beyond them).
MAX_NAME_CHARS = 200
MAX_SLOT_NAME_CHARS = 64
MAX_SLOT_VALUE_CHARS = 2000
MAX_SLOTS = 100  # slots a task holds, and slots one request may send
MAX_REQUIRED_SLOTS = 50
MAX_STEPS = 200  # steps a task holds in all
MAX_STEPS_PER_REQUEST = 50
MAX_STEP_CHARS = 2000

SlotName = Annotated[str, StringConstraints(min_length=1, max_length=MAX_SLOT_NAME_CHARS)]
SlotValue = (
    Annotated[str, StringConstraints(max_length=MAX_SLOT_VALUE_CHARS)] | int | float | bool | None
)


class TaskCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str | None = Field(default=None, pattern=ID_PATTERN, description="Default: generated")
    name: str = Field(min_length=1, max_length=MAX_NAME_CHARS)
    required_slots: list[SlotName] = Field(
        default_factory=list,
        max_length=MAX_REQUIRED_SLOTS,
        description=f"At most {MAX_REQUIRED_SLOTS} slot names of 1 to "
        f"{MAX_SLOT_NAME_CHARS} characters",
    )


class TaskStep(BaseModel):
    model_config = ConfigDict(extra="forbid")

    description: str = Field(min_length=1, max_length=MAX_STEP_CHARS)
    status: Literal["done", "pending", "failed"] = "done"


class TaskUpdate(BaseModel):
    """Fill slots (a null value clears one) and append steps."""

    model_config = ConfigDict(extra="forbid")

    name: str | None = Field(default=None, min_length=1, max_length=MAX_NAME_CHARS)
    slots: dict[SlotName, SlotValue] = Field(
        default_factory=dict,
        max_length=MAX_SLOTS,
        description=f"Slot name (1 to {MAX_SLOT_NAME_CHARS} characters) → "
        f"value (text of at most {MAX_SLOT_VALUE_CHARS} characters, number, boolean; null "
        f"clears it). A task holds at most {MAX_SLOTS} slots.",
    )
    steps: list[TaskStep] = Field(
        default_factory=list,
        max_length=MAX_STEPS_PER_REQUEST,
        description=f"Appended in order; a task holds at most {MAX_STEPS} steps.",
    )


class TaskFinish(BaseModel):
    model_config = ConfigDict(extra="forbid")

    conclusion: str | None = Field(default=None, min_length=1, max_length=4000)
    promote: StrictBool = Field(
        default=False,
        description="Also remember the conclusion at user scope (audited); by default it stays "
        "task-scoped and never reaches other tasks",
    )
    key: str | None = Field(default=None, max_length=MAX_KEY_CHARS, pattern=KEY_PATTERN)


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
