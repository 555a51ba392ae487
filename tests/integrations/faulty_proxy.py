"""A real HTTP proxy in front of `memlane serve` that misbehaves on cue: it answers 429/503,
drops the connection, forwards a request and then loses the answer (502), or forwards a write
without its ``wait`` parameter. It records every request it saw, so a test can tell how many
times and with which Idempotency-Key a client sent a request."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, urlencode, urlsplit

import httpx


@dataclass
class Seen:
    method: str
    path: str
    query: str
    idempotency_key: str | None
    at: float


@dataclass
class FaultyProxy:
    upstream: str
    # (method, path substring) -> the faults to apply to the next matching requests, in order:
    # "429:<s>", "503", "drop", "lost" (forward, then answer 502), "nowait" (forward without
    # ?wait=true), "ok" (forward)
    plans: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    seen: list[Seen] = field(default_factory=list)
    port: int = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def plan(self, method: str, path_part: str, *faults: str) -> None:
        self.plans[(method, path_part)] = list(faults)

    def requests(self, method: str, path_part: str) -> list[Seen]:
        return [s for s in self.seen if s.method == method and path_part in s.path]

    def _next_fault(self, method: str, path: str) -> str:
        for (m, part), faults in self.plans.items():
            if m == method and part in path and faults:
                return faults.pop(0)
        return "ok"


@contextmanager
def faulty_proxy(upstream: str) -> Iterator[FaultyProxy]:
    proxy = FaultyProxy(upstream)
    lock = threading.Lock()
    forward = httpx.Client(base_url=upstream, timeout=60)

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: object) -> None:
            pass

        def _handle(self) -> None:
            parts = urlsplit(self.path)
            length = int(self.headers.get("content-length") or 0)
            body = self.rfile.read(length) if length else b""
            with lock:
                proxy.seen.append(
                    Seen(
                        self.command,
                        parts.path,
                        parts.query,
                        self.headers.get("idempotency-key"),
                        time.monotonic(),
                    )
                )
                fault = proxy._next_fault(self.command, parts.path)
            if fault.startswith("429"):
                self._answer(429, b'{"type": "urn:memlane:problem:rate-limited", "title": '
                             b'"Too many requests", "status": 429}',
                             {"Retry-After": fault.split(":")[1]})  # fmt: skip
                return
            if fault == "503":
                self._answer(503, b'{"type": "urn:memlane:problem:service-unavailable", '
                             b'"title": "A dependency is unavailable", "status": 503}')  # fmt: skip
                return
            if fault == "drop":
                self.connection.shutdown(socket.SHUT_RDWR)
                self.close_connection = True
                return
            query = parts.query
            if fault == "nowait":
                query = urlencode([(k, v) for k, v in parse_qsl(query) if k != "wait"])
            headers = {
                k: v
                for k, v in self.headers.items()
                if k.lower() in ("authorization", "content-type", "idempotency-key", "accept")
            }
            upstream = forward.request(
                self.command,
                parts.path + (f"?{query}" if query else ""),
                content=body,
                headers=headers,
            )
            if fault == "lost":
                self._answer(502, b"bad gateway", {"Content-Type": "text/plain"})
                return
            self._answer(
                upstream.status_code,
                upstream.content,
                {
                    k: v
                    for k, v in upstream.headers.items()
                    if k.lower() in ("content-type", "x-request-id", "retry-after")
                },
            )

        def _answer(
            self, status: int, content: bytes, headers: dict[str, str] | None = None
        ) -> None:
            self.send_response(status)
            for k, v in {"Content-Type": "application/problem+json", **(headers or {})}.items():
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(content)))
            self.end_headers()
            self.wfile.write(content)

        do_GET = do_POST = do_PATCH = do_DELETE = _handle

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    proxy.port = httpd.server_address[1]
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield proxy
    finally:
        httpd.shutdown()
        httpd.server_close()
        forward.close()
