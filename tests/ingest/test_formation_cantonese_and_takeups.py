"""Written Cantonese is read in Mandarin's words and remembered as written; and what a user
takes up in place of what they end, through the HTTP API (turns on Saturday 2026-12-05)."""

from __future__ import annotations

import pytest

from app.kit.chinese import as_mandarin, simplified
from tests.conftest import TenantCtx

AT = "2026-12-05T09:00:00+08:00"
LATER = "2026-12-05T10:00:00+08:00"


@pytest.mark.parametrize(
    ("text", "mandarin"),
    [
        ("我喺滙豐做嘢", "我在汇丰工作"),
        ("我唔食牛肉", "我不吃牛肉"),
        ("佢而家鍾意飲茶", "他现在喜欢喝茶"),
        ("我今年搬咗去倫敦喇", "我今年搬去了伦敦了"),
        ("都係用返廣東話同我傾啦", "还是用回广东话跟我聊啦"),
    ],
)
def test_cantonese_is_read_in_mandarins_words_one_character_for_one(
    text: str, mandarin: str
) -> None:
    assert simplified(text) == mandarin
    assert len(simplified(text)) == len(text)


@pytest.mark.parametrize(
    "text",
    ["我在关系部门上班", "我们的素食餐厅", "饮料喝完了"],  # Mandarin: no Cantonese word in it
)
def test_mandarin_is_not_read_as_cantonese(text: str) -> None:
    assert as_mandarin(text) == text


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("我喺滙豐做嘢", "work.employer", "滙豐"),
        ("我唔食牛肉", "diet.avoid", "牛肉"),
        ("我住喺沙田", "residence.city", "沙田"),
        ("我鍾意飲奶茶", "preference.drink", "奶茶"),
        ("我最憎芫荽，見到都想嘔", "preference.dislikes", "芫荽"),
    ],
)
async def test_a_cantonese_statement_forms_its_fact_as_written(
    tenant: TenantCtx, text: str, key: str, value: str
) -> None:
    await tenant.say("u", "s1", text, at=AT)
    assert await tenant.values("u", key) == [value]


async def test_a_cantonese_move_replaces_the_city(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u", ("我喺香港住", "我今年搬咗去倫敦喇，BNO過咗嚟"), "residence.city", at=(AT, LATER)
    )
    assert (active, frozen) == (["倫敦"], ["香港"])


async def test_a_cantonese_job_change_replaces_the_employer(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u", ("我喺HSBC做IT", "我轉咗工，而家喺Google做engineer"), "work.employer", at=(AT, LATER)
    )
    assert (active, frozen) == (["google"], ["hsbc"])


@pytest.mark.parametrize(
    ("turns", "old", "new"),
    [
        (("我每天早上跑步", "膝盖伤了以后我就不跑步了，现在改成游泳"), "每天早上跑步", "游泳"),
        (("I run every morning", "I quit running, I swim now"), "run every morning", "swimming"),
        (
            ("I run every morning", "gave up running, cycling instead"),
            "run every morning",
            "cycling",
        ),
        (
            ("I run every morning", "I stopped running, now I do yoga"),
            "run every morning",
            "do yoga",
        ),
        # the routine ended is named by its thing alone
        (
            ("I play piano every evening", "I quit piano, I paint now"),
            "play piano every evening",
            "painting",
        ),
    ],
)
async def test_a_doing_taken_up_in_place_of_one_ended_is_the_new_routine(
    tenant: TenantCtx, turns: tuple[str, str], old: str, new: str
) -> None:
    active, frozen = await tenant.change("u", turns, "schedule.habit", at=(AT, LATER))
    assert active == [new]
    assert frozen == [old]
    # no record without a value is left active beside it (recall would rank it first)
    held = await tenant.memories("u", key="schedule.habit", status="active")
    assert [m["value"] for m in held] == [new]


async def test_a_language_taken_up_is_no_routine(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "不学日语了，改学韩语", at=AT)
    assert await tenant.values("u", "schedule.habit") == []


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("今天开始改喝茶", "preference.drink", "茶"),
        ("从今天起我吃素", "diet.style", "素食"),
        ("从下周起每天跑步", "schedule.habit", "每天跑步"),
    ],
)
async def test_what_holds_from_a_day_on_is_no_event_nor_a_rule(
    tenant: TenantCtx, text: str, key: str, value: str
) -> None:
    await tenant.say("u", "s1", text, at=AT)
    assert await tenant.values("u", key) == [value]
    assert await tenant.values("u", "event") == []
    assert await tenant.values("u", "assistant.constraint") == []


