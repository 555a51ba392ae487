"""The ``memlane`` command: serve, worker, migrate, openapi."""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import signal
import sys
from pathlib import Path

from app.config import get_settings
from app.kit.logs import configure_logging

log = logging.getLogger("memlane")
OPENAPI_PATH = Path("openapi/openapi.json")


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from app.db.setup import locate_database, migrate
    from app.main import create_app

    settings = get_settings()
    if args.no_worker:
        settings.run_worker = False
    db = locate_database(settings)
    migrate(db.owner_url)
    app = create_app(settings, db)
    try:
        uvicorn.run(
            app,
            host=args.host or settings.host,
            port=args.port or settings.port,
            log_config=None,
            access_log=False,
            timeout_graceful_shutdown=10,
        )
    finally:
        if db.embedded is not None:
            log.info("stopping embedded postgres")
            db.embedded.stop()
    return 0


def _worker(args: argparse.Namespace) -> int:
    """Queue workers alone, no HTTP: scale them apart from the API."""
    from app.main import build_runtime, close_runtime

    settings = get_settings()

    async def run() -> None:
        rt = await build_runtime(settings, None)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await rt.extras["worker"].start()
        log.info("worker running")
        await stop.wait()
        await close_runtime(rt)

    asyncio.run(run())
    return 0


def _migrate(args: argparse.Namespace) -> int:
    from app.db.setup import locate_database, migrate

    db = locate_database(get_settings())
    migrate(db.owner_url)
    print("database is at the latest migration")
    return 0


def _openapi(args: argparse.Namespace) -> int:
    from app.main import create_app

    document = json.dumps(create_app().openapi(), indent=2, ensure_ascii=False) + "\n"
    if args.check:
        current = OPENAPI_PATH.read_text() if OPENAPI_PATH.exists() else ""
        if current != document:
            print(f"{OPENAPI_PATH} is out of date: run `memlane openapi`", file=sys.stderr)
            return 1
        return 0
    OPENAPI_PATH.parent.mkdir(parents=True, exist_ok=True)
    OPENAPI_PATH.write_text(document)
    print(f"wrote {OPENAPI_PATH}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="memlane", description="Memory service for AI agents")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser(
        "serve", help="run the API (and workers) on the configured or embedded database"
    )
    serve.add_argument("--host", default=None)
    serve.add_argument("--port", type=int, default=None)
    serve.add_argument(
        "--no-worker", action="store_true", help="run no queue workers in this process"
    )
    serve.set_defaults(fn=_serve)
    worker = sub.add_parser("worker", help="run queue workers only")
    worker.set_defaults(fn=_worker)
    migrate = sub.add_parser("migrate", help="apply database migrations")
    migrate.set_defaults(fn=_migrate)
    openapi = sub.add_parser("openapi", help="write openapi/openapi.json")
    openapi.add_argument("--check", action="store_true", help="fail if the committed file drifted")
    openapi.set_defaults(fn=_openapi)
    args = parser.parse_args(argv)
    configure_logging(get_settings().log_level)
    return int(args.fn(args))


if __name__ == "__main__":
    sys.exit(main())
