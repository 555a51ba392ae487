"""BM25 inside PostgreSQL: per-user postings and statistics, and named entities of memories

Revision ID: ae17fe1ee125
Revises: 2b8af0eb0629
Create Date: 2026-12-02 00:00:00

``memory_terms`` holds one row per (user, term, memory) of every memory recall ranks (status
active or frozen): the term's frequency in the memory, the memory's length and status. Terms are
the lexemes of ``memories.tsv`` (``to_tsvector('english', search_text)``: Snowball-stemmed
English, jieba-cut Chinese) and, marked with a leading ``@``, the memory's ``entities`` (no
lexeme of ``search_text`` holds an ``@``). ``memory_term_stats`` holds per user and status the
number of documents and their total length. Both are kept by the trigger ``memories_terms`` in
the transaction of every write of a memory (docs/recall.md, "BM25").
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

from app.db.rls import isolate_table, tenant_wide_read_policy
from app.db.roles import app_role
from app.kit.types import TENANT_WIDE_USER

revision: str = "ae17fe1ee125"
down_revision: str | None = "2b8af0eb0629"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# The statuses recall ranks (active: memories; frozen: reminders).
INDEXED = "('active', 'frozen')"
ENTITY_MARK = "@"

SYNC_FUNCTION = f"""
CREATE FUNCTION memory_terms_sync() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    old_in boolean := TG_OP <> 'INSERT' AND OLD.status IN {INDEXED};
    new_in boolean := TG_OP <> 'DELETE' AND NEW.status IN {INDEXED};
    len integer;
BEGIN
    IF TG_OP = 'UPDATE' AND OLD.status = NEW.status AND OLD.tsv = NEW.tsv
       AND OLD.entities = NEW.entities THEN
        RETURN NULL;
    END IF;
    IF old_in THEN
        DELETE FROM memory_terms p
         WHERE p.tenant_id = OLD.tenant_id AND p.user_id = OLD.user_id
           AND p.term = ANY(tsvector_to_array(OLD.tsv)
                            || ARRAY(SELECT '{ENTITY_MARK}' || e FROM unnest(OLD.entities) e))
           AND p.memory_id = OLD.id;
        SELECT coalesce(sum(coalesce(array_length(u.positions, 1), 1)), 0) INTO len
          FROM unnest(OLD.tsv) u;
        UPDATE memory_term_stats s SET docs = s.docs - 1, total_len = s.total_len - len
         WHERE s.tenant_id = OLD.tenant_id AND s.user_id = OLD.user_id
           AND s.status = OLD.status;
    END IF;
    IF new_in THEN
        SELECT coalesce(sum(coalesce(array_length(u.positions, 1), 1)), 0) INTO len
          FROM unnest(NEW.tsv) u;
        INSERT INTO memory_terms (tenant_id, user_id, term, memory_id, status, tf, doc_len)
        SELECT NEW.tenant_id, NEW.user_id, u.lexeme, NEW.id, NEW.status,
               coalesce(array_length(u.positions, 1), 1), len
          FROM unnest(NEW.tsv) u
        UNION ALL
        SELECT NEW.tenant_id, NEW.user_id, '{ENTITY_MARK}' || e.e, NEW.id, NEW.status, 1, len
          FROM (SELECT DISTINCT e FROM unnest(NEW.entities) e) e;
        INSERT INTO memory_term_stats AS s (tenant_id, user_id, status, docs, total_len)
        VALUES (NEW.tenant_id, NEW.user_id, NEW.status, 1, len)
        ON CONFLICT (tenant_id, user_id, status) DO UPDATE
           SET docs = s.docs + 1, total_len = s.total_len + excluded.total_len;
    END IF;
    RETURN NULL;
