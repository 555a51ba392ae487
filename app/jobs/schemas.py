"""What the API says about a queued job."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel


class JobAccepted(BaseModel):
    job_id: uuid.UUID
    status: Literal["queued", "running", "done", "failed"]


class JobRead(BaseModel):
    id: uuid.UUID
    kind: str
    status: Literal["queued", "running", "done", "failed"]
    attempts: int
    result: dict[str, Any] | None = None
    error: str | None = None
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None = None
