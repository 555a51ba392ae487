"""A tool the user no longer touches is withdrawn where it is held, never avoided as a food.
Through the HTTP API.

- "MySQL现在基本不碰了", "vim 我现在不碰了": 不碰 of a tool leaves it (``tech.preferred``
  frozen), it forms no ``diet.avoid``; "可乐戒了" is still an avoided drink.
- "Emacs 我 already quit 了": the English verb of a Chinese sentence gives the tool up, it does
  not take it up again.
"""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

AT = ("2026-12-01T09:00:00+08:00", "2026-12-02T10:00:00+08:00")


@pytest.mark.parametrize(
    ("first", "then", "tool"),
    [
        ("数据库一直用MySQL", "MySQL现在基本不碰了", "mysql"),
        ("我平时写代码用 vim", "vim 我现在不碰了，太折腾", "vim"),
        ("我的 daily driver 是 Emacs", "Emacs 我 already quit 了，config 太难维护", "emacs"),
    ],
)
async def test_a_tool_left_is_withdrawn_not_avoided(
    tenant: TenantCtx, first: str, then: str, tool: str
) -> None:
    active, frozen = await tenant.change("u", (first, then), "tech.preferred", at=AT)
    assert active == [] and frozen == [tool]
    assert await tenant.values("u", "diet.avoid") == []


async def test_a_drink_given_up_is_still_avoided(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "可乐戒了", at=AT[0])
    assert await tenant.values("u", "diet.avoid") == ["可乐"]
