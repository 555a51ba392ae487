"""Denials and requests dropped: a clause denying that something was ever so ("I never lived
in Denver", "我没在京东上过班") ends what it names as a clause of ending does; a taste of the
user's said against a relative's with its object only pointed at ("my son hates olives but I
love them", "我爸不爱喝茶，我倒挺爱喝的") holds the relative's object; a request of the user's
pointed at and dropped ("forget the dark mode rule", "那条就不用了") forms no rule and takes the
request back; a cleft ("it's shellfish I'm allergic to") is read in its plain order; an
inability said with a degree ("我不太能吃辣") is an avoidance. Through the HTTP API, in Chinese and
English."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1 = "2026-03-01T09:00:00+08:00"
T2 = "2026-03-01T09:05:00+08:00"


@pytest.mark.parametrize(
    ("first", "then", "key", "held"),
    [
        ("I work at Oracle.", "No, I never worked at Oracle, that was my uncle.", "work.employer",
         "oracle"),
        ("I live in Denver.", "Hmm, I never lived in Denver, I only visited once.",
         "residence.city", "denver"),
        ("我在京东上班", "其实我没在京东上过班，是我表姐在那", "work.employer", "京东"),
        ("我住在苏州", "我从来没在苏州住过，只是去玩过", "residence.city", "苏州"),
    ],
)  # fmt: skip
async def test_a_denial_that_it_was_ever_so_freezes_it(
    tenant: TenantCtx, first: str, then: str, key: str, held: str
) -> None:
    active, frozen = await tenant.change("u", (first, then), key, at=(T1, T2))
    assert active == [] and frozen == [held], (active, frozen)


@pytest.mark.parametrize(
    ("text", "key", "value", "relative"),
    [
        ("My son hates olives but I love them.", "preference.likes", "olives", "son"),
        ("My brother doesn't drink tea, but I drink it every morning", "preference.drink", "tea",
         "brother"),
        ("我爸不爱喝茶，我倒挺爱喝的", "preference.drink", "茶", "爸"),
        ("我老婆不喜欢吃羊肉，我还挺喜欢吃的", "preference.likes", "羊肉", "老婆"),
    ],
)  # fmt: skip
async def test_a_taste_said_against_a_relatives_holds_their_object(
    tenant: TenantCtx, text: str, key: str, value: str, relative: str
) -> None:
    await tenant.say("u", "s1", text, at=T1)
    facts = await tenant.facts("u")
    assert value in [v.lower() for v in await tenant.values("u", key)], facts
    # the relative's negation is no avoidance or dislike of the user's
    assert not any(k in ("diet.avoid", "preference.dislikes") for k, _ in facts), facts
    assert any(relative in (v or "") for k, v in facts if k == "family.member"), facts


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("Always reply in bullet points.", "Actually, forget the bullet points rule."),
        ("以后回答都用繁体字", "算了，用繁体字的那条就不用了"),
        ("以后都用日语回复我", "用日语的那条不要了"),
    ],
)
async def test_a_rule_pointed_at_and_dropped_is_no_rule(
    tenant: TenantCtx, first: str, then: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    assert await tenant.values("u", "assistant.constraint") != []
    await tenant.say("u", "s1", then, at=T2)
    assert await tenant.values("u", "assistant.constraint") == []


async def test_a_cleft_after_a_denial_is_read_in_its_plain_order(tenant: TenantCtx) -> None:
    # "it's shellfish I'm allergic to" is "I'm allergic to shellfish", beside the denial
    active, frozen = await tenant.change(
        "u",
        (
            "I'm allergic to walnuts.",
            "No wait, I'm not allergic to walnuts, it's shellfish I'm allergic to.",
        ),
        "health.allergy",
        at=(T1, T2),
    )
    assert active == ["shellfish"] and frozen == ["walnuts"], (active, frozen)


@pytest.mark.parametrize(
    ("text", "value"), [("我不太能吃辣", "辣"), ("我不怎么能喝酒，一口就醉", "酒")]
)
async def test_an_inability_said_with_a_degree_is_avoided(
    tenant: TenantCtx, text: str, value: str
) -> None:
    await tenant.say("u", "s1", text, at=T1)
    assert value in await tenant.values("u", "diet.avoid")


async def test_a_taste_turned_over_points_back_at_its_thing(tenant: TenantCtx) -> None:
    # "I used to hate X but now I like them": the liking holds X, the dislike is taken back
    await tenant.say("u", "s1", "I used to hate mushrooms but now I like them", at=T1)
    assert await tenant.values("u", "preference.likes", lower=True) == ["mushrooms"]
    assert await tenant.values("u", "preference.dislikes") == []


@pytest.mark.parametrize(
    ("first", "then", "key", "held"),
    [
        ("我是成都人", "我从来没说过我是成都人，我只是在成都上过学", "hometown", "成都"),
        ("I have a hamster called Pip.", "Oops, Pip belongs to my niece, I don't have pets.",
         "pets.name", "pip"),
    ],
)  # fmt: skip
async def test_what_the_user_never_said_or_does_not_own_is_frozen(
    tenant: TenantCtx, first: str, then: str, key: str, held: str
) -> None:
    active, frozen = await tenant.change("u", (first, then), key, at=(T1, T2))
    assert active == [] and frozen == [held], (active, frozen)


async def test_meat_again_after_a_but_ends_the_diet(tenant: TenantCtx) -> None:
    # 不过 opens the clause: it negates nothing, so the meatless diet ends
    active, frozen = await tenant.change(
        "u", ("我吃素", "不过上个月开始吃鸡肉了"), "diet.style", at=(T1, T2)
    )
    assert active == [] and frozen == ["素食"], (active, frozen)


@pytest.mark.parametrize(
    ("text", "value"),
    [("I don't really enjoy karaoke.", "karaoke"), ("I don't particularly like opera", "opera")],
)
async def test_a_hedged_dislike_is_a_dislike(tenant: TenantCtx, text: str, value: str) -> None:
    await tenant.say("u", "s1", text, at=T1)
    assert await tenant.values("u", "preference.dislikes", lower=True) == [value]
