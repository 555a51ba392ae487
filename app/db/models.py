"""Every table Memlane owns. Alembic migrations must agree with these (``alembic check``)."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from pgvector.sqlalchemy import HALFVEC
from sqlalchemy import (
    BigInteger,
    Boolean,
    Computed,
    DateTime,
    Float,
    ForeignKey,
    Identity,
    Index,
    Integer,
    PrimaryKeyConstraint,
    String,
    Text,
    func,
    text,
)
from sqlalchemy.dialects.postgresql import ARRAY, JSONB, TSVECTOR, UUID
from sqlalchemy.orm import Mapped, mapped_column

from app.db.base import Base, created_at_column
from app.privacy.protect import SECRET_KEYS

JSON_OBJECT = text("'{}'::jsonb")
JSON_ARRAY = text("'[]'::jsonb")


class Tenant(Base):
    __tablename__ = "tenants"

    id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True)
    name: Mapped[str] = mapped_column(String(200), nullable=False)
    created_at: Mapped[datetime] = created_at_column()


class ApiKey(Base):
    """An API key of one tenant. Only the SHA-256 of the secret is stored."""

    __tablename__ = "api_keys"

    tenant_id: Mapped[uuid.UUID] = mapped_column(
        UUID(as_uuid=True), ForeignKey("tenants.id", ondelete="CASCADE"), primary_key=True
    )
    id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True)
    name: Mapped[str] = mapped_column(String(200), nullable=False, server_default="default")
    prefix: Mapped[str] = mapped_column(String(16), nullable=False)
    key_hash: Mapped[str] = mapped_column(String(64), nullable=False, unique=True)
    # What the key may do (app/auth/principal.py ``Scope``; docs/api-keys.md).
    scopes: Mapped[list[str]] = mapped_column(ARRAY(Text), nullable=False)
    # Set: the key reaches only this end user's paths.
    user_id: Mapped[str | None] = mapped_column(String(128))
    created_at: Mapped[datetime] = created_at_column()
    expires_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


# What a recall scan reads of every row besides its vector or its terms: the filters and the
# factors of the score (app/recall/repository.py).
RECALL_SCAN_COLUMNS = (
    "id",
    "scope",
    "scope_id",
    "type",
    "confidence",
    "valid_from",
    "half_life_days",
    "embedding_model",
    "valid_to",
)


class Memory(Base):
    """One memory item: a typed fact about a user, with bi-temporal validity."""

    __tablename__ = "memories"
    __table_args__ = (
        # Exact per-user scan that never touches the heap (see docs/recall.md).
        Index(
            "ix_memories_recall",
            "tenant_id",
            "user_id",
            "status",
            postgresql_include=[*RECALL_SCAN_COLUMNS, "embedding"],
        ),
        # At most one active value of a single-valued key per user and scope: the database,
        # not a Python lock, guarantees it under concurrent writers.
        Index(
            "uq_memories_active_single_key",
            "tenant_id",
            "user_id",
            "scope",
            "scope_id",
            "key",
            unique=True,
            postgresql_where=text("status = 'active' AND single_valued"),
        ),
        # At most one active row per value of a multi-valued key (the value compared
        # case-insensitively, hashed to bound the entry): the last guard behind the memory
        # writer's lock (app/db/repository.py). Not for secret keys: their stored values are
        # look-alike masks, told apart by token under that lock (arbitration's twin check).
        Index(
            "uq_memories_active_value",
            "tenant_id",
            "user_id",
            "scope",
            "scope_id",
            "key",
            text("md5(lower(value))"),
            unique=True,
            postgresql_where=text(
                "status = 'active' AND NOT single_valued AND key IS NOT NULL AND value IS NOT NULL"
                f" AND key NOT IN ({', '.join(repr(k) for k in SECRET_KEYS)})"
            ),
        ),
        # The constraints a recall returns beside the ranking, without reading the user's rows.
        Index(
            "ix_memories_active_constraints",
            "tenant_id",
            "user_id",
            "created_at",
            "id",
            postgresql_where=text("type = 'constraint' AND status = 'active'"),
        ),
        Index("ix_memories_tenant_user_created", "tenant_id", "user_id", "created_at", "id"),
        Index("ix_memories_tenant_user_key", "tenant_id", "user_id", "key"),
        Index("ix_memories_tenant_user_hash", "tenant_id", "user_id", "content_hash"),
        # The full-text ranking's scan: under row-level security ``tsv @@ query`` is never an
        # index condition (``@@`` is not leakproof), so a GIN index goes unused and every row
        # of the user would be read from the heap; this range is read instead, index-only.
        # ``search_text`` bounds ``tsv`` to fit a btree entry (app/recall/text.py).
        Index(
            "ix_memories_text",
            "tenant_id",
            "user_id",
            "status",
            postgresql_include=[*RECALL_SCAN_COLUMNS, "tsv"],
        ),
    )

    tenant_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True)
    id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True)
    user_id: Mapped[str] = mapped_column(String(128), nullable=False)
    scope: Mapped[str] = mapped_column(String(16), nullable=False, server_default="user")
    scope_id: Mapped[str] = mapped_column(String(128), nullable=False, server_default="")
    type: Mapped[str] = mapped_column(String(16), nullable=False)
    key: Mapped[str | None] = mapped_column(String(128))
    value: Mapped[str | None] = mapped_column(Text)
    content: Mapped[str] = mapped_column(Text, nullable=False)
    source: Mapped[str] = mapped_column(String(32), nullable=False)
    confidence: Mapped[float] = mapped_column(Float, nullable=False)
    status: Mapped[str] = mapped_column(String(16), nullable=False, server_default="active")
    single_valued: Mapped[bool] = mapped_column(
        Boolean, nullable=False, server_default=text("false")
    )
    supersedes: Mapped[uuid.UUID | None] = mapped_column(UUID(as_uuid=True))
    superseded_by: Mapped[uuid.UUID | None] = mapped_column(UUID(as_uuid=True))
    confirmations: Mapped[int] = mapped_column(Integer, nullable=False, server_default="1")
    half_life_days: Mapped[float | None] = mapped_column(Float)
    embedding: Mapped[Any] = mapped_column(HALFVEC(), nullable=True)
    embedding_model: Mapped[str | None] = mapped_column(String(128))
    content_hash: Mapped[str] = mapped_column(String(64), nullable=False)
    # Full-text search: segmented terms (app/recall/text.py) and their tsvector.
    search_text: Mapped[str] = mapped_column(Text, nullable=False, server_default="")
    tsv: Mapped[Any] = mapped_column(
        TSVECTOR, Computed("to_tsvector('english', search_text)", persisted=True)
    )
    # Named entities of the content (app/recall/entities.py), lower-cased: the entity signal.
    entities: Mapped[list[str]] = mapped_column(
        ARRAY(Text), nullable=False, server_default=text("'{}'::text[]")
    )
    origin: Mapped[dict[str, Any]] = mapped_column(
        JSONB, nullable=False, server_default=JSON_OBJECT
    )
    metadata_: Mapped[dict[str, Any]] = mapped_column(
        "metadata", JSONB, nullable=False, server_default=JSON_OBJECT
    )
    # Sensitive values taken out of content/value, sealed (app/privacy/protect.py).
    sealed: Mapped[list[dict[str, Any]]] = mapped_column(
        JSONB, nullable=False, server_default=JSON_ARRAY
    )
    # When the fact holds in the user's world (from the message's own time) ...
    valid_from: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    valid_to: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # ... and when Memlane learned and retired it.
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), nullable=False, server_default=func.now()
    )
    superseded_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    last_accessed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    access_count: Mapped[int] = mapped_column(Integer, nullable=False, server_default="0")


class MemoryHistory(Base):
    """Every change of a memory: action, old and new state, actor, request id, time."""

    __tablename__ = "memory_history"
    __table_args__ = (Index("ix_memory_history_memory", "tenant_id", "memory_id", "id"),)

    tenant_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True)
    id: Mapped[int] = mapped_column(BigInteger, Identity(), primary_key=True)
    user_id: Mapped[str] = mapped_column(String(128), nullable=False)
    memory_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), nullable=False)
    action: Mapped[str] = mapped_column(String(32), nullable=False)
    old: Mapped[dict[str, Any] | None] = mapped_column(JSONB)
    new: Mapped[dict[str, Any] | None] = mapped_column(JSONB)
    actor: Mapped[str] = mapped_column(String(64), nullable=False)
    request_id: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = created_at_column()


class Arbitration(Base):
    """The audit of one arbitration decision between a new and an existing memory."""

    __tablename__ = "arbitrations"
    __table_args__ = (Index("ix_arbitrations_user_created", "tenant_id", "user_id", "created_at"),)

    tenant_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True)
    id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True)
    user_id: Mapped[str] = mapped_column(String(128), nullable=False)
    new_memory_id: Mapped[uuid.UUID | None] = mapped_column(UUID(as_uuid=True))
    existing_memory_id: Mapped[uuid.UUID | None] = mapped_column(UUID(as_uuid=True))
    trigger: Mapped[str] = mapped_column(String(32), nullable=False)
    rule: Mapped[str] = mapped_column(String(32), nullable=False)
    outcome: Mapped[str] = mapped_column(String(32), nullable=False)
    reason: Mapped[str] = mapped_column(Text, nullable=False)
    actor: Mapped[str] = mapped_column(String(64), nullable=False)
    request_id: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = created_at_column()


class Job(Base):
    """A queued unit of work and its intake: the write is acknowledged iff this row exists."""

    __tablename__ = "jobs"
    __table_args__ = (
        Index(
            "uq_jobs_idempotency",
            "tenant_id",
            "user_id",
            "idempotency_key",
            unique=True,
            postgresql_where=text("idempotency_key IS NOT NULL"),
        ),
        Index("ix_jobs_status", "status", "updated_at"),
    )

    tenant_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True)
    id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True)
    user_id: Mapped[str] = mapped_column(String(128), nullable=False)
    kind: Mapped[str] = mapped_column(String(32), nullable=False)
    status: Mapped[str] = mapped_column(String(16), nullable=False, server_default="queued")
    payload: Mapped[dict[str, Any]] = mapped_column(JSONB, nullable=False)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSONB)
    error: Mapped[str | None] = mapped_column(Text)
    attempts: Mapped[int] = mapped_column(Integer, nullable=False, server_default="0")
    idempotency_key: Mapped[str | None] = mapped_column(String(200))
    request_hash: Mapped[str | None] = mapped_column(String(64))
    request_id: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), nullable=False, server_default=func.now()
    )
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class ChatSession(Base):
    """A conversation session of one user: its rolling summary lives here."""

    __tablename__ = "sessions"

    tenant_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True)
    user_id: Mapped[str] = mapped_column(String(128), primary_key=True)
    id: Mapped[str] = mapped_column(String(128), primary_key=True)
    summary: Mapped[str] = mapped_column(Text, nullable=False, server_default="")
    # Messages with seq <= this are folded into the summary (the window starts after it).
    summarized_through_seq: Mapped[int] = mapped_column(
        BigInteger, nullable=False, server_default="0"
    )
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), nullable=False, server_default=func.now()
    )
    # Set by POST …/sessions/{id}/end: no turn is accepted after it (docs/sessions.md).
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class Message(Base):
    """One conversation turn, kept verbatim."""

    __tablename__ = "messages"
    __table_args__ = (
        Index("ix_messages_session", "tenant_id", "user_id", "session_id", "occurred_at", "seq"),
    )

    tenant_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True)
    id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True)
    seq: Mapped[int] = mapped_column(BigInteger, Identity(), nullable=False)
    user_id: Mapped[str] = mapped_column(String(128), nullable=False)
    session_id: Mapped[str] = mapped_column(String(128), nullable=False)
    task_id: Mapped[str | None] = mapped_column(String(128))
    job_id: Mapped[uuid.UUID | None] = mapped_column(UUID(as_uuid=True))
    role: Mapped[str] = mapped_column(String(16), nullable=False)
    # The tool a ``tool`` turn came from (the chat API's ``name``); None otherwise.
    name: Mapped[str | None] = mapped_column(String(64))
    # The call a ``tool`` turn answers (the chat API's ``tool_call_id``); None otherwise.
    tool_call_id: Mapped[str | None] = mapped_column(String(128))
    content: Mapped[str] = mapped_column(Text, nullable=False)
    occurred_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    # The sender's UTC offset: "明天下午三点" means 15:00 where the user is, not in UTC.
    utc_offset_minutes: Mapped[int] = mapped_column(Integer, nullable=False, server_default="0")
    sealed: Mapped[list[dict[str, Any]]] = mapped_column(
        JSONB, nullable=False, server_default=JSON_ARRAY
    )
    metadata_: Mapped[dict[str, Any]] = mapped_column(
        "metadata", JSONB, nullable=False, server_default=JSON_OBJECT
    )
    created_at: Mapped[datetime] = created_at_column()


class Task(Base):
    """Task working memory: named slots to fill, steps taken, open or finished."""

    __tablename__ = "tasks"

    tenant_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True)
    user_id: Mapped[str] = mapped_column(String(128), primary_key=True)
    id: Mapped[str] = mapped_column(String(128), primary_key=True)
    # Protected text (app/privacy/protect.py): a token may be longer than the value it stands
    # for, so the stored name may exceed the 200 characters a request may send.
    name: Mapped[str] = mapped_column(Text, nullable=False)
    required_slots: Mapped[list[str]] = mapped_column(
        JSONB, nullable=False, server_default=JSON_ARRAY
    )
    slots: Mapped[dict[str, Any]] = mapped_column(JSONB, nullable=False, server_default=JSON_OBJECT)
    steps: Mapped[list[dict[str, Any]]] = mapped_column(
        JSONB, nullable=False, server_default=JSON_ARRAY
    )
    status: Mapped[str] = mapped_column(String(16), nullable=False, server_default="open")
    conclusion: Mapped[str | None] = mapped_column(Text)
    # Sensitive values taken out of name, slots and steps, sealed (app/privacy/protect.py).
    sealed: Mapped[list[dict[str, Any]]] = mapped_column(
        JSONB, nullable=False, server_default=JSON_ARRAY
    )
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), nullable=False, server_default=func.now()
    )
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


SNAPSHOT_FIELDS = (
    "content",
    "type",
    "key",
    "value",
    "source",
    "confidence",
    "status",
    "scope",
    "scope_id",
    "supersedes",
    "superseded_by",
    "confirmations",
    "valid_from",
    "valid_to",
)


def memory_snapshot(memory: Memory) -> dict[str, Any]:
    """The memory's state as JSON-able dict, for memory_history."""
    out: dict[str, Any] = {}
    for name in SNAPSHOT_FIELDS:
        v = getattr(memory, name)
        out[name] = (
            v.isoformat()
            if isinstance(v, datetime)
            else (str(v) if isinstance(v, uuid.UUID) else v)
        )
    return out


