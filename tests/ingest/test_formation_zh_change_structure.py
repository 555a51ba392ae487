"""Chinese changes read by their structure, through the HTTP API: a verb of change and a new
value with no subject and no key ("去了顺丰", "现在换成安卓了", "后来回老家了") take the key of what
the user said before; a name the segmenter cuts in pieces (拼多多, B站) is read by its shape; a
birth year said alone; a recovery that names only how it came ends the one condition."""

from __future__ import annotations

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-01T09:01:00+08:00"


async def test_a_workplace_gone_to_replaces_the_employer(tenant: TenantCtx) -> None:
    cases = [
        ("u1", "我在美团上班", "去了顺丰", "顺丰", "美团"),
        ("u2", "我在阿里上班", "现在在拼多多了", "拼多多", "阿里"),
        ("u3", "我在新浪上班", "后来去小红书了", "小红书", "新浪"),
        ("u4", "我在快手工作", "上周入职了B站", "b站", "快手"),
        ("u5", "我在微软上班", "辞职了，现在去了得物", "得物", "微软"),
        # a name with 哈 in it is not cut at 哈, and a Latin name stops before 了
        ("u6", "我在腾讯上班", "我现在在米哈游了", "米哈游", "腾讯"),
        ("u7", "我在 Shopee 上班", "现在在Costco了", "costco", "shopee"),
    ]
    for user, first, then, now, before in cases:
        active, frozen = await tenant.change(user, (first, then), "work.employer", at=(T1, T2))
        assert (active, frozen) == ([now], [before]), user


async def test_an_outing_or_a_doing_is_no_new_employer(tenant: TenantCtx) -> None:
    for user, then in [
        ("u1", "前几天去了宜家"),
        ("u2", "现在去开会了"),
        ("u3", "现在去买菜了"),
        ("u4", "后来去了医院"),
        # another doing before the verb, or a time said in English: a visit
        ("u6", "陪老婆去了 Uniqlo"),
        ("u7", "出差去了深圳"),
        ("u8", "yesterday 去了 IKEA"),
    ]:
        active, frozen = await tenant.change(
            user, ("我在美团上班", then), "work.employer", at=(T1, T2)
        )
        assert (active, frozen) == (["美团"], []), user
    # with no employer before, a place gone to is nobody's workplace
    await tenant.say("u5", "s1", "后来去了得物", at=T2)
    assert await tenant.values("u5", "work.employer") == []


async def test_a_device_and_a_switch_of_it(tenant: TenantCtx) -> None:
    cases = [
        ("u1", "我用苹果手机", "现在换成安卓了", "安卓", "苹果"),
        ("u2", "我一直用Windows", "现在用macOS了", "macos", "windows"),
        ("u3", "我用小米手机", "后来换成华为了", "华为", "小米"),
    ]
    for user, first, then, now, before in cases:
        active, frozen = await tenant.change(user, (first, then), "tech.preferred", at=(T1, T2))
        assert (active, frozen) == ([now], [before]), user
    await tenant.say("u4", "s1", "我用公司电脑", at=T1)
    assert await tenant.values("u4", "tech.preferred") == []


async def test_a_home_or_a_post_moved(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u1", ("我住在广州", "后来回老家汕头了"), "residence.city", at=(T1, T2)
    )
    assert (active, frozen) == (["汕头"], ["广州"])
    await tenant.say("u2", "s1", "我老家是湖南的", at=T1)
    active, frozen = await tenant.change(
        "u2", ("我住在北京", "今年回老家了"), "residence.city", at=(T1, T2)
    )
    assert (active, frozen) == (["湖南"], ["北京"])
    active, frozen = await tenant.change(
        "u3", ("我在深圳上班", "现在调到广州了"), "work.location", at=(T1, T2)
    )
    assert (active, frozen) == (["广州"], ["深圳"])


async def test_a_birth_year_said_alone(tenant: TenantCtx) -> None:
    await tenant.say("u1", "s1", "我是九五年的", at=T1)
    assert await tenant.values("u1", "birthday") == ["1995"]
    # the year of a full birthday held loses nothing of it; a day held without a year takes it
    for user, first, full in [
        ("u4", "我是1995年7月8号出生的", "1995-07-08"),
        ("u5", "我生日是7月8号", "1995-07-08"),
    ]:
        active, frozen = await tenant.change(user, (first, "我是九五年的"), "birthday", at=(T1, T2))
        assert active == [full], user
    active, frozen = await tenant.change(
        "u2", ("我是1990年出生的", "记错了，我95年的"), "birthday", at=(T1, T2)
    )
    assert (active, frozen) == (["1995"], ["1990"])
    active, frozen = await tenant.change(
        "u3", ("我是八八年的", "说错了，是八九年的"), "birthday", at=(T1, T2)
    )
    assert (active, frozen) == (["1989"], ["1988"])


async def test_a_recovery_ends_the_one_condition(tenant: TenantCtx) -> None:
    for user, first, then, condition in [
        ("u1", "我有腰椎间盘突出", "做完手术已经好了", "腰椎间盘突出"),
        ("u2", "我有胆结石", "上个月做了手术，现在好了", "胆结石"),
    ]:
        active, frozen = await tenant.change(user, (first, then), "health.condition", at=(T1, T2))
        assert (active, frozen) == ([], [condition]), user
    # beside two conditions, which one got better is unclear; a bare "现在好了" is no recovery
    await tenant.say("u3", "s1", "我有高血压，还有鼻炎", at=T1)
    await tenant.say("u3", "s1", "做完手术已经好了", at=T2)
    assert await tenant.values("u3", "health.condition", "frozen") == []
    active, frozen = await tenant.change(
        "u4", ("我有胃炎", "刚才网络卡了一下，现在好了"), "health.condition", at=(T1, T2)
    )
    assert (active, frozen) == (["胃炎"], [])
