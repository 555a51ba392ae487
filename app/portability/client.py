"""`memlane export` / `memlane import`: move a user through a running server's HTTP API."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import httpx
from tqdm import tqdm

from app.portability.schemas import MEMORY_MARKER

CHUNK_BYTES = 64 * 1024
CONNECT_TIMEOUT_S = 10.0


class ClientError(Exception):
    """The server refused or failed; the message is what to show the user."""


class MarkerCounter:
    """Counts occurrences of a byte marker across the chunks of a stream."""

    def __init__(self, marker: bytes):
        self.marker = marker
        self.tail = b""

    def feed(self, chunk: bytes) -> int:
        data = self.tail + chunk
        # Keep less than one marker's length: a marker split over two chunks is counted once.
        self.tail = data[-(len(self.marker) - 1) :]
        return data.count(self.marker)


def _auth(api_key: str | None) -> dict[str, str]:
    key = api_key or os.environ.get("MEMLANE_API_KEY")
    if not key:
        raise ClientError("pass --api-key or set MEMLANE_API_KEY")
    return {"Authorization": f"Bearer {key}"}


def _problem(response: httpx.Response) -> ClientError:
    try:
        body = response.json()
        detail = body.get("detail") or body.get("title")
        kind = body.get("type", "")
    except ValueError:
        detail, kind = response.text[:500], ""
    return ClientError(f"HTTP {response.status_code}{' ' + kind if kind else ''}: {detail}")


def _user_url(url: str, tenant: str, user: str) -> str:
    return f"{url.rstrip('/')}/v1/tenants/{tenant}/users/{user}"


def export_user(
    *,
    url: str,
    api_key: str | None,
    tenant: str,
    user: str,
    include_messages: bool,
    output: Path | None,
    timeout_s: float,
) -> int:
    """Stream the user's export into ``output`` (stdout when None). Returns the number of
    memories written. Raises ClientError. The file is written as ``<output>.part`` and renamed
    once the document is complete, so a failed export never leaves a truncated file behind."""
    headers = _auth(api_key)
    params = {"include_messages": "true" if include_messages else "false"}
    timeout = httpx.Timeout(timeout_s, connect=CONNECT_TIMEOUT_S)
    part = output.with_name(output.name + ".part") if output is not None else None
    sink: IO[bytes] = part.open("wb") if part is not None else sys.stdout.buffer
    counter = MarkerCounter(MEMORY_MARKER)
    count, last = 0, b""
    try:
        with (
            httpx.Client(timeout=timeout) as http,
            http.stream(
                "GET", _user_url(url, tenant, user) + "/export", params=params, headers=headers
            ) as response,
        ):
            if response.status_code != 200:
                response.read()
                raise _problem(response)
            total = response.headers.get("x-memlane-memory-count")
            with tqdm(
                total=int(total) if total and total.isdigit() else None,
                unit=" memories",
                desc="export",
                file=sys.stderr,
                disable=None,  # no bar when stderr is not a terminal
            ) as bar:
                for chunk in response.iter_bytes():
                    sink.write(chunk)
                    found = counter.feed(chunk)
                    count += found
                    bar.update(found)
                    last = (last + chunk)[-16:]
        if not last.rstrip().endswith(b"}"):
            raise ClientError("the export stream ended early: the document is incomplete")
    except BaseException as exc:
        if part is not None:
            sink.close()
            part.unlink(missing_ok=True)
        if isinstance(exc, httpx.HTTPError):
            raise ClientError(f"export failed: {exc}") from exc
        raise
    if part is not None and output is not None:
        sink.close()
        part.replace(output)
    else:
        sys.stdout.flush()
    return count


def import_user(
    *,
    url: str,
    api_key: str | None,
    tenant: str,
    user: str,
    path: Path,
    dry_run: bool,
    timeout_s: float,
) -> dict[str, Any]:
    """Upload the document at ``path`` to ``POST …/import`` with a progress bar; returns the
    server's ImportResult as a dict. Raises ClientError."""
    headers = {
        **_auth(api_key),
        "Content-Type": "application/json",
        "Content-Length": str(path.stat().st_size),
    }
    bar = tqdm(
        total=path.stat().st_size,
        unit="B",
        unit_scale=True,
        desc="upload",
        file=sys.stderr,
        disable=None,
    )

    def body() -> Iterator[bytes]:
        with path.open("rb") as f:
            while chunk := f.read(CHUNK_BYTES):
                bar.update(len(chunk))
                yield chunk
        # The server arbitrates once it has the whole document.
        bar.set_description("dry run" if dry_run else "import")

    try:
        with httpx.Client(timeout=httpx.Timeout(timeout_s, connect=CONNECT_TIMEOUT_S)) as http:
            response = http.post(
                _user_url(url, tenant, user) + "/import",
                params={"dry_run": "true" if dry_run else "false"},
                content=body(),
                headers=headers,
            )
    except httpx.HTTPError as exc:
        raise ClientError(f"import failed: {exc}") from exc
    finally:
        bar.close()
    if response.status_code != 200:
        raise _problem(response)
    result: dict[str, Any] = response.json()
    return result


def summary(result: dict[str, Any]) -> str:
    """The import result in a few lines (the decisions are left to --json)."""
    outcomes = ", ".join(f"{k} {v}" for k, v in result["outcomes"].items())
    rules = ", ".join(f"{k} {v}" for k, v in sorted(result["rules"].items())) or "none"
    lines = [
        "dry run: nothing was written" if result["dry_run"] else "imported",
        f"memories in document: {result['memories_in_document']} "
        f"(arbitrated {result['imported']}, unchanged {result.get('unchanged', 0)},"
        f" archived skipped {result['skipped']})",
        f"new memories: {result['created']}",
        f"outcomes: {outcomes}",
        f"rules: {rules}",
        f"messages: {result['messages_imported']} of {result['messages_in_document']} written",
    ]
    return "\n".join(lines)


def dumps(result: dict[str, Any]) -> str:
    return json.dumps(result, indent=2, ensure_ascii=False)
