"""per-tenant memory counts for metrics

Revision ID: 34737a9b6045
Revises: 9d5385aa9f93
Create Date: 2026-11-29 14:00:03.471814
"""

from collections.abc import Sequence

from alembic import op

from app.db.roles import app_role

revision: str = "34737a9b6045"
down_revision: str | None = "9d5385aa9f93"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Aggregates only: the count of active memories per tenant, for the
    # memlane_long_term_mem_size gauge. It runs as the owner (SECURITY DEFINER) because the
    # application role sees one tenant at a time; it returns no row of any user.
    op.execute(
        """
        CREATE FUNCTION memlane_memory_counts()
        RETURNS TABLE (tenant_id uuid, active bigint)
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
            SELECT m.tenant_id, count(*) FROM memories m WHERE m.status = 'active' GROUP BY 1
        $$
        """
    )
    op.execute("REVOKE ALL ON FUNCTION memlane_memory_counts() FROM PUBLIC")
    op.execute(f"GRANT EXECUTE ON FUNCTION memlane_memory_counts() TO {app_role()}")


def downgrade() -> None:
    op.execute("DROP FUNCTION IF EXISTS memlane_memory_counts()")
