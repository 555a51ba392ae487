"""A slip corrected by a school's short form ("是华中科技大学，不是武大"), a denial that ends by
asking not to keep what was said ("不对，那是以前的密码，早就改了，别记这个"), a card number
given without a verb ("card number 4111 1111 1111 1111 exp 09/27": a card, never a phone, and
kept however terse), an appointment "they" moved, a pet said to be gone with "'s" ("Luna's
gone"), a budget raised once the boss approved it, the user's main language (no rule for the
answers), an emoji after a statement, a job said by its short title ("SDE") and a statement
taken back as said in jest ("开玩笑的", "just kidding"); and what a newcomer found: a move "from
Leeds to Manchester last weekend", a trip moved to a city read as a drink, "狗不叫X，叫Y", a
rule for the answers changed after "算了". Through the HTTP API."""

from __future__ import annotations

import pytest

from app.arbitration.values import abbreviates
from tests.conftest import TenantCtx

T1, T2 = "2026-03-02T09:00:00+08:00", "2026-03-02T10:00:00+08:00"
SCHOOL = "education.school"


@pytest.mark.parametrize(
    ("first", "then", "old", "new"),
    [
        ("我本科在武汉大学读的", "打错了，是华中科技大学，不是武大", "武汉大学", "华中科技大学"),
        ("我是北京大学毕业的", "说错了，是北师大，不是北大", "北京大学", "北师大"),
    ],
)
async def test_a_slip_named_by_its_short_form_replaces_the_school(
    tenant: TenantCtx, first: str, then: str, old: str, new: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    await tenant.say("u", "s1", then, at=T2)
    assert await tenant.values("u", SCHOOL) == [new]
    assert await tenant.values("u", SCHOOL, "frozen") == [old]


def test_a_short_form_takes_a_character_of_each_part_in_order() -> None:
    assert abbreviates("武大", "武汉大学")
    assert abbreviates("上交", "上海交通大学")
    assert not abbreviates("大学", "武汉大学")  # not its first character
    assert not abbreviates("武大", "武汉")  # no longer than the name
    assert not abbreviates("MIT", "Massachusetts Institute of Technology")  # Chinese only


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("我的邮箱密码是 qwer1234", "不对，那是以前的密码，早就改了，别记这个"),
        ("my netflix password is hunter22", "no that's my old one, don't save it"),
    ],
)
async def test_a_denial_that_asks_not_to_keep_it_withdraws_the_secret(
    tenant: TenantCtx, first: str, then: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    assert len(await tenant.values("u", "account.password")) == 1
    await tenant.say("u", "s1", then, at=T2)
    assert await tenant.values("u", "account.password") == []
    assert len(await tenant.values("u", "account.password", "frozen")) == 1


async def test_a_card_number_said_without_a_verb_is_a_card_and_can_be_taken_back(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u", "s1", "card number 4111 1111 1111 1111 exp 09/27", at=T1)
    assert len(await tenant.values("u", "finance.card")) == 1
    assert await tenant.values("u", "contact.phone") == []
    await tenant.say("u", "s1", "wait, don't keep that. please forget my card number", at=T2)
    assert await tenant.values("u", "finance.card") == []
    assert len(await tenant.values("u", "finance.card", "frozen")) == 1


async def test_a_card_number_is_never_stored_as_a_phone(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "my card number 4111 1111 1111 1111", at=T1)
    assert await tenant.values("u", "contact.phone") == []
    assert len(await tenant.values("u", "finance.card")) == 1
    await tenant.say("v", "s1", "my number is 415 555 0134", at=T1)
    assert await tenant.values("v", "contact.phone") == ["415 555 0134"]


@pytest.mark.parametrize(
    ("text", "phone"),
    [
        ("my business card number is 415 555 0134, call me anytime", "415 555 0134"),
        ("I got a new SIM card, the number is 415 555 0188", "415 555 0188"),
        ("我的手机卡号是 138 0013 8000", "138 0013 8000"),
    ],
)
async def test_a_phone_said_beside_a_card_is_a_phone_not_a_card(
    tenant: TenantCtx, text: str, phone: str
) -> None:
    await tenant.say("u", "s1", text, at=T1)
    assert await tenant.values("u", "finance.card") == []
    assert await tenant.values("u", "contact.phone") == [phone]


async def test_a_card_number_of_someone_else_is_never_shown_in_clear(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "my wife's card number is 4111 1111 1111 1111", at=T1)
    for m in await tenant.memories("u", status="active"):
        assert "4111 1111 1111 1111" not in (m["content"] or "")
        assert "4111 1111 1111 1111" not in (m["value"] or "")


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("dentist Tuesday at 10", "they called, moved it to Thursday 2pm"),
        ("I have a dentist appointment on Tuesday at 10", "they pushed it to Thursday at 6"),
    ],
)
async def test_an_appointment_they_moved_replaces_the_one_before(
    tenant: TenantCtx, first: str, then: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    [before] = await tenant.values("u", "event")
    await tenant.say("u", "s1", then, at=T2)
    [after] = await tenant.values("u", "event")
    assert "Thursday" in after
    assert await tenant.values("u", "event", "frozen") == [before]


async def test_others_who_moved_something_move_no_appointment(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "dentist Tuesday at 10", at=T1)
    [before] = await tenant.values("u", "event")
    await tenant.say("u", "s1", "my parents are visiting, they moved it to Sunday", at=T2)
    assert await tenant.values("u", "event") == [before]


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("我喜欢喝拿铁", "不对，那是以前的密码，早就改了，别记这个"),  # names a password, none held
        (
            "I live in Boston",
            "No worries. I'm going to paste my friend's address next, don't save it",
        ),
        ("I'm allergic to penicillin", "wait, don't save this next thing, it's just a quiz"),
        ("我在腾讯上班", "不对不对，别记我老公的公司，他在阿里"),  # someone else's
    ],
)
async def test_a_request_not_to_keep_something_else_withdraws_nothing(
    tenant: TenantCtx, first: str, then: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    before = await tenant.facts("u")
    await tenant.say("u", "s1", then, at=T2)
    assert [f for f in await tenant.facts("u") if f in before] == before


async def test_a_denial_naming_the_password_withdraws_only_the_password(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u", "s1", "My email is sam@example.org and my password is Blue-Fox-19", at=T1)
    await tenant.say("u", "s1", "no that's my old password, don't save it", at=T2)
    assert await tenant.values("u", "contact.email") == ["sam@example.org"]
    assert await tenant.values("u", "account.password") == []


async def test_a_slip_naming_one_of_two_schools_replaces_that_one(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我本科在武汉大学，研究生在北京大学", at=T1)
    await tenant.say("u", "s1", "打错了，研究生是清华大学，不是北大", at=T2)
    assert "武汉大学" in await tenant.values("u", SCHOOL)
    assert await tenant.values("u", SCHOOL, "frozen") == ["北京大学"]


@pytest.mark.parametrize(
    "then",
    [
        "Luna's gone to my mom's for the week while I travel",
        "Luna's gone quiet lately, is that normal?",
        "Luna's gone crazy for the new toy",
    ],
)
async def test_a_pet_gone_somewhere_or_somehow_stays(tenant: TenantCtx, then: str) -> None:
    await tenant.say("u", "s1", "I have a cat named Luna", at=T1)
    await tenant.say("u", "s1", then, at=T2)
    assert await tenant.values("u", "pets.name", lower=True) == ["luna"]


async def test_a_pet_said_to_be_gone_with_an_apostrophe_is_ended(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I have a cat named Luna", at=T1)
    assert await tenant.values("u", "pets.name", lower=True) == ["luna"]
    await tenant.say(
        "u", "s1", "never mind actually — Luna's gone, we had to put her down last week", at=T2
    )
    assert await tenant.values("u", "pets.name") == []
    assert await tenant.values("u", "pets.name", "frozen", lower=True) == ["luna"]


async def test_a_budget_raised_once_the_boss_approved_replaces_the_old_one(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u", "s1", "marketing campaign 的项目预算是 5 万", at=T1)
    await tenant.say("u", "s1", "老板批了，budget 提到 8 万", at=T2)
    assert await tenant.values("u", "project.budget") == ["8万"]
    assert await tenant.values("u", "project.budget", "frozen") == ["5万"]


async def test_the_users_main_language_is_no_rule_for_answers(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "main language for me is Russian", at=T1)
    assert await tenant.values("u", "language.preferred", lower=True) == ["russian"]
    assert await tenant.values("u", "assistant.constraint") == []
    await tenant.say("v", "s1", "用我的母语回答", at=T1)
    assert await tenant.values("v", "assistant.constraint") == ["用我的母语回答"]


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("I'm a nurse 🎉", "work.role", "nurse"),
        ("I live in Denver 🏔️", "residence.city", "Denver"),
        ("我是老师🎉", "work.role", "老师"),
    ],
)
async def test_an_emoji_after_a_statement_is_no_part_of_it(
    tenant: TenantCtx, text: str, key: str, value: str
) -> None:
    await tenant.say("u", "s1", text, at=T1)
    assert await tenant.values("u", key) == [value]


async def test_a_job_said_by_its_short_title_and_a_promotion(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我在 Amazon 做 SDE", at=T1)
    assert await tenant.values("u", "work.role") == ["SDE"]
    await tenant.say("u", "s1", "上周 got promoted，现在是 senior SDE 了🎉", at=T2)
    assert await tenant.values("u", "work.role") == ["senior SDE"]
    assert await tenant.values("u", "work.role", "frozen") == ["SDE"]
    assert await tenant.values("u", "work.employer") == ["Amazon"]


@pytest.mark.parametrize(
    ("first", "then", "key"),
    [
        ("我老婆叫小美", "开玩笑的，我还单身呢哈哈", "family.member"),
        ("I have a dog named Rex", "just kidding, I don't have a dog", "pets.name"),
    ],
)
async def test_a_statement_said_in_jest_is_taken_back(
    tenant: TenantCtx, first: str, then: str, key: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    [held] = await tenant.values("u", key)
    await tenant.say("u", "s1", then, at=T2)
    assert await tenant.values("u", key) == []
    assert await tenant.values("u", key, "frozen") == [held]


async def test_not_kidding_takes_nothing_back(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I have a dog named Rex", at=T1)
    await tenant.say("u", "s1", "I'm not kidding, I live in Paris", at=T2)
    assert await tenant.values("u", "pets.name") == ["Rex"]
    assert await tenant.values("u", "residence.city") == ["Paris"]


async def test_a_household_move_from_one_city_to_another_is_a_new_home(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u", "s1", "Hey! I'm Daniel, I work as a nurse at a hospital in Leeds", at=T1)
    await tenant.say("u", "s1", "I live in Leeds", at=T1)
    await tenant.say("u", "s1", "update: we moved from Leeds to Manchester last weekend 📦", at=T2)
    assert await tenant.values("u", "residence.city") == ["Manchester"]
    assert await tenant.values("u", "residence.city", "frozen") == ["Leeds"]
    assert await tenant.values("u", "work.location") == ["Leeds"]  # where the job is stays


async def test_a_trip_moved_to_a_city_is_no_drink(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我不喝咖啡了，现在改喝茶", at=T1)
    await tenant.say("u", "s1", "成都那个出差取消了😩 改成下个月去杭州了", at=T2)
    assert await tenant.values("u", "preference.drink") == ["茶"]


async def test_a_pet_not_called_this_but_that_is_renamed(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我们家狗叫Biscuit", at=T1)
    await tenant.say("u", "s1", "其实我们家狗不叫Biscuit，叫Cookie，刚才打错了哈哈", at=T2)
    assert await tenant.values("u", "pets.name") == ["Cookie"]
    assert await tenant.values("u", "pets.name", "frozen") == ["Biscuit"]


@pytest.mark.parametrize("before", ["以后回答我的时候可以中英混着来", "以后回答都用中文"])
async def test_a_rule_for_the_answers_changed_after_never_mind(
    tenant: TenantCtx, before: str
) -> None:
    await tenant.say("u", "s1", before, at=T1)
    [old] = await tenant.values("u", "assistant.constraint")
    await tenant.say("u", "s1", "算了，以后还是全部用英文回答我吧", at=T2)
    assert await tenant.values("u", "assistant.constraint") == ["全部用英文回答我"]
    assert await tenant.values("u", "assistant.constraint", "frozen") == [old]
