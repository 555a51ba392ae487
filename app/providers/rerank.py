"""Client for any endpoint speaking the common rerank wire format (Cohere, Jina, vLLM, TEI).

Request: ``POST {rerank_base_url}{rerank_path}`` (default path ``/v1/rerank``) with
``{"model", "query", "documents": [str, ...], "top_n"}`` (``model`` only when
``rerank_model`` is set: TEI serves one model and ignores it). Response:
``{"results": [{"index": int, "relevance_score": float}, ...]}`` — one entry per document the
server scored, ``index`` into ``documents``; other fields (``document``, ``meta``, ``usage``)
are ignored. TEI's own ``/rerank`` answers a bare list of ``{"index", "score"}``; it is
accepted too.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import httpx

from app.kit.metrics import PROVIDER_ERRORS, PROVIDER_LATENCY, timed
from app.providers.http import post_json

if TYPE_CHECKING:
    from app.config import Settings


class RerankError(Exception):
    """The rerank endpoint failed, timed out or answered something invalid."""


class RerankClient:
    """Scores documents against a query through a rerank endpoint (``settings.rerank_base_url``
    like ``http://host:port``, ``rerank_path``, ``rerank_model``, ``rerank_api_key`` sent as a
    bearer key when set, ``rerank_timeout_s`` for the whole request).

    Every failure (connection error, timeout, HTTP error status, a body that is not JSON or of
    the wrong shape, an index out of range, a score that is not a finite number) raises
    ``RerankError``; its message never contains the API key.

    Raises ``ValueError`` at construction when ``settings.rerank_base_url`` is not set.
    """

    def __init__(self, settings: Settings) -> None:
        if not settings.rerank_base_url:
            raise ValueError("the rerank client needs MEMLANE_RERANK_BASE_URL")
        path = "/" + settings.rerank_path.lstrip("/")
        self.url = settings.rerank_base_url.rstrip("/") + path
        self.model: str | None = settings.rerank_model or None
        key = settings.rerank_api_key.get_secret_value() if settings.rerank_api_key else None
        self._key = key or None
        headers = {"Authorization": f"Bearer {self._key}"} if self._key else {}
        self._client = httpx.AsyncClient(
            timeout=httpx.Timeout(settings.rerank_timeout_s), headers=headers
        )

    async def rerank(self, query: str, documents: list[str]) -> list[float]:
        """Relevance of each of ``documents`` to ``query``, in the documents' order (the
        server's own scale: a probability for Cohere-style servers, a logit for some others).
        A document the server left out of its answer gets ``-inf``. ``[]`` for no documents
        (no request). Raises ``RerankError``."""
        if not documents:
            return []
        try:
            with timed(PROVIDER_LATENCY, "rerank", "rerank"):
                return await self._request(query, documents)
        except RerankError:
            PROVIDER_ERRORS.labels("rerank", "rerank").inc()
            raise

    async def aclose(self) -> None:
        """Close the underlying HTTP client."""
        await self._client.aclose()

    async def _request(self, query: str, documents: list[str]) -> list[float]:
        body: dict[str, Any] = {"query": query, "documents": documents, "top_n": len(documents)}
        if self.model:
            body["model"] = self.model
        payload = await post_json(
            self._client, self.url, body, what="rerank", secret=self._key, error=RerankError
        )
        return self._scores(payload, len(documents))

    def _scores(self, payload: object, n: int) -> list[float]:
        def bad(why: str) -> RerankError:
            return RerankError(f"invalid rerank answer from {self.url}: {why}")

        results = payload.get("results") if isinstance(payload, dict) else payload
        if not isinstance(results, list):
            raise bad("'results' is missing or not a list")
        scores = [-math.inf] * n
        seen: set[int] = set()
        for item in results:
            if not isinstance(item, dict):
                raise bad("a result is not an object")
            index = item.get("index")
            score = item.get("relevance_score", item.get("score"))
            if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < n:
                raise bad(f"index {index!r} is not one of the {n} documents")
            if index in seen:
                raise bad(f"index {index} is scored twice")
            if (
                not isinstance(score, int | float)
                or isinstance(score, bool)
                or not math.isfinite(score)
            ):
                raise bad(f"the score of document {index} is not a finite number")
            seen.add(index)
            scores[index] = float(score)
        if not seen:
            raise bad("no document was scored")
        return scores


def build_reranker(settings: Settings) -> RerankClient | None:
    """The configured rerank client, or None when reranking is off (no
    ``MEMLANE_RERANK_BASE_URL``: the default)."""
    return RerankClient(settings) if settings.rerank_base_url else None
