"""The extraction interface: conversation turns in, atomic typed facts out."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal, Protocol

MemoryType = Literal["profile", "preference", "fact", "event", "constraint"]
Source = Literal[
    "user_declared", "form", "tool_observed", "behavior_observed", "model_inferred", "import"
]
Role = Literal["user", "assistant", "system", "tool"]


@dataclass(frozen=True, slots=True)
class Turn:
    """One conversation turn as the extractor sees it.

    ``occurred_at`` is timezone-aware: relative dates ("明天下午三点", "last month") resolve
    against it, in its own UTC offset.
    """

    message_id: str
    role: Role
    content: str
    occurred_at: datetime


@dataclass(slots=True)
class ExtractedFact:
    """One atomic fact, ready for arbitration.

    - ``content``: a short self-contained sentence in the speaker's language, used for display
      and as the embedding input (e.g. "在蓝鲸数据工作", "lives in Shanghai").
    - ``key`` / ``value``: canonical attribute from the key catalogue
      (``app.arbitration.keys``) and its normalised value; ``None`` when the fact has no key.
    - ``is_correction``: the user explicitly corrected an earlier statement ("我已经从…离职",
      "actually", "no longer", "改喝…", "I moved to…").
    - ``retracts``: values the user explicitly withdrew (e.g. the old employer), lower-cased
      for Latin text.
    - ``valid_from`` / ``valid_to``: when the fact holds in the user's world (a move "last
      month" starts then; an event "明天下午三点" happens then).
    - ``scope``: ``"task"`` for decisions about the task in hand (only when the turns came with
      a task), otherwise ``"user"``.
    - ``message_ids``: the turns it came from, so every memory traces back to its words.
    """

    type: MemoryType
    content: str
    key: str | None = None
    value: str | None = None
    source: Source = "user_declared"
    confidence: float | None = None
    is_correction: bool = False
    retracts: list[str] = field(default_factory=list)
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    scope: Literal["user", "task"] = "user"
    message_ids: list[str] = field(default_factory=list)
    metadata: dict[str, object] = field(default_factory=dict)


class Extractor(Protocol):
    """Turns a batch of conversation turns into atomic facts.

    Only ``role == "user"`` turns yield facts about the user; small talk, questions,
    greetings and one-off chatter yield nothing. Raises ``ExtractionError`` when the backend
    fails (the queue retries the job).
    """

    name: str

    async def extract(
        self, turns: list[Turn], *, has_task: bool = False
    ) -> list[ExtractedFact]: ...


class ExtractionError(Exception):
    """The extraction backend failed or answered something invalid."""
