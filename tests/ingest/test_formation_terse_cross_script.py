"""Changes a user says the short way or in the other script: the value in a sentence apart
from its change ("Relocated. Phoenix.", "New job: Stripe."), a name the classifier guessed
another key for ("Transferred to Roosevelt High" after "I teach at Lincoln High"), a withdrawal
that names the place or the employer in the other script than it was stated ("I don't live in
Beijing anymore" after "我住在北京") — but not the one held now when the key held another value
before ("I used to live in Beijing" after 北京 gave way to 上海), a job left the Chinese way
("从腾讯出来了", "我没在腾讯上班了"), a routine moved by its noun. A spot the user is at this
moment is no employer. Through the HTTP API."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+00:00", "2026-03-01T09:01:00+00:00"
T3 = "2026-03-01T09:02:00+00:00"


async def test_a_change_said_apart_from_its_value_replaces_the_old_one(
    tenant: TenantCtx,
) -> None:
    cases = [
        ("I live in Denver.", "Relocated. Phoenix.", "residence.city", "denver", "phoenix"),
        ("I work at Oracle.", "New job: Stripe.", "work.employer", "oracle", "stripe"),
        ("I work for Deloitte.", "Switched jobs. Accenture.", "work.employer", "deloitte",
         "accenture"),
        ("I work at Shopify.", "Nope, Twilio. Started last week.", "work.employer", "shopify",
         "twilio"),
        ("I teach at Lincoln High.", "Transferred to Roosevelt High.", "work.employer",
         "lincoln high", "roosevelt high"),
    ]  # fmt: skip
    for n, (first, then, key, old, new) in enumerate(cases):
        got = await tenant.change(f"u{n}", (first, then), key, at=(T1, T2))
        assert got == ([new], [old]), then
    assert await tenant.values("u4", "education.school") == []  # a teacher's school: work


async def test_a_withdrawal_in_the_other_script_ends_the_value_of_its_key(
    tenant: TenantCtx,
) -> None:
    cases = [
        ("我住在北京。", "I don't live in Beijing anymore.", "residence.city", "北京"),
        ("I work at Google.", "我已经不在谷歌了", "work.employer", "google"),
        ("我在字节跳动上班", "I quit ByteDance last month.", "work.employer", "字节跳动"),
        ("I live in Shenzhen.", "我已经不住深圳了", "residence.city", "shenzhen"),
    ]
    for n, (first, then, key, old) in enumerate(cases):
        assert await tenant.change(f"u{n}", (first, then), key, at=(T1, T2)) == ([], [old]), then
    # a thing given up that names no place or employer ends neither
    got = await tenant.change("u9", ("我在腾讯上班", "I stopped watching Naruto."), "work.employer",
                              at=(T1, T2))  # fmt: skip
    assert got == (["腾讯"], [])


async def test_a_job_left_the_chinese_way_ends_the_employer(tenant: TenantCtx) -> None:
    for n, then in enumerate(
        ["从腾讯出来了", "我没在腾讯上班了", "已经从腾讯走了", "我早就不在腾讯待了"]
    ):
        got = await tenant.change(f"u{n}", ("我在腾讯上班", then), "work.employer", at=(T1, T2))
        assert got == ([], ["腾讯"]), then
    # a day away from the office leaves the employer as it is
    got = await tenant.change("u9", ("我在腾讯上班", "今天没在公司"), "work.employer", at=(T1, T2))
    assert got == (["腾讯"], [])


async def test_a_spot_of_the_moment_or_a_doing_is_no_employer_or_home(tenant: TenantCtx) -> None:
    got = await tenant.change(
        "u1", ("I work at Google.", "I'm at Starbucks right now."), "work.employer", at=(T1, T2)
    )
    assert got == (["google"], [])
    got = await tenant.change(
        "u2", ("I live in Denver.", "We're in Phoenix tonight."), "residence.city", at=(T1, T2)
    )
    assert got == (["denver"], [])
    got = await tenant.change(
        "u3", ("I work at Intel.", "Left Intel. Freelancing now."), "work.employer", at=(T1, T2)
    )
    assert got == ([], ["intel"])


async def test_a_routine_moved_by_its_noun_replaces_the_old_one(tenant: TenantCtx) -> None:
    cases = [
        ("I go to the gym at 7am every morning.", "Moved my gym sessions to lunchtime.",
         "go to the gym at 7am every morning"),
        ("I do yoga on Tuesdays.", "Yoga's on Thursdays now.", "do yoga on tuesdays"),
    ]  # fmt: skip
    for n, (first, then, old) in enumerate(cases):
        active, frozen = await tenant.change(f"u{n}", (first, then), "schedule.habit", at=(T1, T2))
        assert frozen == [old] and len(active) == 1 and old not in active, then


@pytest.mark.parametrize(
    ("turns", "now"),
    [
        (("I live in Lisbon.", "我搬到上海了。", "I used to live in Lisbon, years ago."), "上海"),
        (("我住在北京。", "我搬到上海了。", "I used to live in Beijing."), "上海"),
        (("I live in Berlin.", "I moved to Paris.", "我以前住在柏林。"), "paris"),
        (("I live in Lisbon.", "我搬到上海了。", "I no longer live in Lisbon."), "上海"),
    ],
)
async def test_a_home_of_before_named_in_the_other_script_leaves_the_one_of_now(
    tenant: TenantCtx, turns: tuple[str, str, str], now: str
) -> None:
    for text, at in zip(turns, (T1, T2, T3), strict=True):
        await tenant.say("u", "s1", text, at=at)
    assert await tenant.values("u", "residence.city", lower=True) == [now]
