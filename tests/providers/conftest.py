"""Fixtures for provider tests: one fake OpenAI server per module, reset for every test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.openai_server import FakeOpenAIServer, start_openai_server


@pytest.fixture(scope="module")
def _openai_server_module() -> Iterator[FakeOpenAIServer]:
    with start_openai_server(dim=384) as server:
        yield server


@pytest.fixture
def openai_server(_openai_server_module: FakeOpenAIServer) -> Iterator[FakeOpenAIServer]:
    """The running fake OpenAI server (``.base_url`` ends in ``/v1``), clean for this test."""
    _openai_server_module.reset()
    yield _openai_server_module
    _openai_server_module.reset()
