"""full-text ranking reads a covering index instead of the heap

Revision ID: 8e4b6d2a91c7
Revises: 5c1f0a7e2b93
Create Date: 2026-11-29 17:30:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "8e4b6d2a91c7"
down_revision: str | None = "5c1f0a7e2b93"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

INCLUDE = (
    "id",
    "scope",
    "scope_id",
    "type",
    "confidence",
    "valid_from",
    "half_life_days",
    "embedding_model",
    "tsv",
)
# A tsvector under this size fits a btree entry beside the other columns whatever it holds;
# larger ones get their search_text recomputed with the size bound of app/recall/text.py.
SAFE_TSV_BYTES = 1500


def upgrade() -> None:
    from app.recall.text import index_text

    bind = op.get_bind()
    rows = bind.execute(
        sa.text(
            "SELECT tenant_id, id, content FROM memories"
            " WHERE pg_column_size(tsv) > :safe OR octet_length(search_text) > :safe"
        ),
        {"safe": SAFE_TSV_BYTES},
    )
    for tenant_id, memory_id, content in rows.all():
        bind.execute(
            sa.text("UPDATE memories SET search_text = :s WHERE tenant_id = :t AND id = :i"),
            {"s": index_text(content), "t": tenant_id, "i": memory_id},
        )
    op.drop_index("ix_memories_tsv", table_name="memories", postgresql_using="gin")
    op.create_index(
        "ix_memories_text",
        "memories",
        ["tenant_id", "user_id", "status"],
        postgresql_include=list(INCLUDE),
    )


def downgrade() -> None:
    op.drop_index("ix_memories_text", table_name="memories")
    op.create_index("ix_memories_tsv", "memories", ["tsv"], postgresql_using="gin")
