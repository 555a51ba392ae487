"""A password put right in few words ("no wait, tulip-4417", "correction: …", "oops, make
that …", "I mean …", the chat's "*tulip-4417") is a slip corrected in place, like "sorry, I
meant …": the new password replaces the old one, sealed, and is never shown in clear. A place
put right in a word ("sorry, Porto", "*Porto") replaces the one just said; emphasis ("I mean
it") and a sigh ("*sigh*") take nothing back. Through the HTTP API."""

from __future__ import annotations

import json

import pytest

from tests.conftest import TenantCtx

T1, T2 = "2026-03-02T09:00:00+00:00", "2026-03-02T10:00:00+00:00"


@pytest.mark.parametrize(
    "then",
    [
        "Sorry, I meant tulip-4417",
        "no wait, tulip-4417",
        "correction: tulip-4417",
        "oops, make that tulip-4417",
        "I mean tulip-4417",
        "*tulip-4417",
    ],
)
async def test_a_password_put_right_in_few_words_replaces_the_old_one_sealed(
    tenant: TenantCtx, then: str
) -> None:
    await tenant.say("u", "s1", "My wifi password is tulip-4471", at=T1)
    await tenant.say("u", "s1", then, at=T2)
    r = await tenant.client.get(f"{tenant.user('u')}/memories", headers=tenant.headers)
    listed = r.json()["items"]
    assert "tulip-4417" not in json.dumps(listed) and "tulip-4471" not in json.dumps(listed)
    frozen = [m for m in listed if m["key"] == "account.password" and m["status"] == "frozen"]
    assert len(frozen) == 1
    active = [m for m in listed if m["status"] == "active" and m["secrets"]]
    revealed = [
        (
            await tenant.client.post(
                f"{tenant.user('u')}/memories/{m['id']}/reveal", headers=tenant.headers
            )
        ).json()["secrets"][0]["value"]
        for m in active
        if m["type"] != "episode"
    ]
    assert revealed == ["tulip-4417"]


@pytest.mark.parametrize("then", ["sorry, Porto", "actually, Porto", "*Porto", "Porto*"])
async def test_a_place_put_right_in_a_word_replaces_the_one_just_said(
    tenant: TenantCtx, then: str
) -> None:
    await tenant.say("u", "s1", "I live in Lisbon", at=T1)
    await tenant.say("u", "s1", then, at=T2)
    assert await tenant.values("u", "residence.city") == ["Porto"]


@pytest.mark.parametrize("then", ["I mean it", "*sigh*", "*sigh"])
async def test_emphasis_and_a_sigh_take_nothing_back(tenant: TenantCtx, then: str) -> None:
    await tenant.say("u", "s1", "I live in Lisbon", at=T1)
    await tenant.say("u", "s1", then, at=T2)
    assert await tenant.values("u", "residence.city") == ["Lisbon"]
