"""Test fixtures: one real embedded PostgreSQL + pgvector per run, migrated once; each test
gets its own tenant, so tests never see each other's rows."""

from __future__ import annotations

import asyncio
import os
import tempfile
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

from app.config import Settings
from app.db.embedded import start_embedded
from app.db.setup import Database, migrate

ADMIN_KEY = "mla_test-admin-key-" + uuid.uuid4().hex


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> object:
    """A failing test's report shows what the service answered to each turn its tenants sent
    (the memories formed and the arbitration rules applied), so a failure seen once can be
    read without running it again."""
    report = yield
    if report.failed and call.when == "call":
        funcargs = getattr(item, "funcargs", {})
        lines = []
        for ctx in funcargs.values():
            for said, answer in getattr(ctx, "answers", []) if isinstance(ctx, TenantCtx) else []:
                arbitrations = [
                    (a.get("rule"), a.get("outcome"), a.get("reason"))
                    for a in answer.get("arbitrations", [])
                ]
                formed = [
                    (m.get("type"), m.get("key"), m.get("value"), m.get("status"))
                    for m in answer.get("memories", [])
                ]
                lines.append(f"{said}\n  formed: {formed}\n  arbitrations: {arbitrations}")
        if lines:
            report.sections.append(("what the service answered", "\n".join(lines)))
    return report


@pytest.fixture(scope="session")
def data_dir() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="memlane-test-") as d:
        yield Path(d)


@pytest.fixture(scope="session")
def database(data_dir: Path) -> Iterator[Database]:
    pg = start_embedded(data_dir)
    migrate(pg.owner_url)
    yield Database(owner_url=pg.owner_url, embedded=pg)
    pg.stop()


@pytest.fixture(scope="session")
def settings(data_dir: Path) -> Settings:
    return Settings(
        data_dir=data_dir,
        admin_key=ADMIN_KEY,
        job_retry_initial_delay_s=0.2,
        job_max_attempts=3,
        _env_file=None,  # type: ignore[call-arg]
    )


@pytest.fixture(scope="session")
async def app(settings: Settings, database: Database) -> AsyncIterator[object]:
    from app.main import create_app

    application = create_app(settings, database)
    async with application.router.lifespan_context(application):
        yield application


@pytest.fixture(scope="session")
async def client(app: object) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=app)  # type: ignore[arg-type]
    async with httpx.AsyncClient(
        transport=transport, base_url="http://memlane.test", timeout=60
    ) as c:
        yield c


@pytest.fixture
def admin_headers() -> dict[str, str]:
    return {"Authorization": f"Bearer {ADMIN_KEY}"}


@dataclass
class TenantCtx:
    id: str
    key: str
    client: httpx.AsyncClient
    # what each turn sent through ``say`` was answered with (the job's memories and
    # arbitrations), printed with a failing test's report (``pytest_runtest_makereport``)
    answers: list[tuple[str, dict]] = field(default_factory=list)

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.key}"}

    def user(self, user_id: str) -> str:
        return f"/v1/tenants/{self.id}/users/{user_id}"

    async def remember(self, user_id: str, content: str, **fields: object) -> dict:
        r = await self.client.post(
            f"{self.user(user_id)}/memories?wait=true",
            json={"content": content, **fields},
            headers=self.headers,
        )
        assert r.status_code == 201, r.text
        return r.json()

    async def memories(self, user_id: str, **params: object) -> list[dict]:
        """The user's memories as ``GET …/memories`` lists them (``params``: key, status, …),
        episodes left out."""
        r = await self.client.get(
            f"{self.user(user_id)}/memories", params=params, headers=self.headers
        )
        assert r.status_code == 200, r.text
        return [m for m in r.json()["items"] if m["type"] != "episode"]

    async def values(
        self, user_id: str, key: str, status: str = "active", *, lower: bool = False
    ) -> list[str]:
        """The values of the user's memories of ``key`` in ``status``, sorted (lower-cased
        with ``lower``); a memory with no value (a withdrawal's record) is left out."""
        found = [m["value"] for m in await self.memories(user_id, key=key, status=status)]
        return sorted(v.lower() if lower else v for v in found if v is not None)

    async def change(
        self, user_id: str, turns: tuple[str, str], key: str, *, at: tuple[str, str]
    ) -> tuple[list[str], list[str]]:
        """Say ``turns`` (a statement, then what the user says next) in one session at the
        times ``at``; -> the lower-cased values of ``key`` then active, and frozen."""
        for text, when in zip(turns, at, strict=True):
            await self.say(user_id, "s1", text, at=when)
        return (
            await self.values(user_id, key, lower=True),
            await self.values(user_id, key, "frozen", lower=True),
        )

    async def facts(self, user_id: str) -> list[tuple[str | None, str | None]]:
        """``(key, value)`` of every active memory of the user (episodes left out), sorted."""
        return sorted(
            ((m["key"], m["value"]) for m in await self.memories(user_id, status="active")),
            key=repr,
        )

    async def finished_job(self, job_id: str) -> dict:
        """``GET /v1/jobs/{job_id}`` once the job is done or failed (polled for up to 10 s)."""
        for _ in range(200):
            r = await self.client.get(f"/v1/jobs/{job_id}", headers=self.headers)
            assert r.status_code == 200, r.text
            if r.json()["status"] in ("done", "failed"):
                break
            await asyncio.sleep(0.05)
        return r.json()

    async def recall(self, user_id: str, query: str, **fields: object) -> dict:
        r = await self.client.post(
            f"{self.user(user_id)}/recall", json={"query": query, **fields}, headers=self.headers
        )
        assert r.status_code == 200, r.text
        return r.json()

    async def say(
        self,
        user_id: str,
        session_id: str,
        *texts: str,
        at: str | None = None,
        task_id: str | None = None,
    ) -> dict:
        messages = [
            {"role": "user", "content": t, **({"occurred_at": at} if at else {})} for t in texts
        ]
        body: dict[str, object] = {"messages": messages}
        if task_id:
            body["task_id"] = task_id
        r = await self.client.post(
            f"{self.user(user_id)}/sessions/{session_id}/messages?wait=true",
            json=body,
            headers=self.headers,
        )
        assert r.status_code == 201, r.text
        self.answers.append((f"{user_id}/{session_id}: {' | '.join(texts)}", r.json()))
        return r.json()


async def new_tenant(client: httpx.AsyncClient, name: str = "t") -> TenantCtx:
    r = await client.post(
        "/v1/tenants", json={"name": name}, headers={"Authorization": f"Bearer {ADMIN_KEY}"}
    )
    assert r.status_code == 201, r.text
    body = r.json()
    return TenantCtx(id=body["id"], key=body["api_key"], client=client)


@pytest.fixture
async def tenant(client: httpx.AsyncClient) -> TenantCtx:
    return await new_tenant(client, "tenant-a")


@pytest.fixture
async def other_tenant(client: httpx.AsyncClient) -> TenantCtx:
    return await new_tenant(client, "tenant-b")


os.environ.setdefault("MEMLANE_LOG_LEVEL", "WARNING")
