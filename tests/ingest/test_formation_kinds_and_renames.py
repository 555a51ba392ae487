"""A switch replaces what is of its own kind and nothing else: a new operating system
replaces the old one, not the editor the user codes in; a tool said to be used now ("现在主要用
Figma") replaces the tool of its kind. A diet said in words of change ("改吃蛋奶素了",
"Mediterranean now.", "现在改成 plant-based 了") replaces the diet held. A pet renamed by a
pronoun ("给它改名了", "we renamed her Mochi") takes its old name's place. A rule for the
assistant that forbids what an earlier rule asks ("别用您了" after "称呼我的时候用“您”")
replaces it, and a language no longer wanted for the answers ("不用再用英文回我了") is
withdrawn. A move said finished and a pet that flew away end what they replace
too. Through the HTTP API (turns on Monday 2026-12-07)."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

AT = "2026-12-07T09:00:00+08:00"
LATER = "2026-12-07T10:00:00+08:00"
LAST = "2026-12-07T11:00:00+08:00"


async def test_a_new_system_replaces_the_old_one_and_not_the_editor(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I'm a Linux person, running Arch btw", at=AT)
    await tenant.say("u", "s1", "and I code in Emacs", at=LATER)
    await tenant.say("u", "s1", "Gave up on Arch, too many broken updates. Fedora now.", at=LAST)
    assert await tenant.values("u", "tech.preferred", lower=True) == ["emacs", "fedora"]
    assert await tenant.values("u", "tech.preferred", "frozen", lower=True) == ["linux"]


@pytest.mark.parametrize(
    ("turns", "new", "old"),
    [
        (("我画图用 PS", "现在主要用 Figma，PS 基本不开了"), "figma", "ps"),
        (("I use Spotify for music", "I'm on Apple Music now"), "apple music", "spotify"),
        (("I'm an iPhone user", "got a Pixel 8 last week, Android for me now"), "android",
         "iphone"),
        (("I write code in Vim", "VS Code replaced Vim for me"), "vs code", "vim"),
        (("I'm on Chrome", "ditched Chrome for Firefox, the memory usage was insane"), "firefox",
         "chrome"),
    ],
)  # fmt: skip
async def test_a_tool_used_now_replaces_the_tool_of_its_kind(
    tenant: TenantCtx, turns: tuple[str, str], new: str, old: str
) -> None:
    active, frozen = await tenant.change("u", turns, "tech.preferred", at=(AT, LATER))
    assert active == [new]
    assert frozen == [old]


async def test_a_tool_of_another_kind_used_now_replaces_nothing(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u", ("I mostly write Python", "I'm on Obsidian now for my notes"), "tech.preferred",
        at=(AT, LATER),
    )  # fmt: skip
    assert active == ["obsidian", "python"]
    assert frozen == []


@pytest.mark.parametrize(
    ("turns", "new", "old"),
    [
        (("我吃纯素", "现在改吃蛋奶素了，纯素坚持不下来"), "蛋奶素", "纯素"),
        (("我现在在做 keto", "keto 放弃了，现在改成 plant-based 了"), "plant-based", "keto"),
        (("I'm on a paleo diet", "Mediterranean now. Paleo was way too much meat"), "mediterranean",
         "paleo"),
        (("I'm vegetarian", "I'm vegan now"), "vegan", "vegetarian"),
    ],
)  # fmt: skip
async def test_a_new_diet_replaces_the_diet_of_its_kind(
    tenant: TenantCtx, turns: tuple[str, str], new: str, old: str
) -> None:
    active, frozen = await tenant.change("u", turns, "diet.style", at=(AT, LATER))
    assert active == [new]
    assert frozen == [old]


async def test_someone_elses_new_diet_is_not_the_users(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u", ("I'm vegetarian", "my sister went vegan last year"), "diet.style", at=(AT, LATER)
    )
    assert active == ["vegetarian"]
    assert frozen == []


async def test_a_diet_given_up_beside_a_condition_is_withdrawn(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u", ("我吃素", "素不吃了，最近体检查出贫血，医生让我吃点肉"), "diet.style", at=(AT, LATER)
    )
    assert active == []
    assert frozen == ["素食"]


@pytest.mark.parametrize(
    ("turns", "new", "old"),
    [
        (("我家狗叫旺财", "给它改名了，现在叫可乐，旺财太土了哈哈"), "可乐", "旺财"),
        (("My cat is called Luna", "We renamed her Mochi after the vet mixed her up"), "mochi",
         "luna"),
        (("my dog's name is Biscuit", "we changed his name to Max"), "max", "biscuit"),
    ],
)  # fmt: skip
async def test_a_pet_renamed_by_a_pronoun_takes_the_old_names_place(
    tenant: TenantCtx, turns: tuple[str, str], new: str, old: str
) -> None:
    active, frozen = await tenant.change("u", turns, "pets.name", at=(AT, LATER))
    assert active == [new]
    assert frozen == [old]


@pytest.mark.parametrize(
    ("turns", "old"),
    [
        (("称呼我的时候用“您”", "别用您了，叫“你”就行，听着别扭"), "称呼我的时候用您"),
        (("请用分点的形式回答", "别分点了，写成一段一段的就行"), "用分点的形式回答"),
        (("Start every answer with a one-line TL;DR", "hmm, put the TL;DR at the end instead"),
         "start every answer with a one-line tl;dr"),
    ],
)  # fmt: skip
async def test_a_rule_against_an_earlier_rule_replaces_it(
    tenant: TenantCtx, turns: tuple[str, str], old: str
) -> None:
    _, frozen = await tenant.change("u", turns, "assistant.constraint", at=(AT, LATER))
    assert frozen == [old]


@pytest.mark.parametrize(
    ("turns", "old"),
    [
        (("以后都用英文回我", "不用再用英文回我了"), "英文"),
        (("please reply in Spanish from now on", "stop replying in Spanish"), "spanish"),
    ],
)
async def test_a_language_no_longer_wanted_for_answers_is_withdrawn(
    tenant: TenantCtx, turns: tuple[str, str], old: str
) -> None:
    active, frozen = await tenant.change("u", turns, "language.preferred", at=(AT, LATER))
    assert active == []
    assert frozen == [old]


@pytest.mark.parametrize(
    ("turns", "key", "old"),
    [
        (("I'm obsessed with Hot Cheetos", "Hot Cheetos are officially out of my life."),
         "preference.likes", "hot cheetos"),
        (("I love jazz", "been into lo-fi lately tbh, jazz kinda got old for me"),
         "preference.likes", "jazz"),
        (("I don't eat dairy", "dairy's back on the table. literally lol"), "diet.avoid", "dairy"),
        (("I love climbing", "climbing's done for me after the knee thing"), "preference.likes",
         "climbing"),
        (("我平时只喝喜茶", "最近被蜜雪冰城圈粉了，喜茶太贵不喝了"), "preference.drink", "喜茶"),
        (("我吃素", "现在不完全吃素了，改成只吃鱼和蔬菜"), "diet.style", "素食"),
    ],
)  # fmt: skip
async def test_a_thing_given_up_or_taken_back_in_other_words_ends(
    tenant: TenantCtx, turns: tuple[str, str], key: str, old: str
) -> None:
    active, frozen = await tenant.change("u", turns, key, at=(AT, LATER))
    assert old not in active
    assert frozen == [old]


async def test_a_name_gone_by_now_is_the_nickname(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I'm going by Jo now, Jojo felt too childish at work", at=AT)
    assert await tenant.values("u", "name.nickname") == ["Jo"]
    await tenant.say("v", "s1", "I'm going by train tomorrow", at=AT)
    assert await tenant.values("v", "name.nickname") == []


async def test_a_move_finished_is_the_new_home(tenant: TenantCtx) -> None:
    active, frozen = await tenant.change(
        "u",
        ("I live in Denver", "Just finished moving to Salt Lake City!! boxes literally everywhere"),
        "residence.city",
        at=(AT, LATER),
    )
    assert active == ["salt lake city"]
    assert frozen == ["denver"]


async def test_a_pet_that_flew_away_is_gone(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我养了只鹦鹉叫豆豆", at=AT)
    await tenant.say("u", "s1", "鹦鹉飞走了，找了好几天都没找到", at=LATER)
    assert await tenant.values("u", "pets.kind") == []
    assert await tenant.values("u", "pets.kind", "frozen") == ["鹦鹉"]


@pytest.mark.parametrize(
    ("turns", "key", "kept"),
    [
        (("我用 Windows", "公司的服务器现在都用 Linux 了"), "tech.preferred", "windows"),
        (("I use Photoshop for design", "For this one client project I'm using Figma now"),
         "tech.preferred", "photoshop"),
        (("I'm on keto", "I went vegan for a month in 2019"), "diet.style", "keto"),
        (("我是生酮饮食", "上个月出差那周改吃素了，回来就恢复了"), "diet.style", "生酮"),
        (("我是生酮饮食", "我老公 keto 放弃了，现在改成 plant-based 了"), "diet.style", "生酮"),
        (("我家有只猫叫雪球", "新买了个扫地机器人，给它改名了，现在叫可乐"), "pets.name", "雪球"),
        (("I have a cat named Luna", "My son got a robot toy and we changed his name to Max"),
         "pets.name", "luna"),
        (("请用英文回复我", "我同事说不用再用英文回他了"), "language.preferred", "英文"),
        (("Reply in English please", "Stop replying in English to my sister's emails when you "
          "draft them"), "language.preferred", "english"),
    ],
)  # fmt: skip
async def test_a_look_alike_of_these_changes_keeps_what_holds(
    tenant: TenantCtx, turns: tuple[str, str], key: str, kept: str
) -> None:
    active, frozen = await tenant.change("u", turns, key, at=(AT, LATER))
    assert kept in active
    assert frozen == []


async def test_a_language_coded_in_at_work_is_a_tool_not_a_place(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "I code in Java at work", at=AT)
    assert await tenant.values("u", "work.location") == []
    assert await tenant.values("u", "tech.preferred", lower=True) == ["java"]
    await tenant.say("v", "s1", "我用网易云听歌", at=AT)
    assert await tenant.values("v", "tech.preferred") == ["网易云"]
