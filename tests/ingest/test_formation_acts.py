"""What a turn does, read whole by the trained classifier (``app.ingest.extraction.acts``): a
turn it is confident says nothing to store — a musing about someday, a vague wish — forms no
fact, though the rules read a plan in it; a real plan, a rule for the assistant asked as a
question and a relative named in chatter are still formed. Through the HTTP API."""

from __future__ import annotations

import pytest

from tests.conftest import TenantCtx

T1 = "2026-03-01T09:00:00+08:00"


@pytest.mark.parametrize(
    "text",
    [
        # from bench/data/acts_heldout.jsonl: the rules formed the plan "maybe trying rust someday"
        "thinking about maybe trying Rust someday, who knows",
        "I kinda want to try sushi at that new place sometime",
    ],
)
async def test_a_musing_forms_nothing(tenant: TenantCtx, text: str) -> None:
    await tenant.say("u", "s1", text, at=T1)
    assert await tenant.facts("u") == []


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("I'm planning to run a marathon in October", "plan"),
        ("我准备明年考研", "plan"),
        ("Could you quit with the walls of text?", "assistant.constraint"),
        ("我妈觉得外卖都不干净，你怎么看？", "family.member"),
    ],
)
async def test_what_holds_is_not_vetoed(tenant: TenantCtx, text: str, key: str) -> None:
    await tenant.say("u", "s1", text, at=T1)
    assert [k for k, _ in await tenant.facts("u")].count(key) == 1
