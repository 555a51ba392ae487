"""Corrections and changes that must stick: a day said in place of a misstated birthday, an
old value said to be someone else's beside the corrected one, a pet ended by its kind. Through
the HTTP API, in Chinese, mixed script and English; add-ons beside them replace nothing."""

from __future__ import annotations

from tests.conftest import TenantCtx

T1, T2 = "2026-03-01T09:00:00+08:00", "2026-03-01T09:01:00+08:00"


async def test_a_day_said_in_place_corrects_the_birthday(tenant: TenantCtx) -> None:
    cases = [
        ("u1", ("我生日是5月3号", "不对，是5月13号，刚才打错了"), ["05-13"], ["05-03"]),
        ("u2", ("我 birthday 是 6月1号", "sorry 说错了，是 6月11号"), ["06-11"], ["06-01"]),
        ("u3", ("My birthday is March 3", "oops, I meant March 13"), ["03-13"], ["03-03"]),
    ]
    for user, turns, active, frozen in cases:
        got = await tenant.change(user, turns, "birthday", at=(T1, T2))
        assert got == (active, frozen), turns
    # a day said in place of something that is no date replaces nothing
    await tenant.say("u4", "s1", "我住在杭州", at=T1)
    await tenant.say("u4", "s1", "不对，是5月13号", at=T2)
    assert await tenant.values("u4", "residence.city") == ["杭州"]
    assert await tenant.values("u4", "birthday") == []


async def test_the_old_value_said_to_be_someone_elses_is_replaced(tenant: TenantCtx) -> None:
    cases = [
        ("u1", ("我在 NUS 读书", "其实是 NTU，NUS 是我朋友的学校"), ["ntu"], ["nus"]),
        (
            "u2",
            ("I went to UCLA", "wait no, I went to UCSD, UCLA was my brother's school"),
            ["ucsd"],
            ["ucla"],
        ),
    ]
    for user, turns, active, frozen in cases:
        got = await tenant.change(user, turns, "education.school", at=(T1, T2))
        assert got == (active, frozen), turns
    # someone else's school said alone is not the user's
    await tenant.say("u3", "s1", "清华是我朋友的学校", at=T1)
    assert await tenant.values("u3", "education.school") == []
    # a second school added is no correction
    turns = ("本科在中山大学", "硕士去了香港大学")
    active, frozen = await tenant.change("u4", turns, "education.school", at=(T1, T2))
    assert "中山大学" in active and len(active) == 2 and frozen == []


async def test_a_pet_ended_by_its_kind_ends_its_name(tenant: TenantCtx) -> None:
    for user, turns, name in (
        ("u1", ("我养了一只猫，叫咪咪", "猫送人了"), "咪咪"),
        ("u2", ("I have a hamster named Nibbles", "the hamster died last week"), "nibbles"),
    ):
        assert await tenant.change(user, turns, "pets.name", at=(T1, T2)) == ([], [name]), turns
    # two kinds named in one turn: which name went is unclear, none is frozen
    turns = ("一只猫叫咪咪，一只狗叫旺财", "猫送人了")
    assert await tenant.change("u3", turns, "pets.name", at=(T1, T2)) == (["咪咪", "旺财"], [])
    # a second pet added keeps the first
    turns = ("我养了一只狗叫豆豆", "最近又领养了一只猫，叫年糕")
    assert await tenant.change("u4", turns, "pets.name", at=(T1, T2)) == (["年糕", "豆豆"], [])


async def test_a_school_said_by_its_short_name_is_no_home(tenant: TenantCtx) -> None:
    await tenant.say("u1", "s1", "我是北师大的", at=T1)
    assert await tenant.facts("u1") == [("education.school", "北师大")]
    await tenant.say("u2", "s1", "我是湖南的", at=T1)
    assert await tenant.facts("u2") == [("hometown", "湖南")]
    # a school denied is no school of the user's
    await tenant.say("u3", "s1", "我不是南京大学毕业的", at=T1)
    assert await tenant.values("u3", "education.school") == []
    turns = ("我是北大的", "之前说错了，我不是北大的，是北师大的")
    assert await tenant.change("u4", turns, "education.school", at=(T1, T2)) == (
        ["北师大"],
        ["北大"],
    )
    assert await tenant.values("u4", "hometown") == []


