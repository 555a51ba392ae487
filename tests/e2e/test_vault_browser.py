"""The vault in a real browser: headless Chromium against a real `memlane serve`.

One server and one browser for the module (each test has its own browser context, so its own
cookies). The tests save screenshots of the main views under docs/vault/ (docs/vault.md).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.browser import chromium, require_chromium
from tests.e2e.server import ServeProcess

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "vault"
SCRIPT_MEMORY = "<script>window.__pwned = 1</script> I read <b>bold</b> books"


@dataclass
class Vault:
    server: ServeProcess
    http: httpx.Client
    tenant_id: str
    api_key: str
    browser: Any

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.api_key}"}

    def user(self, user_id: str) -> str:
        return f"/v1/tenants/{self.tenant_id}/users/{user_id}"

    def remember(self, user_id: str, content: str, **fields: object) -> dict[str, Any]:
        r = self.http.post(
            f"{self.user(user_id)}/memories?wait=true",
            json={"content": content, **fields},
            headers=self.headers,
        )
        assert r.status_code == 201, r.text
        return r.json()["memories"][0]

    def say(self, user_id: str, session_id: str, *texts: str) -> None:
        r = self.http.post(
            f"{self.user(user_id)}/sessions/{session_id}/messages?wait=true",
            json={"messages": [{"role": "user", "content": t} for t in texts]},
            headers=self.headers,
        )
        assert r.status_code == 201, r.text

    def active(self, user_id: str) -> list[dict[str, Any]]:
        r = self.http.get(f"{self.user(user_id)}/memories?status=active", headers=self.headers)
        return r.json()["items"]

    def signed_in_page(self, api_key: str | None = None) -> Any:
        """A new browser context signed in through the form; returns its page."""
        page = self.browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        page.on("dialog", lambda dialog: dialog.accept())
        page.goto(f"{self.server.base_url}/vault")
        assert page.url.endswith("/vault/login")
        page.fill("input[name=api_key]", api_key or self.api_key)
        page.click("#login button[type=submit]")
        page.wait_for_load_state()
        return page


@pytest.fixture(scope="module")
def vault(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Vault]:
    require_chromium()
    server = ServeProcess(tmp_path_factory.mktemp("vault") / "memlane")
    server.start()
    try:
        with server.client() as http, chromium() as browser:
            r = http.post(
                "/v1/tenants",
                json={"name": "vault"},
                headers={"Authorization": f"Bearer {server.admin_key}"},
            )
            tenant = r.json()
            v = Vault(server, http, tenant["id"], tenant["api_key"], browser)
            v.remember(
                "alice", "I live in Berlin", type="profile", key="residence.city", value="Berlin"
            )
            v.remember("alice", "I like green tea", type="preference")
            v.remember("alice", "Never call me before 9am", type="constraint")
            v.remember("alice", SCRIPT_MEMORY)
            v.remember("alice", "Alice probably works in finance", source="model_inferred")
            v.say("alice", "trip-planning", "I went to Lisbon last week")
            v.remember(
                "bob", "Bob lives in Rome", type="profile", key="residence.city", value="Rome"
            )
            SHOTS.mkdir(parents=True, exist_ok=True)
            yield v
    finally:
        server.stop()


def memory_row(page: Any, content: str) -> Any:
    return page.locator("[data-testid=current] tr[data-testid=memory]", has_text=content)


def test_sign_in_and_see_a_users_memories(vault: Vault) -> None:
    page = vault.signed_in_page()
    assert page.url.endswith("/vault")
    users = page.locator("[data-testid=users] tbody tr")
    assert users.all_inner_texts()[0].startswith("alice")
    assert any(t.startswith("bob") for t in users.all_inner_texts())
    page.screenshot(path=str(SHOTS / "users.png"), full_page=True)

    page.click("text=alice")
    page.wait_for_url("**/vault/users/alice")
    assert page.inner_text("[data-testid=user-title]") == "alice"
    assert page.locator("[data-testid=group-profile]").count() == 1
    berlin = memory_row(page, "I live in Berlin")
    assert "user_declared" in berlin.inner_text() and "0.90" in berlin.inner_text()
    assert "Never call me before 9am" in page.inner_text("[data-testid=constraints]")
    assert "Alice probably works in finance" in page.inner_text("[data-testid=to-confirm]")
    assert "trip-planning" in page.inner_text("[data-testid=sessions]")
    assert "Bob lives in Rome" not in page.content()
    page.screenshot(path=str(SHOTS / "user.png"), full_page=True)

    response = page.request.get(f"{vault.server.base_url}/vault/users/alice")
    csp = response.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert "frame-ancestors 'none'" in csp


def test_a_script_memory_renders_as_text(vault: Vault) -> None:
    page = vault.signed_in_page()
    page.goto(f"{vault.server.base_url}/vault/users/alice")
    row = memory_row(page, "window.__pwned")
    assert row.locator("[data-testid=memory-content]").inner_text() == SCRIPT_MEMORY
    assert page.evaluate("typeof window.__pwned") == "undefined"
    assert row.locator("b").count() == 0


def test_correct_a_memory_and_see_the_old_one_frozen_with_the_reason(vault: Vault) -> None:
    page = vault.signed_in_page()
    page.goto(f"{vault.server.base_url}/vault/users/alice")
    row = memory_row(page, "I live in Berlin")
    row.locator("summary", has_text="correct").click()
    row.locator("textarea[name=content]").fill("I live in Munich")
    row.locator("input[name=value]").fill("Munich")
    row.locator("[data-testid=correct-form] button[type=submit]").click()
    page.wait_for_selector("[data-testid=notice]")
    assert page.inner_text("[data-testid=notice]") == "corrected"
    assert memory_row(page, "I live in Munich").count() == 1
    assert memory_row(page, "I live in Berlin").count() == 0
    frozen = page.locator("tr[data-testid=frozen-row]", has_text="I live in Berlin")
    text = frozen.inner_text()
    assert "I live in Munich" in text and "user_correction" in text
    assert (
        frozen.locator("[data-testid=frozen-reason]").inner_text()
        == "the user explicitly corrected the earlier statement"
    )
    page.locator("[data-testid=frozen]").screenshot(path=str(SHOTS / "frozen.png"))

    frozen.locator("a").click()
    page.wait_for_selector("[data-testid=chain]")
    chain = page.locator("[data-testid=chain-content]").all_inner_texts()
    assert chain == ["I live in Berlin", "I live in Munich"]
    assert "user_correction" in page.inner_text("[data-testid=decisions]")
    page.screenshot(path=str(SHOTS / "history.png"), full_page=True)

    [munich] = [m for m in vault.active("alice") if m["key"] == "residence.city"]
    assert (munich["value"], munich["source"]) == ("Munich", "user_declared")


def test_delete_a_memory(vault: Vault) -> None:
    page = vault.signed_in_page()
    page.goto(f"{vault.server.base_url}/vault/users/alice")
    row = memory_row(page, "I like green tea")
    memory_id = row.get_attribute("data-memory-id")
    row.locator("[data-testid=delete]").click()  # the confirm dialog is accepted
    page.wait_for_selector("[data-testid=notice]")
    assert page.inner_text("[data-testid=notice]") == "deleted"
    assert memory_row(page, "I like green tea").count() == 0
    r = vault.http.get(f"{vault.user('alice')}/memories/{memory_id}", headers=vault.headers)
    assert r.status_code == 404


def test_confirm_a_low_confidence_memory(vault: Vault) -> None:
    page = vault.signed_in_page()
    page.goto(f"{vault.server.base_url}/vault/users/alice")
    pending = page.locator("tr[data-testid=pending]", has_text="works in finance")
    pending.locator("[data-testid=confirm]").click()
    page.wait_for_selector("[data-testid=notice]")
    assert page.locator("[data-testid=to-confirm]").count() == 0
    assert "user_declared" in memory_row(page, "works in finance").inner_text()


def test_memory_mode_is_enforced_on_the_next_message(vault: Vault) -> None:
    page = vault.signed_in_page()
    page.goto(f"{vault.server.base_url}/vault/users/alice")
    page.select_option("[data-testid=memory-mode]", "paused")
    page.click("[data-testid=settings-form] button[type=submit]")
    page.wait_for_selector("[data-testid=notice]")
    assert page.input_value("[data-testid=memory-mode]") == "paused"
    vault.say("alice", "s2", "I work at Acme")
    page.reload()
    assert memory_row(page, "Acme").count() == 0

    page.select_option("[data-testid=memory-mode]", "facts_only")
    page.click("[data-testid=settings-form] button[type=submit]")
    page.wait_for_selector("[data-testid=notice]")
    vault.say("alice", "s2", "I work at Acme", "I like jazz")
    page.reload()
    assert memory_row(page, "Acme").count() == 1
    assert memory_row(page, "jazz").count() == 0
    page.locator("#settings").screenshot(path=str(SHOTS / "settings.png"))
    r = vault.http.get(f"{vault.user('alice')}/settings/history", headers=vault.headers)
    assert [c["new"]["memory_mode"] for c in r.json()["items"]] == ["facts_only", "paused"]
    assert {c["actor"] for c in r.json()["items"]} == {"vault"}


def test_search_uses_recall(vault: Vault) -> None:
    page = vault.signed_in_page()
    page.goto(f"{vault.server.base_url}/vault/users/alice")
    page.fill("[data-testid=search]", "where does she live?")
    page.press("[data-testid=search]", "Enter")
    page.wait_for_selector("[data-testid=search-results]")
    first = page.locator("[data-testid=search-results] tbody tr").first.inner_text()
    assert "I live in Munich" in first


def test_a_form_without_its_csrf_token_is_refused(vault: Vault) -> None:
    page = vault.signed_in_page()
    page.goto(f"{vault.server.base_url}/vault/users/alice")
    url = f"{vault.server.base_url}/vault/users/alice/settings"
    r = page.request.post(url, form={"memory_mode": "full"})
    assert r.status == 403
    r = page.request.post(url, form={"memory_mode": "full", "csrf": "forged"})
    assert r.status == 403
    settings = vault.http.get(f"{vault.user('alice')}/settings", headers=vault.headers).json()
    assert settings["memory_mode"] == "facts_only"


def test_a_wrong_key_does_not_sign_in(vault: Vault) -> None:
    page = vault.signed_in_page(api_key="mlk_not-a-key")
    assert "/vault/login" in page.url
    assert "unknown" in page.inner_text("[data-testid=login-error]")
    page.screenshot(path=str(SHOTS / "login.png"))


def test_a_vault_link_of_one_user_never_shows_another(vault: Vault) -> None:
    operator = vault.signed_in_page()
    operator.goto(f"{vault.server.base_url}/vault/users/alice")
    operator.fill("[data-testid=link-form] input[name=minutes]", "15")
    operator.click("[data-testid=link-form] button[type=submit]")
    operator.wait_for_selector("[data-testid=link-created]")
    link = operator.input_value("[data-testid=link]")
    assert "/vault/link?t=mlk_" in link
    operator.screenshot(path=str(SHOTS / "link.png"))

    user = vault.browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    user.goto(link)
    user.wait_for_url("**/vault/users/alice")
    assert "vault link of alice" in user.inner_text("[data-testid=who]")
    assert memory_row(user, "I live in Munich").count() == 1
    assert user.locator("[data-testid=links]").count() == 0  # a user makes no links
    user.screenshot(path=str(SHOTS / "user-link.png"), full_page=True)

    # Bob's page, bob's memory by id, the users list: never bob.
    response = user.goto(f"{vault.server.base_url}/vault/users/bob")
    assert response is not None and response.status == 404
    assert "Bob lives in Rome" not in user.content()
    [bob_memory] = vault.active("bob")
    response = user.goto(f"{vault.server.base_url}/vault/users/bob/memories/{bob_memory['id']}")
    assert response is not None and response.status == 404
    response = user.goto(f"{vault.server.base_url}/vault/users/alice/memories/{bob_memory['id']}")
    assert response is not None and response.status == 404
    user.goto(f"{vault.server.base_url}/vault")
    assert user.url.endswith("/vault/users/alice")
    # The key inside the link is bound the same way on the REST API.
    token = link.split("t=", 1)[1]
    r = vault.http.get(
        f"{vault.user('bob')}/memories", headers={"Authorization": f"Bearer {token}"}
    )
    assert r.status_code == 404

    # Revoked: the link and the session it opened stop working at once.
    operator.goto(f"{vault.server.base_url}/vault/users/alice")
    operator.click("[data-testid=revoke-link]")
    operator.wait_for_selector("[data-testid=notice]")
    user.goto(f"{vault.server.base_url}/vault/users/alice")
    assert "/vault/login" in user.url
    response = user.goto(link)
    assert response is not None and response.status == 401
