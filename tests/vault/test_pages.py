"""The vault's pages over ASGI: sign-in, CSRF, headers, escaping, isolation."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import aclosing

import httpx
import pytest

from app.config import Settings
from app.db.setup import Database
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


async def signed_in(app: object, api_key: str) -> tuple[httpx.AsyncClient, str]:
    """A client signed in with ``api_key`` and the CSRF token of its session."""
    client = await vault_client(app)
    r = await sign_in(client, api_key)
    assert r.status_code == 303 and r.headers["location"] == "/vault", r.text
    home = await client.get("/vault", follow_redirects=True)
    return client, csrf_of(home.text)


async def test_every_page_has_a_strict_policy_and_escapes_memory_text(
    app: object, tenant: TenantCtx
) -> None:
    await tenant.remember("ann", '<script>alert("x")</script><img src=x onerror=alert(1)>')
    client, _ = await signed_in(app, tenant.key)
    async with aclosing(client):
        for path in ("/vault", "/vault/users/ann", "/vault/login", "/vault/users/ann/erase"):
            r = await client.get(path)
            assert r.status_code == 200, (path, r.text)
            assert r.headers["content-security-policy"] == (
                "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
                "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
            )
            assert r.headers["x-frame-options"] == "DENY"
            assert r.headers["cache-control"] == "no-store"
            assert "<script>" not in r.text.replace(
                '<script src="/vault/static/vault.js" defer>', ""
            )
        r = await client.get("/vault/users/ann/memories/not-a-uuid")
        assert r.status_code == 422 and r.headers["content-type"] == HTML
        assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
        page = (await client.get("/vault/users/ann")).text
        assert (
            "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;"
            in page
        )
        js = await client.get("/vault/static/vault.js")
        assert js.status_code == 200 and "javascript" in js.headers["content-type"]


async def test_state_changes_need_the_sessions_csrf_token_and_the_same_origin(
    app: object, tenant: TenantCtx
) -> None:
    client, csrf = await signed_in(app, tenant.key)
    url = "/vault/users/ann/settings"
    async with aclosing(client):
        r = await client.post(url, data={"memory_mode": "paused"})
        assert r.status_code == 403
        r = await client.post(url, data={"memory_mode": "paused", "csrf": "x" * 43})
        assert r.status_code == 403
        r = await client.post(
            url,
            data={"memory_mode": "paused", "csrf": csrf},
            headers={"Origin": "https://evil.example"},
        )
        assert r.status_code == 403
        assert (
            await tenant.client.get(f"{tenant.user('ann')}/settings", headers=tenant.headers)
        ).json()["memory_mode"] == "full"
        r = await client.post(url, data={"memory_mode": "paused", "csrf": csrf})
        assert (r.status_code, r.headers["location"]) == (
            303,
            "/vault/users/ann?done=settings+saved",
        )
    r = await tenant.client.get(f"{tenant.user('ann')}/settings", headers=tenant.headers)
    assert r.json()["memory_mode"] == "paused"


async def test_sign_in_refuses_the_admin_key_unknown_keys_and_a_forged_cookie(
    app: object, tenant: TenantCtx, admin_headers: dict[str, str]
) -> None:
    async with await vault_client(app) as client:
        admin = admin_headers["Authorization"].split(" ", 1)[1]
        r = await sign_in(client, admin)
        assert "admin+key" in r.headers["location"]
        r = await sign_in(client, "mlk_" + "x" * 43)
        assert "unknown" in r.headers["location"]
        client.cookies.set("memlane_vault", "eyJub3QiOiAiYSBzZXNzaW9uIn0", path="/vault")
        r = await client.get("/vault")
        assert (r.status_code, r.headers["location"]) == (303, "/vault/login")


async def test_a_read_only_key_sees_but_cannot_change(app: object, tenant: TenantCtx) -> None:
    m = (await tenant.remember("ann", "I live in Berlin"))["memories"][0]
    r = await tenant.client.post(
        f"/v1/tenants/{tenant.id}/keys",
        json={"name": "reader", "scopes": ["memories:read"]},
        headers=tenant.headers,
    )
    client, csrf = await signed_in(app, r.json()["api_key"])
    async with aclosing(client):
        page = await client.get("/vault/users/ann")
        assert "I live in Berlin" in page.text and "correct-form" not in page.text
        r = await client.post(f"/vault/users/ann/memories/{m['id']}/delete", data={"csrf": csrf})
        assert r.status_code == 403 and "memories:write" in r.text
        r = await client.get("/vault/users/ann/erase")
        assert r.status_code == 403
    r = await tenant.client.get(f"{tenant.user('ann')}/memories/{m['id']}", headers=tenant.headers)
    assert r.json()["status"] == "active"


async def test_a_vault_link_is_bound_to_its_user(app: object, tenant: TenantCtx) -> None:
    await tenant.remember("ann", "Ann lives in Berlin")
    bob = (await tenant.remember("bob", "Bob lives in Rome"))["memories"][0]
    r = await tenant.client.post(
        f"/v1/tenants/{tenant.id}/keys",
        json={"user_id": "ann", "expires_in_s": 600},
        headers=tenant.headers,
    )
    link_key = r.json()["api_key"]
    async with await vault_client(app) as client:
        r = await client.get("/vault/link", params={"t": link_key})
        assert (r.status_code, r.headers["location"]) == (303, "/vault/users/ann")
        assert "Ann lives in Berlin" in (await client.get("/vault/users/ann")).text
        for path in (
            "/vault/users/bob",
            f"/vault/users/bob/memories/{bob['id']}",
            f"/vault/users/ann/memories/{bob['id']}",
            "/vault/users/bob/export",
        ):
            r = await client.get(path)
            assert r.status_code == 404, path
            assert "Rome" not in r.text
        assert (await client.get("/vault")).headers["location"] == "/vault/users/ann"
        csrf = csrf_of((await client.get("/vault/users/ann")).text)
        r = await client.post("/vault/users/ann/links", data={"csrf": csrf, "minutes": "5"})
        assert r.status_code == 403  # a link makes no links
    # A tenant-wide key is not a vault link.
    async with await vault_client(app) as client:
        r = await client.get("/vault/link", params={"t": tenant.key})
        assert r.status_code == 403
        r = await client.get("/vault/link", params={"t": "mlk_unknown"})
        assert r.status_code == 401


async def test_erase_needs_the_user_id_typed_again(app: object, tenant: TenantCtx) -> None:
    await tenant.remember("ann", "I live in Berlin")
    client, csrf = await signed_in(app, tenant.key)
    async with aclosing(client):
        r = await client.post(
            "/vault/users/ann/erase", data={"csrf": csrf, "confirm_user_id": "an"}
        )
        assert r.status_code == 422
        assert (
            len(
                (
                    await tenant.client.get(
                        f"{tenant.user('ann')}/memories", headers=tenant.headers
                    )
                ).json()["items"]
            )
            == 1
        )
        r = await client.post(
            "/vault/users/ann/erase", data={"csrf": csrf, "confirm_user_id": "ann"}
        )
        assert r.status_code == 200 and "ann was erased" in r.text
    r = await tenant.client.get(f"{tenant.user('ann')}/memories", headers=tenant.headers)
    assert r.json()["items"] == []


async def test_export_downloads_the_users_document(app: object, tenant: TenantCtx) -> None:
    await tenant.remember("ann", "I live in Berlin")
    client, _ = await signed_in(app, tenant.key)
    async with aclosing(client):
        r = await client.get("/vault/users/ann/export")
    assert r.status_code == 200
    assert r.headers["content-disposition"] == 'attachment; filename="memlane-ann.json"'
    doc = r.json()
    assert [m["content"] for m in doc["memories"]] == ["I live in Berlin"]
    assert doc["settings"] == {"memory_mode": "full", "retention_days": None}


@pytest.fixture(scope="module")
async def tight_app(settings: Settings, database: Database) -> AsyncIterator[object]:
    """A second app on the same database: 2 sign-ins per address and 4 requests per key a
    minute."""
    from app.main import create_app

    tight = settings.model_copy(
        update={"rate_limit_per_minute": 4, "vault_sign_in_per_minute": 2, "run_worker": False}
    )
    application = create_app(tight, database)
    async with application.router.lifespan_context(application):
        yield application


async def test_sign_in_and_pages_are_rate_limited(tight_app: object, tenant: TenantCtx) -> None:
    async with await vault_client(tight_app) as client:
        assert (await sign_in(client, "mlk_wrong")).status_code == 303
        assert (await sign_in(client, tenant.key)).status_code == 303
        r = await sign_in(client, tenant.key)
        assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
        statuses = [(await client.get("/vault/users/ann")).status_code for _ in range(5)]
        assert statuses == [200, 200, 200, 200, 429]


async def test_secrets_are_masked_and_the_reveal_is_audited(app: object, tenant: TenantCtx) -> None:
    secret_id = "440301199003071230"
    body = await tenant.say("ann", "s1", f"我的身份证号是 {secret_id}，帮我记一下。")
    [m] = [x for x in body["memories"] if x["secrets"]]
    client, csrf = await signed_in(app, tenant.key)
    async with aclosing(client):
        page = await client.get("/vault/users/ann")
        assert secret_id not in page.text and "**************1230" in page.text
        memory_page = await client.get(f"/vault/users/ann/memories/{m['id']}")
        assert secret_id not in memory_page.text and 'data-testid="reveal"' in memory_page.text
        r = await client.post(f"/vault/users/ann/memories/{m['id']}/reveal", data={"csrf": csrf})
        assert r.status_code == 200 and f"<code>{secret_id}</code>" in r.text
        again = await client.get(f"/vault/users/ann/memories/{m['id']}")
        assert secret_id not in again.text and "reveal" in again.text
    hist = await tenant.client.get(
        f"{tenant.user('ann')}/memories/{m['id']}/history", headers=tenant.headers
    )
    reveals = [e for e in hist.json()["entries"] if e["action"] == "reveal"]
    assert [(e["actor"], e["new"]) for e in reveals] == [("api", {"revealed": ["cn_id"]})]
