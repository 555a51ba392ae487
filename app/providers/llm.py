"""Chat client for any OpenAI-compatible ``POST {base_url}/chat/completions`` endpoint."""

from __future__ import annotations

import asyncio
import json
import re
from typing import TYPE_CHECKING, Any

import httpx

from app.kit.metrics import PROVIDER_ERRORS, PROVIDER_LATENCY, timed
from app.providers.http import post_json

if TYPE_CHECKING:
    from app.config import Settings


class LLMError(Exception):
    """The LLM backend failed, timed out or answered something invalid."""


_FENCE = re.compile(r"^\s*```(?:json|JSON)?\s*\n(.*?)\n?\s*```\s*$", re.DOTALL)


class ChatClient:
    """Minimal OpenAI-compatible chat client (``settings.llm_base_url`` like
    ``http://host:port/v1``, ``llm_model``, ``llm_api_key`` sent as a bearer key when set,
    ``llm_timeout_s`` for the whole request).

    Every call is one system message plus one user message at temperature 0. Every failure
    (HTTP error status, timeout, connection error, an answer of the wrong shape) raises
    ``LLMError``; its message never contains the API key.

    Raises ``ValueError`` at construction when ``settings.llm_base_url`` is not set.
    """

    def __init__(self, settings: Settings) -> None:
        if not settings.llm_base_url:
            raise ValueError("the chat client needs MEMLANE_LLM_BASE_URL")
        self.model: str = settings.llm_model
        self._url = settings.llm_base_url.rstrip("/") + "/chat/completions"
        key = settings.llm_api_key.get_secret_value() if settings.llm_api_key else None
        self._key = key or None
        headers = {"Authorization": f"Bearer {self._key}"} if self._key else {}
        self._timeout_s = settings.llm_timeout_s
        self._client = httpx.AsyncClient(
            timeout=httpx.Timeout(settings.llm_timeout_s), headers=headers
        )

    async def complete_json(self, system: str, user: str) -> dict[str, Any]:
        """Ask for a JSON object (``response_format: {"type": "json_object"}``).

        -> the parsed object of ``choices[0].message.content``. A content wrapped in a single
        Markdown code fence is accepted. Raises ``LLMError`` when the request fails or the
        content is not a JSON object.
        """
        content = await self._complete(system, user, json_mode=True)
        text = content.strip()
        fenced = _FENCE.match(text)
        if fenced:
            text = fenced.group(1).strip()
        try:
            parsed = json.loads(text)
        except ValueError:
            raise LLMError(
                f"the model at {self._url} answered content that is not JSON: {content[:200]!r}"
            ) from None
        if not isinstance(parsed, dict):
            raise LLMError(
                f"the model at {self._url} answered JSON that is not an object "
                f"({type(parsed).__name__})"
            )
        return parsed

    async def complete_text(self, system: str, user: str) -> str:
        """Plain completion. -> the text of ``choices[0].message.content`` (stripped).

        Raises ``LLMError`` when the request fails or the answer has no text content.
        """
        return (await self._complete(system, user, json_mode=False)).strip()

    async def aclose(self) -> None:
        """Close the underlying HTTP client."""
        await self._client.aclose()

    async def _complete(self, system: str, user: str, *, json_mode: bool) -> str:
        operation = "complete_json" if json_mode else "complete_text"
        try:
            with timed(PROVIDER_LATENCY, "llm", operation):
                return await self._request(system, user, json_mode=json_mode)
        except LLMError:
            PROVIDER_ERRORS.labels("llm", operation).inc()
            raise

    async def _request(self, system: str, user: str, *, json_mode: bool) -> str:
        body: dict[str, Any] = {
            "model": self.model,
            "messages": [
                {"role": "system", "content": system},
                {"role": "user", "content": user},
            ],
            "temperature": 0,
        }
        if json_mode:
            body["response_format"] = {"type": "json_object"}
        try:
            # the whole request, however slowly the answer trickles in (httpx's timeout is
            # per read)
            async with asyncio.timeout(self._timeout_s):
                payload = await post_json(
                    self._client, self._url, body, what="chat", secret=self._key, error=LLMError
                )
        except TimeoutError:
            raise LLMError(
                f"the model at {self._url} timed out after {self._timeout_s} s (the whole request)"
            ) from None
        return self._content(payload)

    def _content(self, payload: object) -> str:
        def bad(why: str) -> LLMError:
            return LLMError(f"invalid chat answer from {self._url}: {why}")

        if not isinstance(payload, dict):
            raise bad("the body is not a JSON object")
        choices = payload.get("choices")
        if not isinstance(choices, list) or not choices:
            raise bad("'choices' is missing or empty")
        first = choices[0]
        message = first.get("message") if isinstance(first, dict) else None
        if not isinstance(message, dict):
            raise bad("choices[0].message is missing")
        content = message.get("content")
        if not isinstance(content, str):
            raise bad("choices[0].message.content is not a string")
        if first.get("finish_reason") == "length":
            raise bad("the answer was cut off at the token limit (finish_reason 'length')")
        return content
