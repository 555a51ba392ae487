"""Rate limiting per API key: a fresh app with a tight limit, on the tests' database."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import httpx
import pytest

from app.config import PRODUCTION_RATE_LIMIT_PER_MINUTE, Settings
from app.db.setup import Database
from app.kit.ratelimit import KeyRateLimiter
from tests.conftest import ADMIN_KEY, TenantCtx, new_tenant

LIMIT = 3
PROBLEM_JSON = "application/problem+json"


@pytest.fixture(scope="module")
async def limited(settings: Settings, database: Database) -> AsyncIterator[httpx.AsyncClient]:
    """A second app instance on the same database, allowing LIMIT requests per key a minute."""
    from app.main import create_app

    tight = settings.model_copy(update={"rate_limit_per_minute": LIMIT, "run_worker": False})
    app = create_app(tight, database)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://limited.test") as c:
            yield c


def assert_rate_limited(r: httpx.Response) -> int:
    """A 429 problem+json; returns its Retry-After in seconds."""
    assert r.status_code == 429, r.text
    assert r.headers["content-type"] == PROBLEM_JSON
    body = r.json()
    assert body["type"] == "urn:memlane:problem:rate-limited" and body["status"] == 429
    retry_after = int(r.headers["retry-after"])
    assert 1 <= retry_after <= 60
    return retry_after


async def test_the_request_after_the_limit_is_429_and_other_keys_go_on(
    limited: httpx.AsyncClient, client: httpx.AsyncClient
) -> None:
    a: TenantCtx = await new_tenant(client, "limited-a")
    b: TenantCtx = await new_tenant(client, "limited-b")
    second = await client.post(f"/v1/tenants/{a.id}/keys", json={"name": "2nd"}, headers=a.headers)
    a2 = {"Authorization": f"Bearer {second.json()['api_key']}"}
    url = f"{a.user('alice')}/memories"

    for _ in range(LIMIT):
        assert (await limited.get(url, headers=a.headers)).status_code == 200
    assert_rate_limited(await limited.get(url, headers=a.headers))
    # any route, any method: the budget is the key's
    assert_rate_limited(
        await limited.post(f"{a.user('bob')}/recall", json={"query": "x"}, headers=a.headers)
    )

    # another key of the same tenant, another tenant's key, the admin key: their own budgets
    assert (await limited.get(url, headers=a2)).status_code == 200
    assert (await limited.get(f"{b.user('alice')}/memories", headers=b.headers)).status_code == 200
    admin = {"Authorization": f"Bearer {ADMIN_KEY}"}
    assert (await limited.get("/v1/tenants", headers=admin)).status_code == 200


async def test_unauthenticated_and_health_routes_are_not_limited(
    limited: httpx.AsyncClient, client: httpx.AsyncClient
) -> None:
    for _ in range(LIMIT + 2):
        assert (await limited.get("/healthz")).status_code == 200
        assert (await limited.get("/readyz")).status_code in (200, 503)  # no worker here
        assert (await limited.get("/metrics")).status_code == 200
        # a bad key is refused before it is counted: always 401, never 429
        bad = {"Authorization": "Bearer mlk_" + uuid.uuid4().hex}
        assert (await limited.get("/v1/jobs/" + str(uuid.uuid4()), headers=bad)).status_code == 401


async def test_off_by_default_in_development_on_in_production(
    settings: Settings, client: httpx.AsyncClient, tenant: TenantCtx
) -> None:
    assert not settings.rate_limit_per_minute
    assert Settings(_env_file=None).rate_limit_per_minute is None  # type: ignore[call-arg]
    production = {
        "env": "production",
        "admin_key": "a" * 32,
        "database_url": "postgresql+asyncpg://memlane@db/memlane",
        "encryption_key": "A" * 43 + "=",
        "metrics_token": "m" * 32,
        "_env_file": None,
    }
    assert Settings(**production).rate_limit_per_minute == PRODUCTION_RATE_LIMIT_PER_MINUTE
    assert Settings(**production, rate_limit_per_minute=0).rate_limit_per_minute == 0
    assert Settings(**production, rate_limit_per_minute=30).rate_limit_per_minute == 30
    # the tests' app: many requests with one key, never a 429
    for _ in range(20):
        r = await client.get(f"{tenant.user('u')}/memories", headers=tenant.headers)
        assert r.status_code == 200


async def test_the_limiter_counts_a_moving_window_per_principal() -> None:
    from app.auth.principal import Principal
    from app.kit.errors import TooManyRequests

    limiter = KeyRateLimiter(2)
    key = Principal(kind="tenant", tenant_id=uuid.uuid4(), key_id=uuid.uuid4())
    other = Principal(kind="tenant", tenant_id=key.tenant_id, key_id=uuid.uuid4())
    await limiter.hit(key)
    await limiter.hit(key)
    with pytest.raises(TooManyRequests) as refused:
        await limiter.hit(key)
    assert refused.value.headers is not None
    assert 59 <= int(refused.value.headers["Retry-After"]) <= 60
    await limiter.hit(other)
    await limiter.hit(Principal(kind="admin"))
    assert KeyRateLimiter.bucket(Principal(kind="admin")) == "admin"
