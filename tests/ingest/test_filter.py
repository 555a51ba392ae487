"""The write filter."""

from __future__ import annotations

import pytest

from app.ingest.extraction.filter import (
    has_memory_signal,
    is_noise,
    is_question,
    is_small_talk,
    is_worth_remembering,
)

NOT_WORTH = [
    "今天有点热啊。",
    "北京地铁怎么收费？",
    "thanks!",
    "hi",
    "Hello there!",
    "你好",
    "谢谢你",
    "好的",
    "ok",
    "哈哈哈",
    "Message 7: let's keep chatting about the weekend plans and the weather.",
    "It's so hot today",
    "帮我记一下",
    "我住在哪里比较好？",
    "我是不是说过我喜欢猫",
    "What do I like to eat?",
    "Can you recommend a restaurant",
    "你呢",
]

WORTH = [
    "我叫李明",
    "我对花生过敏。",
    "以后回答不要用比喻",
    "预算50万",
    "I live in Shenzhen",
    "Please always answer me in bullet points.",
    "don't mention my ex",
    "我讨厌下雨天",
    "I moved to Shanghai last month.",
]


@pytest.mark.parametrize("text", NOT_WORTH)
def test_not_worth_remembering(text: str) -> None:
    assert not is_worth_remembering(text)


@pytest.mark.parametrize("text", WORTH)
def test_worth_remembering(text: str) -> None:
    assert is_worth_remembering(text)


def test_question_forms() -> None:
    assert is_question("北京地铁怎么收费")
    assert is_question("你喜欢猫吗")
    assert is_question("where should I live")
    assert not is_question("我喜欢猫")
    assert not is_question("I know where I live.")


def test_small_talk_forms() -> None:
    assert is_small_talk("Good morning!")
    assert is_small_talk("thank you so much")
    assert is_small_talk("let's keep talking")
    assert not is_small_talk("let's use Redis")


def test_signals() -> None:
    assert has_memory_signal("我不吃香菜")
    assert has_memory_signal("never use emojis")
    assert has_memory_signal("budget is $5,000")
    assert not has_memory_signal("地铁很挤")
    assert is_noise("")
