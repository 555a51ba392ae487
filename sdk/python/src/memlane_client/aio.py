"""The asynchronous client: :class:`AsyncMemlane` and its per-user handle :class:`AsyncUser`.

The same methods as :mod:`memlane_client.client`, awaited; ``memories()`` is an async iterator."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any, Literal, overload

import httpx

from memlane_client import _calls
from memlane_client._core import Call, Config, RetryPolicy
from memlane_client.errors import (
    MemlaneConnectionError,
    MemlaneJobFailed,
    MemlaneTimeout,
    error_from_response,
)
from memlane_client.models import (
    ArbitrationList,
    ArbitrationRead,
    ContextResponse,
    EraseReceipt,
    ExportDocument,
    ImportResult,
    JobAccepted,
    JobRead,
    MemoryHistoryRead,
    MemoryList,
    MemoryRead,
    RecallResponse,
    RevealResponse,
    SessionEndRead,
    TaskFinished,
    TaskList,
    TaskRead,
    TenantCreated,
    TenantRead,
    WriteResult,
)

MemoryType = Literal["profile", "preference", "fact", "event", "constraint"]


def _check_fields(fields: dict[str, Any]) -> None:
    unknown = set(fields) - _calls.MEMORY_FIELDS
    if unknown:
        raise TypeError(f"remember() got unknown fields {sorted(unknown)}")


class AsyncMemlane:
    """An asynchronous Memlane client.

    ``AsyncMemlane(base_url, api_key, tenant_id=…)``; each argument left out is read from
    ``MEMLANE_URL`` (default ``http://127.0.0.1:8080``), ``MEMLANE_API_KEY`` and
    ``MEMLANE_TENANT_ID``. With an admin key only :meth:`create_tenant` and
    :meth:`list_tenants` apply; with a tenant key, :meth:`user` gives a user's handle.

    Timeouts in seconds: ``timeout_s`` per HTTP request, ``wait_timeout_s`` for a ``wait=True``
    write's job to finish. ``transport`` is passed to httpx (e.g. ``httpx.ASGITransport``).
    Errors: subclasses of :class:`memlane_client.errors.MemlaneError`.
    """

    def __init__(
        self,
        base_url: str | None = None,
        api_key: str | None = None,
        *,
        tenant_id: str | None = None,
        timeout_s: float = 60.0,
        wait_timeout_s: float = 120.0,
        poll_interval_s: float = 0.25,
        retry: RetryPolicy | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.config = Config.resolve(
            base_url,
            api_key,
            tenant_id,
            timeout_s=timeout_s,
            wait_timeout_s=wait_timeout_s,
            poll_interval_s=poll_interval_s,
            retry=retry,
        )
        self._http = httpx.AsyncClient(
            base_url=self.config.base_url,
            headers=self.config.headers(),
            timeout=timeout_s,
            transport=transport,
        )

    @property
    def tenant_id(self) -> str | None:
        return self.config.tenant_id

    async def __aenter__(self) -> AsyncMemlane:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    def user(self, user_id: str) -> AsyncUser:
        """The handle of one user of this client's tenant (no request is made)."""
        return AsyncUser(self, user_id)

    # -- admin ---------------------------------------------------------------------------
    async def create_tenant(self, name: str) -> TenantCreated:
        """Create a tenant (admin key). Its ``api_key`` is shown once, in this answer."""
        return TenantCreated.model_validate((await self._send(_calls.create_tenant(name))).json())

    async def list_tenants(self) -> list[TenantRead]:
        """Every tenant (admin key)."""
        return [
            TenantRead.model_validate(t) for t in (await self._send(_calls.list_tenants())).json()
        ]

    def for_tenant(self, tenant: TenantCreated) -> AsyncMemlane:
        """A client acting with a tenant's key (e.g. right after :meth:`create_tenant`)."""
        return AsyncMemlane(
            self.config.base_url,
            tenant.api_key,
            tenant_id=str(tenant.id),
            timeout_s=self.config.timeout_s,
            wait_timeout_s=self.config.wait_timeout_s,
            poll_interval_s=self.config.poll_interval_s,
            retry=self.config.retry,
        )

    # -- jobs ----------------------------------------------------------------------------
    async def job(self, job_id: str) -> JobRead:
        """GET /v1/jobs/{job_id}: a queued write's status."""
        return JobRead.model_validate((await self._send(_calls.get_job(str(job_id)))).json())

    async def retry_job(self, job_id: str) -> JobRead:
        """POST /v1/jobs/{job_id}/retry: run a failed job again (its write was kept). Raises
        MemlaneConflict (409) for a job that has not failed."""
        return JobRead.model_validate((await self._send(_calls.retry_job(str(job_id)))).json())

    async def wait_for_job(self, job_id: str, timeout_s: float | None = None) -> JobRead:
        """Poll the job until ``done``. Raises MemlaneJobFailed (``failed``) or MemlaneTimeout
        (still queued/running after ``timeout_s``, default ``wait_timeout_s``)."""
        deadline = time.monotonic() + (timeout_s or self.config.wait_timeout_s)
        delay = self.config.poll_interval_s
        while True:
            job = await self.job(job_id)
            if job.status == "done":
                return job
            if job.status == "failed":
                raise MemlaneJobFailed(job.error, job_id=str(job.id))
            if time.monotonic() + delay > deadline:
                raise MemlaneTimeout(f"job {job_id} is still {job.status}", job_id=str(job_id))
            await asyncio.sleep(delay)
            delay = min(delay * 1.5, 2.0)

    # -- transport -----------------------------------------------------------------------
    async def _send(self, call: Call) -> httpx.Response:
        """Send ``call`` with the retry policy; a non-2xx final answer raises its typed error."""
        attempt = 0
        while True:
            try:
                response = await self._http.request(
                    call.method,
                    call.path,
                    params=call.request_params(),
                    json=call.json,
                    headers=call.headers,
                )
            except httpx.TransportError as exc:
                delay = self.config.retry.after_error(call, exc, attempt)
                if delay is None:
                    raise MemlaneConnectionError(
                        f"{call.method} {call.path}: {exc!r}", title="Connection error"
                    ) from exc
            else:
                if response.is_success:
                    return response
                delay = self.config.retry.after_response(call, response, attempt)
                if delay is None:
                    raise error_from_response(response)
            await asyncio.sleep(delay)
            attempt += 1

    async def _write(self, call: Call, wait: bool) -> WriteResult | JobAccepted:
        """A queued write: 202 JobAccepted, or with ``wait`` the WriteResult. When the server's
        own wait ran out (202 despite ?wait=true), poll the job, then ask again with the same
        Idempotency-Key: the server answers the finished job's result, writing nothing new."""
        response = await self._send(call)
        if response.status_code == 201:
            return WriteResult.model_validate(response.json())
        accepted = JobAccepted.model_validate(response.json())
        if not wait:
            return accepted
        await self.wait_for_job(str(accepted.job_id))
        response = await self._send(call)
        if response.status_code == 201:
            return WriteResult.model_validate(response.json())
        raise MemlaneTimeout(
            f"job {accepted.job_id} done but no result", job_id=str(accepted.job_id)
        )


class AsyncUser:
    """One user of the client's tenant: ``client.user("alice")``. Every method is one REST
    call (docs/sdk.md lists them with their routes); errors are MemlaneError subclasses."""

    def __init__(self, client: AsyncMemlane, user_id: str) -> None:
        self.client = client
        self.user_id = user_id

    @property
    def _path(self) -> str:
        return self.client.config.user_path(self.user_id)

    def __repr__(self) -> str:
        return f"AsyncUser({self.user_id!r})"

    # -- write ---------------------------------------------------------------------------
    @overload
    async def remember(
        self, content: str, *, wait: Literal[True] = ..., **fields: Any
    ) -> WriteResult: ...
    @overload
    async def remember(
        self, content: str, *, wait: Literal[False], **fields: Any
    ) -> JobAccepted: ...
    async def remember(
        self,
        content: str,
        *,
        wait: bool = True,
        **fields: Any,
    ) -> WriteResult | JobAccepted:
        """POST …/memories: store one memory, arbitrated against what is known.

        ``fields``: any of ``type`` (profile|preference|fact|event|constraint), ``key``,
        ``value``, ``source``, ``confidence`` (0..1), ``scope``, ``scope_id``, ``agent_id``,
        ``occurred_at`` (datetime or ISO-8601), ``metadata`` (dict), ``infer`` (bool),
        ``corrects`` (a memory id). ``wait=True`` (default)
        returns the WriteResult (memories stored, arbitrations); ``wait=False`` the
        JobAccepted at once. Raises TypeError for an unknown field."""
        _check_fields(fields)
        fields["content"] = content
        return await self.client._write(_calls.remember(self._path, wait, fields), wait)

    @overload
    async def remember_many(
        self, memories: Iterable[Mapping[str, Any]], *, wait: Literal[True] = ...
    ) -> WriteResult: ...
    @overload
    async def remember_many(
        self, memories: Iterable[Mapping[str, Any]], *, wait: Literal[False]
    ) -> JobAccepted: ...
    async def remember_many(
        self, memories: Iterable[Mapping[str, Any]], *, wait: bool = True
    ) -> WriteResult | JobAccepted:
        """POST …/memories/batch: 1–100 memories (dicts of the ``remember`` fields), stored as
        given and arbitrated in order."""
        return await self.client._write(_calls.remember_many(self._path, wait, memories), wait)

    @overload
    async def add_messages(
        self,
        session_id: str,
        messages: Sequence[Mapping[str, Any] | tuple[str, str]],
        *,
        task_id: str | None = None,
        wait: Literal[True] = ...,
    ) -> WriteResult: ...
    @overload
    async def add_messages(
        self,
        session_id: str,
        messages: Sequence[Mapping[str, Any] | tuple[str, str]],
        *,
        task_id: str | None = None,
        wait: Literal[False],
    ) -> JobAccepted: ...
    async def add_messages(
        self,
        session_id: str,
        messages: Sequence[Mapping[str, Any] | tuple[str, str]],
        *,
        task_id: str | None = None,
        wait: bool = True,
    ) -> WriteResult | JobAccepted:
        """POST …/sessions/{session_id}/messages: conversation turns, each
        ``{"role", "content", "occurred_at"?, "metadata"?}`` or a ``(role, content)`` pair;
        facts are extracted and arbitrated by the server."""
        return await self.client._write(
            _calls.add_messages(self._path, session_id, messages, task_id, wait), wait
        )

    async def end_session(self, session_id: str) -> SessionEndRead:
        """POST …/sessions/{session_id}/end: the session takes no more turns (409
        ``session-ended``); its window and session-scoped memories are archived
        (``archived`` counts them)."""
        call = _calls.end_session(self._path, session_id)
        return SessionEndRead.model_validate((await self.client._send(call)).json())

    # -- read ----------------------------------------------------------------------------
    async def recall(
        self,
        query: str,
        *,
        top_k: int | None = None,
        session_id: str | None = None,
        task_id: str | None = None,
        agent_id: str | None = None,
        types: Sequence[MemoryType] | None = None,
        include_reminders: bool | None = None,
        explain: bool | None = None,
        at: datetime | str | None = None,
        valid_at: datetime | str | None = None,
        **extra: Any,
    ) -> RecallResponse:
        """POST …/recall: the ``top_k`` memories that matter for ``query``, ranked, plus the
        scope's constraints (``extra``: any further field of RecallRequest). ``agent_id``:
        the agent asking, whose agent-scope memories are read besides the user's
        (docs/scopes.md). ``valid_at``: what was true at that time (frozen memories included,
        decay computed then)."""
        fields = dict(
            query=query,
            top_k=top_k,
            session_id=session_id,
            task_id=task_id,
            agent_id=agent_id,
            types=list(types) if types else None,
            include_reminders=include_reminders,
            explain=explain,
            at=at,
            valid_at=valid_at,
            **extra,
        )
        return RecallResponse.model_validate(
            (await self.client._send(_calls.recall(self._path, fields))).json()
        )

    async def context(
        self,
        session_id: str,
        *,
        query: str | None = None,
        token_budget: int | None = None,
        task_id: str | None = None,
        top_k: int | None = None,
        agent_id: str | None = None,
    ) -> ContextResponse:
        """GET …/sessions/{session_id}/context: the prompt-ready block inside ``token_budget``
        tokens (``text``, ``messages``, ``tokens``, ``sections``); ``agent_id``: the agent asking,
        whose agent-scope memories are read (docs/scopes.md)."""
        call = _calls.context(self._path, session_id, query, token_budget, task_id, top_k, agent_id)
        return ContextResponse.model_validate((await self.client._send(call)).json())

    async def list_memories(
        self, *, cursor: str | None = None, limit: int = 50, **filters: Any
    ) -> MemoryList:
        """GET …/memories: one page (``items``, ``next_cursor``); filters ``type``, ``status``,
        ``scope``, ``source``, ``key``, ``valid_at`` (valid at that time)."""
        call = _calls.list_memories(self._path, filters, cursor, limit)
        return MemoryList.model_validate((await self.client._send(call)).json())

    async def memories(self, *, page_size: int = 50, **filters: Any) -> AsyncIterator[MemoryRead]:
        """Every memory matching ``filters``, following ``next_cursor`` page after page."""
        cursor: str | None = None
        while True:
            page = await self.list_memories(cursor=cursor, limit=page_size, **filters)
            for item in page.items:
                yield item
            if not page.next_cursor:
                return
            cursor = page.next_cursor

    async def get_memory(self, memory_id: str) -> MemoryRead:
        """GET …/memories/{memory_id}."""
        call = _calls.get_memory(self._path, str(memory_id))
        return MemoryRead.model_validate((await self.client._send(call)).json())

    async def update_memory(self, memory_id: str, **fields: Any) -> MemoryRead:
        """PATCH …/memories/{memory_id}: ``content``, ``value``, ``confidence``, ``metadata``,
        ``status``."""
        call = _calls.update_memory(self._path, str(memory_id), fields)
        return MemoryRead.model_validate((await self.client._send(call)).json())

    async def forget(self, memory_id: str) -> None:
        """DELETE …/memories/{memory_id}: a real deletion."""
        await self.client._send(_calls.delete_memory(self._path, str(memory_id)))

    async def history(self, memory_id: str) -> MemoryHistoryRead:
        """GET …/memories/{memory_id}/history: every change of the memory."""
        call = _calls.memory_history(self._path, str(memory_id))
        return MemoryHistoryRead.model_validate((await self.client._send(call)).json())

    async def reveal(self, memory_id: str) -> RevealResponse:
        """POST …/memories/{memory_id}/reveal: open its secret values (audited)."""
        call = _calls.reveal(self._path, str(memory_id))
        return RevealResponse.model_validate((await self.client._send(call)).json())

    async def arbitrations(
        self,
        *,
        memory_id: str | None = None,
        outcome: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        limit: int | None = None,
    ) -> list[ArbitrationRead]:
        """GET …/arbitrations: the audit of arbitration decisions, newest first."""
        call = _calls.arbitrations(self._path, memory_id, outcome, since, until, limit)
        return ArbitrationList.model_validate((await self.client._send(call)).json()).items

    # -- tasks ---------------------------------------------------------------------------
    async def create_task(
        self, name: str, *, id: str | None = None, required_slots: Sequence[str] = ()
    ) -> TaskRead:
        """POST …/tasks: open a task (working memory: slots, steps)."""
        call = _calls.create_task(self._path, name, id, list(required_slots))
        return TaskRead.model_validate((await self.client._send(call)).json())

    async def task(self, task_id: str) -> TaskRead:
        """GET …/tasks/{task_id}."""
        return TaskRead.model_validate(
            (await self.client._send(_calls.get_task(self._path, task_id))).json()
        )

    async def tasks(self, *, status: str | None = None, limit: int | None = None) -> list[TaskRead]:
        """GET …/tasks."""
        call = _calls.list_tasks(self._path, status, limit)
        return TaskList.model_validate((await self.client._send(call)).json()).items

    async def update_task(
        self,
        task_id: str,
        *,
        name: str | None = None,
        slots: Mapping[str, Any] | None = None,
        steps: Sequence[str | Mapping[str, Any]] | None = None,
    ) -> TaskRead:
        """PATCH …/tasks/{task_id}: fill slots (None clears one), append steps."""
        call = _calls.update_task(self._path, task_id, name, slots, steps)
        return TaskRead.model_validate((await self.client._send(call)).json())

    async def finish_task(
        self,
        task_id: str,
        conclusion: str | None = None,
        *,
        promote: bool | None = None,
        key: str | None = None,
    ) -> TaskFinished:
        """POST …/tasks/{task_id}/finish: close it; the conclusion stays in the task's scope
        unless ``promote``."""
        call = _calls.finish_task(self._path, task_id, conclusion, promote, key)
        return TaskFinished.model_validate((await self.client._send(call)).json())

    # -- portability and privacy --------------------------------------------------------
    async def export(self, *, include_messages: bool = False) -> ExportDocument:
        """GET …/export: everything AsyncMemlane knows about the user."""
        call = _calls.export(self._path, include_messages)
        return ExportDocument.model_validate((await self.client._send(call)).json())

    async def import_data(
        self, document: ExportDocument | Mapping[str, Any], *, dry_run: bool = False
    ) -> ImportResult:
        """POST …/import: arbitrate an export document into this user (``dry_run``: report
        only)."""
        call = _calls.import_data(self._path, document, dry_run)
        return ImportResult.model_validate((await self.client._send(call)).json())

    async def erase(self) -> EraseReceipt:
        """DELETE …/users/{user_id}: erase everything of this user (receipt with counts)."""
        return EraseReceipt.model_validate(
            (await self.client._send(_calls.erase(self._path))).json()
        )


__all__ = ["AsyncMemlane", "AsyncUser"]
