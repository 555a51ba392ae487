"""Contacts and secrets given as the ones to use from now on replace the ones given before;
given beside them, they do not. Through the HTTP API, in Chinese and English
(docs/formation.md, "Contacts and secrets in place of the old ones")."""

from __future__ import annotations

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-01T09:01:00+08:00"


async def test_an_address_to_use_from_now_on_replaces_the_old_one(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u1",
        (
            "you can reach me at sam.lee@acme.io",
            "pls use sam.lee.home@gmail.com from now on, acme is closing my account friday",
        ),
        "contact.email",
        at=(T1, T2),
    )
    assert (active, frozen) == (["sam.lee.home@gmail.com"], ["sam.lee@acme.io"])
    active, frozen = await tenant.change(
        "u2",
        ("我邮箱是 li.wei@company.cn", "公司邮箱我不怎么看了，以后直接发 liwei88@163.com"),
        "contact.email",
        at=(T1, T2),
    )
    assert (active, frozen) == (["liwei88@163.com"], ["li.wei@company.cn"])
    active, frozen = await tenant.change(
        "u3",
        ("my number is 415-555-0100", "from now on call me on 415-555-0199, the old phone died"),
        "contact.phone",
        at=(T1, T2),
    )
    assert (active, frozen) == (["415-555-0199"], ["415-555-0100"])
    active, frozen = await tenant.change(
        "u4",
        ("email me at dana@fastmail.com", "actually, email me at dana.k@proton.me instead"),
        "contact.email",
        at=(T1, T2),
    )
    assert (active, frozen) == (["dana.k@proton.me"], ["dana@fastmail.com"])
    # a request that gives the user's own address still gives it
    active, frozen = await tenant.change(
        "u5",
        ("my email is tom@old.io", "Please note my new email: tom@new.io"),
        "contact.email",
        at=(T1, T2),
    )
    assert (active, frozen) == (["tom@new.io"], ["tom@old.io"])


async def test_an_address_given_beside_the_first_replaces_nothing(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u1",
        ("my email is ana@home.net", "my work email is ana.r@bigcorp.com too"),
        "contact.email",
        at=(T1, T2),
    )
    assert (active, frozen) == (["ana.r@bigcorp.com", "ana@home.net"], [])
    # "以后" after an hour of the day is "after", not "from now on"
    active, frozen = await tenant.change(
        "u2",
        ("我手机号 13800001111", "下班以后打我另一个号 13912345678"),
        "contact.phone",
        at=(T1, T2),
    )
    assert (active, frozen) == (["13800001111", "13912345678"], [])
    # someone else's, one denied, one for a time or a case only: the user's stays
    for user, first, then, key in (
        (
            "u3",
            "My email is dana@acme.com",
            "From now on cc my assistant at pat@acme.com",
            "contact.email",
        ),
        ("u4", "我的邮箱是chen@126.com", "以后联系我的助理zhu@corp.com就行", "contact.email"),
        (
            "u5",
            "My email is jo@mail.com",
            "Don't use jo.work@corp.com from now on, it's dead",
            "contact.email",
        ),
        (
            "u6",
            "My number is 415-555-0132",
            "On weekends call me at 415-555-0199 instead",
            "contact.phone",
        ),
    ):
        active, frozen = await tenant.change(user, (first, then), key, at=(T1, T2))
        assert frozen == [], then


