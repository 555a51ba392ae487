"""A liking taken up replaces the dislike it ends, a reading back to normal ends the
condition, and what is said in passing (what a relative did to the user, being in a hurry),
an insurer the user is with and a public body's budget form no fact of the user's. Through
the HTTP API (docs/formation.md, "Slips that name what was wrong, likings taken up, readings
back to normal").
"""

from __future__ import annotations

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-01T09:01:00+08:00"


async def test_a_liking_taken_up_is_formed_and_ends_the_dislike(tenant: TenantCtx) -> None:
    await tenant.say("u1", "s1", "I hate running", at=T1)
    await tenant.say("u1", "s1", "I've gotten into running lately, did a 10k on sunday", at=T2)
    assert await tenant.values("u1", "preference.likes", lower=True) == ["running"]
    assert await tenant.values("u1", "preference.dislikes", lower=True) == []


async def test_getting_into_trouble_or_a_school_is_no_liking(tenant: TenantCtx) -> None:
    await tenant.say("u1", "s1", "I've gotten into trouble with my landlord again", at=T1)
    await tenant.say("u1", "s1", "I got into grad school!", at=T2)
    assert await tenant.values("u1", "preference.likes") == []


async def test_a_reading_back_to_normal_ends_the_condition(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u1",
        ("我血压有点高", "好消息！吃了半年药，医生说我血压已经正常了"),
        "health.condition",
        at=(T1, T2),
    )
    assert active == []
    assert len(frozen) == 1 and "血压" in frozen[0]


async def test_what_a_relative_did_to_the_user_is_no_fact_about_them(tenant: TenantCtx) -> None:
    await tenant.say(
        "u1", "s1", "been getting really into k-pop lately, my niece got me hooked lmao", at=T1
    )
    facts = await tenant.facts("u1")
    assert ("preference.likes", "k-pop") in facts
    assert [f for f in facts if f[0] is None] == []  # no keyless "niece got me hooked"
    await tenant.say("u2", "s1", "my dad retired", at=T1)
    about = [m for m in await tenant.memories("u2", status="active") if m["type"] != "episode"]
    assert any("retired" in m["content"] for m in about if m["key"] is None)


async def test_being_in_a_hurry_is_no_fact(tenant: TenantCtx) -> None:
    await tenant.say("u1", "s1", "I'm in a hurry, what's a quick dinner idea?", at=T1)
    await tenant.say("u2", "s1", "我今天赶时间", at=T1)
    assert await tenant.facts("u1") == []
    assert await tenant.facts("u2") == []


async def test_an_insurer_the_user_is_with_is_no_employer(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u1",
        ("I work at Initech", "I'm with Geico for car insurance, is that a good deal?"),
        "work.employer",
        at=(T1, T2),
    )
    assert (active, frozen) == (["initech"], [])


async def test_a_public_bodys_budget_is_not_the_users(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u1",
        ("our budget for the app is $30,000", "the city cut the budget for the library to $5M"),
        "project.budget",
        at=(T1, T2),
    )
    assert (active, frozen) == (["$30,000"], [])
    active, frozen = await tenant.change(
        "u2", ("项目预算是50万", "政府今年的教育预算是三百亿"), "project.budget", at=(T1, T2)
    )
    assert (active, frozen) == (["50万"], [])


async def test_a_reading_back_to_normal_in_english_ends_the_condition(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u1",
        ("I have high blood pressure", "My doctor says my blood pressure is normal now"),
        "health.condition",
        at=(T1, T2),
    )
    assert (active, frozen) == ([], ["high blood pressure"])


async def test_a_busy_day_is_no_appointment(tenant: TenantCtx) -> None:
    await tenant.say("u1", "s1", "Sorry, I'm a bit busy today.", at=T1)
    assert await tenant.facts("u1") == []


async def test_a_drink_switched_to_replaces_the_usual_one(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u1",
        ("I drink coffee every morning", "trying to cut caffeine so I switched to green tea"),
        "preference.drink",
        at=(T1, T2),
    )
    assert (active, frozen) == (["green tea"], ["coffee"])
    active, frozen = await tenant.change(
        "u2",
        ("我每天早上都喝美式", "最近胃不太行，医生让少喝咖啡，现在改喝豆浆了"),
        "preference.drink",
        at=(T1, T2),
    )
    assert (active, frozen) == (["豆浆"], ["美式"])