async def test_over_an_illness_ends_it_and_forms_no_condition(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u",
        ("I have bronchitis", "I'm over the bronchitis finally"),
        "health.condition",
        at=(AT, LATER),
    )
    assert (active, frozen) == ([], ["bronchitis"])


async def test_drinks_with_the_team_is_no_drink(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "Friday night drinks with the team", at=AT)
    assert await tenant.values("u", "preference.drink") == []


async def test_a_new_email_after_the_old_one_is_dropped_replaces_it(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u",
        ("邮箱 xiaoyu_0912@163.com", "换邮箱了，网易那个不用了，新的是 xiaoyu.chen@qq.com"),
        "contact.email",
        at=(AT, LATER),
    )
    assert (active, frozen) == (["xiaoyu.chen@qq.com"], ["xiaoyu_0912@163.com"])


async def test_a_new_number_is_a_phone_not_a_password(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u",
        ("我的手機是0912-345-678", "我換門號了，新的是0988-765-432"),
        "contact.phone",
        at=(AT, LATER),
    )
    assert (active, frozen) == (["0988-765-432"], ["0912-345-678"])
    assert await tenant.values("u", "account.password") == []


async def test_a_name_and_what_everyone_calls_the_user(tenant: TenantCtx) -> None:
    await tenant.say(
        "u", "s1", "name's Priyanka but literally everyone calls me Pree, so go with that", at=AT
    )
    assert await tenant.values("u", "name.full") == ["Priyanka"]
    assert await tenant.values("u", "name.nickname") == ["Pree"]


async def test_hired_as_a_role_at_a_firm_replaces_the_job(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u",
        (
            "I'm a line cook at a ramen spot downtown",
            "update!! got hired as sous chef at Nobu, I start monday",
        ),
        "work.role",
        at=(AT, LATER),
    )
    assert (active, frozen) == (["sous chef"], ["line cook"])
    assert await tenant.values("u", "work.employer") == ["Nobu"]


async def test_a_question_forms_no_event(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "坐标成都，这礼拜天天下雨，周末有啥室内好去处推荐不", at=AT)
    assert await tenant.values("u", "event") == []
    assert await tenant.values("u", "residence.city") == ["成都"]


async def test_a_pet_renamed_with_ba_takes_its_new_name(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u", ("我家猫叫汤圆", "我把汤圆改名叫年糕了。"), "pets.name", at=(AT, LATER)
    )
    assert (active, frozen) == (["年糕"], ["汤圆"])


async def test_a_new_number_said_alone_after_its_word_replaces_the_old(
    tenant: TenantCtx,
) -> None:
    active, frozen = await tenant.change(
        "u",
        ("我的手機是0912-345-678", "我換了新號碼，0987-654-321，舊的不用了。"),
        "contact.phone",
        at=(AT, LATER),
    )
    assert (active, frozen) == (["0987-654-321"], ["0912-345-678"])
    assert await tenant.values("u", "tech.preferred", "archived") == []


async def test_a_rule_lifted_by_no_need_to_be_so_is_frozen(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "回答尽量简短", at=AT)
    await tenant.say("u", "s1", "以后不用那么简短了，回答详细一点也可以。", at=LATER)
    assert await tenant.values("u", "assistant.constraint", "frozen") == ["回答尽量简短"]


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("还有个 son 叫 Leo，今年 3 岁", "family.member", "leo"),
        ("现在养了只 bunny 叫 Oreo", "pets.name", "oreo"),
        ("最近又 adopt 了一只 puppy，取名 Bao", "pets.name", "bao"),
    ],
)
async def test_a_latin_name_in_chinese_is_the_name(
    tenant: TenantCtx, text: str, key: str, value: str
) -> None:
    await tenant.say("u", "s1", text, at=AT)
    assert await tenant.values("u", key, lower=True) == [value]