END
$$
"""

TRIGGER = """
CREATE TRIGGER memories_terms
AFTER INSERT OR DELETE OR UPDATE OF status, search_text, entities ON memories
FOR EACH ROW EXECUTE FUNCTION memory_terms_sync()
"""

BACKFILL_POSTINGS = f"""
INSERT INTO memory_terms (tenant_id, user_id, term, memory_id, status, tf, doc_len)
SELECT m.tenant_id, m.user_id, t.term, m.id, m.status, t.tf, d.len
  FROM memories m
 CROSS JOIN LATERAL (SELECT coalesce(sum(coalesce(array_length(u.positions, 1), 1)), 0) AS len
                       FROM unnest(m.tsv) u) d
 CROSS JOIN LATERAL (SELECT u.lexeme AS term, coalesce(array_length(u.positions, 1), 1) AS tf
                       FROM unnest(m.tsv) u
                     UNION ALL
                     SELECT DISTINCT '{ENTITY_MARK}' || e, 1 FROM unnest(m.entities) e) t
 WHERE m.status IN {INDEXED}
"""

BACKFILL_STATS = f"""
INSERT INTO memory_term_stats (tenant_id, user_id, status, docs, total_len)
SELECT m.tenant_id, m.user_id, m.status, count(*),
       coalesce(sum((SELECT coalesce(sum(coalesce(array_length(u.positions, 1), 1)), 0)
                       FROM unnest(m.tsv) u)), 0)
  FROM memories m
 WHERE m.status IN {INDEXED}
 GROUP BY m.tenant_id, m.user_id, m.status
"""


def upgrade() -> None:
    from app.recall.entities import memory_entities

    op.add_column(
        "memories",
        sa.Column(
            "entities",
            postgresql.ARRAY(sa.Text()),
            server_default=sa.text("'{}'::text[]"),
            nullable=False,
        ),
    )
    bind = op.get_bind()
    rows = bind.execute(
        sa.text(f"SELECT tenant_id, id, content FROM memories WHERE status IN {INDEXED}")
    )
    for tenant_id, memory_id, content in rows.all():
        found = memory_entities(content or "")
        if found:
            bind.execute(
                sa.text("UPDATE memories SET entities = :e WHERE tenant_id = :t AND id = :i"),
                {"e": found, "t": tenant_id, "i": memory_id},
            )
    op.create_table(
        "memory_terms",
        sa.Column("tenant_id", sa.UUID(), nullable=False),
        sa.Column("user_id", sa.String(length=128), nullable=False),
        sa.Column("term", sa.Text(), nullable=False),
        sa.Column("memory_id", sa.UUID(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("tf", sa.Integer(), nullable=False),
        sa.Column("doc_len", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint(
            "tenant_id",
            "user_id",
            "term",
            "memory_id",
            name=op.f("pk_memory_terms"),
            postgresql_include=["status", "tf", "doc_len"],
        ),
    )
    op.create_table(
        "memory_term_stats",
        sa.Column("tenant_id", sa.UUID(), nullable=False),
        sa.Column("user_id", sa.String(length=128), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("docs", sa.BigInteger(), nullable=False),
        sa.Column("total_len", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint(
            "tenant_id", "user_id", "status", name=op.f("pk_memory_term_stats")
        ),
    )
    op.execute(BACKFILL_POSTINGS)
    op.execute(BACKFILL_STATS)
    op.execute(SYNC_FUNCTION)
    op.execute(TRIGGER)
    role = app_role()
    for table in ("memory_terms", "memory_term_stats"):
        for statement in isolate_table(table, role):
            op.execute(statement)
        # every user of the tenant reads the tenant-wide owner's postings (docs/scopes.md)
        op.execute(tenant_wide_read_policy(table, TENANT_WIDE_USER))


def downgrade() -> None:
    op.execute("DROP TRIGGER memories_terms ON memories")
    op.execute("DROP FUNCTION memory_terms_sync()")
    op.drop_table("memory_term_stats")
    op.drop_table("memory_terms")
    op.drop_column("memories", "entities")
