"""recall's covering indexes carry valid_to (point-in-time recall stays index-only)

Revision ID: 2b8af0eb0629
Revises: a1945e85848d
Create Date: 2026-12-02 00:10:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "2b8af0eb0629"
down_revision: str | None = "a1945e85848d"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

SCAN = ("id", "scope", "scope_id", "type", "confidence", "valid_from", "half_life_days")


def _recreate(with_valid_to: bool) -> None:
    extra = ["valid_to"] if with_valid_to else []
    for name, payload in (("ix_memories_recall", "embedding"), ("ix_memories_text", "tsv")):
        op.drop_index(name, table_name="memories")
        op.create_index(
            name,
            "memories",
            ["tenant_id", "user_id", "status"],
            postgresql_include=[*SCAN, "embedding_model", *extra, payload],
        )


def upgrade() -> None:
    _recreate(with_valid_to=True)


def downgrade() -> None:
    _recreate(with_valid_to=False)
