"""An event told with a bare weekday is dated by its tense, through the HTTP API: what the
user did on Monday is the Monday before the message, what they will do is the one after."""

from __future__ import annotations

from tests.conftest import TenantCtx

TUESDAY = "2026-12-01T10:00:00+00:00"


async def _events(t: TenantCtx, user: str) -> list[dict]:
    r = await t.client.get(f"{t.user(user)}/memories", params={"type": "event"}, headers=t.headers)
    assert r.status_code == 200, r.text
    return r.json()["items"]


async def test_a_weekday_in_the_past_is_the_last_one_and_in_the_future_the_next(
    tenant: TenantCtx,
) -> None:
    await tenant.say("en", "s1", "I went to the dentist on Monday", at=TUESDAY)
    await tenant.say("zh", "s1", "我周六去看了周杰伦的演唱会", at=TUESDAY)
    await tenant.say("soon", "s1", "I'm seeing the dentist on Monday", at=TUESDAY)
    [en], [zh], [soon] = [await _events(tenant, u) for u in ("en", "zh", "soon")]
    assert (en["occurred_at"], en["content"]) == (
        "2026-11-30T00:00:00Z",
        "went to the dentist on Mon Nov 30, 2026",
    )
    assert (zh["occurred_at"], zh["content"]) == (
        "2026-11-28T00:00:00Z",
        "2026年11月28日去看了周杰伦的演唱会",
    )
    assert soon["occurred_at"] == "2026-12-07T00:00:00Z"


async def test_a_past_event_told_with_a_weekday_is_still_recalled_weeks_later(
    tenant: TenantCtx,
) -> None:
    # dated the coming Monday, the event lay ahead of its turn, and the turn's episode took its
    # few days' half-life as a plan's: seven weeks on, nothing of the sentence was recalled
    said = "I went to the dentist on Monday, they pulled a wisdom tooth"
    await tenant.say("u", "s1", said, at=TUESDAY)
    r = await tenant.client.post(
        f"{tenant.user('u')}/recall",
        json={"query": "wisdom tooth dentist", "at": "2027-01-20T00:00:00Z", "top_k": 8},
        headers=tenant.headers,
    )
    assert r.status_code == 200, r.text
    assert [m["content"] for m in r.json()["memories"] if m["type"] == "episode"] == [said]
