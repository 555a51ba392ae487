"""Traditional Chinese is read like simplified and remembered as written: "我對花生過敏" forms
the allergy 花生, "我在台積電當工程師" the employer 台積電 (the user's characters, not 台积电),
a correction in traditional characters freezes what it corrects, and search finds a memory
whichever script the query is in. Through the HTTP API, with unit checks of the pieces."""

from __future__ import annotations

import pytest

from app.ingest.extraction.filter import is_noise, is_worth_remembering
from app.ingest.extraction.script import as_written
from app.kit.chinese import simplified, traditional
from app.recall.text import terms
from tests.conftest import TenantCtx

T1, T2 = "2026-03-02T09:00:00+00:00", "2026-03-02T10:00:00+00:00"


def test_simplified_keeps_the_length_and_leaves_simplified_text_alone() -> None:
    assert simplified("我在資料庫公司上班") == "我在数据库公司上班"  # Taiwan's word, 数据库
    assert simplified("我对花生过敏") == "我对花生过敏"
    assert simplified("I work at Acme") == "I work at Acme"
    text = "我住在臺北，開計程車，用 Python 寫軟體"
    assert len(simplified(text)) == len(text)


def test_what_was_formed_is_written_back_in_the_users_characters() -> None:
    original = "我在台積電當工程師，Email 是 Lin@X.com"
    read = simplified(original)
    assert as_written("台积电", original, read) == "台積電"
    # words the extractor adds are put in traditional characters; its own span stays
    assert as_written("职业是工程师", original, read) == "職業是工程師"
    # a Latin value the extractor lower-cased stays lower-cased
    assert as_written("lin@x.com", original, read) == "lin@x.com"
    assert as_written("works at TSMC", original, read) == "works at TSMC"
    assert traditional("2026年12月7日晚上") == "2026年12月7日晚上"


def test_the_write_filter_reads_traditional_text() -> None:
    assert is_noise("你覺得怎麼樣？")
    assert is_noise("謝謝你")
    assert is_worth_remembering("我對花生過敏")


def test_search_terms_are_the_same_in_either_script() -> None:
    assert terms("我在台積電上班") == terms("我在台积电上班")
    assert terms("軟體工程師") == terms("软件工程师")


async def test_facts_said_in_traditional_characters_are_formed_as_written(
    tenant: TenantCtx,
) -> None:
    await tenant.say("u", "s1", "我住在台北，在台積電當工程師。")
    await tenant.say("u", "s1", "對了，我對花生過敏")
    facts = await tenant.facts("u")
    assert ("residence.city", "台北") in facts
    assert ("work.employer", "台積電") in facts
    assert ("work.role", "工程師") in facts
    assert ("health.allergy", "花生") in facts
    employer = (await tenant.memories("u", key="work.employer"))[0]
    assert employer["content"] == "在台積電工作"


