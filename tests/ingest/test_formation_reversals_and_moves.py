"""A rule for the assistant called off or turned round ("英文翻译还是不要了", "例子少举点吧",
"no need for the translations anymore"), an appointment moved without naming it ("they pushed
it to Thursday at 6", "改期了，挪到十一月十八号"), and a change that names only where it went
("搬家了，现在在慕尼黑", "已经 fully 转过去了", "Oregon State, not Ohio State"). Through the HTTP
API."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1, T2, T3 = "2026-03-02T09:00:00+08:00", "2026-03-02T10:00:00+08:00", "2026-03-02T11:00:00+08:00"
RULE = "assistant.constraint"


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("以后回答都加上英文翻译", "英文翻译还是不要了，太长"),
        ("以后回答都加上英文翻译", "翻译就别加了，太占地方"),
        ("以后回答都用表格", "表格还是算了吧，看着累"),
        ("每次回答最后都总结一下", "总结就不用了"),
        (
            "Use British spelling in everything you write for me",
            "scrap the British spelling, my editor wants American",
        ),
    ],
)
async def test_a_rule_called_off_ends_it_and_asks_nothing_of_its_own(
    tenant: TenantCtx, first: str, then: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    [before] = await tenant.values("u", RULE)
    await tenant.say("u", "s1", then, at=T2)
    assert await tenant.values("u", RULE, "frozen") == [before]
    # what is left is the record of the ending: no rule with a value stays active
    assert await tenant.values("u", RULE) == []


async def test_a_rule_no_longer_needed_replaces_the_one_it_names(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "please include a Chinese translation under every answer", at=T1)
    await tenant.say("u", "s1", "no need for the translations anymore", at=T2)
    # the rule is left to the assistant: it ends, and nothing of its own is asked
    assert await tenant.values("u", RULE) == []
    assert len(await tenant.values("u", RULE, "frozen")) == 1


@pytest.mark.parametrize(
    ("first", "then", "now"),
    [
        ("回答的时候多举例子", "例子少举点吧，太长了", "少举例子"),
        ("回答的时候多用点比喻", "比喻还是少用吧，有点啰嗦", "少用比喻"),
    ],
)
async def test_a_rule_asking_for_less_replaces_one_asking_for_more_zh(
    tenant: TenantCtx, first: str, then: str, now: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    await tenant.say("u", "s1", then, at=T2)
    assert await tenant.values("u", RULE) == [now]
    assert len(await tenant.values("u", RULE, "frozen")) == 1


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("Always answer in Spanish.", "Forget the Spanish homework, my son finished it."),
        ("Use bullet points in every answer.", "Forget the bullet train idea, we're flying."),
        ("以后回答都用表格整理一下", "报销表格不用了，财务说改成线上填"),
    ],
)
async def test_calling_off_something_else_ends_no_rule(
    tenant: TenantCtx, first: str, then: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    [rule] = await tenant.values("u", RULE)
    await tenant.say("u", "s1", then, at=T2)
    assert await tenant.values("u", RULE) == [rule]
    assert await tenant.values("u", RULE, "frozen") == []


async def test_calling_off_what_no_rule_asks_is_no_rule(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "Scrap the translation job, the agency took it.", at=T1)
    await tenant.say("u", "s1", "年终总结不用了，老板说今年不交", at=T2)
    assert await tenant.values("u", RULE) == []


async def test_a_statement_of_how_often_the_user_speaks_is_no_rule(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我系广东人，平时讲粤语多，普通话不太标准", at=T1)
    assert await tenant.values("u", RULE) == []


async def test_what_the_user_uses_from_now_on_is_no_rule_zh(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我一直在 Windows 上开发", at=T1)
    await tenant.say("u", "s1", "换了台 Mac，以后就用 macOS 了，快捷键还在适应中", at=T2)
    assert await tenant.values("u", RULE) == []
    assert await tenant.values("u", "tech.preferred", lower=True) == ["macos"]
    assert await tenant.values("u", "tech.preferred", "frozen", lower=True) == ["windows"]


async def test_a_past_of_the_users_is_no_rule(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "no pork for me please", at=T1)
    await tenant.say("u", "s1", "and shellfish too — never could stomach it", at=T2)
    assert await tenant.values("u", RULE) == []


@pytest.mark.parametrize(
    ("first", "then", "new"),
    [
        (
            "I've got a haircut booked for Wednesday at 5",
            "salon rang, they pushed it to Thursday at 6",
            "Thursday at 6",
        ),
        ("婚礼定在十月二号", "改期了，挪到十一月十八号，酒店那边档期撞了", "十一月十八号"),
    ],
)
async def test_an_appointment_moved_without_its_name_replaces_the_last_one(
    tenant: TenantCtx, first: str, then: str, new: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    [before] = await tenant.values("u", "event")
    await tenant.say("u", "s1", then, at=T2)
    [after] = await tenant.values("u", "event")
    assert new in after
    assert await tenant.values("u", "event", "frozen") == [before]


@pytest.mark.parametrize(
    "then",
    [
        "快递改期了，挪到周五送",
        "UPS rescheduled it for Thursday.",
        "我妹妹的婚礼改期了，挪到十月",
    ],
)
async def test_a_move_of_what_is_delivered_or_someone_elses_leaves_the_appointment(
    tenant: TenantCtx, then: str
) -> None:
    await tenant.say("u", "s1", "I have a dentist appointment Tuesday at 3pm.", at=T1)
    await tenant.say("u", "s1", then, at=T2)
    assert await tenant.values("u", "event", "frozen") == []


async def test_a_move_by_it_takes_the_appointment_that_shares_a_word(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I have a dentist appointment on Tuesday at 3pm.", at=T1)
    await tenant.say("u", "s1", "Also a haircut on Thursday at 5pm.", at=T2)
    await tenant.say("u", "s1", "The dentist's office called, they pushed it to Friday.", at=T3)
    [frozen] = await tenant.values("u", "event", "frozen")
    assert "dentist" in frozen


async def test_a_move_that_names_its_own_thing_leaves_another_appointment(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u", "s1", "周三下午两点开组会", at=T1)
    await tenant.say("u", "s1", "牙医预约改到下周二了", at=T2)
    assert await tenant.values("u", "event", "frozen") == []


@pytest.mark.parametrize(
    ("first", "then", "key", "new", "old"),
    [
        (
            "我现在住柏林",
            "搬家了，现在在慕尼黑，新公寓小得离谱",
            "residence.city",
            "慕尼黑",
            "柏林",
        ),
        (
            "我写代码用 VS Code",
            "最近被同事安利了 Cursor，已经 fully 转过去了",
            "tech.preferred",
            "cursor",
            "vs code",
        ),
        (
            "I'm at Ohio State, junior year",
            "sorry, autocorrect — Oregon State, not Ohio State lol",
            "education.school",
            "oregon state",
            "ohio state",
        ),
    ],
)
async def test_a_change_that_names_only_the_new_thing_takes_the_old_ones_key(
    tenant: TenantCtx, first: str, then: str, key: str, new: str, old: str
) -> None:
    active, frozen = await tenant.change("u", (first, then), key, at=(T1, T2))
    assert active == [new]
    assert frozen == [old]


async def test_a_move_of_the_team_moves_the_work_place_zh(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我在北京上班", at=T1)
    await tenant.say("u", "s1", "今天又在四环堵了一个小时", at=T2)
    await tenant.say("u", "s1", "公司把我们整个组搬到雄安了，以后就得在那边上班", at=T3)
    assert await tenant.values("u", "work.location") == ["雄安"]
    assert await tenant.values("u", "work.location", "frozen") == ["北京"]


@pytest.mark.parametrize(
    ("first", "then", "key"),
    [
        (
            "I live in Boston.",
            "Actually no, I don't live in Boston anymore, I left last year.",
            "residence.city",
        ),
        (
            "I'm at Google, on the Maps team",
            "eh, not anymore — left Google in March, taking a few months off",
            "work.employer",
        ),
        ("我朋友住在上海", "我朋友搬到杭州了", "residence.city"),
    ],
)
async def test_a_name_the_turn_says_is_gone_or_someone_elses_is_not_what_holds(
    tenant: TenantCtx, first: str, then: str, key: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    await tenant.say("u", "s1", then, at=T2)
    assert await tenant.values("u", key) == []


async def test_a_thing_of_the_users_moved_is_no_move_of_theirs(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I live in Boston", at=T1)
    await tenant.say("u", "s1", "moved my savings to Fidelity last week", at=T2)
    assert await tenant.values("u", "residence.city") == ["Boston"]


async def test_a_switch_names_its_thing_in_its_own_clause_zh(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我喝美式", at=T1)
    await tenant.say("u", "s1", "今天换了家店买，星巴克排队太长", at=T2)
    assert await tenant.values("u", "preference.drink") == ["美式"]


@pytest.mark.parametrize(
    ("said", "key", "value"),
    [
        ("type 1 diabetic here — any snack ideas?", "health.condition", "type 1 diabetic"),
        ("software engineer at Shopify here", "work.role", "software engineer"),
        ("nurse here, working nights", "work.role", "nurse"),
        ("hi, vegan here, any tips?", "diet.style", "vegan"),
    ],
)
async def test_who_the_user_is_said_as_x_here(
    tenant: TenantCtx, said: str, key: str, value: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", key) == [value]


async def test_raining_here_says_nothing_of_the_user(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "Raining here!", at=T1)
    assert await tenant.facts("u") == []


async def test_a_secrets_value_in_the_sentence_after_its_kind(tenant: TenantCtx) -> None:
    await tenant.say(
        "u",
        "s1",
        "can you hang on to my passport number so I stop digging for it? it's K48201937",
        at=T1,
    )
    [memory] = await tenant.memories("u", key="identity.document")
    assert memory["value"] != "K48201937"  # sealed: only revealed on request
    assert memory["content"].endswith("1937")


async def test_a_case_set_up_to_reason_about_is_not_the_users(tenant: TenantCtx) -> None:
    await tenant.say(
        "u",
        "s1",
        "Say a user is allergic to gluten — how would you design a menu filter for that?",
        at=T1,
    )
    assert await tenant.values("u", "health.allergy") == []


async def test_one_more_routine_keeps_no_word_of_adding_zh(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我每天早上跑五公里", at=T1)
    await tenant.say("u", "s1", "周末还会去游泳，一次一小时左右", at=T2)
    assert await tenant.values("u", "schedule.habit") == ["周末游泳", "每天早上跑五公里"]


async def test_the_number_used_before_said_to_be_cut_off_ends_it_zh(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我的号码是 07700 900461", at=T1)
    await tenant.say(
        "u", "s1", "等下，那是我以前在英国用的号，已经停机了，别用这个，新号回头发你", at=T2
    )
    assert await tenant.values("u", "contact.phone") == []
    assert await tenant.values("u", "contact.phone", "frozen") == ["07700 900461"]


async def test_what_is_most_meant_of_a_taste_is_that_taste_not_a_drink_zh(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u", "s1", "My favourite drink is black coffee.", at=T1)
    await tenant.say("u", "s1", "我喜欢吃辣的，尤其是四川菜。", at=T2)
    assert await tenant.values("u", "preference.drink", lower=True) == ["black coffee"]
    assert await tenant.values("u", "preference.likes") == ["四川菜", "辣"]


async def test_a_name_followed_by_a_word_of_the_sentence_is_still_the_name(
    tenant: TenantCtx,
) -> None:
    active, frozen = await tenant.change(
        "u",
        ("I'm in Toronto", "Vancouver life now! the rain is real"),
        "residence.city",
        at=(T1, T2),
    )
    assert (active, frozen) == (["vancouver"], ["toronto"])


async def test_a_thing_switched_is_no_change_of_the_users(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I live in Seattle.", at=T1)
    await tenant.say(
        "u", "s1", "Changed hotels for the conference, we're at the Hilton now.", at=T2
    )
    assert await tenant.values("u", "residence.city") == ["Seattle"]
