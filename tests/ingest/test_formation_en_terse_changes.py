"""Changes said in English the short way: a name said as what holds now ("Portland now.",
"Lyft these days"), a verb of arriving ("ended up at Stripe", "moved over to Amazon"), a job
left without a new one ("I left the company in March"), a routine done another way, smoking
given up by its cigarette, a rule skipped "going forward". Each replaces what the user said
before; a stay, someone else's change or a name with nothing before it replaces nothing.
Through the HTTP API."""

from __future__ import annotations

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+00:00", "2026-03-01T09:01:00+00:00"


async def test_a_name_said_as_what_holds_now_takes_the_key_it_replaces(
    tenant: TenantCtx,
) -> None:
    cases = [
        ("I live in Denver.", "Portland now.", "residence.city", "denver", "portland"),
        ("I work at Uber.", "Lyft these days.", "work.employer", "uber", "lyft"),
        ("I use Windows.", "Mac now.", "tech.preferred", "windows", "mac"),
    ]
    for n, (first, then, key, old, new) in enumerate(cases):
        got = await tenant.change(f"u{n}", (first, then), key, at=(T1, T2))
        assert got == ([new], [old]), then


async def test_a_verb_of_arriving_names_the_new_value(tenant: TenantCtx) -> None:
    cases = [
        ("I work at Google.", "I moved over to Amazon.", "work.employer", "google", "amazon"),
        ("I work at Google.", "ended up at Stripe", "work.employer", "google", "stripe"),
        ("I work at Google.", "I'm at Meta now.", "work.employer", "google", "meta"),
        ("I live in Leeds.", "we wound up in Bristol", "residence.city", "leeds", "bristol"),
    ]
    for n, (first, then, key, old, new) in enumerate(cases):
        got = await tenant.change(f"u{n}", (first, then), key, at=(T1, T2))
        assert got == ([new], [old]), then
    # "moved over to" is no quitting: what the user moved to is not withdrawn
    assert await tenant.values("u0", "work.employer", "frozen", lower=True) == ["google"]


async def test_a_stay_someone_elses_change_or_a_bare_name_replaces_nothing(
    tenant: TenantCtx,
) -> None:
    cases = [
        ("I live in Lyon.", "I'm in Paris for two weeks.", "residence.city", "lyon"),
        ("I live in Oslo.", "My brother is in Bergen these days.", "residence.city", "oslo"),
        ("I work at Dell.", "My boss ended up at HP.", "work.employer", "dell"),
        ("I work at Dell.", "Working from home now.", "work.employer", "dell"),
    ]
    for n, (first, then, key, kept) in enumerate(cases):
        assert await tenant.change(f"u{n}", (first, then), key, at=(T1, T2)) == ([kept], []), then
    # nothing before it: a name said as holding now is no fact of any key
    await tenant.say("u9", "s1", "Austin these days", at=T1)
    assert await tenant.facts("u9") == []
    assert await tenant.values("u3", "schedule.habit") == []  # working from home is no routine


async def test_a_job_left_without_a_new_one_withdraws_the_employer(tenant: TenantCtx) -> None:
    for n, (first, then) in enumerate(
        [
            ("I work at Google.", "I left the company in March."),
            ("I work at Netflix.", "Left Netflix last year."),
        ]
    ):
        active, frozen = await tenant.change(f"u{n}", (first, then), "work.employer", at=(T1, T2))
        assert active == [] and frozen == [first.split(" at ")[1].rstrip(".").lower()], then
        # the leaving is kept under the employer's key, with the words that say it
        records = await tenant.memories(f"u{n}", key="work.employer", status="active")
        assert [r["value"] for r in records] == [None], then
        assert "left" in records[0]["content"].lower()
        assert await tenant.memories(f"u{n}", key="tech.preferred") == []


async def test_a_routine_done_another_way_replaces_the_old_one(tenant: TenantCtx) -> None:
    cases = [
        ("I do yoga every morning.", "Doing yoga in the evenings now.", "do yoga every morning"),
        ("I lift weights on Mondays.", "Moved lifting to Wednesdays.", "lift weights on mondays"),
        ("I walk the dog at 7am.", "Walking the dog at 6 now.", "walk the dog at 7am"),
    ]
    for n, (first, then, old) in enumerate(cases):
        active, frozen = await tenant.change(f"u{n}", (first, then), "schedule.habit", at=(T1, T2))
        assert frozen == [old] and len(active) == 1 and old not in active, then


async def test_smoking_ends_by_its_cigarette_or_a_quit_with_no_object(tenant: TenantCtx) -> None:
    cases = [
        ("I smoke.", "haven't had a cigarette since March", "smoke"),
        ("I smoke a few cigarettes a day.", "Quit cold turkey.", "smoke a few cigarettes a day"),
    ]
    for n, (first, then, old) in enumerate(cases):
        got = await tenant.change(f"u{n}", (first, then), "schedule.habit", at=(T1, T2))
        assert got == ([], [old]), then


async def test_a_rule_skipped_going_forward_replaces_the_rule_it_names(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u",
        ("Always include code comments.", "Skip the comments going forward."),
        "assistant.constraint",
        at=(T1, T2),
    )
    assert frozen == ["always include code comments"] and active == ["skip the comments"]
