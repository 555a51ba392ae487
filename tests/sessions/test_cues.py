"""The cue lexicons over many wordings, and their scope over the clause (pure functions)."""

from __future__ import annotations

import pytest

from app.ingest.extraction.cues import cues_for, turn_cues


def only(text: str) -> tuple[str | None, str | None, str | None]:
    [(_, c)] = turn_cues(text).clauses
    return c.temporary, c.emphasis, c.remember


@pytest.mark.parametrize(
    "text",
    [
        "这次先不点辣的", "这周先喝茶", "这几天先不喝咖啡", "这个月先不买车", "今天先吃素",
        "我暂时住在朋友家", "临时改成周五开会", "这趟我住在希尔顿", "就今天不吃肉",
        "I'm vegetarian for now", "for this trip I'm staying at the Hilton",
        "just for today I don't eat meat", "I'm temporarily in Berlin",
        "during this visit I'm at my sister's", "for the time being I drink tea",
        "这个不用记，我这周在上海", "no need to remember this, I'm in Paris this week",
    ],
)  # fmt: skip
def test_temporary_wordings(text: str) -> None:
    assert any(c.temporary for _, c in turn_cues(text).clauses), text


@pytest.mark.parametrize(
    "text",
    [
        "我是临时工", "我今天搬到上海了", "我一直住在上海", "以后都不吃辣了",
        "不是暂时的，我搬到杭州了",
        "I moved to Berlin for good", "From now on I drink tea", "I live in Porto",
        "I always take the window seat", "我这次终于一直住在上海了",
    ],
)  # fmt: skip
def test_not_temporary(text: str) -> None:
    assert not any(c.temporary for _, c in turn_cues(text).clauses), text


@pytest.mark.parametrize(
    "text",
    [
        "一定要记得我住在杭州", "别忘了我女儿叫小雨", "千万别忘了我对花生过敏",
        "这个很重要：我在星河科技工作", "务必记住我不吃香菜", "Don't forget my daughter is Anna",
        "This is important: I work at Acme",
        "Never forget that I'm allergic to peanuts", "it's really important, I'm diabetic",
    ],
)  # fmt: skip
def test_emphasis_wordings(text: str) -> None:
    assert any(c.emphasised for _, c in turn_cues(text).clauses), text


@pytest.mark.parametrize(
    "text",
    [
        "记住，我对花生过敏", "帮我记下：我的车牌是沪A12345", "请记住我不吃香菜",
        "Remember that I'm allergic to peanuts", "please remember I don't eat pork",
        "Keep in mind that I'm left-handed", "Also remember: my wife is Anna",
    ],
)  # fmt: skip
def test_remember_wordings(text: str) -> None:
    assert any(c.remember for _, c in turn_cues(text).clauses), text


@pytest.mark.parametrize(
    "text",
    [
        "我记得小时候住在北京", "你还记得我住哪吗", "I remember that day well",
        "I don't remember his name", "我忘了带伞", "Work is important to me",
    ],
)  # fmt: skip
def test_a_recollection_or_a_plain_statement_is_no_request(text: str) -> None:
    cues = turn_cues(text).clauses
    assert not any(c.remember for _, c in cues), text
    if text != "Work is important to me":
        assert not any(c.emphasised for _, c in cues), text


def test_scope_a_trailing_cue_only_clause_covers_its_sentence() -> None:
    turn = turn_cues("我对花生过敏，一定要记住。我住在上海。")
    assert cues_for(turn, "对花生过敏", "花生").remember
    assert not cues_for(turn, "住在上海", "上海").any


def test_scope_a_cue_only_sentence_covers_its_neighbour() -> None:
    turn = turn_cues("I live in Porto. Remember that!")
    assert cues_for(turn, "lives in Porto", "Porto").remember
    first = turn_cues("记住！我对花生过敏。")
    assert cues_for(first, "对花生过敏", "花生").remember


def test_scope_a_contrast_starts_afresh() -> None:
    turn = turn_cues("I drink tea for now, but I live in Porto.")
    assert cues_for(turn, "drinks tea", "tea").temporary
    assert not cues_for(turn, "lives in Porto", "Porto").temporary


def test_a_turn_that_is_only_a_cue_refers_back() -> None:
    assert turn_cues("记住这个").refers_back is not None
    assert turn_cues("Remember that!").refers_back is not None
    assert turn_cues("这个不用记").refers_back is not None
    assert turn_cues("Remember that I live in Porto").refers_back is None
