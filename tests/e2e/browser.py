"""Headless Chromium for the vault's browser tests: Debian's ``chromium`` driven by
Playwright's Python API (no browser download: ``executable_path``)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "chromium", "chromium-browser")


def chromium_path() -> str | None:
    """The Chromium executable, or None when it is not installed."""
    for name in CHROMIUM_CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    return None


def require_chromium() -> str:
    """The Chromium executable. Without one the test fails under CI (``CI=true``: .ci/run
    installs it, so a missing browser is a broken setup) and is skipped elsewhere."""
    path = chromium_path()
    if path is not None:
        return path
    message = "chromium is not installed (apt-get install -y chromium)"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(message)
    pytest.skip(message)


@contextmanager
def chromium() -> Iterator[Any]:
    """A headless Chromium browser (Playwright ``Browser``)."""
    path = require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=path, headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            yield browser
        finally:
            browser.close()
