"""A home taken somewhere, an offer taken, a budget others set and a number corrected in
Chinese words each replace the fact they change; what only looks like them replaces nothing.
Through the HTTP API (docs/formation.md, "Homes, offers, budgets set by others, numbers in
words").
"""

from __future__ import annotations

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-01T09:01:00+08:00"


async def test_a_home_taken_somewhere_is_where_the_user_lives_now(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u1",
        ("I live in Portland", "we finally bought a little house in Eugene, closing was friday"),
        "residence.city",
        at=(T1, T2),
    )
    assert (active, frozen) == (["eugene"], ["portland"])
    active, frozen = await tenant.change(
        "u2",
        ("I'm based in Glasgow", "Been renting a flat up in Aberdeen since the new job started"),
        "residence.city",
        at=(T1, T2),
    )
    assert (active, frozen) == (["aberdeen"], ["glasgow"])


async def test_a_place_rented_for_a_while_is_no_new_home(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u1",
        ("I live in Portland", "we're renting a cabin in Bend for the long weekend"),
        "residence.city",
        at=(T1, T2),
    )
    assert (active, frozen) == (["portland"], [])
    active, frozen = await tenant.change(
        "u2",
        ("I live in Portland", "my brother just bought a house in Salem"),
        "residence.city",
        at=(T1, T2),
    )
    assert (active, frozen) == (["portland"], [])


async def test_an_offer_taken_is_the_new_employer(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u1",
        ("I work at Dunmore Freight", "great news: accepted the offer from Larkspur Health!!"),
        "work.employer",
        at=(T1, T2),
    )
    assert (active, frozen) == (["larkspur health"], ["dunmore freight"])


async def test_an_offer_only_received_changes_nothing(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u1",
        ("I work at Dunmore Freight", "got an offer from Larkspur Health but the pay is worse"),
        "work.employer",
        at=(T1, T2),
    )
    assert (active, frozen) == (["dunmore freight"], [])


async def test_a_budget_cut_by_others_is_the_projects_new_budget(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u1",
        ("our budget for the app is $30,000", "ugh, they slashed the budget to $18,000 today"),
        "project.budget",
        at=(T1, T2),
    )
    assert (active, frozen) == (["$18,000"], ["$30,000"])


async def test_someone_elses_budget_is_not_the_users(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u1",
        ("our budget for the app is $30,000", "he said his budget for the car is $9,000"),
        "project.budget",
        at=(T1, T2),
    )
    assert (active, frozen) == (["$30,000"], [])


async def test_a_number_corrected_in_chinese_words_replaces_the_digits(
    tenant: TenantCtx,
) -> None:
    active, frozen = await tenant.change(
        "u1", ("我今年三十一岁", "不对不对，说错了，是三十四"), "age", at=(T1, T2)
    )
    assert (active, frozen) == (["34"], ["31"])


async def test_a_pet_described_by_its_looks_is_the_new_pet(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u1",
        (
            "I have a dog named Rufus",
            "Rufus died in March :( we rescued a tiny grey kitten yesterday, his name is Pip",
        ),
        "pets.name",
        at=(T1, T2),
    )
    assert (active, frozen) == (["pip"], ["rufus"])
    assert "kitten" in await tenant.values("u1", "pets.kind", lower=True)


async def test_a_home_bought_for_a_purpose_or_long_ago_is_no_new_home(tenant: TenantCtx) -> None:
    for i, said in enumerate(
        (
            "I bought a house in Detroit as an investment property and rent it out.",
            "We rented a flat in Edinburgh during the festival.",
            "I bought my first house in Ohio in 1998 and sold it in 2005.",
        )
    ):
        active, frozen = await tenant.change(
            f"u{i}", ("I live in Chicago", said), "residence.city", at=(T1, T2)
        )
        assert (active, frozen) == (["chicago"], []), said


async def test_a_home_named_with_when_keeps_only_the_place(tenant: TenantCtx) -> None:
    for i, (said, city) in enumerate(
        (
            ("We bought a house in Munich last spring.", "munich"),
            ("We rented an apartment in Limerick and moved in last week.", "limerick"),
            ("Finally got an apartment in Lyon!", "lyon"),
            ("My wife and I just closed on a house in Denver.", "denver"),
        )
    ):
        active, frozen = await tenant.change(
            f"u{i}", ("I live in Cork", said), "residence.city", at=(T1, T2)
        )
        assert (active, frozen) == ([city], ["cork"]), said


async def test_an_offer_taken_for_a_service_is_no_employer(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u1",
        ("I work at Dunmore Freight", "I accepted the offer from Comcast to upgrade my internet."),
        "work.employer",
        at=(T1, T2),
    )
    assert (active, frozen) == (["dunmore freight"], [])


async def test_someone_elses_slip_keeps_the_users_age(tenant: TenantCtx) -> None:
    for i, said in enumerate(
        ("我妹妹说错了，她是二十五。", "他说错了，他是三十一。", "老师说错了，答案是二十九。")
    ):
        active, frozen = await tenant.change(f"u{i}", ("我今年二十八。", said), "age", at=(T1, T2))
        assert (active, frozen) == (["28"], []), said


async def test_an_offer_taken_in_chinese_or_by_its_owners_name_is_the_new_employer(
    tenant: TenantCtx,
) -> None:
    for i, (first, said, new, old) in enumerate(
        (
            ("我在网易上班。", "我签了小红书的offer，月底入职。", "小红书", "网易"),
            ("我在网易上班。", "刚接受了米哈游的录用通知！", "米哈游", "网易"),
            (
                "I work at Dunmore Freight",
                "I've accepted Canva's offer.",
                "canva",
                "dunmore freight",
            ),
        )
    ):
        active, frozen = await tenant.change(f"u{i}", (first, said), "work.employer", at=(T1, T2))
        assert (active, frozen) == ([new], [old]), said


async def test_an_offer_refused_asked_about_or_someone_elses_changes_nothing_in_chinese(
    tenant: TenantCtx,
) -> None:
    for i, said in enumerate(
        (
            "我拒了小红书的offer。",
            "要不要接受小红书的offer？",
            "我表妹签了小红书的offer。",
            "收到了小红书的offer。",
        )
    ):
        active, frozen = await tenant.change(
            f"u{i}", ("我在网易上班。", said), "work.employer", at=(T1, T2)
        )
        assert (active, frozen) == (["网易"], []), said
