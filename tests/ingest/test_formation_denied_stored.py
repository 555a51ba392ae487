"""A stored value the user denies and puts right in one breath, or changes into another naming
both, is replaced under its own key, whatever the key and however the rest is worded; words
that name nothing the user holds, or someone else's, change nothing. A Chinese plan is kept as
the thing to do. Through the HTTP API (turns on Saturday 2026-12-05)."""

from __future__ import annotations

import pytest

from app.ingest.extraction.rules import said_in_place
from app.kit.chinese import simplified
from tests.conftest import TenantCtx

AT = "2026-12-05T09:00:00+08:00"
LATER = "2026-12-05T10:00:00+08:00"


@pytest.mark.parametrize(
    ("text", "pairs"),
    [
        ("医生说不是胃炎，是胃酸倒流", [("report:胃炎", "胃酸倒流")]),
        ("其实是华科，不是武大", [("武大", "华科")]),
        ("醫生覆診話唔係胃炎，係胃酸倒流", [("report:胃炎", "胃酸倒流")]),
        ("it's not peanuts, it's almonds", [("peanuts", "almonds")]),
        ("it's almonds, not peanuts", [("peanuts", "almonds")]),
        ("把预算从20万改成15万了", [("20万", "15万")]),
        ("我手机安卓换成苹果了", [("安卓", "苹果")]),
        ("wait, it's not peanuts, it's almonds", [("peanuts", "almonds")]),
        ("swapped my Pixel for an iPhone", [("Pixel", "iPhone")]),
        ("我妈把手机从安卓换成苹果了", []),
        # someone else's, a reason, a thing that is no value
        ("my boss isn't Sam, it's Tom", []),
        ("我妈不是在北京工作，是在天津", []),
        ("问题不是咖啡，是我睡太晚", []),
        ("the problem with this recipe isn't peanuts, it's the sugar", []),
    ],
)
def test_what_is_denied_and_what_is_said_in_its_place(
    text: str, pairs: list[tuple[str, str]]
) -> None:
    assert said_in_place(simplified(text)) == pairs


@pytest.mark.parametrize(
    ("turns", "key", "active", "frozen"),
    [
        (
            ("我有胃炎，经常胃疼", "医生说不是胃炎，是胃酸倒流"),
            "health.condition",
            ["胃酸倒流"],
            ["胃炎"],
        ),
        (
            ("我有胃炎", "醫生覆診話唔係胃炎，係胃酸倒流"),
            "health.condition",
            ["胃酸倒流"],
            ["胃炎"],
        ),
        # the short form of the school stored names it; the guess of a hometown gives way
        (
            ("我是武汉大学毕业的", "我不是武大的，是华科的"),
            "education.school",
            ["华科"],
            ["武汉大学"],
        ),
        (
            ("I'm allergic to peanuts", "wait, it's not peanuts, it's almonds"),
            "health.allergy",
            ["almonds"],
            ["peanuts"],
        ),
        (
            ("I live in Denver.", "sorry not Denver, it's Boulder"),
            "residence.city",
            ["boulder"],
            ["denver"],
        ),
        (
            ("I'm allergic to peanuts", "sorry, it's almonds, not peanuts"),
            "health.allergy",
            ["almonds"],
            ["peanuts"],
        ),
        # a change that names both: the old value is no budget of now
        (
            ("项目预算定的是20万", "预算从20万改成15万了，唉"),
            "project.budget",
            ["15万"],
            ["20万"],
        ),
        (("我用安卓手机", "我手机安卓换成苹果了"), "tech.preferred", ["苹果"], ["安卓"]),
    ],
)
async def test_a_stored_value_denied_and_put_right_is_replaced_under_its_key(
    tenant: TenantCtx, turns: tuple[str, str], key: str, active: list[str], frozen: list[str]
) -> None:
    assert await tenant.change("u", turns, key, at=(AT, LATER)) == (active, frozen)


@pytest.mark.parametrize(
    ("turns", "key", "expected"),
    [
        (
            ("I have a dog named Rex", "Sorry, his name isn't Rex, it's Max"),
            "pets.name",
            (["max"], ["rex"]),
        ),
        # "his name" about a person corrects no name of the user's
        (
            ("My name is Sam Lee", "his name isn't Sam Lee, it's Tom Hart"),
            "name.full",
            (["sam lee"], []),
        ),
    ],
)
async def test_a_pets_name_put_right_by_his_name(
    tenant: TenantCtx, turns: tuple[str, str], key: str, expected: tuple[list[str], list[str]]
) -> None:
    assert await tenant.change("u", turns, key, at=(AT, LATER)) == expected


