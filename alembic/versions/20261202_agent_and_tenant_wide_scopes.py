"""tenant-wide memories readable by a tenant's users, templates, user attributes, and the audit
of scope overrides

Revision ID: c14fd542c431
Revises: 7b3e91c4d2a5
Create Date: 2026-12-02 00:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

from app.db.rls import (
    TENANT_WIDE_POLICY,
    isolate_table,
    isolate_tenant_table,
    tenant_wide_read_policy,
)
from app.db.roles import app_role
from app.kit.types import TENANT_WIDE_USER

revision: str = "c14fd542c431"
down_revision: str | None = "7b3e91c4d2a5"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _created_at() -> sa.Column:
    return sa.Column(
        "created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False
    )


def upgrade() -> None:
    op.create_table(
        "tenant_templates",
        sa.Column("tenant_id", sa.UUID(), nullable=False),
        sa.Column("id", sa.String(length=128), nullable=False),
        sa.Column("attribute", sa.String(length=64), nullable=False),
        sa.Column("equals", sa.String(length=256), nullable=False),
        _created_at(),
        sa.PrimaryKeyConstraint("tenant_id", "id", name=op.f("pk_tenant_templates")),
    )
    op.create_table(
        "user_attributes",
        sa.Column("tenant_id", sa.UUID(), nullable=False),
        sa.Column("user_id", sa.String(length=128), nullable=False),
        sa.Column(
            "attributes",
            postgresql.JSONB(astext_type=sa.Text()),
            server_default=sa.text("'{}'::jsonb"),
            nullable=False,
        ),
        sa.Column(
            "updated_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.PrimaryKeyConstraint("tenant_id", "user_id", name=op.f("pk_user_attributes")),
    )
    op.create_table(
        "scope_reads",
        sa.Column("tenant_id", sa.UUID(), nullable=False),
        sa.Column("id", sa.BigInteger(), sa.Identity(always=False), nullable=False),
        sa.Column("user_id", sa.String(length=128), nullable=False),
        sa.Column("actor", sa.String(length=64), nullable=False),
        sa.Column("scopes", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column(
            "memory_ids",
            postgresql.JSONB(astext_type=sa.Text()),
            server_default=sa.text("'[]'::jsonb"),
            nullable=False,
        ),
        sa.Column("request_id", sa.String(length=64), nullable=True),
        _created_at(),
        sa.PrimaryKeyConstraint("tenant_id", "id", name=op.f("pk_scope_reads")),
    )
    op.create_index("ix_scope_reads_user", "scope_reads", ["tenant_id", "user_id", "id"])
    role = app_role()
    for statement in isolate_tenant_table("tenant_templates", role):
        op.execute(statement)
    for table in ("user_attributes", "scope_reads"):
        for statement in isolate_table(table, role):
            op.execute(statement)
    op.execute(tenant_wide_read_policy("memories", TENANT_WIDE_USER))


def downgrade() -> None:
    op.execute(f"DROP POLICY {TENANT_WIDE_POLICY} ON memories")
    op.drop_index("ix_scope_reads_user", table_name="scope_reads")
    op.drop_table("scope_reads")
    op.drop_table("user_attributes")
    op.drop_table("tenant_templates")
