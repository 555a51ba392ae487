"""API keys, card security codes, passwords and ID or account numbers in less usual wordings
(traditional Chinese, full-width letters among them), through the HTTP API:
after the turn is said, no memory, episode, session context, recall, export or stored row
holds the value in clear, and no ordinary fact takes it (or a part of it) as its value."""

from __future__ import annotations

import re

import pytest

from tests.conftest import TenantCtx
from tests.privacy.test_sensitive_api import _dump


@pytest.mark.parametrize(
    ("said", "clear"),
    [
        ("my openai key is sk-proj-AbCdEf1234567890XyZ, keep it handy",
         ["sk-proj-AbCdEf1234567890XyZ", "AbCdEf1234567890XyZ"]),
        ("我的gmail password是 MoonLight#88", ["MoonLight#88", "moonlight"]),
        ("我的银行卡号是6222 0212 3456 7890 123。",
         ["6222 0212 3456 7890 123", "6222021234567890123", "3456 7890"]),
        ("the login for my work laptop is tiger_lily_42 btw", ["tiger_lily_42"]),
        ("Update: changed my email password to PurpleRain_1999", ["PurpleRain_1999"]),
        ("Passcode for the door is 7731#, and the alarm code is 0420.", ["7731#", "0420"]),
        ("My credit card number is 4111 1111 1111 1111, exp 09/28, CVV 123.",
         ["4111 1111 1111 1111", "09/28", "CVV 123"]),
        ("here's my github token ghp_Zx9yW8vU7tS6rQ5pO4nM3lK2jI1hG0fE9dC8 for the CI",
         ["ghp_Zx9yW8vU7tS6rQ5pO4nM3lK2jI1hG0fE9dC8", "Zx9yW8vU7tS6rQ5pO4nM3lK2jI1hG0fE9dC8"]),
        ("aws access key AKIAIOSFODNN7EXAMPLE, region us-east-1", ["AKIAIOSFODNN7EXAMPLE"]),
        ("我们的API密钥是 a8f3k29dk3l0zq7w，别外传", ["a8f3k29dk3l0zq7w"]),
        # traditional characters, as Taiwan and Hong Kong write them; full-width letters
        ("辦手續要用，順便跟你說一下資料：我的身分證字號是A123456789", ["A123456789"]),
        ("辦手續要用，順便跟你說一下資料：我的銀行帳號是 012-345-678901", ["012-345-678901"]),
        ("辦手續要用，順便跟你說一下資料：我的帳戶號碼是 6222 0212 3456 7890",
         ["6222 0212 3456 7890"]),
        ("辦手續要用，順便跟你說一下資料：我的身份證號碼是Ａ１２３４５６７８９",
         ["Ａ１２３４５６７８９", "１２３４５６７８９"]),
    ],
)  # fmt: skip
async def test_a_secret_said_in_a_turn_is_nowhere_in_clear(
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
        f"{user}/sessions/s1/context", params={"query": said[:20]}, headers=tenant.headers
    )
    seen.append(ctx.text)
    seen.append(str(await tenant.recall("u", said)))
    export = await tenant.client.get(
        f"{user}/export", params={"include_messages": "true"}, headers=tenant.headers
    )
    assert export.status_code == 200, export.text
    seen.append(export.text)
    seen += await _dump(database)  # type: ignore[arg-type]
    text = "\n".join(seen)
    for value in clear:
        # as a word of its own: "0420" may stand inside an embedding or an id
        found = re.search(rf"(?<![0-9A-Za-z.-]){re.escape(value)}(?![0-9A-Za-z-])", text, re.I)
        assert found is None, text[max(found.start() - 200, 0) : found.end() + 100]


async def test_a_key_never_becomes_an_ordinary_value(tenant: TenantCtx) -> None:
    await tenant.say(
        "u",
        "s1",
        "my openai key is sk-proj-AbCdEf1234567890XyZ, keep it handy",
        "我的gmail password是 MoonLight#88",
    )
    values = [str(m["value"]).lower() for m in await tenant.memories("u")]
    assert not [v for v in values if "abcdef" in v or "moonlight" in v], values


async def test_ordinary_talk_about_keys_and_codes_stays_as_it_is(tenant: TenantCtx) -> None:
    said = "the key is under the mat, and the token limit is 4096 for gpt-4o"
    await tenant.say("u", "s1", said)
    episodes = await tenant.client.get(
        f"{tenant.user('u')}/memories", params={"type": "episode"}, headers=tenant.headers
    )
    assert said in [m["content"] for m in episodes.json()["items"]], episodes.text
