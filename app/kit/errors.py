"""RFC 9457 problem details: one error base, one handler, a stable ``type`` per error."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from sqlalchemy.exc import DBAPIError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

log = logging.getLogger(__name__)

PROBLEM_JSON = "application/problem+json"
TYPE_PREFIX = "urn:memlane:problem:"


class Problem(BaseModel):
    """An RFC 9457 problem document, as every error response of Memlane is shaped."""

    type: str
    title: str
    status: int
    detail: str | None = None
    instance: str | None = None
    request_id: str | None = None
    errors: list[dict[str, Any]] | None = None


class MemlaneError(Exception):
    """Base of every error that maps to an HTTP problem response."""

    status: int = 500
    slug: str = "internal-error"
    title: str = "Internal error"

    def __init__(
        self,
        detail: str | None = None,
        *,
        headers: dict[str, str] | None = None,
        errors: list[dict[str, Any]] | None = None,
    ):
        super().__init__(detail or self.title)
        self.detail = detail
        self.headers = headers
        self.errors = errors

    @classmethod
    def problem_type(cls) -> str:
        return TYPE_PREFIX + cls.slug


class NotFound(MemlaneError):
    status, slug, title = 404, "not-found", "Not found"


class Unauthorized(MemlaneError):
    status, slug, title = 401, "unauthorized", "Missing or invalid API key"


class Forbidden(MemlaneError):
    status, slug, title = 403, "forbidden", "This key may not do that"


class InsufficientScope(Forbidden):
    """The key is valid but lacks the scope the route declares (docs/api-keys.md)."""

    slug, title = "insufficient-scope", "This key lacks the scope this route needs"


class Conflict(MemlaneError):
    status, slug, title = 409, "conflict", "Conflict"


class LastKeyManager(Conflict):
    """Revoking this key would leave its tenant without a key that can manage keys."""

    slug, title = "last-key-manager", "The tenant's last key with keys:manage cannot be revoked"


class SessionEnded(Conflict):
    """The session was ended (POST …/sessions/{id}/end): it takes no more turns or
    session-scoped writes; a new conversation uses a new session id."""

    slug, title = "session-ended", "The session has ended"


class IdempotencyKeyReused(MemlaneError):
    status, slug, title = 409, "idempotency-key-reused", "Idempotency-Key reused with another body"


class PayloadTooLarge(MemlaneError):
    status, slug, title = 413, "payload-too-large", "Request body too large"


class UnsupportedEncoding(MemlaneError):
    """A body sent compressed (``Content-Encoding`` other than ``identity``): bodies are read
    as sent, so it is refused rather than read as text."""

    status, slug, title = 415, "unsupported-encoding", "Unsupported Content-Encoding"


class InvalidRequest(MemlaneError):
    status, slug, title = 422, "validation-error", "The request is not valid"


class SecretInName(InvalidRequest):
    """A message's ``name`` holds what Memlane seals in content (a card number, a key…): a
    name is stored in clear, so it is refused rather than kept."""

    slug, title = "secret-in-name", "A name holds a sensitive value"


class UnknownFilter(InvalidRequest):
    """A list request named a query parameter that is not one of the list's filters."""

    slug, title = "unknown-filter", "Unknown filter"


class UnsupportedSchemaVersion(InvalidRequest):
    """An import document of a ``schema_version`` this server cannot read."""

    slug, title = "unsupported-schema-version", "Unsupported schema version"


class TooManyRequests(MemlaneError):
    """The key's request budget is spent; ``Retry-After`` says when to come back."""

    status, slug, title = 429, "rate-limited", "Too many requests"


class ServiceUnavailable(MemlaneError):
    status, slug, title = 503, "service-unavailable", "A dependency is unavailable"


def problem_response(
    request: Request,
    *,
    status: int,
    slug: str,
    title: str,
    detail: str | None = None,
    errors: list[dict[str, Any]] | None = None,
    headers: dict[str, str] | None = None,
) -> JSONResponse:
    body = Problem(
        type=TYPE_PREFIX + slug,
        title=title,
        status=status,
        detail=detail,
        instance=request.url.path,
        request_id=getattr(request.state, "request_id", None),
        errors=errors,
    )
    return JSONResponse(
        body.model_dump(exclude_none=True),
        status_code=status,
        media_type=PROBLEM_JSON,
        headers=headers,
    )


def error_responses(*errors: type[MemlaneError]) -> dict[int | str, dict[str, Any]]:
    """``responses=`` for a route: each listed error documented as problem+json."""
    out: dict[int | str, dict[str, Any]] = {}
    err: type[MemlaneError]
    for err in (*errors, InvalidRequest):
        # "model" registers the Problem schema; problem_json_errors() moves it to the
        # media type the responses really have.
        out[err.status] = {
            "model": Problem,
            "description": err.title,
            "content": {PROBLEM_JSON: {}},
        }
    return out