@pytest.mark.parametrize(
    ("first", "then", "key", "now", "before"),
    [
        (
            "我在台積電上班",
            "我已經從台積電離職了，現在在聯發科",
            "work.employer",
            "聯發科",
            "台積電",
        ),
        ("我最喜歡喝烏龍茶", "我不喝烏龍茶了，改喝咖啡", "preference.drink", "咖啡", "烏龍茶"),
        ("我住在高雄", "上個月搬到台中了", "residence.city", "台中", "高雄"),
    ],
)
async def test_a_correction_in_traditional_characters_freezes_what_it_corrects(
    tenant: TenantCtx, first: str, then: str, key: str, now: str, before: str
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    await tenant.say("u", "s1", then, at=T2)
    assert await tenant.values("u", key) == [now]
    assert await tenant.values("u", key, "frozen") == [before]


async def test_a_question_in_traditional_characters_forms_nothing(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "你知道台北哪裡的牛肉麵最好吃嗎？")
    assert await tenant.facts("u") == []


async def test_recall_finds_a_memory_asked_for_in_the_other_script(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我在台积电上班")
    answer = await tenant.recall("u", "台積電")
    assert [m["value"] for m in answer["memories"] if m.get("key") == "work.employer"] == ["台积电"]


async def test_a_take_back_in_traditional_characters_withdraws_what_it_names(
    tenant: TenantCtx,
) -> None:
    """Arbitration reads stored text in simplified characters too: the ability taken back is
    found by its words ("會" is "会")."""
    await tenant.say("u", "s1", "我會彈鋼琴", at=T1)
    await tenant.say("u", "s1", "說會彈有點誇張了，小時候學過兩年，現在完全不會了", at=T2)
    active = [m["content"] for m in await tenant.memories("u", status="active")]
    assert not any("鋼琴" in c for c in active), active


def test_values_in_either_script_compare_as_one() -> None:
    from app.arbitration.values import normalize_value

    assert normalize_value("臺北") == normalize_value("台北")
    assert normalize_value("台積電") == normalize_value("台积电")


@pytest.mark.parametrize(
    ("first", "then", "key", "active", "frozen"),
    [
        # the same allergy said in the other script is one memory
        ("我对鸡蛋过敏", "我對雞蛋過敏", "health.allergy", ["鸡蛋"], []),
        # a taste given up, a pet gone: named in the other script
        ("我喜欢吃鸡肉", "我現在不喜歡吃雞肉了", "preference.likes", [], ["鸡肉"]),
        ("我養了一隻狗叫旺財", "旺财上周走了", "pets.name", [], ["旺財"]),
    ],
)
async def test_a_value_said_in_the_other_script_is_the_same_value(
    tenant: TenantCtx, first: str, then: str, key: str, active: list[str], frozen: list[str]
) -> None:
    await tenant.say("u", "s1", first, at=T1)
    await tenant.say("u", "s1", then, at=T2)
    assert await tenant.values("u", key) == active
    assert await tenant.values("u", key, "frozen") == frozen


def test_simplified_text_is_read_as_it_is() -> None:
    """Taiwan's words are read only in traditional text: 程序 is a program in simplified
    Chinese, and OpenCC's tw2sp would make it 进程, a process."""
    assert simplified("我是写程序的") == "我是写程序的"
    assert simplified("我会写程序，喜欢软件") == "我会写程序，喜欢软件"


async def test_a_simplified_users_memory_has_no_traditional_words(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我是写程序的")
    contents = [m["content"] for m in await tenant.memories("u")]
    assert contents and not any(traditional(c) == c and simplified(c) != c for c in contents)
    assert all("職業" not in c for c in contents), contents


@pytest.mark.parametrize("text", ["謝啦", "哈哈好喔", "嗯嗯好", "好嘅，冇問題", "早晨", "3Q"])
def test_thanks_and_acknowledgements_in_traditional_or_cantonese_are_small_talk(
    text: str,
) -> None:
    assert is_noise(text)


async def test_characters_that_show_nothing_do_not_cut_a_value(tenant: TenantCtx) -> None:
    await tenant.say("u", "s1", "我對花\u200b生過敏，在台\u200d積電上班")
    facts = await tenant.facts("u")
    assert ("health.allergy", "花生") in facts
    assert ("work.employer", "台積電") in facts


def test_full_width_letters_and_digits_are_read_as_ascii() -> None:
    assert simplified("我住在Ｖａｎｃｏｕｖｅｒ") == "我住在Vancouver"
    assert simplified("電話是０９１２") == "电话是0912"


async def test_a_pet_renamed_by_us_later_takes_the_new_name(tenant: TenantCtx) -> None:
    """ "豆豆後來我們改名叫阿福了": who renamed it and when stand between the old name and the
    verb, and are no part of the old name."""
    await tenant.say("u", "s1", "我家養了一隻柴犬，叫豆豆。", at=T1)
    await tenant.say("u", "s1", "豆豆後來我們改名叫阿福了。", at=T2)
    assert await tenant.values("u", "pets.name") == ["阿福"]
    assert await tenant.values("u", "pets.name", "frozen") == ["豆豆"]
