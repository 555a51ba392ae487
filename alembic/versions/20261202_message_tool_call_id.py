"""a tool turn's tool_call_id

Revision ID: effcd8b9d29f
Revises: ae17fe1ee125
Create Date: 2026-12-02 01:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "effcd8b9d29f"
down_revision: str | None = "ae17fe1ee125"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # The call a ``tool`` turn answers (the chat API's ``tool_call_id``), NULL otherwise.
    op.add_column("messages", sa.Column("tool_call_id", sa.String(length=128), nullable=True))


def downgrade() -> None:
    op.drop_column("messages", "tool_call_id")