async def test_a_secret_given_with_what_it_is_for_or_a_sentence_later(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u1", "s1", "here's my passport number for the visa form: X1234567", at=T1)
    assert len(await tenant.values("u1", "identity.document")) == 1
    await tenant.say(
        "u1",
        "s1",
        "ugh the old passport expired. got the renewed one today, new number is X7654321",
        at=T2,
    )
    assert len(await tenant.values("u1", "identity.document")) == 1
    assert len(await tenant.values("u1", "identity.document", "frozen")) == 1
    await tenant.say("u2", "s1", "my passport number for the trip is in the blue drawer", at=T1)
    assert await tenant.values("u2", "identity.document") == []


async def test_a_secret_detection_seals_is_a_secret_kept(tenant: TenantCtx) -> None:
    # however it is worded: the password, PIN or code the service seals is kept under its key
    for user, text in (
        ("u1", "交易密码：902814"),
        ("u2", "can u save my alarm passcode? its 7314"),
        ("u3", "the wifi password at the cabin, the one I set up last summer, is bluebird77"),
    ):
        await tenant.say(user, "s1", text, at=T1)
        assert len(await tenant.values(user, "account.password")) == 1, text
    # a code sent once, a card's security code, someone else's, an old one, a story's, a test
    # card, an order's number: not the user's to keep
    for user, text in (
        ("u4", "刚收到的短信验证码：83 47 21"),
        ("u5", "the security code on the back of my visa is 392"),
        ("u6", "my mom's pin is 4821"),
        ("u7", "Sam's wifi password is SunnyDay2024"),
        ("u8", "网站给的一次性密码是773311"),
        ("u9", "My old password was tiger7788 but I changed it last week"),
        ("u10", "小说里主角的密码是abc12345"),
        ("u11", "For the Stripe sandbox use the test card 4242 4242 4242 4242"),
        ("u12", "订单号6222021001123456789，帮我查下物流"),
        ("u13", "我以前的支付宝密码是 abc12345，现在早就改了"),
        ("u14", "The hotel gave me a door code just for tonight: 4471."),
    ):
        await tenant.say(user, "s1", text, at=T1)
        for key in ("account.password", "identity.document", "finance.card"):
            assert await tenant.values(user, key) == [], text


async def test_a_contact_given_wrong_before_is_replaced_by_the_right_one(
    tenant: TenantCtx,
) -> None:
    active, frozen = await tenant.change(
        "u1",
        (
            "my number is 415-555-0100",
            "Actually I gave you the wrong one, my number is 415-555-0188",
        ),
        "contact.phone",
        at=(T1, T2),
    )
    assert (active, frozen) == (["415-555-0188"], ["415-555-0100"])
    active, frozen = await tenant.change(
        "u2",
        ("我的手机号是 13912345678", "刚才号码给错了，是 13912345679"),
        "contact.phone",
        at=(T1, T2),
    )
    assert (active, frozen) == (["13912345679"], ["13912345678"])
    # someone else's wrong number is theirs to correct
    active, frozen = await tenant.change(
        "u3",
        (
            "my number is 415-555-0100",
            "my sister gave you the wrong number, hers is 415-555-0177",
        ),
        "contact.phone",
        at=(T1, T2),
    )
    assert (active, frozen) == (["415-555-0100"], [])


async def test_a_contact_from_now_on_in_a_clause_with_in_replaces_the_old_one(
    tenant: TenantCtx,
) -> None:
    """ "in every form" limits nothing; "in <a Place>" does ("while I'm in Tokyo …")."""
    active, frozen = await tenant.change(
        "u1",
        ("my email is kim@old.io", "use kim@new.io in every form from now on"),
        "contact.email",
        at=(T1, T2),
    )
    assert (active, frozen) == (["kim@new.io"], ["kim@old.io"])
    active, frozen = await tenant.change(
        "u2",
        ("my email is kim@old.io", "while I'm in Tokyo, use kim@new.io from now on"),
        "contact.email",
        at=(T1, T2),
    )
    assert (sorted(active), frozen) == (["kim@new.io", "kim@old.io"], [])
    assert await tenant.values("u2", "residence.city") == []  # a stay, no home


async def test_the_right_number_after_a_wrong_one_replaces_it(tenant: TenantCtx) -> None:
    for i, said in enumerate(
        (
            "I gave you the wrong number, mine is 555-987-6543.",
            "Sorry, wrong number earlier, the right one is 555-987-6543.",
        )
    ):
        active, frozen = await tenant.change(
            f"u{i}", ("My phone number is 555-123-4567.", said), "contact.phone", at=(T1, T2)
        )
        assert (active, frozen) == (["555-987-6543"], ["555-123-4567"]), said