async def test_a_routine_changed_replaces_the_one_it_shares_a_word_with(
    tenant: TenantCtx,
) -> None:
    active, frozen = await tenant.change(
        "u1",
        ("我每天坐地铁上班", "买车了，现在每天开车上班，地铁太挤了"),
        "schedule.habit",
        at=(T1, T2),
    )
    assert len(active) == 1 and "开车" in active[0]
    assert len(frozen) == 1 and "地铁" in frozen[0]


async def test_a_trip_in_place_of_the_planned_one_replaces_it(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u1",
        ("I'm planning to visit Japan in April", "change of plans, we're going to Korea instead"),
        "plan",
        at=(T1, T2),
    )
    assert active == ["go to korea"]
    assert len(frozen) == 1 and "japan" in frozen[0]


async def test_a_plan_scrapped_by_its_name_is_frozen(tenant: TenantCtx) -> None:
    await tenant.say(
        "u1", "s1", "thinking about doing a road trip around Iceland next spring", at=T1
    )
    await tenant.say(
        "u1", "s1", "ok scrapped Iceland. I'm gonna walk the Camino de Santiago instead", at=T2
    )
    frozen = [m["content"] for m in await tenant.memories("u1", key="plan", status="frozen")]
    active = await tenant.values("u1", "plan", lower=True)
    assert len(frozen) == 1 and "Iceland" in frozen[0]
    assert len(active) == 1 and "camino" in active[0]


async def test_a_phone_switched_to_by_its_maker_replaces_the_old(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u1", ("我一直用安卓手机", "终于换苹果了，真香"), "tech.preferred", at=(T1, T2)
    )
    assert (active, frozen) == (["苹果"], ["安卓"])
    active, frozen = await tenant.change(
        "u2", ("我一直用安卓手机", "换了房子，离公司近多了"), "tech.preferred", at=(T1, T2)
    )
    assert (active, frozen) == (["安卓"], [])


async def test_a_liking_said_as_all_about_it_replaces_the_one_ended(tenant: TenantCtx) -> None:
    await tenant.say("u1", "s1", "I love horror movies, the gorier the better", at=T1)
    await tenant.say(
        "u1",
        "s1",
        "Honestly I can't watch horror anymore since the baby came, I'm all about cozy "
        "mysteries now.",
        at=T2,
    )
    assert await tenant.values("u1", "preference.likes", lower=True) == ["cozy mysteries"]
    assert await tenant.values("u1", "preference.likes", "frozen", lower=True) == ["horror movies"]


async def test_what_goes_into_a_drink_or_a_drink_asked_for_replaces_nothing(
    tenant: TenantCtx,
) -> None:
    active, frozen = await tenant.change(
        "u1",
        ("I drink coffee every morning", "I switched to oat milk in my coffee"),
        "preference.drink",
        at=(T1, T2),
    )
    assert (active, frozen) == (["coffee"], [])
    active, frozen = await tenant.change(
        "u2", ("我每天早上喝拿铁", "给我来一杯美式吧"), "preference.drink", at=(T1, T2)
    )
    assert (active, frozen) == (["拿铁"], [])


async def test_a_cup_had_every_morning_is_the_drink(tenant: TenantCtx) -> None:
    await tenant.say("u1", "s1", "每天早上都得来一杯美式", at=T1)
    assert await tenant.values("u1", "preference.drink") == ["美式"]


async def test_a_trip_in_place_of_the_planned_one_in_chinese(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u1", ("我打算五一去日本玩", "计划有变，改去韩国了"), "plan", at=(T1, T2)
    )
    assert active == ["去韩国"]
    assert len(frozen) == 1 and "日本" in frozen[0]


async def test_a_thing_of_a_place_scrapped_leaves_the_plan(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u1",
        ("I'm planning to visit Iceland this summer", "we scrapped the Iceland photos"),
        "plan",
        at=(T1, T2),
    )
    assert len(active) == 1 and "iceland" in active[0]
    assert frozen == []


async def test_a_phone_switched_to_last_month(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u1", ("我一直用苹果手机", "上个月换了华为"), "tech.preferred", at=(T1, T2)
    )
    assert (active, frozen) == (["华为"], ["苹果"])


async def test_how_the_user_gets_to_work_is_no_employer(tenant: TenantCtx) -> None:
    await tenant.say("u1", "s1", "我每天骑车去公司", at=T1)
    await tenant.say("u1", "s1", "现在每天坐公交去公司了", at=T2)
    assert await tenant.values("u1", "work.employer") == []


