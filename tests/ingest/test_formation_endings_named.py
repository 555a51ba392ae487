"""What ends is named by what was stored: a condition stored without how bad it is, a pet gone
with the season said, a language preferred now in place of the one before; and a routine's
time of day is no date in its content. Through the HTTP API."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-02T09:00:00+08:00"


async def test_a_condition_said_with_its_degree_ends_when_it_stops(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I get pretty bad migraines, maybe twice a week.", at=T1)
    assert await tenant.values("u", "health.condition") == ["migraines"]
    [memory] = await tenant.memories("u", key="health.condition")
    assert "pretty bad migraines" in memory["content"]  # how bad stays in its words
    await tenant.say(
        "u", "s1", "Good news, the migraines basically stopped since I started the new meds.", at=T2
    )
    assert await tenant.values("u", "health.condition") == []
    assert await tenant.values("u", "health.condition", status="frozen") == ["migraines"]


async def test_a_routines_time_of_day_is_no_date(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I hit the gym at 6am every day before work.", at=T1)
    await tenant.say("u", "s1", "Changed things up — doing evening workouts around 7pm now.", at=T2)
    contents = [m["content"] for m in await tenant.memories("u", key="schedule.habit")]
    assert any("7pm" in c for c in contents), contents
    assert not any("2026" in c for c in contents), contents


async def test_a_pet_gone_with_a_season_named_is_ended(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我养了一只橘猫，叫大福。", at=T1)
    await tenant.say("u", "s1", "大福去年冬天走了……前几天朋友送了我一只小柯基，取名叫可乐。", at=T2)
    assert await tenant.values("u", "pets.name") == ["可乐"]
    assert await tenant.values("u", "pets.name", status="frozen") == ["大福"]


async def test_a_language_preferred_now_replaces_the_one_before(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I'd prefer we chat in French, my English is so-so.", at=T1)
    await tenant.say(
        "u",
        "s1",
        "After a year in Toronto my English has gotten way better — I actually prefer English now.",
        at=T2,
    )
    assert await tenant.values("u", "language.preferred", lower=True) == ["english"]
    assert await tenant.values("u", "language.preferred", "frozen", lower=True) == ["french"]


@pytest.mark.parametrize(
    ("rule", "then", "ended"),
    [
        (
            "以后每次回答最后都帮我总结一下",
            "算了，总结那个不用了，太长了",
            "每次回答最后都帮我总结一下",
        ),
        (
            "以后回答尽量详细一点，多举几个例子。",
            "还是简短点吧，三五句话说清楚就行，例子就不用了。",
            "多举几个例子",
        ),
    ],
)
async def test_a_rule_named_as_not_needed_is_withdrawn(
    tenant: TenantCtx, rule: str, then: str, ended: str
) -> None:
    await tenant.say("u", "s1", rule, at=T1)
    await tenant.say("u", "s1", then, at=T2)
    frozen = await tenant.memories("u", key="assistant.constraint", status="frozen")
    assert ended in [m["content"] for m in frozen]
    active = await tenant.memories("u", key="assistant.constraint", status="active")
    assert ended not in [m["content"] for m in active]
    assert await tenant.memories("u", key="tech.preferred", status="active") == []


@pytest.mark.parametrize(
    ("first", "then", "key", "kept"),
    [
        (
            "以后每次回答最后都帮我总结一下",
            "会议总结不用了，我已经写好了",
            "assistant.constraint",
            None,
        ),
        (
            "我喜欢用 Python",
            "现在更喜欢用 Go 写后端, Python 还是写脚本用",
            "tech.preferred",
            "python",
        ),
        (
            "I use Python a lot",
            "I prefer Go now, Python is still for scripts",
            "tech.preferred",
            "python",
        ),
        ("我打算明年去考研", "我不是不考研了，只是推迟一年", "plan", None),
        ("我打算明年去考研", "考研复习不去图书馆了", "plan", None),
    ],
)
async def test_a_look_alike_of_an_ending_freezes_nothing(
    tenant: TenantCtx, first: str, then: str, key: str, kept: str | None
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    await tenant.say("u", "s1", then, at=T2)
    if kept is None:
        assert await tenant.values("u", key, status="frozen") == []
    else:  # the one before is still had: active, whatever history the turn wrote
        assert kept in await tenant.values("u", key, lower=True)
