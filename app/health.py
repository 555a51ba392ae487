"""Liveness and readiness: cheap, unauthenticated, revealing nothing else."""

from __future__ import annotations

import asyncio
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel
from sqlalchemy import text

from app.auth.keys import same_secret
from app.db.setup import current_revision, head_revision
from app.kit.deps import get_runtime
from app.kit.errors import Unauthorized
from app.kit.metrics import exposition
from app.runtime import Runtime

router = APIRouter(tags=["health"])
READY_TIMEOUT_S = 2.0


class Health(BaseModel):
    status: Literal["ok", "unavailable"]
    checks: dict[str, bool] = {}


@router.get("/healthz", response_model=Health)
async def healthz() -> Health:
    """The process is alive."""
    return Health(status="ok")


@router.get(
    "/metrics",
    response_class=Response,
    responses={200: {"content": {"text/plain": {}}, "description": "Prometheus exposition"}},
)
async def metrics(rt: Annotated[Runtime, Depends(get_runtime)], request: Request) -> Response:
    """Prometheus metrics of this process (all processes in multiprocess mode)."""
    token = rt.settings.metrics_token
    if token is not None:
        sent = request.headers.get("authorization", "").removeprefix("Bearer ").strip()
        if not same_secret(sent, token.get_secret_value()):
            raise Unauthorized(
                "this /metrics needs the metrics token", headers={"WWW-Authenticate": "Bearer"}
            )
    body, content_type = exposition()
    return Response(body, media_type=content_type)


@router.get("/readyz", response_model=Health, responses={503: {"model": Health}})
async def readyz(rt: Annotated[Runtime, Depends(get_runtime)]) -> JSONResponse:
    """Ready to serve: database reachable, migrations at head, queue worker alive."""
    checks = {"database": False, "migrations": False, "worker": False}
    try:
        async with asyncio.timeout(READY_TIMEOUT_S):
            async with rt.engine.connect() as conn:
                await conn.execute(text("SELECT 1"))
            checks["database"] = True
            checks["migrations"] = await current_revision(rt.engine) == head_revision()
    except Exception:
        pass
    worker = rt.extras.get("worker")
    checks["worker"] = worker is not None and worker.alive if rt.settings.run_worker else True
    ok = all(checks.values())
    body = Health(status="ok" if ok else "unavailable", checks=checks)
    return JSONResponse(body.model_dump(), status_code=200 if ok else 503)