async def test_the_value_the_rules_read_is_kept_not_formed_twice(tenant: TenantCtx) -> None:
    turns = ("我是浙大毕业的", "不好意思说错了，我是浙江工业大学毕业的，不是浙大")
    active, frozen = await tenant.change("u", turns, "education.school", at=(AT, LATER))
    assert (active, frozen) == (["浙江工业大学"], ["浙大"])


async def test_the_wrong_key_guessed_for_the_new_value_gives_way(tenant: TenantCtx) -> None:
    await tenant.change(
        "u", ("我是武汉大学毕业的", "我不是武大的，是华科的"), "hometown", at=(AT, LATER)
    )
    assert await tenant.values("u", "hometown") == []


@pytest.mark.parametrize(
    ("turns", "key", "kept"),
    [
        (("我喜欢喝咖啡", "问题不是咖啡，是我睡太晚"), "preference.drink", ["咖啡"]),
        (("我在腾讯上班", "问题不是腾讯，是加班太多"), "work.employer", ["腾讯"]),
        (
            (
                "I'm allergic to peanuts",
                "the problem with this recipe isn't peanuts, it's the sugar",
            ),
            "health.allergy",
            ["peanuts"],
        ),
        (("My name is Sam Lee", "my boss isn't Sam Lee, it's Tom Hart"), "name.full", ["sam lee"]),
        (("我住在杭州", "我妈不是住杭州，是住宁波"), "residence.city", ["杭州"]),
        # the kind corrected leaves the pet's name as it was
        (
            ("I have a hamster named Nugget", "it's not a hamster, it's a guinea pig"),
            "pets.name",
            ["nugget"],
        ),
    ],
)
async def test_a_denial_of_something_else_changes_nothing_stored(
    tenant: TenantCtx, turns: tuple[str, str], key: str, kept: list[str]
) -> None:
    active, frozen = await tenant.change("u", turns, key, at=(AT, LATER))
    assert (active, frozen) == (kept, [])


async def test_a_denial_of_nothing_stored_forms_nothing(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "医生说不是胃炎，是胃酸倒流", at=AT)
    assert await tenant.values("u", "health.condition") == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("我打算明年去日本", "明年去日本"),
        ("明年想去读研", "明年去读研"),
    ],
)
async def test_a_chinese_plan_is_kept_as_the_thing_to_do(
    tenant: TenantCtx, text: str, value: str
) -> None:
    await tenant.say("u", "s1", text, at=AT)
    assert await tenant.values("u", "plan") == [value]


@pytest.mark.parametrize(
    ("text", "value", "content"),
    [
        ("我的预算从5000涨到8000了", "8000", "预算是8000"),
        ("my budget went up from 5000 to 8000", "8000", "the budget is 8000"),
    ],
)
async def test_a_value_said_with_what_it_changed_from_is_where_it_went(
    tenant: TenantCtx, text: str, value: str, content: str
) -> None:
    await tenant.say("u", "s1", text, at=AT)
    held = await tenant.memories("u", key="project.budget", status="active")
    assert [(m["value"], m["content"]) for m in held] == [(value, content)]


async def test_the_value_put_in_place_is_said_in_words(tenant: TenantCtx) -> None:
    await tenant.change(
        "u", ("我有胃炎", "医生说不是胃炎，是胃酸倒流"), "health.condition", at=(AT, LATER)
    )
    held = await tenant.memories("u", key="health.condition", status="active")
    assert [m["content"] for m in held] == ["患有胃酸倒流"]


