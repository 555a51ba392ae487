"""API keys carry scopes, may be bound to one user, may expire

Revision ID: 3f6c2a9d7e14
Revises: 8e4b6d2a91c7
Create Date: 2026-12-01 21:10:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "3f6c2a9d7e14"
down_revision: str | None = "8e4b6d2a91c7"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Every scope that exists at this revision: keys made before scopes could do everything, and
# keep doing so. New keys always name their scopes, so no default stays on the column.
ALL_SCOPES = "{memories:read,memories:write,memories:reveal,users:erase,keys:manage}"


def upgrade() -> None:
    op.add_column(
        "api_keys",
        sa.Column(
            "scopes",
            postgresql.ARRAY(sa.Text()),
            nullable=False,
            server_default=sa.text(f"'{ALL_SCOPES}'::text[]"),
        ),
    )
    op.alter_column("api_keys", "scopes", server_default=None)
    op.add_column("api_keys", sa.Column("user_id", sa.String(length=128), nullable=True))
    op.add_column("api_keys", sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    op.drop_column("api_keys", "expires_at")
    op.drop_column("api_keys", "user_id")
    op.drop_column("api_keys", "scopes")