def problem_json_errors(document: dict[str, Any]) -> dict[str, Any]:
    """The OpenAPI document with every error response's schema under
    ``application/problem+json`` (FastAPI files a response model under application/json)."""
    for path in document.get("paths", {}).values():
        for operation in path.values():
            for response in operation.get("responses", {}).values():
                content = response.get("content", {})
                if PROBLEM_JSON in content and "application/json" in content:
                    content[PROBLEM_JSON] = content.pop("application/json")
    return document


DB_RETRY_AFTER_S = 5


def _unavailable(request: Request) -> JSONResponse:
    return problem_response(
        request,
        status=503,
        slug=ServiceUnavailable.slug,
        title=ServiceUnavailable.title,
        detail="the database is unreachable; retry shortly",
        headers={"Retry-After": str(DB_RETRY_AFTER_S)},
    )


# FastAPI's detail when decoding a JSON body raised something else than a JSONDecodeError.
BODY_PARSE_ERROR = "There was an error parsing the body"

_STATUS_SLUGS = {
    401: ("unauthorized", "Missing or invalid API key"),
    404: ("not-found", "Not found"),
    405: ("method-not-allowed", "Method not allowed"),
    413: ("payload-too-large", "Request body too large"),
}


def _allowed_methods(request: Request) -> list[str]:
    """Every method some route of the app serves at the request's path (RFC 9110 §15.5.6:
    a 405's ``Allow`` lists them all; Starlette names only the first route's)."""
    routes = request.app.router.routes
    return [
        method
        for method in ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE")
        if any(r.matches({**request.scope, "method": method})[0] is Match.FULL for r in routes)
    ]


def install_error_handlers(app: FastAPI) -> None:
    """Register the handlers: MemlaneError, validation errors, HTTP errors, anything else."""

    @app.exception_handler(MemlaneError)
    async def _memlane(request: Request, exc: MemlaneError) -> JSONResponse:
        return problem_response(
            request,
            status=exc.status,
            slug=exc.slug,
            title=exc.title,
            detail=exc.detail,
            headers=exc.headers,
            errors=exc.errors,
        )

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = [
            {
                "loc": list(e.get("loc", ())),
                "msg": str(e.get("msg", "")),
                "type": str(e.get("type", "")),
            }
            for e in exc.errors()
        ]
        first = errors[0] if errors else None
        detail = f"{'.'.join(str(p) for p in first['loc'])}: {first['msg']}" if first else None
        if first and first["type"] == "json_invalid":
            # "body.11: JSON decode error" says little: where, and what the decoder expected
            at = first["loc"][1] if len(first["loc"]) > 1 else "?"
            why = (exc.errors()[0].get("ctx") or {}).get("error", "")
            detail = f"the request body is not valid JSON (at character {at}: {why or 'malformed'})"
        return problem_response(
            request,
            status=422,
            slug=InvalidRequest.slug,
            title=InvalidRequest.title,
            detail=detail,
            errors=errors,
        )

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 400 and exc.detail == BODY_PARSE_ERROR:
            # A body that is JSON but cannot be decoded into values (an integer of more than
            # 4300 digits, Python's int limit) is invalid input like malformed JSON: 422.
            return problem_response(
                request,
                status=422,
                slug=InvalidRequest.slug,
                title=InvalidRequest.title,
                detail="body: the request body cannot be decoded (e.g. an integer of more "
                "than 4300 digits)",
            )
        slug, title = _STATUS_SLUGS.get(exc.status_code, ("http-error", "HTTP error"))
        headers = getattr(exc, "headers", None)
        if exc.status_code == 405:
            headers = {**(headers or {}), "Allow": ", ".join(_allowed_methods(request))}
        return problem_response(
            request,
            status=exc.status_code,
            slug=slug,
            title=title,
            detail=str(exc.detail) if exc.detail else None,
            headers=headers,
        )

    @app.exception_handler(DBAPIError)
    async def _database(request: Request, exc: DBAPIError) -> JSONResponse:
        sqlstate = str(getattr(exc.orig, "sqlstate", "") or getattr(exc.orig, "pgcode", "") or "")
        if sqlstate.startswith("22"):
            # data exception: a value the database cannot hold (out-of-range time, …)
            return problem_response(
                request,
                status=422,
                slug=InvalidRequest.slug,
                title=InvalidRequest.title,
                detail="a value in the request cannot be stored (out of range or malformed)",
            )
        if exc.connection_invalidated or sqlstate[:2] in ("08", "57") or not sqlstate:
            return _unavailable(request)
        log.exception("database error", extra={"path": request.url.path, "sqlstate": sqlstate})
        return problem_response(request, status=500, slug="internal-error", title="Internal error")

    @app.exception_handler(OSError)
    async def _connection(request: Request, exc: OSError) -> JSONResponse:
        log.warning(
            "database unreachable", extra={"path": request.url.path, "error": type(exc).__name__}
        )
        return _unavailable(request)

    @app.exception_handler(Exception)
    async def _unknown(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unhandled error", extra={"path": request.url.path})
        return problem_response(request, status=500, slug="internal-error", title="Internal error")
