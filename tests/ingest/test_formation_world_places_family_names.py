"""A city abroad written in Chinese is a place, not an employer ("我在利兹当护士": jieba reads 利兹,
Leeds, as a person's name); a family name said alone is kept under ``name.family``, never as the
whole name; and a name put right by how it is spelt ("it's spelled Smith, not Smyth",
"Catherine with a C, not a K") replaces the misspelt word in the name. Through the HTTP API."""

from __future__ import annotations

import pytest

from app.ingest.extraction import segment
from tests.conftest import TenantCtx

T1, T2 = "2026-03-02T09:00:00+00:00", "2026-03-02T10:00:00+00:00"


@pytest.mark.parametrize("city", ["利兹", "曼彻斯特", "斯德哥尔摩", "首尔", "开罗", "墨尔本"])
def test_cities_abroad_are_places(city: str) -> None:
    assert segment.is_place(city)
    assert segment.leading_place(city + "两年了") == city


@pytest.mark.parametrize("firm", ["诺基亚", "亚马逊", "谷歌", "特斯拉", "腾讯", "医院"])
def test_firms_and_workplaces_are_no_places(firm: str) -> None:
    assert not segment.is_place(firm)


async def test_a_city_abroad_is_where_the_user_works_not_whom_for(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我在利兹当护士，工作挺累的。")
    facts = await tenant.facts("u")
    assert ("work.location", "利兹") in facts
    assert ("work.role", "护士") in facts
    assert await tenant.values("u", "work.employer") == []


@pytest.mark.parametrize(
    ("text", "family"),
    [
        ("My surname is Okafor.", "Okafor"),
        ("my last name's Van Der Berg", "Van Der Berg"),
        ("我姓欧阳", "欧阳"),
    ],
)
async def test_a_family_name_alone_is_kept_as_one(
    tenant: TenantCtx, text: str, family: str
) -> None:
    await tenant.say("u", "s1", text)
    assert await tenant.values("u", "name.family") == [family]
    assert await tenant.values("u", "name.full") == []


async def test_a_family_name_said_with_the_whole_name_is_not_kept_twice(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u", "s1", "我姓刘，叫刘思远")
    assert await tenant.values("u", "name.full") == ["刘思远"]
    assert await tenant.values("u", "name.family") == []


async def test_a_family_name_put_right_replaces_the_one_before(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "my last name is Nguyen", at=T1)
    await tenant.say("u", "s1", "oops, my last name is Huynh actually, Nguyen is my mom's", at=T2)
    assert await tenant.values("u", "name.family") == ["Huynh"]
    assert await tenant.values("u", "name.family", "frozen") == ["Nguyen"]


@pytest.mark.parametrize(
    ("first", "fix", "right", "wrong"),
    [
        (
            "My name is John Smyth",
            "sorry, it's spelled Smith, not Smyth",
            "John Smith",
            "John Smyth",
        ),
        ("I'm Katherine Lee", "Catherine with a C, not a K", "Catherine Lee", "Katherine Lee"),
    ],
)
async def test_a_name_put_right_by_its_spelling_replaces_the_misspelt_word(
    tenant: TenantCtx, first: str, fix: str, right: str, wrong: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    await tenant.say("u", "s1", fix, at=T2)
    assert await tenant.values("u", "name.full") == [right]
    assert await tenant.values("u", "name.full", "frozen") == [wrong]


@pytest.mark.parametrize("text", ["Paris with a view", "Tom, no problem", "London with a friend"])
async def test_a_name_followed_by_other_words_is_no_spelling(tenant: TenantCtx, text: str) -> None:
    await tenant.say("u", "s1", "My name is Tom Baker", at=T1)
    await tenant.say("u", "s1", text, at=T2)
    assert await tenant.values("u", "name.full") == ["Tom Baker"]


async def test_something_that_came_up_at_short_notice_moves_the_appointment_for_good(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u", "s1", "周五晚上七点约了供应商吃饭", at=T1)
    [before] = await tenant.values("u", "event")
    await tenant.say("u", "s1", "供应商临时有事，饭局改到下周一中午了", at=T2)
    assert await tenant.values("u", "event", "frozen") == [before]
    [after] = await tenant.memories("u", status="active", key="event")
    assert after["scope"] == "user"
    assert "饭局改到" in after["content"]


@pytest.mark.parametrize("text", ["明天中午约了老同学吃饭", "周六中午约了老同学吃饭"])
async def test_meeting_someone_on_a_day_is_the_users_appointment(
    tenant: TenantCtx, text: str
) -> None:
    await tenant.say("u", "s1", text, at=T1)
    [event] = await tenant.memories("u", status="active", key="event")
    assert event["valid_to"] is not None


@pytest.mark.parametrize(
    ("first", "then", "now"),
    [
        ("you can call me Danny", "ugh actually go with Dan, Danny makes me feel twelve", "Dan"),
        ("call me Kat", "hmm actually go with Kit, that's what everyone at work uses", "Kit"),
        (
            "Call me Maggie from now on.",
            "Hmm, actually Maggie feels weird. Just use Margaret.",
            "Margaret",
        ),
        ("call me Mo", "hmm let's go with Mohammed instead", "Mohammed"),
    ],
)
async def test_a_name_offered_in_place_of_the_nickname_replaces_it(
    tenant: TenantCtx, first: str, then: str, now: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    [before] = await tenant.values("u", "name.nickname")
    await tenant.say("u", "s1", then, at=T2)
    assert await tenant.values("u", "name.nickname") == [now]
    assert await tenant.values("u", "name.nickname", "frozen") == [before]


@pytest.mark.parametrize(
    "then", ["let's go with Postgres for the database", "hmm actually go with Kafka for the queue"]
)
async def test_a_choice_after_a_nickname_leaves_it(tenant: TenantCtx, then: str) -> None:
    await tenant.say("u", "s1", "call me Kat", at=T1)
    await tenant.say("u", "s1", then, at=T2)
    assert await tenant.values("u", "name.nickname") == ["Kat"]


async def test_a_name_and_but_call_me_form_both(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "My name's Jonathan but call me Jay")
    assert await tenant.values("u", "name.full") == ["Jonathan"]
    assert await tenant.values("u", "name.nickname") == ["Jay"]


async def test_a_correction_that_restates_a_value_held_still_withdraws_what_it_names(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u", "s1", "I code mostly in Python and Go", at=T1)
    assert await tenant.values("u", "tech.preferred", lower=True) == ["go", "python"]
    await tenant.say("u", "s1", "not writing Go anymore, Python is still my main thing", at=T2)
    assert await tenant.values("u", "tech.preferred", lower=True) == ["python"]
    assert await tenant.values("u", "tech.preferred", "frozen", lower=True) == ["go"]


@pytest.mark.parametrize(
    ("first", "then", "now", "before"),
    [
        ("I code in Java mostly", "these days it's all Kotlin for me", "kotlin", "java"),
        ("I write Python and Go", "I only write Rust now", "rust", "go"),
    ],
)
async def test_a_value_said_to_be_all_there_is_now_replaces_the_others(
    tenant: TenantCtx, first: str, then: str, now: str, before: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    await tenant.say("u", "s1", then, at=T2)
    assert await tenant.values("u", "tech.preferred", lower=True) == [now]
    assert before in await tenant.values("u", "tech.preferred", "frozen", lower=True)


@pytest.mark.parametrize(
    "then",
    [
        "Dinner with an ex tonight, wish me luck",
        "Appointment with a GP tomorrow morning",
        "Finished with an A in chemistry!",
    ],
)
async def test_a_capitalised_word_with_a_short_word_takes_nothing_back(
    tenant: TenantCtx, then: str
) -> None:
    await tenant.say("u", "s1", "My name is Sam Lee", at=T1)
    await tenant.say("u", "s1", then, at=T2)
    assert await tenant.values("u", "name.full") == ["Sam Lee"]


async def test_a_spelling_corrects_only_a_name_spelled_alike(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I live in Lisbon", at=T1)
    await tenant.say("u", "s1", "Anna with two n's", at=T2)
    assert await tenant.values("u", "residence.city") == ["Lisbon"]


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("我在小松工作，做挖掘机销售", "work.employer", "小松"),
        ("我在戴维的公司上班", "work.employer", "戴维的公司"),
    ],
)
async def test_firms_and_peoples_places_named_like_a_city_abroad_are_no_places(
    tenant: TenantCtx, text: str, key: str, value: str
) -> None:
    await tenant.say("u", "s1", text)
    assert await tenant.values("u", key) == [value]
    assert await tenant.values("u", "work.location") == []


async def test_a_persons_home_is_no_city(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我住在索菲亚家楼上")
    assert await tenant.values("u", "residence.city") == []


@pytest.mark.parametrize(
    "text", ["My last name is Polish, so nobody can say it.", "我姓啥", "我姓错了"]
)
async def test_what_is_no_family_name_is_not_kept_as_one(tenant: TenantCtx, text: str) -> None:
    await tenant.say("u", "s1", text)
    assert await tenant.values("u", "name.family") == []


async def test_a_drink_changed_for_now_stays_in_its_session(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我每天早上喝咖啡", at=T1)
    await tenant.say("u", "s2", "胃不舒服，临时改喝茶了", at=T2)
    drinks = await tenant.memories("u", status="active", key="preference.drink")
    assert {(m["value"], m["scope"]) for m in drinks} == {("咖啡", "user"), ("茶", "session")}


async def test_someone_elses_appointment_is_not_the_users(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "明天中午小王约了老同学吃饭", at=T1)
    assert await tenant.memories("u", status="active", key="event") == []


@pytest.mark.parametrize(
    ("first", "then", "thing"),
    [
        ("我超喜欢吃辣", "最近胃不好，辣的完全不碰了", "辣"),
        ("我喜欢喝咖啡", "咖啡我现在一口都不喝了", "咖啡"),
    ],
)
async def test_a_thing_given_up_said_as_the_topic_is_the_thing_alone(
    tenant: TenantCtx, first: str, then: str, thing: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    await tenant.say("u", "s1", then, at=T2)
    assert await tenant.values("u", "diet.avoid") == [thing]
    assert thing not in [v for _, v in await tenant.facts("u") if _ != "diet.avoid"]


async def test_a_thing_found_good_now_ends_the_dislike(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我讨厌香菜", at=T1)
    await tenant.say("u", "s1", "现在居然觉得香菜还挺香的", at=T2)
    assert await tenant.values("u", "preference.likes") == ["香菜"]
    assert await tenant.values("u", "preference.dislikes") == []
    assert await tenant.values("u", "preference.dislikes", "frozen") == ["香菜"]


async def test_a_name_changed_is_the_name_now(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我叫刘思思", at=T1)
    await tenant.say("u", "s1", "我已经改名了，现在身份证上是刘思远", at=T2)
    assert await tenant.values("u", "name.full") == ["刘思远"]
    assert await tenant.values("u", "name.full", "frozen") == ["刘思思"]


@pytest.mark.parametrize("text", ["觉得这个方案挺好的", "发现他还挺好看的"])
async def test_an_opinion_of_a_thing_is_no_taste(tenant: TenantCtx, text: str) -> None:
    await tenant.say("u", "s1", text)
    assert await tenant.values("u", "preference.likes") == []


async def test_a_name_spelled_out_weeks_later_in_another_session_is_corrected(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u", "s1", "my name's Katherine btw, but everyone calls me Kat", at=T1)
    await tenant.say("u", "s1", "I live in York", at=T2)
    await tenant.say(
        "u",
        "s2",
        "oh and its Catherine with a C, not a K. sorry, typo earlier",
        at="2026-03-23T09:00:00+00:00",
    )
    assert await tenant.values("u", "name.full") == ["Catherine"]
    assert await tenant.values("u", "name.full", "frozen") == ["Katherine"]
    assert await tenant.values("u", "residence.city") == ["York"]


async def test_what_friends_call_the_user_is_a_nickname_not_what_they_ask(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u", "s1", "我叫王小林，朋友们都叫我小林子", at=T1)
    assert await tenant.values("u", "name.nickname") == ["小林子"]
    await tenant.say("u", "s1", "我同事叫我去吃饭", at=T2)
    assert await tenant.values("u", "name.nickname") == ["小林子"]


async def test_a_nickname_no_longer_used_leaves_the_name(tenant: TenantCtx) -> None:
    await tenant.say("u", "c1", "我叫王小林，朋友们都叫我小林子", at=T1)
    await tenant.say("u", "c2", "现在大家不叫我小林子了，改叫我阿林", at=T2)
    assert await tenant.values("u", "name.full") == ["王小林"]
    assert await tenant.values("u", "name.nickname") == ["阿林"]
    assert await tenant.values("u", "name.nickname", "frozen") == ["小林子"]


async def test_a_relatives_name_spelled_right_replaces_it_and_nothing_else(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u", "c1", "我老婆姓陈，叫陈静", at=T1)
    await tenant.say("u", "c1", "我们计划五一去云南旅游，机票还没订", at=T2)
    await tenant.say(
        "u",
        "c2",
        "纠正一下，我老婆其实叫陈婧，女字旁的婧，不是安静的静",
        at="2026-03-23T09:00:00+00:00",
    )
    assert await tenant.values("u", "family.member") == ["陈婧"]
    assert await tenant.values("u", "family.member", "frozen") == ["陈静"]
    assert len(await tenant.values("u", "plan")) == 1


@pytest.mark.parametrize("text", ["明天下午三点同事约了客户开会", "明天上午十点我同事约了牙医"])
async def test_someone_elses_appointment_said_after_its_time_is_not_the_users(
    tenant: TenantCtx, text: str
) -> None:
    await tenant.say("u", "s1", text, at=T1)
    assert await tenant.memories("u", status="active", key="event") == []


async def test_a_relatives_occasion_on_a_day_is_still_in_the_users_calendar(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u", "s1", "下周三我妈生日", at=T1)
    assert len(await tenant.memories("u", status="active", key="event")) == 1


async def test_a_drink_cheered_on_is_the_drink_alone(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I really can't stand coffee. tea all the way")
    assert await tenant.values("u", "preference.drink") == ["tea"]
    assert await tenant.values("u", "preference.dislikes") == ["coffee"]
