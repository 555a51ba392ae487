"""Tastes, diet, work and languages said in passing — inside a longer message, beside a question
or a second clause about something else, in words no rule lists — form the user's fact, and
look-alikes form none; through the HTTP API."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1 = "2026-03-01T09:00:00+08:00"


# --- a statement beside a question --------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("我最喜欢的电影是霸王别姬，顺便问下今天天气怎么样", "霸王别姬"),
        ("我超爱吃火锅，对了今天天气怎么样", "火锅"),
        ("My favourite band is Wilco, by the way what's the weather like today?", "wilco"),
    ],
)
async def test_a_favourite_beside_a_question_is_kept(
    tenant: TenantCtx, said: str, value: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "preference.likes") == [value]


@pytest.mark.parametrize("said", ["你最喜欢的作家是谁？", "Do you have a favourite band?"])
async def test_a_question_alone_forms_no_taste(tenant: TenantCtx, said: str) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "preference.likes") == []


# --- a language named by its form -----------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "languages"),
    [
        ("我母语是彝语", ["彝语"]),
        ("我的母语是温州话，普通话是后来上学才学的", ["普通话", "温州话"]),
        ("我会说潮汕话和粤语", ["潮汕话", "粤语"]),
        ("I speak Yoruba", ["yoruba"]),
        ("my mother tongue is Amharic", ["amharic"]),
    ],
)
async def test_a_language_is_known_by_its_form(
    tenant: TenantCtx, said: str, languages: list[str]
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "language.preferred") == languages


@pytest.mark.parametrize("said", ["说实话，我不太会做饭", "我说的话你别当真", "I speak Monday"])
async def test_a_word_of_speech_is_no_language(tenant: TenantCtx, said: str) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "language.preferred") == []


async def test_a_mother_tongue_names_no_mother(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "my mother tongue is Spanish", at=T1)
    assert await tenant.values("u", "family.member") == []
    assert await tenant.values("u", "language.preferred") == ["spanish"]


# --- food that can no longer be had ----------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("做完手术以后，凉的我一点都吃不了了", "凉"),
        ("我乳糖不耐受，所以 cheese 都不能吃", "cheese"),
        ("I can't really handle dairy anymore", "dairy"),
        ("since the surgery I can't do greasy food at all", "greasy food"),
    ],
)
async def test_food_the_user_cannot_have_is_avoided(
    tenant: TenantCtx, said: str, value: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert value in await tenant.values("u", "diet.avoid")


@pytest.mark.parametrize(
    "said", ["大家都不吃香菜", "别人都不喝啤酒", "I can't handle stress anymore"]
)
async def test_what_others_skip_or_a_strain_is_no_avoided_food(
    tenant: TenantCtx, said: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "diet.avoid") == []


async def test_a_thing_said_first_in_english_inside_chinese_is_disliked(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u", "s1", "true crime podcasts 我是真的听不下去", at=T1)
    assert await tenant.values("u", "preference.dislikes") == ["true crime podcasts"]


# --- work said in passing --------------------------------------------------------------------


async def test_work_placed_at_a_firm_names_the_employer(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "Work's been crazy at Moderna, I'm a lab technician", at=T1)
    assert await tenant.values("u", "work.employer") == ["Moderna"]
    assert await tenant.values("u", "work.role") == ["lab technician"]


async def test_work_with_no_firm_names_no_employer(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "Work has been slow at the moment, honestly", at=T1)
    assert await tenant.values("u", "work.employer") == []


@pytest.mark.parametrize(
    ("said", "role"),
    [
        ("I'm a paralegal so mornings are chaos", "paralegal"),
        ("Been a welder for fifteen years now and I still enjoy it", "welder"),
    ],
)
async def test_a_job_beside_a_second_clause_is_the_role(
    tenant: TenantCtx, said: str, role: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "work.role") == [role]


async def test_so_of_degree_forms_no_role(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I'm so tired of my commute", at=T1)
    assert await tenant.values("u", "work.role") == []


async def test_a_firm_and_an_english_title_said_the_chinese_way(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我是 Shopee 的 QA", at=T1)
    assert await tenant.values("u", "work.employer") == ["Shopee"]
    assert await tenant.values("u", "work.role") == ["QA"]


async def test_freelance_in_the_firms_place_is_no_employer(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我是 freelance 的 translator", at=T1)
    assert await tenant.values("u", "work.employer") == []
    assert await tenant.values("u", "work.role") == ["translator"]


async def test_a_diet_is_no_job(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I'm a flexitarian, have been for years", at=T1)
    assert await tenant.values("u", "work.role") == []
    assert await tenant.values("u", "diet.style") == ["flexitarian"]


async def test_an_adverb_after_a_liked_thing_is_no_part_of_it(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I still love long train rides weirdly", at=T1)
    assert await tenant.values("u", "preference.likes") == ["long train rides"]


async def test_a_firm_of_a_kind_then_its_name_is_the_employer(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I'm a barista at a cafe called Little Owl, it's fine", at=T1)
    assert await tenant.values("u", "work.employer") == ["Little Owl"]
    assert await tenant.values("u", "work.role") == ["barista"]


@pytest.mark.parametrize(
    ("turns", "role", "employer"),
    [
        (("I lead the fraud analytics team at Monzo",), "fraud analytics team lead", "Monzo"),
        (
            ("I work at Monzo", "I run the fraud analytics team there"),
            "fraud analytics team lead",
            "Monzo",
        ),
        (("我在美团上班", "我在那边带一个推荐算法的团队"), "推荐算法团队负责人", "美团"),
    ],
)
async def test_the_team_the_user_leads_names_the_role(
    tenant: TenantCtx, turns: tuple[str, ...], role: str, employer: str
) -> None:
    for text in turns:
        await tenant.say("u", "s1", text, at=T1)
    assert await tenant.values("u", "work.role") == [role]
    assert await tenant.values("u", "work.employer") == [employer]


@pytest.mark.parametrize(
    ("said", "employer", "place"),
    [
        ("我在字节跳动上海分公司上班", "字节跳动", "上海"),
        ("I work at Stripe's Dublin office", "Stripe", "Dublin"),
    ],
)
async def test_an_office_named_by_its_place_is_where_the_user_works(
    tenant: TenantCtx, said: str, employer: str, place: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "work.employer") == [employer]
    assert await tenant.values("u", "work.location") == [place]


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("只要是恐怖片我都爱看", "恐怖片"),
        ("anything 芒果味的我都爱", "芒果"),
        ("I love anything with coconut in it", "coconut"),
        ("huge fan of the Celtics, been going to games since I was a kid", "celtics"),
    ],
)
async def test_whatever_is_of_a_kind_liked_names_the_kind(
    tenant: TenantCtx, said: str, value: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "preference.likes") == [value]
    assert await tenant.values("u", "work.role") == []


@pytest.mark.parametrize(
    ("said", "languages"), [("法语只会一点点", []), ("粤语说得还行，就是不会写", ["粤语"])]
)
async def test_a_language_the_user_can_speak_a_little_is_no_rule(
    tenant: TenantCtx, said: str, languages: list[str]
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "assistant.constraint") == []
    # spoken fairly well, it is a language of the user's; a little only, it is none they
    # would want answers in (docs/formation.md, "Look-alikes of a fact")
    assert await tenant.values("u", "language.preferred") == languages


@pytest.mark.parametrize(
    ("said", "place"),
    [
        ("I'm based out of our Chicago office most weeks", "Chicago"),
        ("I work at the London office, mostly on payments", "London"),
    ],
)
async def test_the_office_the_user_works_from_is_the_work_location(
    tenant: TenantCtx, said: str, place: str
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "work.location") == [place]
    assert await tenant.values("u", "work.employer") == []


async def test_a_visit_to_an_office_is_no_work_location(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I'm at the Chicago office for a meeting today", at=T1)
    assert await tenant.values("u", "work.location") == []


async def test_the_workplace_said_first_without_owner_is_the_users(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "公司在杭州，不过我住苏州，每天坐高铁", at=T1)
    assert await tenant.values("u", "work.location") == ["杭州"]
    assert await tenant.values("u", "residence.city") == ["苏州"]


@pytest.mark.parametrize(
    ("said", "place", "employer"),
    [
        ("base 在 Berlin，公司是一家 startup 叫 Lumina", "Berlin", "Lumina"),
        ("我 base 在深圳", "深圳", None),
    ],
)
async def test_where_work_is_based_and_the_firm_named_after_it(
    tenant: TenantCtx, said: str, place: str, employer: str | None
) -> None:
    await tenant.say("u", "s1", said, at=T1)
    assert await tenant.values("u", "work.location") == [place]
    assert await tenant.values("u", "work.employer") == ([employer] if employer else [])


async def test_a_shop_near_the_office_is_no_employer(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "公司附近有家店叫老王烧烤", at=T1)
    assert await tenant.values("u", "work.employer") == []


async def test_a_degree_before_a_refusal_is_no_food(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "海鲜我完全不行，一点都吃不了", at=T1)
    assert "一点" not in await tenant.values("u", "diet.avoid")
