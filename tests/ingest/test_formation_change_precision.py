"""What a change turn forms, read by the role of its clauses: a relative's clause after the
change is why the user changed (the relative named, nothing else of theirs); a routine given up
is found by what it is, not by the verb that ends it; a tool switched to by a verb that opens its
own clause replaces the one before, and the old tool complained of is not held again. Through
the HTTP API, in Chinese and English."""

from __future__ import annotations

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-01T09:01:00+08:00"


async def test_a_relatives_clause_after_a_change_says_why(tenant: TenantCtx) -> None:
    for user, turns, city, old, relative in (
        ("u1", ("我住在广州", "去年搬到深圳了，老公在那边找了份工作"), "深圳", "广州", "老公"),
        (
            "u2",
            ("I'm in Austin", "relocated to Nashville, my mom's health isn't great so I wanted"),
            "nashville",
            "austin",
            "mom",
        ),
    ):
        assert await tenant.change(user, turns, "residence.city", at=(T1, T2)) == (
            [city],
            [old],
        ), turns
        # the relative is named; what they did or what ails them is no fact of its own
        facts = await tenant.facts(user)
        assert [k for k, _ in facts] == ["family.member", "residence.city"], facts
        assert facts[0][1] == relative
    # news of a relative beside the user's change ("也", a change of their own) is still kept
    for user, text in (
        ("u3", "我搬到上海了，我哥也在上海工作"),
        ("u4", "I moved to Austin, my sister works at Dell there too"),
    ):
        await tenant.say(user, "s1", text, at=T1)
        keys = [k for k, _ in await tenant.facts(user)]
        assert keys.count(None) == 1 and "family.member" in keys, (text, keys)


async def test_a_routine_given_up_is_found_by_what_it_is(tenant: TenantCtx) -> None:
    for user, turns, active, frozen in (
        (
            "u1",
            (
                "I run every morning before work",
                "I stopped the morning runs, my knee has been acting up. I swim on tuesdays and "
                "thursdays now",
            ),
            ["swim on tuesdays and thursdays"],
            ["run every morning before work"],
        ),
        (
            "u2",
            (
                "I meditate every night before bed",
                "I've dropped the night meditation, doing it at lunch instead",
            ),
            ["doing it at lunch"],
            ["meditate every night before bed"],
        ),
    ):
        got = await tenant.change(user, turns, "schedule.habit", at=(T1, T2))
        assert got == (active, frozen), turns


async def test_a_tool_switched_to_by_a_verb_of_its_own_replaces_the_old(
    tenant: TenantCtx,
) -> None:
    for user, turns, active, frozen in (
        ("u1", ("我用 PyCharm", "换 VS Code 了，PyCharm 太吃内存"), ["vs code"], ["pycharm"]),
        ("u2", ("我写代码用 Sublime", "转 Neovim 了，Sublime 插件太少"), ["neovim"], ["sublime"]),
        (
            "u3",
            (
                "I write everything in JavaScript",
                "moved my side projects to TypeScript since my coworker kept nagging me",
            ),
            ["typescript"],
            ["javascript"],
        ),
    ):
        got = await tenant.change(user, turns, "tech.preferred", at=(T1, T2))
        assert got == (active, frozen), turns


async def test_a_pet_gone_by_any_verb_of_leaving_is_withdrawn(tenant: TenantCtx) -> None:
    # a cause before 死, a Latin name before a space, a pet that flew or ran off — and the verb
    # nearest the pet says what ended, not another verb of the turn ("when I left the window")
    for user, turns, pet in (
        ("u1", ("我养了一只兔子叫雪球", "雪球上个月病死了，以后不养了"), "雪球"),
        ("u2", ("我的狗叫 Max", "Max 走了 last winter，现在我养了一只猫"), "max"),
        (
            "u3",
            ("I have a parrot named Kiwi", "Kiwi flew off when I left the window open :("),
            "kiwi",
        ),
    ):
        assert await tenant.change(user, turns, "pets.name", at=(T1, T2)) == ([], [pet]), turns
        # the withdrawal is a pet's: no job left, nothing of it stays active
        assert await tenant.values(user, "work.employer") == [], turns
        assert await tenant.memories(user, key="work.employer") == [], turns


async def test_a_plan_given_up_is_withdrawn(tenant: TenantCtx) -> None:
    # the thing not gone to, or whose plan is called off, names the plan it ends
    for user, turns in (
        ("u1", ("我打算明年去 Canada 读书", "Canada 不去了，visa 被拒了")),
        ("u2", ("I'm planning to move to Berlin next year", "Berlin 的计划取消了，太贵了")),
        ("u3", ("我打算暑假去成都玩", "成都不去了，太热了")),
    ):
        active, frozen = await tenant.change(user, turns, "plan", at=(T1, T2))
        assert active == [] and len(frozen) == 1, (turns, active, frozen)
    # a thing called off that no plan holds withdraws nothing that is there
    await tenant.say("u4", "s1", "我打算下个月去东京", at=T1)
    await tenant.say("u4", "s1", "健身房的会员取消了", at=T2)
    assert len(await tenant.values("u4", "plan")) == 1