async def test_an_age_said_again_with_a_word_of_correction(tenant: TenantCtx) -> None:
    for user, turns in (
        ("u1", ("我今年28岁", "我今年其实是32，上次说的不对")),
        ("u2", ("我今年28", "我其实是32岁")),
    ):
        assert await tenant.change(user, turns, "age", at=(T1, T2)) == (["32"], ["28"]), turns


async def test_a_liking_with_no_object_takes_the_thing_lifted(tenant: TenantCtx) -> None:
    turns = ("我不喜欢吃香菜", "现在慢慢能接受香菜了，还挺喜欢的")
    for text, when in zip(turns, (T1, T2), strict=True):
        await tenant.say("u1", "s1", text, at=when)
    assert await tenant.values("u1", "preference.likes") == ["香菜"]
    assert await tenant.values("u1", "preference.dislikes", "frozen") == ["香菜"]
    turns = ("I don't eat spicy food", "I can eat spicy food again, actually kinda like it now")
    for text, when in zip(turns, (T1, T2), strict=True):
        await tenant.say("u2", "s1", text, at=when)
    assert await tenant.values("u2", "preference.likes") == ["spicy food"]
    assert await tenant.values("u2", "diet.avoid", "frozen") == ["spicy food"]
    # a liking that names nothing, with nothing lifted, is no fact
    await tenant.say("u3", "s1", "还挺喜欢的", at=T1)
    assert await tenant.values("u3", "preference.likes") == []


async def test_a_graduation_ends_the_student(tenant: TenantCtx) -> None:
    for user, turns, student in (
        ("u1", ("我是大学生", "我毕业了，现在在银行上班"), "大学生"),
        ("u2", ("I'm a student", "I just graduated and started at Deloitte"), "student"),
    ):
        assert await tenant.change(user, turns, "work.role", at=(T1, T2)) == ([], [student]), turns
    # a relative's graduation, or a school the user graduated from, ends no role of theirs
    for user, second in (("u3", "我儿子毕业了"), ("u4", "我毕业于清华")):
        turns = ("我是老师", second)
        assert await tenant.change(user, turns, "work.role", at=(T1, T2)) == (["老师"], []), turns


async def test_mixed_script_changes_freeze_the_old_value(tenant: TenantCtx) -> None:
    # an English verb with the Chinese aspect particle: the employer left is no new employer
    turns = ("我在 Google 做 SRE", "我 quit 了 Google，现在 freelance")
    assert await tenant.change("u1", turns, "work.employer", at=(T1, T2)) == ([], ["google"])
    turns = ("我在 Shopee 做 backend", "已经 leave 了 Shopee，现在在 Grab")
    assert await tenant.change("u5", turns, "work.employer", at=(T1, T2)) == (["grab"], ["shopee"])
    # one verb, then the same verb denied, with no comma between them
    for user, turns, key, active, frozen in (
        ("u2", ("我用 Evernote 记笔记", "我现在用 Notion 不用 Evernote 了"), "tech.preferred",
         ["notion"], ["evernote"]),
        ("u3", ("我住浦西", "我现在住浦东不住浦西了"), "residence.city", ["浦东"], ["浦西"]),
    ):  # fmt: skip
        assert await tenant.change(user, turns, key, at=(T1, T2)) == (active, frozen), turns
    # a verb and its denial of another thing is no change of anything held
    await tenant.say("u4", "s1", "我喝咖啡不喝茶", at=T1)
    assert await tenant.values("u4", "preference.drink") == ["咖啡"]
