"""Request id, body size limit and the one access-log line per request."""

from __future__ import annotations

import logging
import re
import time
import uuid

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.kit.errors import PayloadTooLarge
from app.kit.metrics import HTTP_LATENCY, HTTP_REQUESTS

log = logging.getLogger("memlane.access")
_REQUEST_ID = re.compile(r"^[A-Za-z0-9._\-]{1,64}$")


class RequestContextMiddleware:
    """Propagates ``X-Request-ID`` (or makes one), rejects bodies over ``max_body_bytes`` with
    413 before any work is done, and logs one structured line per request."""

    def __init__(self, app: ASGIApp, max_body_bytes: int):
        self.app = app
        self.max_body_bytes = max_body_bytes

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

        declared = headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_body_bytes:
            await self._too_large(scope, send, request_id)
            return

        received = 0

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_body_bytes:
                    raise PayloadTooLarge(f"the body exceeds {self.max_body_bytes} bytes")
            return message

        async def send_with_id(message: Message) -> None:
            nonlocal status_code
            if message["type"] == "http.response.start":
                status_code = message["status"]
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"], (b"x-request-id", request_id.encode())]
            await send(message)

        try:
            await self.app(scope, limited_receive, send_with_id)
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
                    "method": scope.get("method"),
                    "route": template,
                    "status": status_code,
                    "duration_ms": round(elapsed * 1000, 2),
                    "tenant_id": scope.get("state", {}).get("tenant_id"),
                },
            )

    async def _too_large(self, scope: Scope, send: Send, request_id: str) -> None:
        import json

        body = json.dumps(
            {
                "type": PayloadTooLarge.problem_type(),
                "title": PayloadTooLarge.title,
                "status": 413,
                "detail": f"the body exceeds {self.max_body_bytes} bytes",
                "instance": scope.get("path"),
                "request_id": request_id,
            }
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/problem+json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"x-request-id", request_id.encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
