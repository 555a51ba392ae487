"""initial schema

Revision ID: 40e09050d57d
Revises:
Create Date: 2026-11-29 13:39:15.058080
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from pgqueuer.adapters.persistence.qb import QueryBuilderEnvironment
from pgvector.sqlalchemy import HALFVEC
from sqlalchemy.dialects import postgresql

from app.db.base import execute_script
from app.db.rls import POLICY, isolate_table
from app.db.roles import app_role

revision: str = "40e09050d57d"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Frozen here: a migration must not follow later changes of the app's constants.
USER_OWNED_TABLES = ("memories", "memory_history", "arbitrations", "jobs", "sessions", "messages")


def upgrade() -> None:
    op.execute("CREATE EXTENSION IF NOT EXISTS vector")
    op.create_table(
        "arbitrations",
        sa.Column("tenant_id", sa.UUID(), nullable=False),
        sa.Column("id", sa.UUID(), nullable=False),
        sa.Column("user_id", sa.String(length=128), nullable=False),
        sa.Column("new_memory_id", sa.UUID(), nullable=True),
        sa.Column("existing_memory_id", sa.UUID(), nullable=True),
        sa.Column("trigger", sa.String(length=32), nullable=False),
        sa.Column("rule", sa.String(length=32), nullable=False),
        sa.Column("outcome", sa.String(length=32), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("actor", sa.String(length=64), nullable=False),
        sa.Column("request_id", sa.String(length=64), nullable=True),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.PrimaryKeyConstraint("tenant_id", "id", name=op.f("pk_arbitrations")),
    )
    op.create_index(
        "ix_arbitrations_user_created",
        "arbitrations",
        ["tenant_id", "user_id", "created_at"],
        unique=False,
    )
    op.create_table(
        "jobs",
        sa.Column("tenant_id", sa.UUID(), nullable=False),
        sa.Column("id", sa.UUID(), nullable=False),
        sa.Column("user_id", sa.String(length=128), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("status", sa.String(length=16), server_default="queued", nullable=False),
        sa.Column("payload", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("result", postgresql.JSONB(astext_type=sa.Text()), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("attempts", sa.Integer(), server_default="0", nullable=False),
        sa.Column("idempotency_key", sa.String(length=200), nullable=True),
        sa.Column("request_hash", sa.String(length=64), nullable=True),
        sa.Column("request_id", sa.String(length=64), nullable=True),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.Column(
            "updated_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("tenant_id", "id", name=op.f("pk_jobs")),
    )
    op.create_index("ix_jobs_status", "jobs", ["status", "updated_at"], unique=False)
    op.create_index(
        "uq_jobs_idempotency",
        "jobs",
        ["tenant_id", "user_id", "idempotency_key"],
        unique=True,
        postgresql_where=sa.text("idempotency_key IS NOT NULL"),
    )
    op.create_table(
        "memories",
        sa.Column("tenant_id", sa.UUID(), nullable=False),
        sa.Column("id", sa.UUID(), nullable=False),
        sa.Column("user_id", sa.String(length=128), nullable=False),
        sa.Column("scope", sa.String(length=16), server_default="user", nullable=False),
        sa.Column("scope_id", sa.String(length=128), server_default="", nullable=False),
        sa.Column("type", sa.String(length=16), nullable=False),
        sa.Column("key", sa.String(length=128), nullable=True),
        sa.Column("value", sa.Text(), nullable=True),
        sa.Column("content", sa.Text(), nullable=False),
        sa.Column("source", sa.String(length=32), nullable=False),
        sa.Column("confidence", sa.Float(), nullable=False),
        sa.Column("status", sa.String(length=16), server_default="active", nullable=False),
        sa.Column("single_valued", sa.Boolean(), server_default=sa.text("false"), nullable=False),
        sa.Column("supersedes", sa.UUID(), nullable=True),
        sa.Column("superseded_by", sa.UUID(), nullable=True),
        sa.Column("confirmations", sa.Integer(), server_default="1", nullable=False),
        sa.Column("half_life_days", sa.Float(), nullable=True),
        sa.Column("embedding", HALFVEC(), nullable=True),
        sa.Column("embedding_model", sa.String(length=128), nullable=True),
        sa.Column("content_hash", sa.String(length=64), nullable=False),
        sa.Column(
            "origin",
            postgresql.JSONB(astext_type=sa.Text()),
            server_default=sa.text("'{}'::jsonb"),
            nullable=False,
        ),
        sa.Column(
            "metadata",
            postgresql.JSONB(astext_type=sa.Text()),
            server_default=sa.text("'{}'::jsonb"),
            nullable=False,
        ),
        sa.Column("valid_from", sa.DateTime(timezone=True), nullable=False),
        sa.Column("valid_to", sa.DateTime(timezone=True), nullable=True),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.Column(
            "updated_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.Column("superseded_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_accessed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("access_count", sa.Integer(), server_default="0", nullable=False),
        sa.PrimaryKeyConstraint("tenant_id", "id", name=op.f("pk_memories")),
    )
    op.create_index(
        "ix_memories_recall",
        "memories",
        ["tenant_id", "user_id", "status"],
        unique=False,
        postgresql_include=[
            "id",
            "scope",
            "scope_id",
            "type",
            "confidence",
            "valid_from",
            "half_life_days",
            "embedding_model",
            "embedding",
        ],
    )
    op.create_index(
        "ix_memories_tenant_user_created",
        "memories",
        ["tenant_id", "user_id", "created_at", "id"],
        unique=False,
    )
    op.create_index(
        "ix_memories_tenant_user_hash",
        "memories",
        ["tenant_id", "user_id", "content_hash"],
        unique=False,
    )
    op.create_index(
        "ix_memories_tenant_user_key", "memories", ["tenant_id", "user_id", "key"], unique=False
    )
    op.create_index(
        "uq_memories_active_single_key",
        "memories",
        ["tenant_id", "user_id", "scope", "scope_id", "key"],
        unique=True,
        postgresql_where=sa.text("status = 'active' AND single_valued"),
    )
    op.create_table(
        "memory_history",
        sa.Column("tenant_id", sa.UUID(), nullable=False),
        sa.Column("id", sa.BigInteger(), sa.Identity(always=False), nullable=False),
        sa.Column("user_id", sa.String(length=128), nullable=False),
        sa.Column("memory_id", sa.UUID(), nullable=False),
        sa.Column("action", sa.String(length=32), nullable=False),
        sa.Column("old", postgresql.JSONB(astext_type=sa.Text()), nullable=True),
        sa.Column("new", postgresql.JSONB(astext_type=sa.Text()), nullable=True),
        sa.Column("actor", sa.String(length=64), nullable=False),
        sa.Column("request_id", sa.String(length=64), nullable=True),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.PrimaryKeyConstraint("tenant_id", "id", name=op.f("pk_memory_history")),
    )
    op.create_index(
        "ix_memory_history_memory", "memory_history", ["tenant_id", "memory_id", "id"], unique=False
    )
    op.create_table(
        "messages",
        sa.Column("tenant_id", sa.UUID(), nullable=False),
        sa.Column("id", sa.UUID(), nullable=False),
        sa.Column("seq", sa.BigInteger(), sa.Identity(always=False), nullable=False),
        sa.Column("user_id", sa.String(length=128), nullable=False),
        sa.Column("session_id", sa.String(length=128), nullable=False),
        sa.Column("task_id", sa.String(length=128), nullable=True),
        sa.Column("job_id", sa.UUID(), nullable=True),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("content", sa.Text(), nullable=False),
        sa.Column("occurred_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column(
            "metadata",
            postgresql.JSONB(astext_type=sa.Text()),
            server_default=sa.text("'{}'::jsonb"),
            nullable=False,
        ),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.PrimaryKeyConstraint("tenant_id", "id", name=op.f("pk_messages")),
    )
    op.create_index(
        "ix_messages_session",
        "messages",
        ["tenant_id", "user_id", "session_id", "occurred_at", "seq"],
        unique=False,
    )
    op.create_table(
        "sessions",
        sa.Column("tenant_id", sa.UUID(), nullable=False),
        sa.Column("user_id", sa.String(length=128), nullable=False),
        sa.Column("id", sa.String(length=128), nullable=False),
        sa.Column("summary", sa.Text(), server_default="", nullable=False),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.Column(
            "updated_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.PrimaryKeyConstraint("tenant_id", "user_id", "id", name=op.f("pk_sessions")),
    )
    op.create_table(
        "tenants",
        sa.Column("id", sa.UUID(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tenants")),
    )
    op.create_table(
        "api_keys",
        sa.Column("tenant_id", sa.UUID(), nullable=False),
        sa.Column("id", sa.UUID(), nullable=False),
        sa.Column("name", sa.String(length=200), server_default="default", nullable=False),
        sa.Column("prefix", sa.String(length=16), nullable=False),
        sa.Column("key_hash", sa.String(length=64), nullable=False),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["tenant_id"],
            ["tenants.id"],
            name=op.f("fk_api_keys_tenant_id_tenants"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("tenant_id", "id", name=op.f("pk_api_keys")),
        sa.UniqueConstraint("key_hash", name=op.f("uq_api_keys_key_hash")),
    )

    # --- the queue (pgqueuer owns these tables; jobs carry ids, never user content) -----
    execute_script(QueryBuilderEnvironment().build_install_query())

    # --- the application role: no superuser, not the owner, no BYPASSRLS ----------------
    role = app_role()
    op.execute(
        f"""DO $$ BEGIN
            IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '{role}') THEN
                CREATE ROLE {role} NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
            END IF;
        END $$"""
    )
    # The owner connects and switches to the role (asyncpg server_settings role=...).
    op.execute(f"GRANT {role} TO CURRENT_USER")
    op.execute(f"GRANT USAGE ON SCHEMA public TO {role}")
    op.execute(f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {role}")
    op.execute(f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {role}")
    op.execute(f"REVOKE DELETE, UPDATE ON tenants FROM {role}")

    # --- row-level security: one tenant and one user per transaction -------------------
    for table in USER_OWNED_TABLES:
        for statement in isolate_table(table, role):
            op.execute(statement)


def downgrade() -> None:
    execute_script(QueryBuilderEnvironment().build_uninstall_query())
    for table in USER_OWNED_TABLES:
        op.execute(f"DROP POLICY IF EXISTS {POLICY} ON {table}")
    op.drop_table("api_keys")
    op.drop_table("tenants")
    op.drop_table("sessions")
    op.drop_index("ix_messages_session", table_name="messages")
    op.drop_table("messages")
    op.drop_index("ix_memory_history_memory", table_name="memory_history")
    op.drop_table("memory_history")
    op.drop_index(
        "uq_memories_active_single_key",
        table_name="memories",
        postgresql_where=sa.text("status = 'active' AND single_valued"),
    )
    op.drop_index("ix_memories_tenant_user_key", table_name="memories")
    op.drop_index("ix_memories_tenant_user_hash", table_name="memories")
    op.drop_index("ix_memories_tenant_user_created", table_name="memories")
    op.drop_index(
        "ix_memories_recall",
        table_name="memories",
        postgresql_include=[
            "id",
            "scope",
            "scope_id",
            "type",
            "confidence",
            "valid_from",
            "half_life_days",
            "embedding_model",
            "embedding",
        ],
    )
    op.drop_table("memories")
    op.drop_index(
        "uq_jobs_idempotency",
        table_name="jobs",
        postgresql_where=sa.text("idempotency_key IS NOT NULL"),
    )
    op.drop_index("ix_jobs_status", table_name="jobs")
    op.drop_table("jobs")
    op.drop_index("ix_arbitrations_user_created", table_name="arbitrations")
    op.drop_table("arbitrations")
