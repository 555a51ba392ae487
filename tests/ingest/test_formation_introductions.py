"""An introduction, a greeting and where in a city the user lives, as a new user says them.
Through the HTTP API.

- "hey hows it going lol" is a greeting: no episode, no fact. "以后多指教", "请多多关照" and
  "nice to meet you" are the courtesies of an introduction: no rule for the assistant.
- "我是李雷" names the speaker when the name opens with a common family name and jieba reads it
  as one person's name, "我是欧阳娜娜" by its compound family name; "我是宝妈", "我是北漂" and
  "我是李医生" name no one.
- A clause with no subject that names a spot inside the city a rule of its sentence formed
  ("我住在杭州，就在西湖边上") adds no second home: the city stays.
"""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

AT = "2026-12-01T09:00:00+08:00"


@pytest.mark.parametrize(
    "text", ["hey hows it going lol", "hi there, how are you doing today?", "what's up"]
)
async def test_a_greeting_that_asks_how_you_are_keeps_nothing(tenant: TenantCtx, text: str) -> None:
    await tenant.say("u", "s1", text, at=AT)
    r = await tenant.client.get(f"{tenant.user('u')}/memories", headers=tenant.headers)
    assert r.json()["items"] == []  # no episode either


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("你好，我叫王晓明，以后多指教", "王晓明"),
        ("大家好，我是李雷，请多指教", "李雷"),
        ("我是欧阳娜娜", "欧阳娜娜"),
        ("Hi, I'm Sam, nice to meet you", "Sam"),
    ],
)
async def test_an_introduction_forms_the_name_and_no_rule(
    tenant: TenantCtx, text: str, name: str
) -> None:
    await tenant.say("u", "s1", text, at=AT)
    assert await tenant.values("u", "name.full") == [name]
    assert await tenant.values("u", "assistant.constraint") == []


@pytest.mark.parametrize("text", ["我是宝妈", "我是北漂", "我是李医生"])
async def test_a_label_after_wo_shi_is_no_name(tenant: TenantCtx, text: str) -> None:
    await tenant.say("u", "s1", text, at=AT)
    assert await tenant.values("u", "name.full") == []


@pytest.mark.parametrize(
    ("text", "city"), [("我住在杭州，就在西湖边上", "杭州"), ("我住北京，在朝阳区那边", "北京")]
)
async def test_a_spot_in_the_city_is_no_second_home(
    tenant: TenantCtx, text: str, city: str
) -> None:
    await tenant.say("u", "s1", text, at=AT)
    assert await tenant.values("u", "residence.city") == [city]
    assert await tenant.values("u", "residence.city", "frozen") == []
