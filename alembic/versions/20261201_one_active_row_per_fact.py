"""one active row per fact of a multi-valued key

Revision ID: 3f2a9c4d7b10
Revises: 8e4b6d2a91c7
Create Date: 2026-12-01 21:20:00.000000

At most one active memory per (tenant, user, scope, scope_id, key, normalised value) for keys
that hold several values (single-valued keys have uq_memories_active_single_key). Duplicates
that concurrent writes left before this revision are frozen first, superseded by the oldest
of their group, so the index can be built.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "3f2a9c4d7b10"
down_revision: str | None = "8e4b6d2a91c7"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

WHERE = "status = 'active' AND NOT single_valued AND key IS NOT NULL AND value IS NOT NULL"


def upgrade() -> None:
    op.execute(
        sa.text(
            f"""
            WITH ranked AS (
                SELECT tenant_id, id,
                       first_value(id) OVER w AS keep,
                       row_number() OVER w AS n
                FROM memories
                WHERE {WHERE}
                WINDOW w AS (
                    PARTITION BY tenant_id, user_id, scope, scope_id, key, md5(lower(value))
                    ORDER BY created_at, id
                )
            )
            UPDATE memories AS m
            SET status = 'frozen', superseded_by = r.keep, superseded_at = now(),
                updated_at = now()
            FROM ranked AS r
            WHERE m.tenant_id = r.tenant_id AND m.id = r.id AND r.n > 1
            """
        )
    )
    op.create_index(
        "uq_memories_active_value",
        "memories",
        [
            "tenant_id",
            "user_id",
            "scope",
            "scope_id",
            "key",
            sa.text("md5(lower(value))"),
        ],
        unique=True,
        postgresql_where=sa.text(WHERE),
    )


def downgrade() -> None:
    op.drop_index("uq_memories_active_value", table_name="memories")
