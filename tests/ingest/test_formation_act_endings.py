"""A change or an ending read whole by the act classifier ends the old value its clauses name,
with no word of ending of their own ("the K-pop phase is over", "Oreo 走丢了"); a clause that
says the value goes on, or is about someone else, ends nothing. Through the HTTP API, in
Chinese, English and mixed text (docs/formation.md, "What a change names")."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-01T09:01:00+08:00"


@pytest.mark.parametrize(
    ("first", "second", "key", "active", "frozen"),
    [
        (
            "I'm really into metal",
            "the metal phase is over, these days it's mostly podcasts on my commute",
            "preference.likes",
            [],
            ["metal"],
        ),
        (
            "我 Python 写得多",
            "最近主要写 Rust 了，Python 基本不碰",
            "tech.preferred",
            ["rust"],
            ["python"],
        ),
        (
            "I'm studying at Penn State",
            "I transferred to Purdue this spring, Penn State was way too far from home",
            "education.school",
            ["purdue"],
            ["penn state"],
        ),
        ("我的 dog 叫 Bruno", "Bruno 走丢了，找了一个月都没找到", "pets.name", [], ["bruno"]),
    ],
)
async def test_a_change_read_whole_ends_the_value_it_names(
    tenant: TenantCtx, first: str, second: str, key: str, active: list[str], frozen: list[str]
) -> None:
    got = await tenant.change("u", (first, second), key, at=(T1, T2))
    assert (
        [v.lower() for v in got[0]],
        [v.lower() for v in got[1]],
    ) == (active, frozen), second


@pytest.mark.parametrize(
    ("first", "second", "key", "kept"),
    [
        # the value goes on: promoted, still at the same firm
        (
            "I work at Shopify",
            "got promoted to staff engineer this week!! still at Shopify obviously",
            "work.employer",
            "shopify",
        ),
        # someone else's change names the user's diet
        (
            "I'm vegetarian",
            "my brother started eating meat again, he says vegetarian is too hard",
            "diet.style",
            "vegetarian",
        ),
        # a thing the user does less is not given up
        (
            "I use Slack a lot",
            "not using Slack that much anymore since the reorg",
            "tech.preferred",
            "slack",
        ),
    ],
)
async def test_what_goes_on_or_is_anothers_is_not_ended(
    tenant: TenantCtx, first: str, second: str, key: str, kept: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    await tenant.say("u", "s1", second, at=T2)
    assert kept in await tenant.values("u", key, lower=True), second


async def test_an_ending_read_whole_reaches_back_a_few_turns_only(tenant: TenantCtx) -> None:
    """Read whole, a turn that names a thing said long before rarely ends it: a turn of the
    act classifier ends only what the user's last three turns formed (``ACT_REACH_TURNS``)."""
    turns = [
        "I'm really into metal",
        "I work as a nurse in Leeds",
        "my sister Jane is visiting next week",
        "I drink green tea most mornings",
        "I have a cat called Miso",
        "the metal phase is over, these days it's mostly podcasts on my commute",
    ]
    for n, text in enumerate(turns):
        await tenant.say("u", "s1", text, at=f"2026-03-01T09:0{n}:00+08:00")
    assert await tenant.values("u", "preference.likes", lower=True) == ["metal"]
