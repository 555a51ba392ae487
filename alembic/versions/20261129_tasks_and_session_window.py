"""tasks, session window, message UTC offsets

Revision ID: 9d5385aa9f93
Revises: 40e09050d57d
Create Date: 2026-11-29 13:48:03.651975
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

from app.db.rls import POLICY, isolate_table
from app.db.roles import app_role

revision: str = "9d5385aa9f93"
down_revision: str | None = "40e09050d57d"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "tasks",
        sa.Column("tenant_id", sa.UUID(), nullable=False),
        sa.Column("user_id", sa.String(length=128), nullable=False),
        sa.Column("id", sa.String(length=128), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column(
            "required_slots",
            postgresql.JSONB(astext_type=sa.Text()),
            server_default=sa.text("'[]'::jsonb"),
            nullable=False,
        ),
        sa.Column(
            "slots",
            postgresql.JSONB(astext_type=sa.Text()),
            server_default=sa.text("'{}'::jsonb"),
            nullable=False,
        ),
        sa.Column(
            "steps",
            postgresql.JSONB(astext_type=sa.Text()),
            server_default=sa.text("'[]'::jsonb"),
            nullable=False,
        ),
        sa.Column("status", sa.String(length=16), server_default="open", nullable=False),
        sa.Column("conclusion", sa.Text(), nullable=True),
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
        sa.PrimaryKeyConstraint("tenant_id", "user_id", "id", name=op.f("pk_tasks")),
    )
    op.add_column(
        "sessions",
        sa.Column("summarized_through_seq", sa.BigInteger(), server_default="0", nullable=False),
    )
    op.add_column(
        "messages",
        sa.Column("utc_offset_minutes", sa.Integer(), server_default="0", nullable=False),
    )
    for statement in isolate_table("tasks", app_role()):
        op.execute(statement)


def downgrade() -> None:
    op.execute(f"DROP POLICY IF EXISTS {POLICY} ON tasks")
    op.drop_column("messages", "utc_offset_minutes")
    op.drop_column("sessions", "summarized_through_seq")
    op.drop_table("tasks")
