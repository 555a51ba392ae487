"""sign bits of each embedding in a slim covering index: the vector pre-filter of large users

Revision ID: 88599d4cc068
Revises: effcd8b9d29f
Create Date: 2026-12-02 03:00:00

``embedding_bits`` is pgvector's ``binary_quantize(embedding)`` (one bit per dimension, set
where the component is positive), kept by PostgreSQL itself (a stored generated column, so no
write path can forget it). ``ix_memories_recall_bits`` carries it with the filter columns of a
recall scan and nothing else, ~6× smaller per entry than ``ix_memories_recall``: a large
user's rows are pre-filtered by Hamming distance there, and only the best candidates are
re-ranked by exact cosine (docs/recall.md, "Query plan"). Adding a stored column rewrites the
table once (an exclusive lock for the duration).
"""

from collections.abc import Sequence

from alembic import op

revision: str = "88599d4cc068"
down_revision: str | None = "effcd8b9d29f"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# The filter columns of a recall scan (_FILTERS in app/recall/repository.py), then the bits.
FILTER_COLUMNS = ("id", "scope", "scope_id", "type", "valid_from", "embedding_model", "valid_to")


def upgrade() -> None:
    op.execute(
        "ALTER TABLE memories ADD COLUMN embedding_bits bit varying"
        " GENERATED ALWAYS AS (binary_quantize(embedding)) STORED"
    )
    op.create_index(
        "ix_memories_recall_bits",
        "memories",
        ["tenant_id", "user_id", "status"],
        postgresql_include=[*FILTER_COLUMNS, "embedding_bits"],
    )


def downgrade() -> None:
    op.drop_index("ix_memories_recall_bits", table_name="memories")
    op.drop_column("memories", "embedding_bits")