class UserSettings(Base):
    """One user's memory settings: what may be formed and recalled (app/users/policy.py)."""

    __tablename__ = "user_settings"

    tenant_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True)
    user_id: Mapped[str] = mapped_column(String(128), primary_key=True)
    memory_mode: Mapped[str] = mapped_column(String(16), nullable=False, server_default="full")
    retention_days: Mapped[int | None] = mapped_column(Integer)
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), nullable=False, server_default=func.now()
    )


class UserSettingsHistory(Base):
    """Every change of a user's memory settings: old and new values, actor, request id, time."""

    __tablename__ = "user_settings_history"
    __table_args__ = (Index("ix_user_settings_history_user", "tenant_id", "user_id", "id"),)

    tenant_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True)
    id: Mapped[int] = mapped_column(BigInteger, Identity(), primary_key=True)
    user_id: Mapped[str] = mapped_column(String(128), nullable=False)
    old: Mapped[dict[str, Any] | None] = mapped_column(JSONB)
    new: Mapped[dict[str, Any]] = mapped_column(JSONB, nullable=False)
    actor: Mapped[str] = mapped_column(String(64), nullable=False)
    request_id: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = created_at_column()


class TenantTemplate(Base):
    """A rule that attaches a tenant's tenant-wide memories of one template to the users it
    matches: a user whose attribute ``attribute`` equals ``equals`` (case-insensitively) reads
    them in recall (docs/scopes.md, Tenant-wide memories)."""

    __tablename__ = "tenant_templates"

    tenant_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True)
    id: Mapped[str] = mapped_column(String(128), primary_key=True)
    attribute: Mapped[str] = mapped_column(String(64), nullable=False)
    equals: Mapped[str] = mapped_column(String(256), nullable=False)
    created_at: Mapped[datetime] = created_at_column()


