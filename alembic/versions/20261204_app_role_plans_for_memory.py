"""the application role plans for data in memory (random_page_cost 1.1)

Revision ID: 7e2c4b9d1a05
Revises: 5c1d8e7a2b94
Create Date: 2026-12-04 23:40:00
"""

from collections.abc import Sequence

from alembic import op

from app.db.roles import app_role

revision: str = "7e2c4b9d1a05"
down_revision: str | None = "5c1d8e7a2b94"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# PostgreSQL's default random_page_cost (4.0) prices a page read out of order as four read in
# order, as on a spinning disk. Recall reads a user's range of its covering index, which sits
# in shared_buffers; at 4.0 the planner read a 20,000-memory user's rows from the heap through
# a bitmap (4,480 pages) instead, and the ranking took 27.9 ms p95 against 20.7 at 1.1
# (docs/recall.md, "Planning for data in memory"). 1.1 is the value PostgreSQL's documentation
# suggests when the data is cached ("Planner Cost Constants": lowering random_page_cost
# relative to seq_page_cost makes index scans more likely). Set on the role, so it holds on any
# server the service connects to; a new connection reads it.
RANDOM_PAGE_COST = "1.1"


def upgrade() -> None:
    op.execute(f"ALTER ROLE {app_role()} SET random_page_cost = {RANDOM_PAGE_COST}")


def downgrade() -> None:
    op.execute(f"ALTER ROLE {app_role()} RESET random_page_cost")
