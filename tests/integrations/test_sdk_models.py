"""The SDK's models are what the generator makes of the committed OpenAPI document."""

from __future__ import annotations

import ast
import importlib.util
from datetime import UTC, datetime
from pathlib import Path

import pytest
from memlane_client import Memlane
from memlane_client.models import RecallResponse
from pydantic import ValidationError

ROOT = Path(__file__).resolve().parents[2]


def test_committed_models_match_a_fresh_generation(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location(
        "generate_models", ROOT / "sdk" / "python" / "generate_models.py"
    )
    assert spec is not None and spec.loader is not None
    generator = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generator)
    fresh = tmp_path / "models.py"
    generator.generate(output=fresh)
    committed = ROOT / "sdk" / "python" / "src" / "memlane_client" / "models.py"
    # compared as syntax trees: a formatter's version does not matter, a changed model does
    assert ast.dump(ast.parse(committed.read_text())) == ast.dump(ast.parse(fresh.read_text())), (
        "sdk/python/src/memlane_client/models.py is out of date: run "
        "`python sdk/python/generate_models.py`"
    )


def test_the_generated_models_carry_point_in_time_recall() -> None:
    from memlane_client.models import RecallRequest

    request = RecallRequest(query="project Falcon", valid_at="2024-03-01T00:00:00Z")
    assert request.valid_at == datetime(2024, 3, 1, tzinfo=UTC)
    with pytest.raises(ValidationError):  # a time without offset is refused, as the server does
        RecallRequest(query="project Falcon", valid_at="2024-03-01T00:00:00")


def test_recall_and_list_at_a_point_in_time_through_the_client(client: Memlane) -> None:
    alice = client.user("alice")
    lisbon = alice.remember(
        "I live in Lisbon",
        type="profile",
        key="residence.city",
        value="Lisbon",
        occurred_at="2024-01-10T09:00:00+00:00",
    )
    alice.remember(
        "I moved to Porto",
        type="profile",
        key="residence.city",
        value="Porto",
        occurred_at="2024-06-01T09:00:00+00:00",
    )
    march = alice.recall("where do I live?", valid_at=datetime(2024, 3, 1, tzinfo=UTC))
    assert isinstance(march, RecallResponse)
    assert [m.content for m in march.memories] == ["I live in Lisbon"]
    assert march.memories[0].status == "frozen"
    assert march.memories[0].valid_to == datetime(2024, 6, 1, 9, tzinfo=UTC)
    listed = alice.list_memories(valid_at=datetime(2024, 3, 1, tzinfo=UTC))
    assert [m.id for m in listed.items] == [lisbon.memories[0].id]
    assert [m.content for m in alice.recall("where do I live?").memories] == ["I moved to Porto"]