@pytest.mark.parametrize(
    ("turns", "key", "active", "frozen"),
    [
        (
            ("我电话是 6234 5678", "打错了，尾数是9，就是 6234 5679"),
            "contact.phone",
            ["6234 5679"],
            ["6234 5678"],
        ),
        (
            ("我電話係 6234 5678", "打錯咗，尾數係9，即係 6234 5679"),
            "contact.phone",
            ["6234 5679"],
            ["6234 5678"],
        ),
        (
            ("my email is li.wei@example.com", "oops typo, it's liwei@example.com"),
            "contact.email",
            ["liwei@example.com"],
            ["li.wei@example.com"],
        ),
        # or by naming the old one
        (
            ("我的邮箱是 liming@example.com", "不是liming@example.com，是liming@test.com"),
            "contact.email",
            ["liming@test.com"],
            ["liming@example.com"],
        ),
        (
            (
                "my email is sam@example.org",
                "I changed my email from sam@example.org to sam@new.org",
            ),
            "contact.email",
            ["sam@new.org"],
            ["sam@example.org"],
        ),
    ],
)
async def test_a_contact_put_right_by_its_shape_or_by_naming_the_old_one_replaces_it(
    tenant: TenantCtx, turns: tuple[str, str], key: str, active: list[str], frozen: list[str]
) -> None:
    assert await tenant.change("u", turns, key, at=(AT, LATER)) == (active, frozen)


async def test_another_email_beside_the_one_held_replaces_nothing(tenant: TenantCtx) -> None:
    turns = ("我的邮箱是 liming@example.com", "工作邮箱不是liming@example.com，是li.ming@corp.com")
    active, frozen = await tenant.change("u", turns, "contact.email", at=(AT, LATER))
    assert "liming@example.com" in active
    assert frozen == []


async def test_a_slip_with_a_number_of_another_shape_changes_no_phone(tenant: TenantCtx) -> None:
    turns = ("我电话是 6234 5678", "打错了，是 3 点不是 4 点，订单号 88812345678")
    assert await tenant.change("u", turns, "contact.phone", at=(AT, LATER)) == (["6234 5678"], [])


@pytest.mark.parametrize(
    ("turns", "key", "kept"),
    [
        # said of a thing, a question, a quote, a joke
        (("我住在上海", "这批货不是上海的，是广州的"), "residence.city", "上海"),
        (("我喝拿铁", "服务员端来的这杯不是拿铁，是卡布奇诺"), "preference.drink", "拿铁"),
        (("我有胃炎", "不是胃炎，是胃酸倒流吗？"), "health.condition", "胃炎"),
        (("我住在北京", "歌词里唱“不是北京，是上海”"), "residence.city", "北京"),
        (
            ("I work at Google", "Oh sure, it's not Google, it's a charity, lol"),
            "work.employer",
            "google",
        ),
        (
            ("I live in Berlin", "Wait, did you mean it's not Berlin, it's Munich?"),
            "residence.city",
            "berlin",
        ),
        (("我喺匯豐返工", "呢張信用卡唔係匯豐，係恒生"), "work.employer", "匯豐"),
        # a drink for today, a wish
        (("我喜欢喝咖啡", "今天不是咖啡，是奶茶"), "preference.drink", "咖啡"),
        (
            ("I live in Boston", "lol I wish, not Boston, it's Hawaii in my dreams"),
            "residence.city",
            "boston",
        ),
        # the stored value inside a longer word
        (("我住在北京", "这家店不是北京烤鸭，是南京盐水鸭"), "residence.city", "北京"),
        (("我会说英语", "不是英语老师，是数学老师"), "language.preferred", "英语"),
        (("I'm allergic to nuts", "not pine nuts, it's cashews"), "health.allergy", "nuts"),
        # another budget; an ending that is not one
        (("项目预算定的是20万", "第二期预算从20万改成15万了"), "project.budget", "20万"),
        (
            ("I play piano every evening", "I'd never quit piano"),
            "schedule.habit",
            "play piano every evening",
        ),
        (
            (
                "I play piano every evening",
                "I quit piano lessons with my old teacher, now I learn from YouTube",
            ),
            "schedule.habit",
            "play piano every evening",
        ),
    ],
)
async def test_a_look_alike_of_a_correction_freezes_nothing(
    tenant: TenantCtx, turns: tuple[str, str], key: str, kept: str
) -> None:
    active, frozen = await tenant.change("u", turns, key, at=(AT, LATER))
    assert kept in active
    assert frozen == []


async def test_the_users_pet_named_by_our_cat_is_put_right(tenant: TenantCtx) -> None:
    turns = ("我养了一只猫叫咪咪", "我家猫不是叫咪咪，是叫花花")
    assert await tenant.change("u", turns, "pets.name", at=(AT, LATER)) == (["花花"], ["咪咪"])
