"""sessions end; a tool turn's name

Revision ID: a1945e85848d
Revises: c14fd542c431
Create Date: 2026-12-02 00:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "a1945e85848d"
down_revision: str | None = "c14fd542c431"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # When the session was ended (POST …/sessions/{id}/end); NULL while it is open.
    op.add_column("sessions", sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True))
    # The tool a ``tool`` turn came from (the chat API's ``name``), NULL for other roles.
    op.add_column("messages", sa.Column("name", sa.String(length=64), nullable=True))


def downgrade() -> None:
    op.drop_column("messages", "name")
    op.drop_column("sessions", "ended_at")
