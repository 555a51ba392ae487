"""A LangGraph ``BaseStore`` backed by Memlane (``pip install "memlane-client[langgraph]"``).

Namespace mapping (docs/langgraph.md)::

    (user_id, *path)                      -> tenant of the API key, user user_id, scope user
    (user_id, "task", task_id, *path)     -> the same user, scope task / scope_id task_id
    (user_id, "session", session_id, ...) -> the same user, scope session / scope_id session_id

The user sits at ``user_index`` (default 0; 1 for LangGraph's habitual ``("memories",
user_id)``). A namespace without a user is refused with ``InvalidNamespaceError``: Memlane has
no memory outside a user. The tenant is the API key's, never a namespace element.

An item is one Memlane memory (type ``fact``): its ``content`` is the text that is embedded and
searched (the ``index`` fields of the value, by default its top-level strings), its ``key`` is
``langgraph.k<digest of namespace and key>``, and ``metadata["langgraph"]`` keeps the namespace,
key and value exactly as put. ``put`` replaces: the new memory is written first, then the older
memories of the same item are deleted. ``search`` with a ``query`` is Memlane's recall (ranked by
similarity × confidence × decay; ``SearchItem.score`` is that score), otherwise a listing, newest
first; ``filter`` matches the value (``$eq $ne $gt $gte $lt $lte``, as LangGraph's stores).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Generator, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from langgraph.store.base import (
    BaseStore,
    GetOp,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
)
from langgraph.store.base.embed import get_text_at_path

from memlane_client.aio import AsyncMemlane
from memlane_client.client import Memlane

META = "langgraph"
SCOPED = ("task", "session")
MAX_TOP_K = 100  # RecallRequest.top_k's maximum


@dataclass(frozen=True)
class _Req:
    """One SDK call an operation needs: ``method`` of the user handle with ``kwargs``."""

    user: str
    method: str
    kwargs: dict[str, Any]


_Plan = Generator[_Req, Any, Any]


class MemlaneStore(BaseStore):
    """LangGraph store over Memlane's REST API, sync (``batch``) and async (``abatch``).

    ``MemlaneStore(base_url, api_key, tenant_id=…)`` (each read from ``MEMLANE_URL``,
    ``MEMLANE_API_KEY``, ``MEMLANE_TENANT_ID`` when left out), or ``client=`` / ``aclient=``
    to reuse SDK clients. ``index``: default value fields that form the searchable text
    (``None``: its top-level string fields). ``user_index``: the namespace position of the user id.
    Errors: ``InvalidNamespaceError`` for a namespace without a user, the SDK's
    ``MemlaneError`` family for what the server refuses.
    """

    def __init__(
        self,
        base_url: str | None = None,
        api_key: str | None = None,
        *,
        tenant_id: str | None = None,
        client: Memlane | None = None,
        aclient: AsyncMemlane | None = None,
        index: list[str] | None = None,
        user_index: int = 0,
    ) -> None:
        self._args = (base_url, api_key, tenant_id)
        self._client = client
        self._aclient = aclient
        self.index_fields = index
        self.user_index = user_index

    @property
    def client(self) -> Memlane:
        if self._client is None:
            base_url, api_key, tenant_id = self._args
            self._client = Memlane(base_url, api_key, tenant_id=tenant_id)
        return self._client

    @property
    def aclient(self) -> AsyncMemlane:
        if self._aclient is None:
            base_url, api_key, tenant_id = self._args
            self._aclient = AsyncMemlane(base_url, api_key, tenant_id=tenant_id)
        return self._aclient

    # -- BaseStore -------------------------------------------------------------------------
    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Run ``ops`` in order (each one or a few REST calls); results in the same order."""
        return [self._run_sync(self._plan(op)) for op in ops]

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """Async :meth:`batch` over ``AsyncMemlane``."""
        return [await self._run_async(self._plan(op)) for op in ops]

    def _run_sync(self, plan: _Plan) -> Any:
        try:
            req = next(plan)
            while True:
                req = plan.send(getattr(self.client.user(req.user), req.method)(**req.kwargs))
        except StopIteration as done:
            return done.value

    async def _run_async(self, plan: _Plan) -> Any:
        try:
            req = next(plan)
            while True:
                method = getattr(self.aclient.user(req.user), req.method)
                req = plan.send(await method(**req.kwargs))
        except StopIteration as done:
            return done.value

    # -- the operations, as plans of SDK calls ---------------------------------------------
    def _plan(self, op: Op) -> _Plan:
        if isinstance(op, GetOp):
            return self._get(op)
        if isinstance(op, PutOp):
            return self._put(op)
        if isinstance(op, SearchOp):
            return self._search(op)
        if isinstance(op, ListNamespacesOp):
            return self._list_namespaces(op)
        raise ValueError(f"unknown store operation {op!r}")

    def _user_of(self, namespace: tuple[str, ...]) -> str:
        if len(namespace) <= self.user_index or not namespace[self.user_index]:
            shape = ["…"] * self.user_index + ["user_id", "…"]
            raise InvalidNamespaceError(
                f"Memlane keeps memories per user: the namespace needs the user id at position "
                f"{self.user_index}, e.g. ({', '.join(shape)}); got {namespace!r}"
            )
        return namespace[self.user_index]

    def _scope_of(self, namespace: tuple[str, ...]) -> tuple[str, str | None]:
        rest = namespace[self.user_index + 1 :]
        if len(rest) >= 2 and rest[0] in SCOPED:
            return rest[0], rest[1]
        return "user", None

    @staticmethod
    def _memory_key(namespace: tuple[str, ...], key: str) -> str:
        digest = hashlib.sha256(json.dumps([list(namespace), key]).encode()).hexdigest()
        return f"langgraph.k{digest[:40]}"

    def _all(self, user: str, **filters: Any) -> Generator[_Req, Any, list[Any]]:
        """Every memory of ``user`` matching ``filters``, page by page."""
        out: list[Any] = []
        cursor: str | None = None
        while True:
            page = yield _Req(user, "list_memories", {"cursor": cursor, "limit": 200, **filters})
            out += page.items
            if not page.next_cursor:
                return out
            cursor = page.next_cursor

    def _get(self, op: GetOp) -> _Plan:
        user = self._user_of(op.namespace)
        key = self._memory_key(op.namespace, op.key)
        found = yield from self._all(user, key=key, status="active")
        items = [i for i in (self._item(m) for m in found) if i is not None]
        return max(items, key=lambda i: i.updated_at) if items else None

    def _put(self, op: PutOp) -> _Plan:
        user = self._user_of(op.namespace)
        key = self._memory_key(op.namespace, op.key)
        older = yield from self._all(user, key=key)
        if op.value is None:
            for m in older:
                yield _Req(user, "forget", {"memory_id": str(m.id)})
            return None
        value = dict(op.value)
        encoded = json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
        scope, scope_id = self._scope_of(op.namespace)
        written = yield _Req(
            user,
            "remember",
            {
                "content": self._text(value, op.index) or f"{'/'.join(op.namespace)}/{op.key}",
                "type": "fact",
                "key": key,
                "value": hashlib.sha256(encoded.encode()).hexdigest()[:32],
                "scope": scope,
                "scope_id": scope_id,
                "metadata": {
                    META: {"namespace": list(op.namespace), "key": op.key, "value": value}
                },
            },
        )
        kept = {m.id for m in written.memories}
        for m in older:
            if m.id not in kept:
                yield _Req(user, "forget", {"memory_id": str(m.id)})
        return None

    def _search(self, op: SearchOp) -> _Plan:
        prefix = op.namespace_prefix
        user = self._user_of(prefix)
        wanted = op.offset + op.limit
        hits: list[SearchItem] = []
        if op.query:
            scope, scope_id = self._scope_of(prefix)
            got = yield _Req(
                user,
                "recall",
                {
                    "query": op.query,
                    "top_k": MAX_TOP_K,
                    "types": ["fact"],
                    "task_id": scope_id if scope == "task" else None,
                    "session_id": scope_id if scope == "session" else None,
                },
            )
            for m in got.memories:
                item = self._item(m, score=m.score)
                if item is not None and _under(item.namespace, prefix) and _matches(item, op):
                    hits.append(item)
        else:
            found = yield from self._all(user, status="active")
            for m in found:
                item = self._item(m)
                if item is not None and _under(item.namespace, prefix) and _matches(item, op):
                    hits.append(item)
            hits.sort(key=lambda i: i.updated_at, reverse=True)
        return hits[op.offset : wanted]

    def _list_namespaces(self, op: ListNamespacesOp) -> _Plan:
        prefixes = [c.path for c in op.match_conditions or () if c.match_type == "prefix"]
        fixed = [p for p in prefixes if len(p) > self.user_index and p[self.user_index] != "*"]
        if not fixed:
            raise InvalidNamespaceError(
                "list_namespaces needs a prefix that names the user (Memlane keeps memories "
                f"per user), e.g. prefix=('alice',) with user_index={self.user_index}"
            )
        user = fixed[0][self.user_index]
        found = yield from self._all(user, status="active")
        spaces: set[tuple[str, ...]] = set()
        for m in found:
            meta = self._meta(m)
            if meta is None:
                continue
            ns = tuple(meta["namespace"])
            if all(_condition(c, ns) for c in op.match_conditions or ()):
                spaces.add(ns[: op.max_depth] if op.max_depth is not None else ns)
        return sorted(spaces)[op.offset : op.offset + op.limit]

    # -- items -------------------------------------------------------------------------------
    def _text(self, value: Mapping[str, Any], index: Any) -> str:
        """The searchable text of a value: its ``index`` fields (LangGraph path syntax), or by
        default its top-level string fields, one a line; JSON when there are none."""
        fields = index if isinstance(index, list) else self.index_fields
        if index is not False and fields:
            texts = [t for f in fields for t in get_text_at_path(value, f)]
        else:
            texts = [v for v in value.values() if isinstance(v, str) and v.strip()]
        return "\n".join(texts) or json.dumps(value, ensure_ascii=False, default=str)

    @staticmethod
    def _meta(memory: Any) -> dict[str, Any] | None:
        meta = (memory.metadata or {}).get(META)
        return meta if isinstance(meta, dict) and "namespace" in meta else None

    def _item(self, memory: Any, score: float | None = None) -> SearchItem | None:
        meta = self._meta(memory)
        if meta is None:
            return None
        created: datetime = memory.created_at
        updated: datetime = getattr(memory, "updated_at", None) or created
        return SearchItem(
            namespace=tuple(meta["namespace"]),
            key=meta["key"],
            value=meta["value"],
            created_at=created,
            updated_at=updated,
            score=score,
        )


def _under(namespace: tuple[str, ...], prefix: tuple[str, ...]) -> bool:
    return namespace[: len(prefix)] == tuple(prefix)


def _condition(condition: MatchCondition, ns: tuple[str, ...]) -> bool:
    path = tuple(condition.path)
    if len(path) > len(ns):
        return False
    part = ns[: len(path)] if condition.match_type == "prefix" else ns[len(ns) - len(path) :]
    return all(p == "*" or p == n for p, n in zip(path, part, strict=True))


_OPS = {
    "$eq": lambda a, b: a == b,
    "$ne": lambda a, b: a != b,
    "$gt": lambda a, b: a is not None and a > b,
    "$gte": lambda a, b: a is not None and a >= b,
    "$lt": lambda a, b: a is not None and a < b,
    "$lte": lambda a, b: a is not None and a <= b,
}


def _matches(item: Item, op: SearchOp) -> bool:
    for field, wanted in (op.filter or {}).items():
        have = item.value.get(field)
        if isinstance(wanted, dict) and wanted and all(k in _OPS for k in wanted):
            if not all(_OPS[k](have, v) for k, v in wanted.items()):
                return False
        elif have != wanted:
            return False
    return True


__all__ = ["MemlaneStore"]
