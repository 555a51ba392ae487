"""per-user memory settings and their audit

Revision ID: 7b3e91c4d2a5
Revises: 7a1c3e5b9d20
Create Date: 2026-12-01 21:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

from app.db.rls import isolate_table
from app.db.roles import app_role

revision: str = "7b3e91c4d2a5"
down_revision: str | None = "7a1c3e5b9d20"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "user_settings",
        sa.Column("tenant_id", sa.UUID(), nullable=False),
        sa.Column("user_id", sa.String(length=128), nullable=False),
        sa.Column("memory_mode", sa.String(length=16), server_default="full", nullable=False),
        sa.Column("retention_days", sa.Integer(), nullable=True),
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
        sa.PrimaryKeyConstraint("tenant_id", "user_id", name=op.f("pk_user_settings")),
    )
    op.create_table(
        "user_settings_history",
        sa.Column("tenant_id", sa.UUID(), nullable=False),
        sa.Column("id", sa.BigInteger(), sa.Identity(always=False), nullable=False),
        sa.Column("user_id", sa.String(length=128), nullable=False),
        sa.Column("old", postgresql.JSONB(astext_type=sa.Text()), nullable=True),
        sa.Column("new", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("actor", sa.String(length=64), nullable=False),
        sa.Column("request_id", sa.String(length=64), nullable=True),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.PrimaryKeyConstraint("tenant_id", "id", name=op.f("pk_user_settings_history")),
    )
    op.create_index(
        "ix_user_settings_history_user",
        "user_settings_history",
        ["tenant_id", "user_id", "id"],
        unique=False,
    )
    role = app_role()
    for table in ("user_settings", "user_settings_history"):
        for statement in isolate_table(table, role):
            op.execute(statement)


def downgrade() -> None:
    op.drop_index("ix_user_settings_history_user", table_name="user_settings_history")
    op.drop_table("user_settings_history")
    op.drop_table("user_settings")
