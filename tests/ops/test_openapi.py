"""The committed OpenAPI document is the app's, and every route documents itself."""

from __future__ import annotations

import json
from pathlib import Path

from fastapi.routing import APIRoute

from app.main import create_app

COMMITTED = Path(__file__).resolve().parents[2] / "openapi" / "openapi.json"


def test_committed_openapi_matches_the_app() -> None:
    generated = create_app().openapi()
    assert json.loads(COMMITTED.read_text()) == generated, "openapi drifted: run `memlane openapi`"


def test_every_route_has_a_summary_and_problem_responses() -> None:
    from app.main import ROUTERS

    doc = create_app().openapi()
    docstrings = {
        (m.lower(), r.path): (r.endpoint.__doc__ or "").strip()
        for router in ROUTERS
        for r in router.routes
        if isinstance(r, APIRoute)
        for m in r.methods
    }
    for path, methods in doc["paths"].items():
        for method, op in methods.items():
            assert docstrings[(method, path)], f"{method.upper()} {path} has no docstring"
            assert op.get("summary") == docstrings[(method, path)], f"{method.upper()} {path}"
            if path.startswith("/v1/"):
                assert "401" in op["responses"], f"{method.upper()} {path} does not declare 401"
                assert "application/problem+json" in op["responses"]["422"]["content"]
