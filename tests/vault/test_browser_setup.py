"""The browser tests' set-up: a missing Chromium fails them under CI and skips them elsewhere."""

from __future__ import annotations

import pytest

from tests.e2e import browser


def test_missing_chromium_fails_under_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(browser.shutil, "which", lambda name: None)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="chromium is not installed"):
        browser.require_chromium()


def test_missing_chromium_skips_elsewhere(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(browser.shutil, "which", lambda name: None)
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="chromium is not installed"):
        browser.require_chromium()


def test_chromium_is_found_under_another_name(monkeypatch: pytest.MonkeyPatch) -> None:
    found = {"chromium-browser": "/usr/lib/chromium-browser/chromium-browser"}
    monkeypatch.setattr(browser.shutil, "which", found.get)
    assert browser.require_chromium() == "/usr/lib/chromium-browser/chromium-browser"
