"""cheaper recall statements: isolation settings read once per statement, constraints indexed

Revision ID: 5c1f0a7e2b93
Revises: b68bf8317d3f
Create Date: 2026-11-29 17:10:00.000000
"""

from collections.abc import Sequence

from alembic import op

from app.db.rls import alter_policy

revision: str = "5c1f0a7e2b93"
down_revision: str | None = "b68bf8317d3f"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLES = ("memories", "memory_history", "arbitrations", "jobs", "sessions", "messages", "tasks")
PER_ROW_PREDICATE = (
    "tenant_id = NULLIF(current_setting('memlane.tenant_id', true), '')::uuid"
    " AND (user_id = current_setting('memlane.user_id', true)"
    " OR current_setting('memlane.user_id', true) = '*')"
)


def upgrade() -> None:
    for table in TABLES:
        op.execute(alter_policy(table))
    op.create_index(
        "ix_memories_active_constraints",
        "memories",
        ["tenant_id", "user_id", "created_at", "id"],
        postgresql_where="type = 'constraint' AND status = 'active'",
    )


def downgrade() -> None:
    op.drop_index("ix_memories_active_constraints", table_name="memories")
    for table in TABLES:
        op.execute(alter_policy(table, PER_ROW_PREDICATE))
