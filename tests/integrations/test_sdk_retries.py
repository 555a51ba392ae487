"""Retries of the SDK through a real proxy that loses answers, refuses and drops connections,
in front of a real `memlane serve`: what reaches the server, and how often."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from memlane_client import (
    Memlane,
    MemlaneConnectionError,
    MemlaneRateLimited,
    MemlaneUnavailable,
    RetryPolicy,
)
from memlane_client.models import TenantCreated

from tests.e2e.server import ServeProcess
from tests.integrations.faulty_proxy import FaultyProxy, faulty_proxy

FAST = RetryPolicy(max_retries=3, backoff_initial_s=0.05, backoff_max_s=0.2)


@pytest.fixture
def proxy(server: ServeProcess) -> Iterator[FaultyProxy]:
    with faulty_proxy(server.base_url) as p:
        yield p


@pytest.fixture
def via_proxy(proxy: FaultyProxy, tenant: TenantCreated) -> Iterator[Memlane]:
    with Memlane(proxy.url, tenant.api_key, tenant_id=str(tenant.id), retry=FAST) as c:
        yield c


def test_a_lost_answer_is_retried_with_the_same_key_and_stored_once(
    proxy: FaultyProxy, via_proxy: Memlane, client: Memlane
) -> None:
    proxy.plan("POST", "/memories", "lost")
    result = via_proxy.user("ann").remember("I collect vinyl records", type="preference")
    assert [m.content for m in result.memories] == ["I collect vinyl records"]
    sent = proxy.requests("POST", "/memories")
    assert len(sent) == 2
    assert sent[0].idempotency_key and sent[0].idempotency_key == sent[1].idempotency_key
    # the server stored it once, although it received it twice
    assert [m.content for m in client.user("ann").memories()] == ["I collect vinyl records"]


def test_429_waits_for_retry_after(proxy: FaultyProxy, via_proxy: Memlane) -> None:
    proxy.plan("POST", "/recall", "429:1")
    got = via_proxy.user("ben").recall("anything")
    assert got.memories == []
    first, second = proxy.requests("POST", "/recall")
    assert second.at - first.at >= 0.95  # Retry-After: 1


def test_429_past_the_retries_is_a_typed_error(proxy: FaultyProxy, via_proxy: Memlane) -> None:
    proxy.plan("POST", "/recall", *["429:0"] * 4)
    with pytest.raises(MemlaneRateLimited) as err:
        via_proxy.user("ben").recall("anything")
    assert err.value.status == 429 and err.value.retry_after == 0
    assert len(proxy.requests("POST", "/recall")) == 4  # 1 + max_retries


def test_dropped_connection_and_503_on_a_read_are_retried(
    proxy: FaultyProxy, via_proxy: Memlane
) -> None:
    proxy.plan("GET", "/memories", "drop", "503")
    assert list(via_proxy.user("cid").memories()) == []
    assert len(proxy.requests("GET", "/memories")) == 3


def test_a_write_the_server_cannot_deduplicate_is_not_resent_after_a_5xx(
    proxy: FaultyProxy, via_proxy: Memlane, client: Memlane
) -> None:
    proxy.plan("POST", "/tasks", "503")
    with pytest.raises(MemlaneUnavailable) as err:
        via_proxy.user("dan").create_task("Plan a move")
    assert err.value.type == "urn:memlane:problem:service-unavailable"
    assert len(proxy.requests("POST", "/tasks")) == 1
    assert client.user("dan").tasks() == []


def test_retries_are_bounded(proxy: FaultyProxy, via_proxy: Memlane) -> None:
    proxy.plan("GET", "/tasks", *["drop"] * 10)
    with pytest.raises(MemlaneConnectionError):
        via_proxy.user("eli").tasks()
    assert len(proxy.requests("GET", "/tasks")) == 4


def test_wait_polls_the_job_when_the_server_answers_202(
    proxy: FaultyProxy, via_proxy: Memlane, client: Memlane
) -> None:
    proxy.plan("POST", "/messages", "nowait")
    result = via_proxy.user("fia").add_messages("s1", [("user", "I am allergic to peanuts")])
    assert any("peanut" in m.content for m in result.memories)
    assert proxy.requests("GET", "/v1/jobs/")
    posts = proxy.requests("POST", "/messages")
    assert len(posts) == 2 and posts[0].idempotency_key == posts[1].idempotency_key
    assert "wait=true" in posts[1].query
    # the second POST answered the first job's result; nothing was written twice
    turns = [m for m in client.user("fia").memories() if "peanut" in m.content]
    assert len(turns) == len({m.content for m in turns})
