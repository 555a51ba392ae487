"""application role logs in

Revision ID: b68bf8317d3f
Revises: 0d67f97d07f4
Create Date: 2026-11-29 14:21:05.418947
"""

from collections.abc import Sequence

from alembic import op

from app.db.roles import app_role

revision: str = "b68bf8317d3f"
down_revision: str | None = "0d67f97d07f4"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # The service logs in as the application role itself: a connection that only switched to
    # it (SET ROLE from the owner) could switch back and bypass row-level security.
    role = app_role()
    op.execute(f"ALTER ROLE {role} LOGIN")
    op.execute(f"REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON alembic_version FROM {role}")


def downgrade() -> None:
    role = app_role()
    op.execute(f"ALTER ROLE {role} NOLOGIN")
    op.execute(f"GRANT INSERT, UPDATE, DELETE ON alembic_version TO {role}")
