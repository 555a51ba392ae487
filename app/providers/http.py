"""The one HTTP exchange of every remote provider (embeddings, chat, rerank): POST a JSON body,
read a JSON answer, and turn every transport failure into the provider's own error, with the
API key never in a message."""

from __future__ import annotations

from typing import Any

import httpx


def redact(text: str, secret: str | None) -> str:
    """``text`` with every occurrence of ``secret`` replaced by ``***``."""
    return text.replace(secret, "***") if secret else text


async def post_json(
    client: httpx.AsyncClient,
    url: str,
    body: dict[str, Any],
    *,
    what: str,
    secret: str | None,
    error: type[Exception],
) -> Any:
    """The parsed JSON answer of ``POST url`` with ``body``.

    Raises ``error`` (the provider's exception class) when the request times out or fails to
    connect, when the server answers an HTTP status >= 400 (its first 300 characters quoted),
    or when the answer is not JSON; ``what`` names the provider in the message ("embedding",
    "chat", "rerank") and ``secret`` is redacted from it.
    """
    try:
        response = await client.post(url, json=body)
    except httpx.TimeoutException as exc:
        raise error(f"{what} request to {url} timed out ({type(exc).__name__})") from exc
    except httpx.HTTPError as exc:
        raise error(
            f"{what} request to {url} failed: {type(exc).__name__}: " + redact(str(exc), secret)
        ) from exc
    if response.status_code >= 400:
        text = redact(response.text[:300], secret)
        raise error(f"{what} server answered HTTP {response.status_code} for {url}: {text}")
    try:
        return response.json()
    except ValueError:
        raise error(f"{what} server at {url} answered a body that is not JSON") from None
