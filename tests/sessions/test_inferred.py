"""What a model inferred from a session's turns starts in that session's scope and is promoted
after confirmation in two sessions — with the LLM extractor against a real local server that
speaks the OpenAI wire format."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from pydantic import SecretStr

from app.ingest.extraction.llm import LLMExtractor
from app.providers.llm import ChatClient
from app.runtime import Runtime
from tests.conftest import TenantCtx
from tests.support.openai_server import FakeOpenAIServer, start_openai_server

INFERRED = {
    "爵士": ("preference.likes", "爵士乐", "喜欢爵士乐"),
    "jazz": ("preference.likes", "jazz", "likes jazz"),
}


def _infer(body: dict[str, Any]) -> dict[str, Any]:
    """A model that infers a taste from what the user did, never states it as said."""
    data = json.loads(body["messages"][-1]["content"])
    facts = []
    for turn in data["turns"]:
        for word, (key, value, content) in INFERRED.items():
            if word in turn["content"]:
                facts.append(
                    {
                        "type": "preference",
                        "key": key,
                        "value": value,
                        "content": content,
                        "source": "model_inferred",
                        "message_ids": [turn["message_id"]],
                    }
                )
    return {"facts": facts}


@pytest.fixture(scope="module")
def server() -> Iterator[FakeOpenAIServer]:
    with start_openai_server(dim=384) as s:
        yield s


@pytest.fixture
async def llm(app: Any, server: FakeOpenAIServer) -> AsyncIterator[FakeOpenAIServer]:
    """The running app extracts with the LLM extractor for this test only."""
    rt: Runtime = app.state.memlane
    settings = rt.settings.model_copy(
        update={
            "llm_base_url": server.base_url,
            "llm_model": "test-model",
            "llm_api_key": SecretStr("sk-test"),
            "llm_timeout_s": 5.0,
        }
    )
    chat = ChatClient(settings)
    before = rt.extractor
    rt.extractor = LLMExtractor(chat)
    server.reset()
    try:
        yield server
    finally:
        rt.extractor = before
        await chat.aclose()


@pytest.mark.parametrize(
    ("first", "second", "value"),
    [
        pytest.param("周末又去听了一场爵士音乐会。", "昨晚在家放了一晚上爵士。", "爵士乐", id="zh"),
        pytest.param(
            "Went to another jazz concert this weekend.",
            "Played jazz records all evening.",
            "jazz",
            id="en",
        ),
    ],
)
async def test_an_inferred_fact_starts_in_its_session_and_is_promoted_after_two(
    tenant: TenantCtx, llm: FakeOpenAIServer, first: str, second: str, value: str
) -> None:
    llm.script_chat([_infer, _infer])

    body = await tenant.say("u", "s1", first, at="2026-05-01T20:00:00+08:00")

    [fact] = [m for m in body["memories"] if m["type"] != "episode"]
    assert (fact["scope"], fact["scope_id"], fact["value"]) == ("session", "s1", value)
    assert fact["source"] == "model_inferred" and fact["confidence"] == pytest.approx(0.5)
    assert fact["origin"]["tentative"] == "model_inferred"
    outside = await tenant.recall("u", value, session_id="s2")
    assert value not in " ".join(m["content"] for m in outside["memories"])

    await tenant.say("u", "s2", second, at="2026-05-03T20:00:00+08:00")

    r = await tenant.client.get(f"{tenant.user('u')}/memories/{fact['id']}", headers=tenant.headers)
    promoted = r.json()
    assert (promoted["scope"], promoted["status"]) == ("user", "active")
    assert promoted["origin"]["sessions"] == ["s1", "s2"]
    assert promoted["source"] == "model_inferred"  # still inferred: only its scope changed
