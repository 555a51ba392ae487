"""Denials, withdrawals and changes read by their structure, not their wording: a denial that
leaves its verb phrase out ("Actually I don't", "Not really.", "其实没有") takes back the turn
said right before it, never what answers the assistant; a slip that flips a taste's polarity
("打错了，是不喜欢") turns the liking into a dislike of the same thing; "it's not X, it's Y" puts Y
in X's place, a health value included; a contact or secret said to be over by its kind ("That
email is dead now") freezes the one value held under that key; a secret's new value said apart
from its kind ("…, the new one is X") replaces the old; a leading frame of time ("After I
graduated…", "手术以后…") leaves the main clause to be read; a Chinese move with the user left
out ("后来搬到了无锡") is the user's. Through the HTTP API."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-01T09:01:00+08:00"


@pytest.mark.parametrize(
    ("first", "then", "key", "old"),
    [
        ("I love horror movies.", "Actually I don't, I find them too scary.",
         "preference.likes", "horror movies"),
        ("I speak French.", "Well, not really. I only studied it for a year.",
         "language.preferred", "french"),
        ("我会说日语。", "其实没有，只是学过一点。", "language.preferred", "日语"),
    ],
)  # fmt: skip
async def test_a_denial_without_its_verb_phrase_takes_back_the_turn_before(
    tenant: TenantCtx, first: str, then: str, key: str, old: str
) -> None:
    active, frozen = await tenant.change("u", (first, then), key, at=(T1, T2))
    assert (active, frozen) == ([], [old])


async def test_a_bare_denial_answering_the_assistant_takes_back_nothing(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u", "s1", "I love horror movies.", at=T1)
    r = await tenant.client.post(
        f"{tenant.user('u')}/sessions/s1/messages?wait=true",
        json={
            "messages": [
                {"role": "assistant", "content": "Do you want a list of new releases?"},
                {"role": "user", "content": "Not really.", "occurred_at": T2},
            ]
        },
        headers=tenant.headers,
    )
    assert r.status_code == 201, r.text
    assert await tenant.values("u", "preference.likes", lower=True) == ["horror movies"]


@pytest.mark.parametrize(
    "text",
    ["I don't know, maybe.", "Not really sure what to cook tonight.", "我不知道晚上吃什么。"],
)
async def test_what_only_sounds_like_a_denial_keeps_the_turn_before(
    tenant: TenantCtx, text: str
) -> None:
    await tenant.say("u", "s1", "I love horror movies.", at=T1)
    await tenant.say("u", "s1", text, at=T2)
    assert await tenant.values("u", "preference.likes", lower=True) == ["horror movies"]


@pytest.mark.parametrize(
    ("first", "slip", "thing"),
    [
        ("我喜欢吃榴莲。", "打错了，是不喜欢。", "榴莲"),
        ("I like jazz.", "typo, I meant I don't like it.", "jazz"),
    ],
)
async def test_a_slip_of_polarity_turns_the_liking_into_a_dislike(
    tenant: TenantCtx, first: str, slip: str, thing: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    await tenant.say("u", "s1", slip, at=T2)
    assert await tenant.values("u", "preference.likes", lower=True) == []
    assert await tenant.values("u", "preference.likes", "frozen", lower=True) == [thing]
    assert await tenant.values("u", "preference.dislikes", lower=True) == [thing]


@pytest.mark.parametrize(
    ("first", "then", "old", "new"),
    [
        ("I'm allergic to shellfish.", "Scratch that, it's not shellfish, it's peanuts.",
         "shellfish", "peanuts"),
        ("我对海鲜过敏。", "其实不是海鲜，是芒果。", "海鲜", "芒果"),
    ],
)  # fmt: skip
async def test_a_value_said_in_place_of_a_denied_one_replaces_a_health_value(
    tenant: TenantCtx, first: str, then: str, old: str, new: str
) -> None:
    active, frozen = await tenant.change("u", (first, then), "health.allergy", at=(T1, T2))
    assert (active, frozen) == ([new], [old])


async def test_a_slip_that_names_no_stored_value_keeps_a_health_value(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u", ("I'm allergic to shellfish.", "oops, I meant peanuts"), "health.allergy", at=(T1, T2)
    )
    assert (active, frozen) == (["shellfish"], [])


@pytest.mark.parametrize(
    ("first", "then", "key"),
    [
        ("My email is sam@example.org.", "That email is dead now, I don't use it anymore.",
         "contact.email"),
        ("我的邮箱是 li@example.com", "我那个旧邮箱不用了", "contact.email"),
    ],
)  # fmt: skip
async def test_a_contact_said_to_be_over_by_its_kind_is_frozen(
    tenant: TenantCtx, first: str, then: str, key: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    assert len(await tenant.values("u", key)) == 1
    await tenant.say("u", "s1", then, at=T2)
    assert await tenant.values("u", key) == []
    assert len(await tenant.values("u", key, "frozen")) == 1


async def test_one_of_two_emails_said_to_be_over_freezes_neither(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "My email is sam@example.org, my work email is sam@acme.com", at=T1)
    await tenant.say("u", "s1", "That email is dead now.", at=T2)
    assert len(await tenant.values("u", "contact.email")) == 2


@pytest.mark.parametrize(
    ("first", "then", "key"),
    [
        ("My password is hunter2.", "I changed my password, the new one is tiger77.",
         "account.password"),
        ("我的密码是abc12345。", "我把密码改了，新的是xyz98765。", "account.password"),
        ("My card number is 4111 1111 1111 1111.",
         "I got a new card, the number is 5500 0000 0000 0004.", "finance.card"),
    ],
)  # fmt: skip
async def test_a_secret_s_new_value_said_apart_from_its_kind_replaces_the_old(
    tenant: TenantCtx, first: str, then: str, key: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    await tenant.say("u", "s1", then, at=T2)
    assert len(await tenant.values("u", key)) == 1
    assert len(await tenant.values("u", key, "frozen")) == 1
    # the clause that names the kind ("I got a new card") is the value's label, no fact
    assert [k for k, _ in await tenant.facts("u")] == [key]


@pytest.mark.parametrize(
    ("first", "then", "secret"),
    [
        ("My password is hunter2.", "I changed my password, the new one is tiger77.", "tiger77"),
        ("我的密码是abc12345。", "我把密码改了，新的是xyz98765。", "xyz98765"),
    ],
)  # fmt: skip
async def test_a_secret_said_apart_from_its_kind_is_kept_in_clear_nowhere(
    tenant: TenantCtx, first: str, then: str, secret: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    await tenant.say("u", "s1", then, at=T2)
    for status in ("active", "frozen"):  # one status a listing
        r = await tenant.client.get(
            f"{tenant.user('u')}/memories", params={"status": status}, headers=tenant.headers
        )
        assert r.status_code == 200, r.text
        assert secret not in r.text
        if status == "active":
            types = {m["type"] for m in r.json()["items"]}
            assert "episode" in types  # the turn is kept, masked
    r = await tenant.client.get(f"{tenant.user('u')}/sessions/s1/context", headers=tenant.headers)
    assert r.status_code == 200, r.text
    assert secret not in r.text
    assert secret not in str(await tenant.recall("u", "my new password 新密码"))


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("After I graduated I moved to Berlin.", "residence.city", "berlin"),
        ("Since the divorce I live in Leeds.", "residence.city", "leeds"),
        ("手术以后我不喝咖啡了。", "diet.avoid", "咖啡"),
    ],
)
async def test_a_leading_frame_of_time_leaves_the_main_clause_read(
    tenant: TenantCtx, text: str, key: str, value: str
) -> None:
    await tenant.say("u", "s1", text, at=T1)
    assert await tenant.values("u", key, lower=True) == [value]


@pytest.mark.parametrize(
    "text", ["上大学的时候我不吃辣，现在很能吃辣。", "When it rains I don't run."]
)
async def test_a_frame_of_a_period_or_a_condition_forms_no_standing_avoidance(
    tenant: TenantCtx, text: str
) -> None:
    await tenant.say("u", "s1", text, at=T1)
    assert await tenant.values("u", "diet.avoid") == []


async def test_a_chinese_move_with_the_user_left_out_replaces_the_city(
    tenant: TenantCtx,
) -> None:
    active, frozen = await tenant.change(
        "u", ("我住在南京。", "后来搬到了无锡。"), "residence.city", at=(T1, T2)
    )
    assert (active, frozen) == (["无锡"], ["南京"])


@pytest.mark.parametrize(
    "then",
    ["我哥去年搬到了无锡，后来又搬到了苏州。", "我姐之前在上海，后来搬到了杭州"],
)
async def test_a_relatives_move_said_on_in_a_clause_without_subject_keeps_the_users_city(
    tenant: TenantCtx, then: str
) -> None:
    active, frozen = await tenant.change("u", ("我住在南京。", then), "residence.city", at=(T1, T2))
    assert (active, frozen) == (["南京"], [])


async def test_the_user_named_again_after_a_relative_moves_the_users_city(
    tenant: TenantCtx,
) -> None:
    active, frozen = await tenant.change(
        "u", ("我住在南京。", "我哥留在南京了，我后来搬到了无锡。"), "residence.city", at=(T1, T2)
    )
    assert (active, frozen) == (["无锡"], ["南京"])


async def test_a_thing_sold_is_withdrawn_and_the_new_one_held(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I drive a Toyota.", at=T1)
    await tenant.say("u", "s1", "I sold the Toyota and now I drive a Tesla.", at=T2)
    held = [m["content"].lower() for m in await tenant.memories("u", status="active")]
    assert any("tesla" in c for c in held)
    assert not any("toyota" in c for c in held)


async def test_a_slip_of_polarity_beside_what_the_turn_says_of_the_thing(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u", "s1", "我喜欢吃香菜", at=T1)
    await tenant.say("u", "s1", "打错了，是不喜欢！香菜我一口都不碰", at=T2)
    assert await tenant.values("u", "preference.likes") == []
    assert await tenant.values("u", "preference.dislikes") == ["香菜"]


async def test_a_contact_said_to_be_over_beside_a_new_one_freezes_the_old(
    tenant: TenantCtx,
) -> None:
    active, frozen = await tenant.change(
        "u",
        (
            "工作邮箱是 wang@huaxin.com",
            "我离职了 so 那个工作邮箱 no longer works，以后用 li88@163.com",
        ),
        "contact.email",
        at=(T1, T2),
    )
    assert (active, frozen) == (["li88@163.com"], ["wang@huaxin.com"])


@pytest.mark.parametrize("then", ["The pain is gone now.", "Is that email dead?"])
async def test_what_is_over_but_names_no_kept_kind_freezes_nothing(
    tenant: TenantCtx, then: str
) -> None:
    await tenant.say("u", "s1", "My email is sam@example.org.", at=T1)
    await tenant.say("u", "s1", then, at=T2)
    assert await tenant.values("u", "contact.email") == ["sam@example.org"]


async def test_a_new_password_said_as_it_s_now_replaces_the_old(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "the wifi password for my router is sunflower88", at=T1)
    await tenant.say("u", "s1", "ok I changed the router password, it's BlueHeron!42 now", at=T2)
    assert len(await tenant.values("u", "account.password")) == 1
    assert len(await tenant.values("u", "account.password", "frozen")) == 1


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [("我妈讨厌香菜，我倒挺喜欢", "preference.likes", "香菜"),
     ("他喜欢踢球，我不喜欢", "preference.dislikes", "踢球")],
)  # fmt: skip
async def test_a_taste_with_its_object_left_out_takes_the_thing_named_before(
    tenant: TenantCtx, text: str, key: str, value: str
) -> None:
    await tenant.say("u", "s1", text, at=T1)
    assert await tenant.values("u", key) == [value]
    # the other person's taste is not the user's
    other = "preference.dislikes" if key == "preference.likes" else "preference.likes"
    assert await tenant.values("u", other) == []
