"""Tasks keep sensitive values of their name, slots and steps sealed

Revision ID: 7a1c3e5b9d20
Revises: 3f6c2a9d7e14
Create Date: 2026-12-01 22:20:00.000000

Task working memory is protected like memories (app/privacy/protect.py): its text holds masks
and tokens, and the clear values only sealed in ``tasks.sealed``. A token is longer than a
short email address, so the stored name may exceed the 200 characters a request may send.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "7a1c3e5b9d20"
down_revision: str | None = "3f6c2a9d7e14"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "tasks",
        sa.Column(
            "sealed",
            postgresql.JSONB(astext_type=sa.Text()),
            nullable=False,
            server_default=sa.text("'[]'::jsonb"),
        ),
    )
    op.alter_column("tasks", "name", type_=sa.Text(), existing_type=sa.String(length=200))


def downgrade() -> None:
    op.alter_column("tasks", "name", type_=sa.String(length=200), existing_type=sa.Text())
    op.drop_column("tasks", "sealed")
