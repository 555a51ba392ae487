"""What is only weighed, quoted for a task or read somewhere is no fact of the user; a move home
names its town; a firm described, not named; a condition and a level of study said as what the
user is. Through the HTTP API."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-02T09:00:00+08:00"


@pytest.mark.parametrize(
    "said",
    [
        'Translate "I live in Paris" into Spanish.',
        'Correct my grammar: "I has a dog named Bo."',
        'How do you say "I work at Siemens" in German?',
        "帮我把「我在腾讯工作」翻成英文。",
        "“我住在北京”用英文怎么说？",
    ],
)
async def test_quoted_text_given_for_a_task_is_not_the_users(tenant: TenantCtx, said: str) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.memories("u", status="active") == []


async def test_a_quote_in_a_statement_keeps_its_fact(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", 'My dog\'s name is "Biscuit".', at=T1)
    assert await tenant.values("u", "pets.name") == ["Biscuit"]


async def test_a_move_only_weighed_replaces_no_home(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我住在杭州。", at=T1)
    await tenant.say("u", "s1", "我在考虑搬去成都。", at=T2)
    assert await tenant.values("u", "residence.city") == ["杭州"]
    [plan] = await tenant.memories("u", key="plan", status="active")
    assert "成都" in plan["content"]


@pytest.mark.parametrize(
    "said",
    [
        "I was thinking about learning Spanish, but I don't know.",
        "Maybe I'll start drinking less coffee.",
        "我看了篇文章说咖啡对心脏好。",
        "I keep forgetting to drink water during the day lol",
    ],
)
async def test_what_is_weighed_or_read_somewhere_forms_no_fact(
    tenant: TenantCtx, said: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    facts = [m for m in await tenant.memories("u", status="active") if m["key"] != "plan"]
    assert facts == []


async def test_a_move_back_home_names_the_town(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我住在北京。", at=T1)
    await tenant.say("u", "s1", "跟你说，我上个月从北京搬回老家成都了。", at=T2)
    assert await tenant.values("u", "residence.city") == ["成都"]
    assert await tenant.values("u", "residence.city", "frozen") == ["北京"]


async def test_a_firm_described_is_the_employer_and_no_role(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我在一家做在线教育的公司上班。", at=T1)
    assert await tenant.values("u", "work.employer") == ["一家做在线教育的公司"]
    assert await tenant.values("u", "work.role") == []
    await tenant.say("v", "s1", "我是做产品经理的，在一家做在线教育的公司，base上海。", at=T1)
    assert await tenant.values("v", "work.role") == ["产品经理"]


@pytest.mark.parametrize(
    ("said", "condition"),
    [("我乳糖不耐受。", "乳糖不耐受"), ("我有点麸质不耐受", "麸质不耐受"), ("我低血糖", "低血糖")],
)
async def test_a_condition_said_as_what_the_user_is(
    tenant: TenantCtx, said: str, condition: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "health.condition") == [condition]


@pytest.mark.parametrize(
    ("said", "role"),
    [
        ("我在读研，学的是计算机。", "研究生"),
        ("我现在读大三", "大三学生"),
        ("我在读博", "博士生"),
        ("I'm a grad student in biology.", "grad student"),
    ],
)
async def test_a_level_of_study_is_the_users_role(tenant: TenantCtx, said: str, role: str) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "work.role") == [role]


async def test_an_age_said_by_a_birthday(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I'm 29.", at=T1)
    await tenant.say("u", "s1", "Just had my 30th birthday!", at=T2)
    assert await tenant.values("u", "age") == ["30"]
    assert await tenant.values("u", "age", "frozen") == ["29"]
    await tenant.say("v", "s1", "I turned forty last week.", at=T1)
    assert await tenant.values("v", "age") == ["40"]


async def test_a_pets_name_in_apposition(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I have a cat named Tom.", at=T1)
    await tenant.say("u", "s1", "Sadly Tom passed away. We adopted a kitten, Jerry.", at=T2)
    assert await tenant.values("u", "pets.name") == ["Jerry"]
    assert await tenant.values("u", "pets.name", "frozen") == ["Tom"]


async def test_a_place_of_no_name_is_no_home(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我住在南京。", at=T1)
    await tenant.say("u", "s1", "年初换了城市，现在在苏州。", at=T2)
    assert await tenant.values("u", "residence.city") == ["苏州"]
    await tenant.say("v", "s1", "我是双鱼座的。", at=T1)  # a star sign, no home town
    assert await tenant.values("v", "hometown") == []


async def test_when_a_move_happened_is_no_part_of_the_place(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I'm from Brazil originally but moved to Canada as a teen.", at=T1)
    assert await tenant.values("u", "residence.city") == ["Canada"]
    assert await tenant.values("u", "hometown") == ["Brazil"]


async def test_a_former_workplace_and_a_return_home(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我住在北京。", at=T1)
    await tenant.say("u", "s1", "我原来在北京工作，今年回了老家西安。", at=T2)
    assert await tenant.values("u", "residence.city") == ["西安"]
    assert await tenant.values("u", "work.location") == []  # 原来: where the user worked


@pytest.mark.parametrize(
    ("said", "thing"),
    [
        ("I quit sugar last month.", "sugar"),
        ("I gave up alcohol last year.", "alcohol"),
        ("我戒烟三个月了。", "烟"),
    ],
)
async def test_what_was_given_up_and_when(tenant: TenantCtx, said: str, thing: str) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "diet.avoid") == [thing]


async def test_a_new_one_of_its_kind_replaces_the_old(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我用的是小米手机。", at=T1)
    await tenant.say("u", "s1", "小米摔坏了，换了个荣耀。", at=T2)
    assert await tenant.values("u", "tech.preferred") == ["荣耀"]
    assert await tenant.values("u", "tech.preferred", "frozen") == ["小米"]


async def test_a_pet_lost_is_no_longer_had(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我养了一只仓鼠。", at=T1)
    await tenant.say("u", "s1", "仓鼠跑丢了，唉。", at=T2)
    assert await tenant.values("u", "pets.kind") == []


async def test_a_job_said_by_what_one_does(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I'm a barista at Blue Bottle.", at=T1)
    await tenant.say(
        "u", "s1", "I got let go from Blue Bottle, now I'm bartending at a hotel downtown.", at=T2
    )
    assert await tenant.values("u", "work.role") == ["bartender"]
    assert await tenant.values("u", "work.employer") == []
    await tenant.say("v", "s1", "I'm tutoring at Kumon now.", at=T1)
    assert await tenant.values("v", "work.employer") == ["Kumon"]


async def test_a_year_of_study_at_a_school(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I'm a junior at UCLA.", at=T1)
    assert await tenant.values("u", "education.school") == ["ucla"]
    assert await tenant.values("u", "work.employer") == []
    await tenant.say("v", "s1", "I'm a senior at Google.", at=T1)  # no student
    assert await tenant.values("v", "work.employer") == ["Google"]


async def test_a_relative_retired_leaves_the_users_job(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我在腾讯上班。", at=T1)
    await tenant.say("u", "s1", "我妈是老师，退休了。", at=T2)
    assert await tenant.values("u", "work.employer") == ["腾讯"]


async def test_a_request_for_the_answer_at_hand_is_no_decision(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "这次用表格列一下。", at=T1)
    assert await tenant.memories("u", status="active") == []


async def test_a_routine_said_only_to_move_to_another_day(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I do yoga on Tuesdays.", at=T1)
    await tenant.say("u", "s1", "Yoga moved to Thursdays now.", at=T2)
    [now] = await tenant.memories("u", key="schedule.habit", status="active")
    assert "Thursdays" in now["content"]
    [then] = await tenant.memories("u", key="schedule.habit", status="frozen")
    assert "tuesdays" in then["content"].lower()


async def test_a_place_a_meeting_moved_to_is_no_new_time(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "the meeting moved to Zoom", at=T1)
    assert await tenant.memories("u", key="event", status="active") == []


async def test_a_rule_lifted_with_its_verb_after_not_needed(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "回答的时候都加上例子。", at=T1)
    await tenant.say("u", "s1", "以后例子就不用加了。", at=T2)
    frozen = await tenant.memories("u", key="assistant.constraint", status="frozen")
    assert [m["content"] for m in frozen] == ["回答的时候都加上例子"]


async def test_an_address_given_beside_the_old_ones_end(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "My email is sam@oldco.com", at=T1)
    await tenant.say("u", "s1", "I'm at samk@newco.io now, the oldco one is going away", at=T2)
    assert await tenant.values("u", "contact.email") == ["samk@newco.io"]
    assert await tenant.values("u", "contact.email", "frozen") == ["sam@oldco.com"]


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ('Yep, that\'s correct, our dog is named "Bruno".', "Bruno"),
        (
            'My cat is named "Whiskers", just FYI, can you fix the typo in my last message?',
            "Whiskers",
        ),
        ("我家那只橘猫叫“大黄”，特别能吃", "大黄"),
    ],
)
async def test_a_name_in_quotes_beside_a_task_word_is_kept(
    tenant: TenantCtx, said: str, name: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "pets.name") == [name]


async def test_a_pets_age_after_its_name_in_quotes_is_not_the_users(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我们家狗狗名字叫“可乐”，今年三岁了", at=T1)
    assert await tenant.values("u", "pets.name") == ["可乐"]
    assert await tenant.values("u", "age") == []


@pytest.mark.parametrize(
    ("said", "key", "value"),
    [
        ("I keep forgetting to tell you that I moved to Orlando last month.", "residence.city",
         "Orlando"),
        ("Considering I'm lactose intolerant, what dessert can I make?", "health.condition",
         "lactose intolerant"),
        ("考虑到我对花生过敏，推荐菜的时候注意点", "health.allergy", "花生"),
        ("Maybe I should mention I'm allergic to shellfish, just in case.", "health.allergy",
         "shellfish"),
        ("I might as well tell you, I'm diabetic.", "health.condition", "diabetic"),
    ],
)  # fmt: skip
async def test_a_statement_made_beside_a_word_of_weighing_is_kept(
    tenant: TenantCtx, said: str, key: str, value: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", key) == [value]


@pytest.mark.parametrize("news", ["我妈是老师，去年退休了", "我妈以前是会计，上个月被裁了"])
async def test_a_relatives_news_with_its_time_leaves_the_users_job(
    tenant: TenantCtx, news: str
) -> None:
    await tenant.say("u", "s1", "我在京东做采购。", at=T1)
    await tenant.say("u", "s1", news, at=T2)
    assert await tenant.values("u", "work.employer") == ["京东"]


async def test_a_move_home_said_without_its_subject(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我住在上海。", at=T1)
    await tenant.say("u", "s1", "去年从上海搬回老家长沙了，生活节奏慢多了", at=T2)
    assert await tenant.values("u", "residence.city") == ["长沙"]
    assert await tenant.values("u", "residence.city", "frozen") == ["上海"]
