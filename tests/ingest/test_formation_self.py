"""How users introduce themselves — a birth date in any order, the forums' "36f", a job with
no capitalised employer, a line of work, a city inside its province, several pets named in
one breath, a language to answer in — become the memories a person would expect, through the
HTTP API."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-01T09:01:00+08:00"


@pytest.mark.parametrize(
    ("said", "birthday"),
    [
        ("我是1995年7月8号出生的", "1995-07-08"),
        ("我2001年3月5日生的", "2001-03-05"),
        ("my bday is on october 12th so mark it down!", "10-12"),
        ("Born on 14 July 1988, in case you need it.", "1988-07-14"),
    ],
)
async def test_a_birth_date_in_any_wording_is_the_birthday(
    tenant: TenantCtx, said: str, birthday: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "birthday") == [birthday]


async def test_a_birth_year_alone_is_the_year_and_someone_elses_birth_no_birthday(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u", "s1", "我是1990年出生的", at=T1)
    await tenant.say("u", "s1", "The baby was born on June 3", at=T2)
    assert await tenant.values("u", "birthday") == ["1990"]


@pytest.mark.parametrize(
    ("said", "age", "gender"),
    [
        ("36f here, first time using this", "36", "female"),
        ("im 41 m, looking for a beginner lifting program", "41", "male"),
        ("I just turned 29 last week", "29", None),
    ],
)
async def test_an_age_in_shorthand_is_the_age(
    tenant: TenantCtx, said: str, age: str, gender: str | None
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "age") == [age]
    assert await tenant.values("u", "identity.gender") == ([gender] if gender else [])


@pytest.mark.parametrize("said", ["I'm a people person", "I’m a people person, always have been"])
async def test_the_m_of_im_is_no_gender(tenant: TenantCtx, said: str) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "identity.gender") == []


@pytest.mark.parametrize(
    ("said", "employer", "role"),
    [
        ("I work for a small law firm downtown.", "small law firm", None),
        ("I'm an accountant with the county government.", "county government", "accountant"),
        ("I'm a software engineer over at Shopify.", "Shopify", "software engineer"),
        (
            "im a paramedic w/ the city fire dept, 24hr shifts so sometimes ill be slow",
            "city fire dept",
            "paramedic",
        ),
        ("I'm a teacher with 10 years of experience", None, "teacher"),
        ("I work in finance for Barclays", "Barclays", "finance"),
        ("I work in retail", None, "retail"),
    ],
)
async def test_a_job_is_read_whatever_names_the_employer(
    tenant: TenantCtx, said: str, employer: str | None, role: str | None
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "work.employer") == ([employer] if employer else [])
    assert await tenant.values("u", "work.role") == ([role] if role else [])


async def test_working_somewhere_is_no_line_of_work(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I work in Berlin", at=T1)
    await tenant.say("u", "s1", "I work in shifts", at=T2)
    assert await tenant.values("u", "work.role") == []
    assert await tenant.values("u", "work.location") == ["Berlin"]


async def test_being_over_at_a_company_gives_nothing_up(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I work at Shopify", at=T1)
    await tenant.say("u", "s1", "I'm a software engineer over at Shopify.", at=T2)
    assert await tenant.values("u", "work.employer") == ["Shopify"]
    assert await tenant.values("u", "work.employer", "frozen") == []


@pytest.mark.parametrize(
    ("said", "key", "city"),
    [
        ("我老家是湖南长沙的", "hometown", "长沙"),
        ("我住在广东省深圳市", "residence.city", "深圳"),
        ("我老家湖南的", "hometown", "湖南"),
    ],
)
async def test_a_city_named_with_its_province_is_the_city(
    tenant: TenantCtx, said: str, key: str, city: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", key) == [city]


@pytest.mark.parametrize(
    ("said", "kind", "names"),
    [
        ("We have two cats, Milo and Luna.", "cat", ["Luna", "Milo"]),
        ("I have two dogs named Rex and Bella", "dog", ["Bella", "Rex"]),
        ("我有两只猫，叫咪咪和花花", "猫", ["咪咪", "花花"]),
        ("I have a dog called Salt and Pepper", "dog", ["Salt and Pepper"]),
    ],
)
async def test_several_pets_named_at_once_are_one_name_each(
    tenant: TenantCtx, said: str, kind: str, names: list[str]
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "pets.kind") == [kind]
    assert sorted(await tenant.values("u", "pets.name")) == names


@pytest.mark.parametrize(
    ("said", "language"),
    [
        ("请用英文回答我", "英文"),
        ("回答我的时候用英文", "英文"),
        ("Please reply in Spanish", "spanish"),
    ],
)
async def test_a_language_to_answer_in_is_the_preferred_language(
    tenant: TenantCtx, said: str, language: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "language.preferred", lower=True) == [language]
    assert len(await tenant.values("u", "assistant.constraint")) == 1


async def test_a_language_not_to_answer_in_is_not_preferred(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "别用英文回答我", at=T1)
    assert await tenant.values("u", "language.preferred") == []


async def test_a_new_language_to_answer_in_replaces_the_last_but_not_one_spoken(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u", "s1", "我会说日语", at=T1)
    await tenant.say("u", "s1", "以后回答都用英文", at=T2)
    await tenant.say("u", "s1", "还是用中文回答吧", at="2026-03-01T09:02:00+08:00")
    assert sorted(await tenant.values("u", "language.preferred")) == ["中文", "日语"]
    assert await tenant.values("u", "language.preferred", "frozen") == ["英文"]


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("I'm Aisha.", "Aisha"),
        ("Hi, I'm Tom", "Tom"),
        ("我姓刘，叫刘思远，是做设计的", "刘思远"),
    ],
)
async def test_a_name_given_in_passing_is_the_name(tenant: TenantCtx, said: str, name: str) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "name.full") == [name]


@pytest.mark.parametrize("said", ["I'm Canadian", "I'm Catholic, by the way", "我点了外卖，叫外卖"])
async def test_where_one_is_from_or_a_faith_is_no_name(tenant: TenantCtx, said: str) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "name.full") == []


@pytest.mark.parametrize(
    ("said", "nickname"),
    [("以后喊我老王就行，别叫全名", "老王"), ("From now on call me Bex", "Bex")],
)
async def test_what_to_call_the_user_is_the_nickname(
    tenant: TenantCtx, said: str, nickname: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "name.nickname") == [nickname]


@pytest.mark.parametrize("said", ["call me when you're free", "call me back later"])
async def test_asking_for_a_phone_call_is_no_nickname(tenant: TenantCtx, said: str) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "name.nickname") == []


@pytest.mark.parametrize(
    ("said", "role"),
    [("我是搞销售的", "销售"), ("我是教数学的", "教数学"), ("I work in IT at a hospital", "IT")],
)
async def test_what_the_user_does_for_a_living_is_the_role(
    tenant: TenantCtx, said: str, role: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "work.role") == [role]


async def test_a_school_one_graduated_from_is_no_hometown(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我是浙大毕业的，学的是土木", at=T1)
    assert await tenant.values("u", "education.school") == ["浙大"]
    assert await tenant.values("u", "hometown") == []


async def test_a_department_of_a_government_is_the_employer(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I work for the state department of health", at=T1)
    assert await tenant.values("u", "work.employer") == ["state department of health"]


async def test_the_best_number_to_reach_the_user_is_the_phone(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "best number to reach me is (212) 555-0147", at=T1)
    assert await tenant.values("u", "contact.phone") == ["(212) 555-0147"]


async def test_hoping_to_do_something_is_a_plan_hoping_for_help_is_none(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u", "s1", "I'm hoping to learn Japanese this year", at=T1)
    await tenant.say("u", "s1", "I'm hoping you can help", at=T2)
    plans = await tenant.values("u", "plan")
    assert len(plans) == 1 and "learn Japanese" in plans[0]


@pytest.mark.parametrize(
    ("said", "kinds"),
    [
        ("I have a dog and a cat", ["cat", "dog"]),
        ("我有一只狗和一只猫", ["狗", "猫"]),
        ("We have a cat and two hamsters", ["cat", "hamster"]),
    ],
)
async def test_pets_of_several_kinds_in_one_breath_are_each_kept(
    tenant: TenantCtx, said: str, kinds: list[str]
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "pets.kind") == kinds


async def test_a_pet_of_someone_elses_is_not_the_users(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I have a dog and my sister has a cat", at=T1)
    assert await tenant.values("u", "pets.kind") == ["dog"]
