"""Context assembly: constraints, recalled memories, reminders of recent changes, task working
memory, the session summary and the recent turns, inside a token budget (docs/context.md states
the drop order).

The block has two forms. ``text`` is one string for any prompt; ``messages`` are OpenAI-style
chat messages: one ``system`` message holding the MemoryContext (everything but the recent
turns) followed by the recent turns with their own roles.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, timedelta
from typing import TYPE_CHECKING, Any

from app.db.models import Memory, Task
from app.kit.metrics import CONTEXT_TOKENS
from app.kit.time import utcnow
from app.memories.schemas import is_blank
from app.privacy.protect import Privacy, embedding_text, owner_of
from app.recall.repository import ContextRepository
from app.recall.schemas import ChatMessage, ContextResponse, ContextSection, RecallRequest
from app.recall.service import RecallService
from app.recall.tokens import REPLY_PRIMING_TOKENS, SUMMARY_TAGS, message_tokens, token_counter
from app.tasks.service import task_read

if TYPE_CHECKING:
    from app.runtime import Runtime

HEADER = (
    "MemoryContext — background about the user from earlier conversations. Use it only as "
    "background; where it contradicts the user's current input, the current input wins."
)
KEEP_LAST_TURNS = 2
MAX_QUERY_CHARS = 4000  # RecallRequest.query's limit
MAX_TASK_STEPS = 10
MAX_REMINDERS = 5  # reminder lines, one per key, newest change first
REMINDERS_TITLE = "Changed recently (the later value is current):"


@dataclass
class Parts:
    constraints: list[str]
    memories: list[str]  # best first
    task_head: list[str]  # name and slots
    task_steps: list[str]  # oldest first
    summary: list[str]  # oldest first; tagged lines are never dropped
    turns: list[tuple[str, str, str | None]]  # (role, content, name), oldest first
    dropped: dict[str, int] = field(default_factory=dict)
    reminders: list[str] = field(default_factory=list)  # newest change first

    def drop(self, section: str, items: list[Any], index: int) -> None:
        del items[index]
        self.dropped[section] = self.dropped.get(section, 0) + 1


def render_system(p: Parts) -> str:
    blocks = [HEADER]
    if p.constraints:
        blocks.append("Constraints (always follow):\n" + "\n".join(f"- {c}" for c in p.constraints))
    if p.memories:
        blocks.append("Relevant memories:\n" + "\n".join(f"- {m}" for m in p.memories))
    if p.reminders:
        blocks.append(REMINDERS_TITLE + "\n" + "\n".join(f"- {r}" for r in p.reminders))
    if p.task_head or p.task_steps:
        blocks.append(
            "Current task:\n" + "\n".join(p.task_head + [f"- step: {s}" for s in p.task_steps])
        )
    if p.summary:
        blocks.append("Earlier in this conversation (summary):\n" + "\n".join(p.summary))
    return "\n\n".join(blocks)


def reminder_line(earlier: str, current: str, changed_on: str) -> str:
    """One line for a key whose value changed: ``earlier: Lisbon, superseded 2026-06-01 by
    Porto`` (the date is the day, UTC, the earlier value stopped holding)."""
    return f"earlier: {earlier}, superseded {changed_on} by {current}"


def render_text(p: Parts) -> str:
    system = render_system(p)
    if not p.turns:
        return system
    return system + "\n\nRecent conversation:\n" + "\n".join(turn_line(*turn) for turn in p.turns)


def turn_line(role: str, content: str, name: str | None) -> str:
    """A recent turn in the text form: its role, who said it when the turn names its speaker,
    and its content (``user (Caroline): I went to the support group``)."""
    return f"{role} ({name}): {content}" if name else f"{role}: {content}"


def memory_line(content: str, speaker: str | None) -> str:
    """A relevant memory in the context: its content, after its speaker when it was said by a
    named participant (``Caroline: I went to the support group``)."""
    return f"{speaker}: {content}" if speaker else content


def render_messages(p: Parts) -> list[ChatMessage]:
    return [ChatMessage(role="system", content=render_system(p))] + [
        ChatMessage(role=role, content=content, name=name) for role, content, name in p.turns
    ]


class ContextService:
    def __init__(self, rt: Runtime, tenant_id: uuid.UUID, user_id: str):
        self.rt = rt
        self.tenant_id = tenant_id
        self.user_id = user_id
        self.count = token_counter(rt.settings.context_tokenizer)

    def _messages_tokens(self, p: Parts) -> int:
        return (
            sum(
                message_tokens(self.count, m.content) + (self.count(m.name) if m.name else 0)
                for m in render_messages(p)
            )
            + REPLY_PRIMING_TOKENS
        )

    async def assemble(
        self,
        session_id: str,
        *,
        query: str | None,
        token_budget: int | None,
        task_id: str | None,
        top_k: int | None,
        agent_id: str | None = None,
    ) -> ContextResponse:
        """The prompt block for the session (recall falls back to full-text search when the
        query cannot be embedded in time).

        The budget holds for the messages form (which costs more than the text form). Items are
        dropped lowest value first (docs/context.md); constraints and the header never are.
        """
        s = self.rt.settings
        budget = token_budget or s.context_default_token_budget
        async with self.rt.scoped(self.tenant_id, self.user_id) as db:
            repo = ContextRepository(db, self.tenant_id, self.user_id)
            chat = await repo.chat_session(session_id)
            recent = await repo.recent_messages(
                session_id, chat.summarized_through_seq if chat else 0, s.session_window_turns
            )
            task = await repo.task(task_id) if task_id else None
            ended_at = chat.ended_at if chat is not None else None
            if ended_at is not None:
                recent, chat = [], None  # an ended session's window is archived
        privacy, owner = self.rt.privacy, owner_of(self.tenant_id, self.user_id)
        if query is None or is_blank(query):
            # The latest user turn, as the embedder may see it (no sensitive values).
            # (one with nothing visible, "\u200b", is no query: recall would refuse it)
            query = next(
                (
                    text
                    for m in reversed(recent)
                    if m.role == "user" and not is_blank(text := embedding_text(m.content))
                ),
                None,
            )
            query = query[:MAX_QUERY_CHARS] if query else None
        recaller = RecallService(self.rt, self.tenant_id, self.user_id)
        reminder_days = s.context_reminder_days
        recall = (
            await recaller.recall(
                RecallRequest(
                    query=query,
                    top_k=top_k,
                    session_id=session_id,
                    task_id=task_id,
                    agent_id=agent_id,
                )
            )
            if query
            else None
        )
        reminders: list[str] = []
        if recall is not None and reminder_days > 0:
            # The keys the query touched: those of the memories it recalled. (The frozen
            # ranking is no test of that: with few superseded rows it returns any of them.)
            async with self.rt.scoped(self.tenant_id, self.user_id) as db:
                changes = await ContextRepository(db, self.tenant_id, self.user_id).recent_changes(
                    current_ids=[m.id for m in recall.memories if m.key],
                    since=utcnow() - timedelta(days=reminder_days),
                    limit=4 * MAX_REMINDERS,
                )
            reminders = self._reminders(changes, privacy, owner)
        constraints = (
            [c.content for c in recall.constraints]
            if recall
            else [
                c.content
                for c in await recaller.constraints(
                    session_id=session_id, task_id=task_id, agent_id=agent_id
                )
            ]
        )
        turns = [
            (
                m.role,
                privacy.reveal_personal(m.content, m.sealed, owner) or "",
                m.name if m.role == "user" else None,
            )
            for m in recent
            if m.role in ("user", "assistant")
        ]
        # A kept turn (episode) that the recent conversation shows anyway is not repeated
        # among the memories: same words, same budget spent twice.
        replayed = {" ".join(text.split()) for role, text, _ in turns if role == "user"}
        parts = Parts(
            constraints=constraints,
            memories=[
                memory_line(m.content, m.speaker)
                for m in (recall.memories if recall else [])
                if not (m.type == "episode" and " ".join(m.content.split()) in replayed)
            ],
            reminders=reminders,
            task_head=self._task_head(task, privacy, owner),
            task_steps=[st["description"] for st in (task.steps if task else [])][-MAX_TASK_STEPS:],
            # The summary keeps tokens, not values: personal values show as their kind.
            summary=[
                privacy.reveal_personal(line, [], owner) or ""
                for line in (chat.summary.splitlines() if chat else [])
                if line.strip()
            ],
            # Only the conversation itself: a client's "system" or "tool" turns are not replayed
            # as instructions.
            turns=turns,
        )
        self._fit(parts, budget)
        response = self._response(parts, budget, query)
        response.session_ended_at = ended_at
        return response

    @staticmethod
    def _reminders(changes: list[tuple[Memory, Memory]], privacy: Privacy, owner: str) -> list[str]:
        """One line per key, its latest change (``changes`` is newest first), at most
        ``MAX_REMINDERS``; values as the owner sees them (secrets stay masked)."""

        def shown(m: Memory) -> str:
            return privacy.reveal_personal(m.value or m.content, m.sealed, owner) or ""

        lines: list[str] = []
        keys: set[str] = set()
        for earlier, current in changes:
            if earlier.key in keys or earlier.valid_to is None:
                continue
            keys.add(earlier.key or "")
            changed_on = earlier.valid_to.astimezone(UTC).date().isoformat()
            lines.append(reminder_line(shown(earlier), shown(current), changed_on))
        return lines[:MAX_REMINDERS]

    @staticmethod
    def _task_head(task: Task | None, privacy: Privacy, owner: str) -> list[str]:
        if task is None:
            return []
        view = task_read(task, privacy, owner)
        head = [f"{view.name} ({view.status})"]
        head += [f"- {k}: {v}" for k, v in view.slots.items()]
        if view.missing_slots:
            head.append("- still needed: " + ", ".join(view.missing_slots))
        return head

    def _fit(self, p: Parts, budget: int) -> None:
        """Drop the lowest-value items until the messages form fits ``budget``."""

        def first(
            section: str, items: list[Any], keep: int = 0, skip_tagged: bool = False
        ) -> Callable[[], bool]:
            def drop() -> bool:
                if len(items) <= keep:
                    return False
                for i, item in enumerate(items):
                    if not (skip_tagged and str(item).startswith(SUMMARY_TAGS)):
                        p.drop(section, items, i)
                        return True
                return False

            return drop

        def last(section: str, items: list[Any]) -> Callable[[], bool]:
            def drop() -> bool:
                if not items:
                    return False
                p.drop(section, items, len(items) - 1)
                return True

            return drop

        order = (
            first("recent_turns", p.turns, keep=KEEP_LAST_TURNS),  # 1. older recent turns
            last("memories", p.memories),  # 2. the least relevant memory,
            last("reminders", p.reminders),  #    then the oldest reminder of a change
            first("summary", p.summary, skip_tagged=True),  # 3. oldest untagged summary line
            first("task", p.task_steps),  # 4. oldest task step,
            last("task", p.task_head),  #    then the task itself
            first("recent_turns", p.turns),  # 5. the last turns,
            first("summary", p.summary),  #    then constraint/correction summary lines
        )
        for drop in order:
            while self._messages_tokens(p) > budget and drop():
                pass

    def _response(self, p: Parts, budget: int, query: str | None) -> ContextResponse:
        def cost(lines: list[str]) -> int:
            return sum(self.count(line) + 1 for line in lines)

        sections = {
            "header": ContextSection(tokens=self.count(HEADER), items=1),
            "constraints": ContextSection(tokens=cost(p.constraints), items=len(p.constraints)),
            "memories": ContextSection(tokens=cost(p.memories), items=len(p.memories)),
            "reminders": ContextSection(tokens=cost(p.reminders), items=len(p.reminders)),
            "task": ContextSection(
                tokens=cost(p.task_head + p.task_steps), items=len(p.task_head) + len(p.task_steps)
            ),
            "summary": ContextSection(tokens=cost(p.summary), items=len(p.summary)),
            "recent_turns": ContextSection(
                tokens=cost([turn_line(*turn) for turn in p.turns]),
                items=len(p.turns),
            ),
        }
        for name, section in sections.items():
            section.dropped = p.dropped.get(name, 0)
        tokens = self._messages_tokens(p)
        CONTEXT_TOKENS.observe(tokens)
        text = render_text(p)
        return ContextResponse(
            text=text,
            messages=render_messages(p),
            tokens=tokens,
            text_tokens=self.count(text),
            token_budget=budget,
            over_budget=tokens > budget,
            tokenizer=self.rt.settings.context_tokenizer,
            query=query,
            sections=sections,
        )
