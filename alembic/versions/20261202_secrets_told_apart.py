"""secrets told apart by their tokens, not their masks

Revision ID: 5c1d8e7a2b94
Revises: effcd8b9d29f
Create Date: 2026-12-02 18:30:00

A secret's stored value is its mask ("******" for every password), so the unique index of
one active row per value of a multi-valued key took a second password for a twin of the
first and refused it. Secret keys leave that index; arbitration tells their values apart by
the sealed value's token (``masks_as_tokens``), under the memory writer's lock.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "5c1d8e7a2b94"
down_revision: str | None = "effcd8b9d29f"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

COLUMNS = ["tenant_id", "user_id", "scope", "scope_id", "key", sa.text("md5(lower(value))")]
BEFORE = "status = 'active' AND NOT single_valued AND key IS NOT NULL AND value IS NOT NULL"
AFTER = BEFORE + " AND key NOT IN ('account.password', 'identity.document', 'finance.card')"


def _rebuild(where: str) -> None:
    op.drop_index("uq_memories_active_value", table_name="memories")
    op.create_index(
        "uq_memories_active_value",
        "memories",
        COLUMNS,
        unique=True,
        postgresql_where=sa.text(where),
    )


def upgrade() -> None:
    _rebuild(AFTER)


def downgrade() -> None:
    # Active twins by mask may exist now (two passwords): the older stays, as before.
    op.execute(
        sa.text(
            f"""
            WITH ranked AS (
                SELECT tenant_id, id, first_value(id) OVER w AS keep, row_number() OVER w AS n
                FROM memories
                WHERE {BEFORE}
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
    _rebuild(BEFORE)