class UserAttributes(Base):
    """Attributes a tenant gives one of its users (``{"domain": "acme.com", …}``), matched by
    the tenant's templates."""

    __tablename__ = "user_attributes"

    tenant_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True)
    user_id: Mapped[str] = mapped_column(String(128), primary_key=True)
    attributes: Mapped[dict[str, Any]] = mapped_column(
        JSONB, nullable=False, server_default=JSON_OBJECT
    )
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), nullable=False, server_default=func.now()
    )


class ScopeRead(Base):
    """The audit of one recall that read scopes outside its own (``scope_override``): who
    (the key), which scopes, which of their memories came back, the request id, when."""

    __tablename__ = "scope_reads"
    __table_args__ = (Index("ix_scope_reads_user", "tenant_id", "user_id", "id"),)

    tenant_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True)
    id: Mapped[int] = mapped_column(BigInteger, Identity(), primary_key=True)
    user_id: Mapped[str] = mapped_column(String(128), nullable=False)
    actor: Mapped[str] = mapped_column(String(64), nullable=False)
    scopes: Mapped[list[dict[str, Any]]] = mapped_column(JSONB, nullable=False)
    memory_ids: Mapped[list[str]] = mapped_column(JSONB, nullable=False, server_default=JSON_ARRAY)
    request_id: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = created_at_column()


