"""Request id, body size limit and the one access-log line per request."""

from __future__ import annotations

import json
import logging
import re
import time
import uuid
from collections import Counter
from urllib.parse import parse_qsl

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.kit.errors import InvalidRequest, MemlaneError, PayloadTooLarge, UnsupportedEncoding
from app.kit.metrics import HTTP_LATENCY, HTTP_REQUESTS

log = logging.getLogger("memlane.access")
_REQUEST_ID = re.compile(r"^[A-Za-z0-9._\-]{1,64}$")


MAX_JSON_DEPTH = 32


def unacceptable_input(query_string: bytes, body: bytes) -> str | None:
    """Why the request cannot be taken, or None: NUL characters anywhere (Postgres text and
    jsonb refuse them), a query parameter given twice, lone UTF-16 surrogates, NaN/Infinity,
    JSON nested deeper than ``MAX_JSON_DEPTH``, a body that is not UTF-8."""
    if b"%00" in query_string or b"\x00" in query_string or b"\x00" in body:
        return "NUL characters are not accepted"
    names = Counter(n for n, _ in parse_qsl(query_string.decode("latin-1"), keep_blank_values=True))
    repeated = sorted(n for n, times in names.items() if times > 1)
    if repeated:
        # every query parameter takes one value: the last one would silently win
        return f"query parameter given more than once: {', '.join(repeated)}"
    if not body.strip():
        return None
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return "the body is not valid UTF-8"
    try:
        document = json.loads(text, parse_constant=_reject_constant)
    except _Rejected as exc:
        return str(exc)
    except RecursionError:
        return f"JSON nested deeper than {MAX_JSON_DEPTH} levels"
    except ValueError:
        return None  # not JSON: the route's own validation answers
    return _walk(document, 0)


class _Rejected(ValueError):
    pass


def _reject_constant(name: str) -> None:
    raise _Rejected(f"{name} is not a number JSON allows")


def _walk(node: object, depth: int) -> str | None:
    if depth > MAX_JSON_DEPTH:
        return f"JSON nested deeper than {MAX_JSON_DEPTH} levels"
    if isinstance(node, str):
        if "\x00" in node:
            return "NUL characters are not accepted"
        try:
            node.encode("utf-8")
        except UnicodeEncodeError:
            return "lone UTF-16 surrogates are not accepted"
        return None
    items = node.items() if isinstance(node, dict) else node if isinstance(node, list) else ()
    for item in items:
        for part in item if isinstance(node, dict) else (item,):
            why = _walk(part, depth + 1)
            if why is not None:
                return why
    return None


class RequestContextMiddleware:
    """Propagates ``X-Request-ID`` (or makes one), rejects bodies over ``max_body_bytes`` with
    413 before any work is done, and logs one structured line per request. Paths ending in
    ``/import`` (export documents) may be up to ``max_import_bytes``."""

    def __init__(self, app: ASGIApp, max_body_bytes: int, max_import_bytes: int | None = None):
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.max_import_bytes = max_import_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        incoming = headers.get("x-request-id", "")
        request_id = incoming if _REQUEST_ID.fullmatch(incoming) else uuid.uuid4().hex
        scope.setdefault("state", {})["request_id"] = request_id
        started = time.perf_counter()
        status_code = 500

        async def send_with_id(message: Message) -> None:
            nonlocal status_code
            if message["type"] == "http.response.start":
                status_code = message["status"]
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"], (b"x-request-id", request_id.encode())]
            await send(message)

        try:
            body = await self._read_body(scope, headers, receive, send_with_id)
            if body is None:
                return
            replayed = False

            async def replay() -> Message:
                nonlocal replayed
                if not replayed:
                    replayed = True
                    return {"type": "http.request", "body": body, "more_body": False}
                return await receive()

            await self.app(scope, replay, send_with_id)
        finally:
            route = scope.get("route")
            template = getattr(route, "path", None) or "unmatched"
            elapsed = time.perf_counter() - started
            method = str(scope.get("method"))
            HTTP_REQUESTS.labels(method, template, str(status_code)).inc()
            HTTP_LATENCY.labels(method, template).observe(elapsed)
            log.info(
                "request",
                extra={
                    "request_id": request_id,
                    "method": method,
                    "route": template,
                    "status": status_code,
                    "duration_ms": round(elapsed * 1000, 2),
                    "tenant_id": scope.get("state", {}).get("tenant_id"),
                },
            )

    async def _read_body(
        self, scope: Scope, headers: dict[str, str], receive: Receive, send: Send
    ) -> bytes | None:
        """The whole body (within the limit, chunked or not), checked before any route sees
        it: nothing is stored that the database would refuse halfway. None when a problem
        response was sent instead."""
        limit = self.max_body_bytes
        if self.max_import_bytes is not None and str(scope.get("path", "")).endswith("/import"):
            limit = self.max_import_bytes
        too_large = f"the body exceeds {limit} bytes"
        encoding = headers.get("content-encoding", "").strip().lower()
        if encoding not in ("", "identity"):
            detail = f"Content-Encoding {encoding!r} is not accepted: send the body uncompressed"
            await _problem(scope, send, UnsupportedEncoding, detail)
            return None
        declared = headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            await _problem(scope, send, PayloadTooLarge, too_large)
            return None
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await _problem(scope, send, PayloadTooLarge, too_large)
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        why = unacceptable_input(scope.get("query_string", b""), body)
        if why is not None:
            await _problem(scope, send, InvalidRequest, why)
            return None
        return body


async def _problem(scope: Scope, send: Send, error: type[MemlaneError], detail: str) -> None:
    body = json.dumps(
        {
            "type": error.problem_type(),
            "title": error.title,
            "status": error.status,
            "detail": detail,
            "instance": scope.get("path"),
            "request_id": scope.get("state", {}).get("request_id"),
        }
    ).encode()
    await send(
        {
            "type": "http.response.start",
            "status": error.status,
            "headers": [
                (b"content-type", b"application/problem+json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
