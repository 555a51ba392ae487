"""The vault's pages over ASGI: sign-in, CSRF, headers, escaping, isolation."""

from __future__ import annotations

import re

import httpx

from tests.conftest import TenantCtx

HTML = "text/html; charset=utf-8"


def csrf_of(html: str) -> str:
    match = re.search(r'name="csrf" value="([^"]+)"', html)
    assert match is not None, html
    return match.group(1)


async def sign_in(client: httpx.AsyncClient, api_key: str) -> httpx.Response:
    page = await client.get("/vault/login")
    assert page.status_code == 200
    return await client.post(
        "/vault/login",
        data={"csrf": csrf_of(page.text), "api_key": api_key},
    )


async def vault_client(app: object) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app),  # type: ignore[arg-type]
        base_url="http://memlane.test",
        timeout=60,
    )


async def test_sign_in_sets_a_sealed_session_and_shows_the_users(
    app: object, tenant: TenantCtx
) -> None:
    await tenant.remember("ann", "I live in Berlin")
    async with await vault_client(app) as client:
        r = await client.get("/vault")
        assert (r.status_code, r.headers["location"]) == (303, "/vault/login")
        r = await sign_in(client, tenant.key)
        assert (r.status_code, r.headers["location"]) == (303, "/vault"), r.text
        cookie = r.headers["set-cookie"]
        assert "httponly" in cookie.lower() and "samesite=strict" in cookie.lower()
        assert tenant.key not in cookie
        r = await client.get("/vault")
        assert r.status_code == 200, r.text
        assert r.headers["content-type"] == HTML
        assert "ann" in r.text
