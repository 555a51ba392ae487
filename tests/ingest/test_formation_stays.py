"""A stay away from home ("I'm currently in London visiting my parents", "这几天住在香港的酒店
里"), a move still planned ("我打算明年搬去青岛"), a wish ("真希望能住在三亚") and a job offer
("I got an offer from Salesforce but I turned it down") replace neither the city the user lives
in nor their employer — through the HTTP API, in Chinese and English; a move that happened
still does."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1, T2 = "2026-03-02T09:00:00+08:00", "2026-03-02T09:01:00+08:00"


@pytest.mark.parametrize(
    ("first", "second", "key", "old", "new"),
    [
        ("I live in Seattle.", "I'm currently in London visiting my parents.",
         "residence.city", "seattle", "london"),
        ("I live in Sydney.", "Staying at a hotel in Melbourne this weekend.",
         "residence.city", "sydney", "melbourne"),
        ("我住在广州。", "这几天住在香港的酒店里。", "residence.city", "广州", "香港"),
        ("我住在武汉。", "我现在在长沙，来看我奶奶。", "residence.city", "武汉", "长沙"),
        ("I live in Phoenix.", "Working remotely from Lisbon this month, it's lovely.",
         "residence.city", "phoenix", "lisbon"),
        ("I live in Boston.", "I'm in Paris visiting my sister right now.",
         "residence.city", "boston", "paris"),
        ("我住在成都。", "这周末在重庆出差，住酒店。", "residence.city", "成都", "重庆"),
        ("我住在天津。", "我打算明年搬去青岛。", "residence.city", "天津", "青岛"),
        ("我住在杭州。", "下个月想搬到厦门去。", "residence.city", "杭州", "厦门"),
        ("我住在南京。", "真希望能住在三亚啊。", "residence.city", "南京", "三亚"),
        ("我住在西安。", "好想住在大理，每天晒太阳。", "residence.city", "西安", "大理"),
        ("I work at Oracle.", "I got an offer from Salesforce but I turned it down.",
         "work.employer", "oracle", "salesforce"),
        ("I work at Google.", "Meta offered me a job but I declined.",
         "work.employer", "google", "meta"),
        ("我在华为工作。", "腾讯给了我offer，不过我没接。", "work.employer", "华为", "腾讯"),
    ],
)  # fmt: skip
async def test_a_stay_plan_wish_or_offer_keeps_the_fact_of_now(
    tenant: TenantCtx, first: str, second: str, key: str, old: str, new: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    assert await tenant.values("u", key, "active", lower=True) == [old]
    await tenant.say("u", "s1", second, at=T2)
    assert await tenant.values("u", key, "active", lower=True) == [old]
    assert await tenant.values("u", key, "frozen", lower=True) == []
    for status in ("active", "frozen"):
        for k in ("residence.city", "work.employer", "work.location"):
            assert new not in await tenant.values("u", k, status, lower=True)


async def test_a_stay_is_kept_as_an_event(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I live in Sydney.", at=T1)
    await tenant.say("u", "s1", "Staying at a hotel in Melbourne this weekend.", at=T2)
    r = await tenant.client.get(
        f"{tenant.user('u')}/memories", params={"status": "active"}, headers=tenant.headers
    )
    events = [m["content"] for m in r.json()["items"] if m["type"] == "event"]
    assert any("Melbourne" in c for c in events)


@pytest.mark.parametrize(
    ("first", "second", "old", "new"),
    [
        ("I live in Seattle.", "I moved to London last month.", "seattle", "london"),
        ("我住在武汉。", "我搬到长沙了。", "武汉", "长沙"),
        ("I live in Phoenix.", "I live in Lisbon now.", "phoenix", "lisbon"),
        ("我住在天津。", "这个月刚搬到青岛，还在适应。", "天津", "青岛"),
        ("I live in Denver.", "Just relocated to Chicago this week.", "denver", "chicago"),
    ],
)  # fmt: skip
async def test_a_move_that_happened_still_replaces_the_city(
    tenant: TenantCtx, first: str, second: str, old: str, new: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    await tenant.say("u", "s1", second, at=T2)
    assert await tenant.values("u", "residence.city", "active", lower=True) == [new]
    assert await tenant.values("u", "residence.city", "frozen", lower=True) == [old]
