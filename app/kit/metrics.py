"""Prometheus metrics (prometheus-client). Names are documented in docs/operations.md and used
by deploy/grafana/memlane.json.

Label sets are bounded: routes are templates (never raw paths), tenants appear only on
``memlane_long_term_mem_size`` (one series per tenant, never per user). With
``PROMETHEUS_MULTIPROC_DIR`` set, every process writes its samples there and ``/metrics``
aggregates them (prometheus-client's multiprocess mode); otherwise each process exposes its
own (``memlane worker --metrics-port``).
"""

from __future__ import annotations

import os
import time
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client import multiprocess as _multiprocess

LATENCY_BUCKETS_S = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)
TOKEN_BUCKETS = (50, 100, 200, 400, 800, 1200, 1600, 2000, 3000, 4000, 8000, 16000, 32000)
CONFLICT_WINDOW_S = 300.0

HTTP_REQUESTS = Counter(
    "memlane_http_requests_total", "HTTP requests", ["method", "route", "status"]
)
HTTP_LATENCY = Histogram(
    "memlane_http_request_duration_seconds",
    "HTTP request latency",
    ["method", "route"],
    buckets=LATENCY_BUCKETS_S,
)
QUEUE_DEPTH = Gauge(
    "memlane_queue_depth", "Jobs in the queue by state", ["state"], multiprocess_mode="mostrecent"
)
QUEUE_LAG = Gauge(
    "memlane_queue_lag_seconds",
    "Age of the oldest job waiting to run",
    multiprocess_mode="mostrecent",
)
JOB_LATENCY = Histogram(
    "memlane_job_duration_seconds", "Job run time", ["kind", "outcome"], buckets=LATENCY_BUCKETS_S
)
JOB_FAILURES = Counter("memlane_job_failures_total", "Failed job attempts", ["kind", "final"])
RECALL_LATENCY = Histogram(
    "memlane_recall_latency_seconds",
    "Server-side recall latency by stage (embed, db, total)",
    ["stage"],
    buckets=LATENCY_BUCKETS_S,
)
RECALL_HIT = Counter(
    "memlane_memory_recall_hit_total", "Recalls that returned at least one memory", ["hit"]
)
RECALL_DEGRADED = Counter(
    "memlane_recall_degraded_total", "Recalls answered by full-text search without embeddings"
)
# per_user_isolation: rows recall was about to return that belong to another tenant or user
# (app/recall/isolation.py). Expected 0 for ever; any increase is an alert.
RECALL_ISOLATION_VIOLATIONS = Counter(
    "memlane_recall_isolation_violations_total",
    "Recalled rows dropped because they belong to another tenant or user (expected 0)",
    ["section"],
)
for _section in ("memories", "constraints", "reminders"):
    RECALL_ISOLATION_VIOLATIONS.labels(section=_section)  # exported at 0 until the first
RECALL_ISOLATION_CHECKED = Counter(
    "memlane_recall_isolation_checked_rows_total",
    "Recalled rows checked for ownership before the response",
)
RECALL_RERANK = Counter(
    "memlane_recall_rerank_total",
    "Recalls sent to the configured reranker: applied, or failed (answered with recall's own "
    "ranking)",
    ["outcome"],
)
QUERY_CACHE = Counter(
    "memlane_embedding_query_cache_total",
    "Query embeddings answered from the in-process cache (hit) or computed (miss)",
    ["result"],
)
EMBEDDING_CACHE = Counter(
    "memlane_embedding_cache_total",
    "Embeddings of stored text (use=passage) and of the extractor's classified clauses "
    "(use=classify) answered from the in-process cache (hit) or computed (miss)",
    ["use", "result"],
)
CONTEXT_TOKENS = Histogram(
    "memlane_context_token_usage", "Tokens of assembled contexts", buckets=TOKEN_BUCKETS
)
EXTRACTED_FACTS = Counter(
    "memlane_extract_fact_count_total", "Facts extracted from conversation", ["extractor", "type"]
)
CASCADE_TURNS = Counter(
    "memlane_cascade_turns_total",
    "User turns of the cascade extractor: read by the rules, asked of the model, or left to"
    " the rules when the model failed on a job's last attempt",
    ["outcome"],
)
LONG_TERM_MEM_SIZE = Gauge(
    "memlane_long_term_mem_size",
    "Active long-term memories per tenant",
    ["tenant_id"],
    multiprocess_mode="mostrecent",
)
ARBITRATIONS = Counter(
    "memlane_arbitration_outcomes_total", "Arbitration decisions", ["rule", "outcome"]
)
CONFLICT_RATE = Gauge(
    "memlane_memory_conflict_rate",
    f"Share of arbitrations in the last {int(CONFLICT_WINDOW_S)} s that resolved a conflict",
    multiprocess_mode="mostrecent",
)
PROVIDER_LATENCY = Histogram(
    "memlane_provider_latency_seconds",
    "Embedding and LLM call latency",
    ["provider", "operation"],
    buckets=LATENCY_BUCKETS_S,
)
PROVIDER_ERRORS = Counter(
    "memlane_provider_errors_total", "Embedding and LLM call errors", ["provider", "operation"]
)

NOT_CONFLICTS = frozenset({"no_conflict", "duplicate"})
_recent: deque[tuple[float, bool]] = deque()


def observe_arbitration(rule: str, outcome: str) -> None:
    """Count a decision and update the sliding conflict rate."""
    ARBITRATIONS.labels(rule, outcome).inc()
    now = time.monotonic()
    _recent.append((now, rule not in NOT_CONFLICTS))
    while _recent and _recent[0][0] < now - CONFLICT_WINDOW_S:
        _recent.popleft()
    CONFLICT_RATE.set(sum(c for _, c in _recent) / len(_recent))


@contextmanager
def timed(histogram: Histogram, *labels: str) -> Iterator[None]:
    start = time.perf_counter()
    try:
        yield
    finally:
        histogram.labels(*labels).observe(time.perf_counter() - start)


def exposition() -> tuple[bytes, str]:
    """The metrics page: (body, content type); aggregated across processes in multiprocess
    mode."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        _multiprocess.MultiProcessCollector(registry)
        return generate_latest(registry), CONTENT_TYPE_LATEST
    return generate_latest(), CONTENT_TYPE_LATEST
