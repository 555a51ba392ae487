"""Secrets said in wordings detection used to miss, through the HTTP API: an identity document
said as one whatever its checksum (a passport, a driver's licence, a resident ID with a wrong
check digit — the fact was sealed, the turn kept it in clear), a bank account number (taken
for a phone), a one-time code, a safe's code said after the word, "pw"/"pass:"/"->" passwords,
a login given as "user / password", a 私钥 and an AWS secret key pasted beside its key id.
After the turn, no memory, episode, context, recall, export or stored row holds the value in
clear; talk that only looks alike is kept."""

from __future__ import annotations

import re

import pytest

from tests.conftest import TenantCtx
from tests.privacy.test_sensitive_api import _dump


@pytest.mark.parametrize(
    ("said", "clear"),
    [
        ("my passport: X12345678", ["X12345678"]),
        ("我的护照号码为E12345678", ["E12345678"]),
        ("身份证号码：11010119900307451X", ["11010119900307451X"]),
        ("我的驾照号是 330106199001011234", ["330106199001011234"]),
        ("driver's license number D1234-5678-9012", ["D1234-5678-9012"]),
        ("My SSN is 123456789", ["123456789"]),
        ("My bank account number is 12345678901", ["12345678901"]),
        ("我的银行账号是 6217 0000 1234 5678", ["6217 0000 1234 5678", "6217000012345678"]),
        ("my one-time code is 482913", ["482913"]),
        ("the verification code they sent me is 302117", ["302117"]),
        ("我的验证码是 837261", ["837261"]),
        ("the code for my safe is 5-1-9-3", ["5-1-9-3"]),
        ("my login is anna and the pw is blue-Fish-42", ["blue-Fish-42"]),
        ("Login: anna / pass: Sunfl0wer!", ["Sunfl0wer!"]),
        ("my bank login: anna.b / Passw0rd!", ["Passw0rd!"]),
        ("password -> Zebra!9", ["Zebra!9"]),
        ("私钥是 0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318",
         ["0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"]),
        ("AWS secret: AKIAIOSFODNN7EXAMPLE / wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
         ["AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"]),
    ],
)  # fmt: skip
async def test_a_secret_said_in_an_odd_wording_is_nowhere_in_clear(
    tenant: TenantCtx, database: object, said: str, clear: list[str]
) -> None:
    await tenant.say("u", "s1", said)
    user = tenant.user("u")
    seen = []
    listed = await tenant.client.get(
        f"{user}/memories", params={"limit": 100}, headers=tenant.headers
    )
    seen.append(listed.text)
    assert any(m["type"] == "episode" for m in listed.json()["items"]), listed.text
    ctx = await tenant.client.get(
        f"{user}/sessions/s1/context",
        params={"query": "what do you know about me"},
        headers=tenant.headers,
    )
    seen.append(ctx.text)
    seen.append(str(await tenant.recall("u", "password passport account code 密码 护照 账号")))
    export = await tenant.client.get(
        f"{user}/export", params={"include_messages": "true"}, headers=tenant.headers
    )
    assert export.status_code == 200, export.text
    seen.append(export.text)
    seen += await _dump(database)  # type: ignore[arg-type]
    text = "\n".join(seen)
    for value in clear:
        found = re.search(rf"(?<![0-9A-Za-z.-]){re.escape(value)}(?![0-9A-Za-z-])", text, re.I)
        assert found is None, text[max(found.start() - 200, 0) : found.end() + 100]


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("my order ID is 1234567", "1234567"),
        ("boarding pass: 12A", "12A"),
        ("I renewed my passport in 2019", "2019"),
    ],
)
async def test_talk_that_only_looks_alike_is_kept_as_said(
    tenant: TenantCtx, said: str, kept: str
) -> None:
    await tenant.say("u", "s1", said)
    listed = await tenant.client.get(
        f"{tenant.user('u')}/memories", params={"limit": 100}, headers=tenant.headers
    )
    episodes = [m["content"] for m in listed.json()["items"] if m["type"] == "episode"]
    assert episodes == [said]
    assert kept in episodes[0]