async def test_a_dog_that_barked_all_night_has_no_name(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我家狗叫了一晚上", at=AT)
    assert await tenant.values("u", "pets.name") == []


async def test_answers_asked_back_in_another_language_replace_the_rule(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u", "s1", "reply in English please, 我想练练", at=AT)
    await tenant.say("u", "s1", "算了还是中文吧，English 看着太累", at=LATER)
    assert await tenant.values("u", "assistant.constraint") == ["用中文回答"]
    assert await tenant.values("u", "assistant.constraint", "frozen") == ["reply in english"]


@pytest.mark.parametrize(
    "text",
    [
        "I quit running, I'm exhausted now",
        "I stopped running, I'm seeing someone now",
        "I quit running, I do it now",
    ],
)
async def test_how_the_user_is_after_an_ending_is_no_routine(tenant: TenantCtx, text: str) -> None:
    await tenant.say("u", "s1", "I run every morning", at=AT)
    await tenant.say("u", "s1", text, at=LATER)
    assert await tenant.values("u", "schedule.habit") == []


@pytest.mark.parametrize(
    "text",
    [
        "我有一个女儿，今年五岁",
        "我在腾讯找到了一份工作",
        "这批零件要返工",
        "我最憎恨说谎的人",
        "我每年夏天都去海边度假",
        "我喜欢吃老豆腐",
        "我麻麻是医生",
    ],
)
def test_mandarin_words_cantonese_shares_are_left_as_they_are(text: str) -> None:
    assert as_mandarin(text) == text


async def test_a_mandarin_daughter_is_no_age_of_the_users(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我有一个女儿，今年五岁", at=AT)
    assert await tenant.values("u", "age") == []
    assert await tenant.values("u", "family.member") == ["女儿"]


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        (
            "I reset my password this morning (the bank texted a code to my phone first) and"
            " the new one is Gr33n!Tea",
            "Gr33n!Tea",
        ),
        ("我的密码前几天被人盗了，也顺手把绑定的手机解绑了，新的是 Qw#2025abc", "Qw#2025abc"),
    ],
)
async def test_a_new_password_said_after_a_phone_is_still_sealed(
    tenant: TenantCtx, text: str, secret: str
) -> None:
    await tenant.say("u", "s1", text, at=AT)
    export = await tenant.client.get(
        f"{tenant.user('u')}/export", params={"include_messages": "true"}, headers=tenant.headers
    )
    assert export.status_code == 200, export.text
    assert "new one is" in export.text or "新的是" in export.text  # the message is there
    assert secret not in export.text  # and its password masked


async def test_the_new_one_said_of_a_phone_number_replaces_it(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u",
        (
            "My phone number is 555-123-4567",
            "I changed my phone number, the new one is 555-987-6543",
        ),
        "contact.phone",
        at=(AT, LATER),
    )
    assert (active, frozen) == (["555-987-6543"], ["555-123-4567"])


async def test_a_cantonese_daughter_opening_a_clause_is_named(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我老婆叫Mandy，個女今年三歲，叫Chloe", at=AT)
    assert await tenant.values("u", "family.member", lower=True) == ["chloe", "mandy"]
    assert await tenant.values("u", "age") == []


@pytest.mark.parametrize(
    ("text", "member"),
    [
        ("我個女叫阿欣，今年七歲", "阿欣"),
        ("我有個女，今年五歲", "個女"),
        ("我老豆今年六十五歲", "老豆"),
    ],
)
async def test_a_cantonese_relatives_age_is_not_the_users(
    tenant: TenantCtx, text: str, member: str
) -> None:
    await tenant.say("u", "s1", text, at=AT)
    assert await tenant.values("u", "age") == []
    assert await tenant.values("u", "family.member") == [member]


@pytest.mark.parametrize(("text", "age"), [("我今年廿九歲", "29"), ("我今年卅二歲", "32")])
async def test_ages_said_with_nian_and_sa(tenant: TenantCtx, text: str, age: str) -> None:
    await tenant.say("u", "s1", text, at=AT)
    assert await tenant.values("u", "age") == [age]


@pytest.mark.parametrize(
    ("text", "full", "nickname"),
    [
        ("I'm Sarah, but my sister calls me Sally", "Sarah", ["Sally"]),
        ("I'm Anna but everyone calls me by my last name", "Anna", []),
        ("I'm Margaret but everyone at church calls me Peggy", "Margaret", ["Peggy"]),
    ],
)
async def test_what_others_call_the_user(
    tenant: TenantCtx, text: str, full: str, nickname: list[str]
) -> None:
    await tenant.say("u", "s1", text, at=AT)
    assert await tenant.values("u", "name.full") == [full]
    assert await tenant.values("u", "name.nickname") == nickname
    assert await tenant.values("u", "family.member") == []


@pytest.mark.parametrize(
    ("text", "city"),
    [
        ("我住在将军澳", "将军澳"),
        ("我住在长沙湾", "长沙湾"),
        ("我住喺將軍澳", "將軍澳"),
        ("我搬到了将军澳", "将军澳"),
    ],
)
async def test_a_place_the_segmenter_cuts_is_whole(tenant: TenantCtx, text: str, city: str) -> None:
    await tenant.say("u", "s1", text, at=AT)
    assert await tenant.values("u", "residence.city") == [city]


async def test_a_pet_renamed_the_cantonese_way_takes_its_new_name(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u", ("我養咗隻狗叫旺財", "旺財改咗名叫豆豉"), "pets.name", at=(AT, LATER)
    )
    assert (active, frozen) == (["豆豉"], ["旺財"])
