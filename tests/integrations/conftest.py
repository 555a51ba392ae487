"""One real `memlane serve` (embedded PostgreSQL) for the SDK, LangGraph, MCP and README tests;
each test gets its own tenant, so tests never see each other's rows."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from memlane_client import Memlane
from memlane_client.models import TenantCreated

from tests.e2e.server import ServeProcess

# These tests are about the clients, so recall must be semantic even on a loaded machine: past
# the default 2 s to embed a query, recall answers from full-text search alone (degraded), and
# "where do I live?" shares no word with "I moved to Porto".
SERVE_ENV = {"MEMLANE_RECALL_EMBED_TIMEOUT_S": "30"}


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    proc = ServeProcess(Path(tmp_path_factory.mktemp("integrations")) / "memlane", env=SERVE_ENV)
    proc.start()
    yield proc
    assert proc.stop() == 0  # Ctrl-C after SDK, LangGraph and MCP traffic: a clean exit


@pytest.fixture
def admin(server: ServeProcess) -> Iterator[Memlane]:
    with Memlane(server.base_url, server.admin_key) as client:
        yield client


@pytest.fixture
def tenant(admin: Memlane) -> TenantCreated:
    return admin.create_tenant("integrations")


@pytest.fixture
def client(admin: Memlane, tenant: TenantCreated) -> Iterator[Memlane]:
    with admin.for_tenant(tenant) as c:
        yield c
