"""The cascade extractor: the rules read every turn, the chat model (a real local server that
speaks the OpenAI wire format) only the user turns the rules formed nothing from."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import pytest
from pydantic import SecretStr

from app.config import Settings
from app.ingest.extraction.base import ExtractionError, Turn
from app.ingest.extraction.cascade import CascadeExtractor
from app.ingest.extraction.factory import build_extractor
from app.ingest.extraction.llm import LLMExtractor
from app.ingest.extraction.rules import RuleExtractor
from app.providers.llm import ChatClient
from tests.support.openai_server import FakeOpenAIServer

T0 = datetime(2026, 3, 1, 10, 0, tzinfo=UTC)
CAT = "I have a cat named Rex."
DAIRY = "Dairy's a no for me."
# the rules keep this one as a sentence, with no key, nothing withdrawn and no correction
CIVIC = "i drive a 2012 honda civic with 200k miles"


def _turns(*texts: str) -> list[Turn]:
    return [Turn(f"m{i}", "user", text, T0) for i, text in enumerate(texts, 1)]


def _fact(message_id: str, key: str, value: str) -> dict[str, Any]:
    return {
        "type": "preference",
        "key": key,
        "value": value,
        "content": f"{key} {value}",
        "source": "user_declared",
        "message_ids": [message_id],
    }


@pytest.fixture
async def cascade(openai_server: FakeOpenAIServer) -> AsyncIterator[CascadeExtractor]:
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None,
        llm_base_url=openai_server.base_url,
        llm_model="test-chat-model",
        llm_api_key=SecretStr("sk-cascade"),
        llm_timeout_s=5.0,
    )
    chat = ChatClient(settings)
    yield CascadeExtractor(RuleExtractor(), LLMExtractor(chat))
    await chat.aclose()


def _asked(server: FakeOpenAIServer) -> list[list[str]]:
    """The turns each chat request carried, as (message id, text)."""
    return [
        [t["message_id"] for t in json.loads(r.body["messages"][-1]["content"])["turns"]]
        for r in server.requests_to("/chat/completions")
    ]


async def test_only_the_turns_the_rules_cannot_read_reach_the_model(
    openai_server: FakeOpenAIServer, cascade: CascadeExtractor
) -> None:
    # the model answers for the turn it was asked about and, wrongly, for one the rules read
    openai_server.script_chat(
        [{"facts": [_fact("m3", "diet.avoid", "dairy"), _fact("m2", "pets.name", "Felix")]}]
    )
    facts = await cascade.extract(_turns("thanks!", CAT, DAIRY, "what should I cook tonight?"))

    # one call, with the unread turn and the turn before it; small talk and questions stay out
    assert _asked(openai_server) == [["m2", "m3"]]
    got = [(f.key, f.value, f.message_ids, f.metadata.get("formed_by")) for f in facts]
    assert ("diet.avoid", "dairy", ["m3"], "llm") in got
    assert ("pets.name", "Rex", ["m2"], None) in got
    assert all(value != "Felix" for _, value, _, _ in got)  # only facts of an asked turn


async def test_the_models_reading_replaces_the_sentence_the_rules_kept(
    openai_server: FakeOpenAIServer, cascade: CascadeExtractor
) -> None:
    kept = await cascade.extract(_turns(CIVIC))  # the model answers nothing
    assert [(f.key, f.content) for f in kept] == [(None, CIVIC)]

    openai_server.script_chat([{"facts": [_fact("m1", "vehicle.car", "2012 Honda Civic")]}])
    facts = await cascade.extract(_turns(CIVIC))
    assert _asked(openai_server) == [["m1"], ["m1"]]
    assert [(f.key, f.value) for f in facts] == [("vehicle.car", "2012 Honda Civic")]


async def test_the_turn_said_before_the_batch_is_context(
    openai_server: FakeOpenAIServer, cascade: CascadeExtractor
) -> None:
    earlier = Turn("m0", "user", "I drink oat milk with everything", T0)
    await cascade.extract(_turns(DAIRY, CAT), before=[earlier])
    assert _asked(openai_server) == [["m0", "m1"]]


async def test_a_correction_the_rules_read_is_not_asked_about(
    openai_server: FakeOpenAIServer, cascade: CascadeExtractor
) -> None:
    # a slip corrected in place may hold a secret ("sorry, I meant tulip-4417"): the rules'
    facts = await cascade.extract(_turns("oops, I meant UCSD", "Sorry, I meant tulip-4417"))
    assert openai_server.requests_to("/chat/completions") == []
    assert all(f.is_correction for f in facts)


async def test_a_long_batch_is_asked_about_in_several_calls(
    openai_server: FakeOpenAIServer, cascade: CascadeExtractor
) -> None:
    await cascade.extract(_turns(*[f"{DAIRY} ({i})" for i in range(20)]))
    calls = _asked(openai_server)
    assert [len(c) for c in calls] == [16, 5]  # the second call with the turn before it
    assert calls[1][0] == "m16"


async def test_a_fact_keeps_only_the_asked_turns_it_came_from(
    openai_server: FakeOpenAIServer, cascade: CascadeExtractor
) -> None:
    both = _fact("m1", "pets.name", "Felix") | {"message_ids": ["m1", "m2"]}
    openai_server.script_chat([{"facts": [both]}])
    facts = await cascade.extract(_turns(CAT, DAIRY))
    [felix] = [f for f in facts if f.value == "Felix"]
    assert felix.message_ids == ["m2"]


async def test_no_call_when_the_rules_read_every_turn(
    openai_server: FakeOpenAIServer, cascade: CascadeExtractor
) -> None:
    facts = await cascade.extract(_turns(CAT, "ok", "how are you?"))
    assert openai_server.requests_to("/chat/completions") == []
    assert {(f.key, f.value) for f in facts} >= {("pets.name", "Rex"), ("pets.kind", "cat")}


async def test_the_model_sees_the_shown_turns_not_the_clear_ones(
    openai_server: FakeOpenAIServer, cascade: CascadeExtractor
) -> None:
    clear = _turns("Dairy's a no for me, write to sam@example.com")
    shown = _turns("Dairy's a no for me, write to ⟦email:1⟧")
    await cascade.extract(clear, shown=shown)
    [request] = openai_server.requests_to("/chat/completions")
    assert "sam@example.com" not in json.dumps(request.body)
    assert "⟦email:1⟧" in json.dumps(request.body, ensure_ascii=False)


async def test_a_failed_model_call_fails_the_extraction(
    openai_server: FakeOpenAIServer, cascade: CascadeExtractor
) -> None:
    openai_server.fail_mode = "500"
    with pytest.raises(ExtractionError):
        await cascade.extract(_turns(DAIRY))


def test_the_settings_build_a_cascade_and_need_a_model() -> None:
    built = build_extractor(
        Settings(_env_file=None, extractor="cascade", llm_base_url="http://127.0.0.1:9/v1")  # type: ignore[call-arg]
    )
    assert isinstance(built, CascadeExtractor) and built.name == "cascade"
    with pytest.raises(ValueError, match="MEMLANE_EXTRACTOR=cascade needs MEMLANE_LLM_BASE_URL"):
        Settings(_env_file=None, extractor="cascade")  # type: ignore[call-arg]