async def test_a_commute_is_a_routine_and_a_new_one_replaces_it(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u1",
        ("I take the subway to work", "These days I drive to work"),
        "schedule.habit",
        at=(T1, T2),
    )
    assert (active, frozen) == (["drive to work"], ["take the subway to work"])
    active, frozen = await tenant.change(
        "u2", ("我每天骑车去公司", "现在每天坐公交去公司了"), "schedule.habit", at=(T1, T2)
    )
    assert len(active) == 1 and "公交" in active[0]
    assert len(frozen) == 1 and "骑车" in frozen[0]
    await tenant.say("u3", "s1", "my wife drives to work, I stay home with the kids", at=T1)
    assert await tenant.values("u3", "schedule.habit") == []


async def test_two_intentions_are_two_plans_and_one_can_be_dropped(tenant: TenantCtx) -> None:
    await tenant.say(
        "u1",
        "s1",
        "I'm planning to visit Iceland in June and to run a marathon in October",
        at=T1,
    )
    await tenant.say("u1", "s1", "ok scrapped Iceland", at=T2)
    active = await tenant.values("u1", "plan", lower=True)
    frozen = await tenant.values("u1", "plan", "frozen", lower=True)
    assert len(active) == 1 and "marathon" in active[0]
    assert len(frozen) == 1 and "iceland" in frozen[0]


async def test_a_vegetarian_diet_given_up_in_the_other_script_ends(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u1",
        ("I'm vegetarian, so no meat suggestions please.", "其实我已经不吃素了，现在什么都吃。"),
        "diet.style",
        at=(T1, T2),
    )
    assert (active, frozen) == ([], ["vegetarian"])
    active, frozen = await tenant.change(
        "u2", ("I'm vegetarian", "I'm not vegan anymore"), "diet.style", at=(T1, T2)
    )
    assert (active, frozen) == (["vegetarian"], [])


async def test_a_relatives_age_this_year_is_a_fact_about_them(tenant: TenantCtx) -> None:
    await tenant.say("u1", "s1", "我女儿今年六岁了。", at=T1)
    facts = await tenant.memories("u1", status="active")
    assert any("六岁" in m["content"] for m in facts if m["type"] != "episode")


async def test_the_town_after_a_job_is_where_the_user_works(tenant: TenantCtx) -> None:
    await tenant.say(
        "u1", "s1", "Hi! I'm Tom, I work as a nurse at a hospital in Manchester.", at=T1
    )
    assert await tenant.values("u1", "work.location") == ["Manchester"]
    assert await tenant.values("u1", "work.role") == ["nurse"]
    await tenant.say("u2", "s1", "I work at Google in London", at=T1)
    assert await tenant.values("u2", "work.employer") == ["Google"]
    assert await tenant.values("u2", "work.location") == ["London"]
    await tenant.say("u3", "s1", "I'm an analyst in Risk Management", at=T1)
    assert await tenant.values("u3", "work.location") == []


async def test_meat_eaten_again_ends_the_meatless_diet_in_either_script(
    tenant: TenantCtx,
) -> None:
    active, frozen = await tenant.change(
        "u1",
        ("我是素食者", "I don't eat vegetarian anymore, I eat meat again"),
        "diet.style",
        at=(T1, T2),
    )
    assert active == [] and len(frozen) == 1 and "素" in frozen[0]


async def test_one_errand_with_its_day_is_one_plan(tenant: TenantCtx) -> None:
    await tenant.say("u1", "s1", "I'm planning to cook and to clean today", at=T1)
    plans = await tenant.memories("u1", key="plan", status="active")
    assert len(plans) == 1


async def test_a_firm_in_a_named_city_gives_both_in_chinese(tenant: TenantCtx) -> None:
    await tenant.say("u1", "s1", "我在伦敦的谷歌工作", at=T1)
    assert await tenant.values("u1", "work.employer") == ["谷歌"]
    assert await tenant.values("u1", "work.location") == ["伦敦"]


async def test_a_commute_said_time_first_replaces_the_old(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u1", ("我每天坐地铁上班", "最近我开车上班"), "schedule.habit", at=(T1, T2)
    )
    assert active == ["开车上班"]
    assert len(frozen) == 1 and "地铁" in frozen[0]


async def test_a_department_is_no_employer(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u1", ("我在腾讯上班", "我在市场部上班，天天写方案"), "work.employer", at=(T1, T2)
    )
    assert (active, frozen) == (["腾讯"], [])
    await tenant.say("u2", "s1", "我在风险管理部做分析师", at=T1)
    assert await tenant.values("u2", "work.employer") == []
    await tenant.say("u3", "s1", "我在腾讯的市场部工作", at=T1)
    assert await tenant.values("u3", "work.employer") == ["腾讯"]
