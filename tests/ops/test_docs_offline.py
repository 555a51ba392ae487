"""/docs and /redoc work offline: every asset they reference is served by Memlane itself."""

from __future__ import annotations

import re
import socket
from pathlib import Path

import httpx
import pytest

from app.config import Settings
from app.main import create_app

# src/href/spec-url attributes, Swagger UI's `url: '…'` and `origin + '…'` (OAuth2 redirect)
ASSET = re.compile(
    r"""(?:\bsrc|\bhref|\bspec-url)\s*=\s*["']([^"']+)["']"""
    r"""|(?:\burl\s*:|\borigin\s*\+)\s*["']([^"']+)["']"""
)


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any attempt to open a network connection fails the test."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"network access attempted: {args!r}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


@pytest.mark.parametrize("page", ["/docs", "/redoc"])
async def test_docs_page_and_its_assets_are_local(
    page: str, tmp_path: Path, no_network: None
) -> None:
    app = create_app(Settings(data_dir=tmp_path, admin_key="mla_docs", _env_file=None))  # type: ignore[call-arg]
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://memlane.test") as http:
        html_response = await http.get(page)
        assert html_response.status_code == 200
        html = html_response.text
        assert re.findall(r"(?:https?:)?//[\w.-]+", html) == []  # no CDN, no absolute URL
        assets = [a or b for a, b in ASSET.findall(html)]
        assert "/openapi.json" in assets
        assert any(a.endswith(".js") for a in assets)
        if page == "/docs":
            assert "/docs/oauth2-redirect" in assets
        for asset in assets:
            assert asset.startswith("/"), asset
            got = await http.get(asset)
            assert got.status_code == 200, asset
            assert got.content, asset
            if asset.endswith(".js"):
                assert len(got.content) > 100_000  # the real bundle, not a placeholder
