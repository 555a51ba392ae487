"""The MCP tools: ``remember``, ``recall``, ``add_messages``, ``get_context``, ``forget``.

Each tool is one REST request (the route is named in its description) made on behalf of the
caller; a REST problem comes back as a tool error whose text is the problem+json document
(``type``, ``title``, ``status``, ``detail``, ``request_id``), so an agent sees the same stable
types as a REST client.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from typing import Annotated, Any, Literal

from mcp.server.fastmcp import Context, FastMCP
from mcp.server.transport_security import TransportSecuritySettings
from mcp.types import CallToolResult, TextContent
from pydantic import BaseModel, Field

from app.mcp.backend import Backend, Caller, ToolProblem, segment

INSTRUCTIONS = (
    "Memlane is this user's long-term memory. Before answering, call recall (or get_context "
    "inside a conversation) with what the user is asking about; after the user states a "
    "durable fact, preference or constraint, call remember, or hand the turns to add_messages "
    "and let Memlane extract the facts. A newer fact about the same key supersedes the older "
    "one. Use forget only when the user asks to delete a memory."
)

UserId = Annotated[
    str | None,
    Field(
        description="The user whose memory this is (letters, digits, . _ : @ -). Leave it "
        "out when the connection is bound to a user (X-Memlane-User / MEMLANE_USER_ID); "
        "another user than the bound one is refused.",
        max_length=128,
    ),
]
MemoryType = Literal["profile", "preference", "fact", "event", "constraint"]


class Turn(BaseModel):
    role: Annotated[
        Literal["user", "assistant", "system", "tool"], Field(description="Who said it")
    ]
    content: Annotated[str, Field(description="What was said", min_length=1)]
    occurred_at: Annotated[
        datetime | None,
        Field(description="When it was said (ISO-8601 with offset); default: now"),
    ] = None


def _result(data: dict[str, Any]) -> CallToolResult:
    return CallToolResult(
        content=[TextContent(type="text", text=json.dumps(data, ensure_ascii=False))],
        structuredContent=data,
    )


def _error(problem: dict[str, Any]) -> CallToolResult:
    return CallToolResult(
        content=[TextContent(type="text", text=json.dumps(problem, ensure_ascii=False))],
        isError=True,
    )


def _brief(memory: dict[str, Any]) -> dict[str, Any]:
    """What an agent needs of a memory (the REST answer has every field)."""
    keep = ("id", "content", "type", "key", "value", "status", "score", "confidence")
    return {k: memory[k] for k in keep if memory.get(k) is not None}


def build_server(backend: Backend, caller_of: Callable[[Context], Caller]) -> FastMCP:
    """A FastMCP server whose tools call ``backend`` as ``caller_of(ctx)``."""
    server = FastMCP(
        name="memlane",
        instructions=INSTRUCTIONS,
        stateless_http=True,
        json_response=True,
        # Every request must carry a tenant API key (checked by the REST routes), which a page
        # rebinding DNS to this host cannot forge: Host/Origin pinning would only stop
        # deployments behind a name other than localhost.
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
        log_level="WARNING",
    )

    async def run(
        ctx: Context,
        method: str,
        user_id: str | None,
        suffix: str,
        *ids: str,
        json_body: Any = None,
        params: dict[str, Any] | None = None,
        shape: Callable[[dict[str, Any]], dict[str, Any]] = lambda d: d,
    ) -> CallToolResult:
        try:
            caller = caller_of(ctx)
            # ``suffix`` with its ``{}`` filled by ``ids``, each one path segment
            path = caller.user_path(user_id) + suffix.format(*map(segment, ids))
            data = await backend.request(
                caller,
                method,
                path,
                json_body=json_body,
                params=params,
            )
        except ToolProblem as problem:
            return _error(problem.problem)
        return _result(shape(data))

    def written(data: dict[str, Any]) -> dict[str, Any]:
        if "memories" not in data:  # 202: the job is still queued after the server's wait
            return data
        return {
            "job_id": data.get("job_id"),
            "memories": [_brief(m) for m in data["memories"]],
            "arbitrations": [
                {k: a.get(k) for k in ("outcome", "rule", "reason", "existing_memory_id")}
                for a in data.get("arbitrations", [])
            ],
        }

    @server.tool(
        description="Store one memory about the user (POST …/memories?wait=true). Memlane "
        "arbitrates it against what it knows: with a key (e.g. residence.city, employer.name, "
        "diet.avoid) a newer value supersedes the old one. Returns the memories stored and the "
        "arbitration decisions."
    )
    async def remember(
        ctx: Context,
        content: Annotated[
            str,
            Field(
                description="The memory as one self-contained sentence, e.g. 'Alice lives in "
                "Lisbon'",
                min_length=1,
                max_length=8000,
            ),
        ],
        type: Annotated[
            MemoryType,
            Field(
                description="profile (who the user is), preference, fact, event (something "
                "that happened) or constraint (a rule the agent must follow)"
            ),
        ] = "fact",
        key: Annotated[
            str | None,
            Field(
                description="Canonical attribute, lower-case dotted (residence.city, "
                "employer.name, diet.avoid); facts with the same key supersede each other"
            ),
        ] = None,
        value: Annotated[
            str | None, Field(description="The attribute's value, e.g. 'Lisbon'")
        ] = None,
        infer: Annotated[
            bool,
            Field(
                description="true: let Memlane extract atomic facts from content instead of "
                "storing it as given"
            ),
        ] = False,
        occurred_at: Annotated[
            datetime | None,
            Field(description="When the fact became true (ISO-8601 with offset); default now"),
        ] = None,
        user_id: UserId = None,
    ) -> CallToolResult:
        body: dict[str, Any] = {"content": content, "type": type, "infer": infer}
        if key is not None:
            body["key"] = key
        if value is not None:
            body["value"] = value
        if occurred_at is not None:
            body["occurred_at"] = occurred_at.isoformat()
        return await run(
            ctx,
            "POST",
            user_id,
            "/memories",
            json_body=body,
            params={"wait": "true"},
            shape=written,
        )

    @server.tool(
        description="Recall what Memlane remembers about the user that matters for a query "
        "(POST …/recall): memories ranked by similarity × confidence × time decay, plus the "
        "user's constraints (always returned, follow them)."
    )
    async def recall(
        ctx: Context,
        query: Annotated[
            str,
            Field(description="What you need to know, in words", min_length=1, max_length=4000),
        ],
        top_k: Annotated[int, Field(description="How many memories", ge=1, le=100)] = 5,
        session_id: Annotated[
            str | None, Field(description="The conversation, to see its session memories")
        ] = None,
        task_id: Annotated[
            str | None, Field(description="The task, to see its task memories")
        ] = None,
        agent_id: Annotated[
            str | None,
            Field(description="The agent asking, to see its own memories of the user"),
        ] = None,
        valid_at: Annotated[
            datetime | None,
            Field(
                description="Recall what was true at this instant (ISO-8601 with offset), "
                "superseded memories included; default now"
            ),
        ] = None,
        user_id: UserId = None,
    ) -> CallToolResult:
        body: dict[str, Any] = {"query": query, "top_k": top_k}
        if session_id is not None:
            body["session_id"] = session_id
        if task_id is not None:
            body["task_id"] = task_id
        if agent_id is not None:
            body["agent_id"] = agent_id
        if valid_at is not None:
            body["valid_at"] = valid_at.isoformat()

        def shape(data: dict[str, Any]) -> dict[str, Any]:
            return {
                "memories": [_brief(m) for m in data.get("memories", [])],
                "constraints": [_brief(c) for c in data.get("constraints", [])],
            }

        return await run(ctx, "POST", user_id, "/recall", json_body=body, shape=shape)

    @server.tool(
        description="Hand conversation turns to Memlane (POST …/sessions/{session_id}/"
        "messages?wait=true): it keeps them as the session's history and extracts, arbitrates "
        "and stores the facts, preferences, constraints and corrections they contain."
    )
    async def add_messages(
        ctx: Context,
        session_id: Annotated[
            str,
            Field(description="The conversation these turns belong to", min_length=1),
        ],
        messages: Annotated[
            list[Turn], Field(description="The turns, oldest first", min_length=1, max_length=200)
        ],
        task_id: Annotated[str | None, Field(description="The task they belong to")] = None,
        user_id: UserId = None,
    ) -> CallToolResult:
        body: dict[str, Any] = {
            "messages": [m.model_dump(mode="json", exclude_none=True) for m in messages]
        }
        if task_id is not None:
            body["task_id"] = task_id
        return await run(
            ctx,
            "POST",
            user_id,
            "/sessions/{}/messages",
            session_id,
            json_body=body,
            params={"wait": "true"},
            shape=written,
        )

    @server.tool(
        description="The prompt-ready memory block of a conversation (GET …/sessions/"
        "{session_id}/context): constraints, recalled memories, task working memory, the "
        "session summary and the recent turns, inside a token budget. Put its text in the "
        "system prompt."
    )
    async def get_context(
        ctx: Context,
        session_id: Annotated[str, Field(description="The conversation", min_length=1)],
        query: Annotated[
            str | None, Field(description="The current user input, to recall against")
        ] = None,
        token_budget: Annotated[
            int | None, Field(description="Most tokens the block may use", ge=1)
        ] = None,
        task_id: Annotated[str | None, Field(description="The task in progress")] = None,
        agent_id: Annotated[
            str | None,
            Field(description="The agent asking, to see its own memories of the user"),
        ] = None,
        user_id: UserId = None,
    ) -> CallToolResult:
        def shape(data: dict[str, Any]) -> dict[str, Any]:
            keep = ("text", "tokens", "token_budget", "over_budget", "session_ended_at")
            return {k: data[k] for k in keep if k in data}

        return await run(
            ctx,
            "GET",
            user_id,
            "/sessions/{}/context",
            session_id,
            params={
                "query": query,
                "token_budget": token_budget,
                "task_id": task_id,
                "agent_id": agent_id,
            },
            shape=shape,
        )

    @server.tool(
        description="Delete one memory for good (DELETE …/memories/{memory_id}), when the user "
        "asks to forget it. The id comes from recall or remember."
    )
    async def forget(
        ctx: Context,
        memory_id: Annotated[str, Field(description="The memory's id (a UUID)")],
        user_id: UserId = None,
    ) -> CallToolResult:
        return await run(
            ctx,
            "DELETE",
            user_id,
            "/memories/{}",
            memory_id,
            shape=lambda _: {"deleted": memory_id},
        )

    _forbid_unknown_arguments(server)
    return server


def _forbid_unknown_arguments(server: FastMCP) -> None:
    """An argument a tool does not have (a misspelt ``valid_at``) is an error result
    (``isError``, pydantic's ``extra_forbidden``) rather than silently dropped: FastMCP's
    argument models ignore extra keys by default. Also advertised in each input schema as
    ``additionalProperties: false``."""
    for tool in server._tool_manager.list_tools():
        model = tool.fn_metadata.arg_model
        model.model_config["extra"] = "forbid"
        model.model_rebuild(force=True)
        tool.parameters = model.model_json_schema(by_alias=True)