class MemoryTerm(Base):
    """One posting of the per-user BM25 index: a term of one memory that recall ranks (status
    active or frozen) — a lexeme of its ``tsv``, or ``@`` + one of its ``entities`` — with the
    term's frequency in it and its length in lexemes. Written only by the trigger
    ``memories_terms`` (alembic 20261202_bm25_postings), in the transaction of the memory's
    write. The primary key covers the ranking's reads (docs/recall.md, "BM25")."""

    __tablename__ = "memory_terms"
    __table_args__ = (
        PrimaryKeyConstraint(
            "tenant_id",
            "user_id",
            "term",
            "memory_id",
            postgresql_include=["status", "tf", "doc_len"],
        ),
    )

    tenant_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True))
    user_id: Mapped[str] = mapped_column(String(128))
    term: Mapped[str] = mapped_column(Text)
    memory_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True))
    status: Mapped[str] = mapped_column(String(16), nullable=False)
    tf: Mapped[int] = mapped_column(Integer, nullable=False)
    doc_len: Mapped[int] = mapped_column(Integer, nullable=False)


class MemoryTermStats(Base):
    """Per user and status, the number of indexed memories and their total length in lexemes:
    BM25's N and average document length. Kept by the trigger ``memories_terms``."""

    __tablename__ = "memory_term_stats"

    tenant_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True)
    user_id: Mapped[str] = mapped_column(String(128), primary_key=True)
    status: Mapped[str] = mapped_column(String(16), primary_key=True)
    docs: Mapped[int] = mapped_column(BigInteger, nullable=False)
    total_len: Mapped[int] = mapped_column(BigInteger, nullable=False)
