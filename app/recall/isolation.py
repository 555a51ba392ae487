"""per_user_isolation: the last check on what recall returns, after SQL and row-level security.

Every row a recall is about to return must belong to the requesting tenant and user, or be a
tenant-wide row (owner ``TENANT_WIDE_USER``, scope ``tenant``) of that same tenant. The check
reads only the rows' own ``tenant_id``, ``user_id`` and ``scope`` — no query, no setting — so
a bug in the recall SQL or in the database policies cannot also hide itself here. A row that
fails is dropped from the response, logged (ids only, never content) and counted in
``memlane_recall_isolation_violations_total`` (expected 0; docs/scopes.md, Isolation check).
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Sequence
from typing import TypeVar

from app.db.models import Memory
from app.kit.metrics import RECALL_ISOLATION_CHECKED, RECALL_ISOLATION_VIOLATIONS
from app.kit.types import TENANT_WIDE_USER

log = logging.getLogger(__name__)

T = TypeVar("T")


def belongs(m: Memory, tenant_id: uuid.UUID, user_id: str) -> bool:
    """Whether ``m`` may reach (tenant_id, user_id)'s recall: the user's own row, or a
    tenant-wide row of the same tenant."""
    if m.tenant_id != tenant_id:
        return False
    return m.user_id == user_id or (m.user_id == TENANT_WIDE_USER and m.scope == "tenant")


def owned_only(
    rows: Sequence[T],
    memory_of: Callable[[T], Memory],
    *,
    tenant_id: uuid.UUID,
    user_id: str,
    section: str,
) -> list[T]:
    """``rows`` without those whose memory (``memory_of(row)``) does not ``belong``, order kept.
    Each dropped row is logged at ERROR with its id and owner and counted under ``section``
    (memories | constraints | reminders)."""
    RECALL_ISOLATION_CHECKED.inc(len(rows))
    kept: list[T] = []
    for row in rows:
        m = memory_of(row)
        if belongs(m, tenant_id, user_id):
            kept.append(row)
            continue
        RECALL_ISOLATION_VIOLATIONS.labels(section).inc()
        log.error(
            "recall isolation violation: memory %s of tenant %s user %r dropped from the "
            "recall of tenant %s user %r",
            m.id,
            m.tenant_id,
            m.user_id,
            tenant_id,
            user_id,
        )
    return kept
