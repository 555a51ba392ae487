"""create_app(): lifespan, routers, error handlers — nothing else."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import Depends, FastAPI
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline

from app import health
from app.auth import endpoints as auth_endpoints
from app.auth.admin import resolve_admin_key
from app.config import Settings, get_settings
from app.db.session import create_engine, create_sessionmaker
from app.db.setup import Database, locate_database
from app.ingest import endpoints as ingest_endpoints
from app.ingest.extraction.factory import build_extractor
from app.jobs import endpoints as job_endpoints
from app.jobs.monitor import Monitor
from app.jobs.waiting import WAITER_KEY, JobWaiter
from app.jobs.worker import Worker
from app.kit.errors import install_error_handlers, problem_json_errors
from app.kit.middleware import RequestContextMiddleware
from app.kit.ratelimit import RATE_LIMITED_RESPONSES, build_rate_limiter
from app.lifecycle.forget import ForgetScheduler
from app.mcp import mcp_sessions, mount_mcp
from app.memories import endpoints as memory_endpoints
from app.portability import endpoints as portability_endpoints
from app.privacy import endpoints as privacy_endpoints
from app.providers.embeddings import build_embedder
from app.providers.rerank import build_reranker
from app.recall import endpoints as recall_endpoints
from app.recall.access import AccessRecorder
from app.recall.rerank import RERANKER_KEY
from app.runtime import Runtime
from app.tasks import endpoints as task_endpoints
from app.tenantwide import endpoints as tenantwide_endpoints
from app.users import endpoints as user_endpoints
from app.vault import endpoints as vault_endpoints

log = logging.getLogger(__name__)

# Job handlers register themselves on import.
import app.ingest.tasks  # noqa: E402
import app.ingest.window  # noqa: E402
import app.memories.tasks  # noqa: E402, F401


async def build_runtime(settings: Settings, database: Database | None) -> Runtime:
    """Engine, providers and background helpers of one process."""
    db = database or locate_database(settings)
    engine = create_engine(db.app_url(settings), pool_size=settings.db_pool_size)
    rt = Runtime(
        settings=settings,
        engine=engine,
        sessionmaker=create_sessionmaker(engine),
        embedder=build_embedder(settings),
        extractor=build_extractor(settings),
        admin_key=resolve_admin_key(settings),
        asyncpg_dsn=db.app_dsn(settings),
    )
    reranker = build_reranker(settings)
    if reranker is not None:
        rt.extras[RERANKER_KEY] = reranker
    access = AccessRecorder(rt)
    rt.extras["access"] = access
    await access.start()
    rt.extras["worker"] = Worker(rt)
    rt.extras[WAITER_KEY] = JobWaiter(rt.asyncpg_dsn)
    monitor = Monitor(rt)
    rt.extras["monitor"] = monitor
    await monitor.start()
    if settings.run_worker:
        # Forgetting runs where queue workers run (`memlane serve`, `memlane worker`).
        forgetting = ForgetScheduler(rt)
        rt.extras["forgetting"] = forgetting
        await forgetting.start()
    return rt


async def close_runtime(rt: Runtime) -> None:
    if "forgetting" in rt.extras:
        await rt.extras["forgetting"].stop()
    await rt.extras["worker"].stop()
    await rt.extras[WAITER_KEY].close()
    await rt.extras["monitor"].stop()
    await rt.extras["access"].stop()
    for closeable in (rt.embedder, rt.extractor, rt.extras.get(RERANKER_KEY)):
        aclose = getattr(closeable, "aclose", None)
        if aclose is not None:
            await aclose()
    await rt.engine.dispose()


ROUTERS = (
    health.router,
    auth_endpoints.router,
    memory_endpoints.router,
    recall_endpoints.router,
    ingest_endpoints.router,
    task_endpoints.router,
    job_endpoints.router,
    portability_endpoints.router,
    privacy_endpoints.router,
    user_endpoints.router,
    tenantwide_endpoints.router,
)


def create_app(settings: Settings | None = None, database: Database | None = None) -> FastAPI:
    """The ASGI app. ``database`` defaults to the configured or embedded server."""
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        rt = await build_runtime(settings, database)
        app.state.memlane = rt
        if settings.run_worker:
            await rt.extras["worker"].start()
        try:
            async with mcp_sessions(app):
                yield
        finally:
            await close_runtime(rt)

    # Swagger UI and ReDoc from assets packaged with fastapi-offline (no CDN): /docs, /redoc.
    app = FastAPIOffline(
        title="Memlane",
        version="0.1.0",
        summary="Long-term and short-term memory for AI agents",
        lifespan=lifespan,
        # operationId = the endpoint's name (create_memory, recall, …): stable, readable
        # method names in generated clients.
        generate_unique_id_function=lambda route: route.name,
    )
    install_error_handlers(app)

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = problem_json_errors(FastAPI.openapi(app))
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    app.add_middleware(
        RequestContextMiddleware,
        max_body_bytes=settings.max_body_bytes,
        max_import_bytes=settings.max_import_bytes,
    )
    # Per-key rate limit on every authenticated router (app/kit/ratelimit.py); the 429 is
    # documented even when the limit is off, as a deployment may turn it on.
    limiter = build_rate_limiter(settings.rate_limit_per_minute)
    app.state.rate_limiter = limiter  # the vault counts its requests in the same buckets
    for router in ROUTERS:
        for route in router.routes:
            # The one-line endpoint docstring is the operation's summary (CONVENTIONS.md); a
            # route that needs more says it in its own ``description=``, which is kept.
            if isinstance(route, APIRoute) and route.summary is None and route.description:
                doc = (route.endpoint.__doc__ or "").strip()
                route.summary = (doc or route.description.strip()).splitlines()[0]
                if not doc or route.description.strip() == doc:
                    route.description = ""
        if router is health.router:
            app.include_router(router)
        else:
            app.include_router(
                router,
                dependencies=[Depends(limiter)] if limiter is not None else None,
                responses=RATE_LIMITED_RESPONSES,
            )
    if settings.vault_enabled:
        # The vault (docs/vault.md): server-rendered pages; it rate-limits itself by key.
        app.include_router(vault_endpoints.router)
        app.mount(
            "/vault/static",
            StaticFiles(directory=vault_endpoints.STATIC_DIR),
            name="vault-static",
        )
    mount_mcp(app)  # /mcp: the MCP tools over the REST routes above (docs/mcp.md)
    return app
