"""full-text search on memories

Revision ID: 0d67f97d07f4
Revises: da774a48dc16
Create Date: 2026-11-29 14:16:41.771821
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0d67f97d07f4"
down_revision: str | None = "da774a48dc16"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "memories", sa.Column("search_text", sa.Text(), server_default="", nullable=False)
    )
    op.add_column(
        "memories",
        sa.Column(
            "tsv",
            postgresql.TSVECTOR(),
            sa.Computed("to_tsvector('english', search_text)", persisted=True),
            nullable=False,
        ),
    )
    op.create_index("ix_memories_tsv", "memories", ["tsv"], unique=False, postgresql_using="gin")
    # Existing memories get their terms (segmentation happens in Python: jieba).
    from app.privacy.protect import embedding_text
    from app.recall.text import search_text

    bind = op.get_bind()
    rows = bind.execute(sa.text("SELECT tenant_id, id, content FROM memories WHERE content <> ''"))
    for tenant_id, memory_id, content in rows.all():
        bind.execute(
            sa.text("UPDATE memories SET search_text = :s WHERE tenant_id = :t AND id = :i"),
            {"s": search_text(embedding_text(content)), "t": tenant_id, "i": memory_id},
        )


def downgrade() -> None:
    op.drop_index("ix_memories_tsv", table_name="memories", postgresql_using="gin")
    op.drop_column("memories", "tsv")
    op.drop_column("memories", "search_text")
