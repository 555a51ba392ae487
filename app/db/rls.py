"""Row-level security DDL, shared by migrations. Changing it needs a new migration."""

from __future__ import annotations

POLICY = "memlane_isolation"
# A row is visible when it belongs to the transaction's tenant and user ('*' = every user of
# that one tenant). Unset settings match nothing: current_setting(..., true) is NULL or ''.
# Each setting is read in a scalar subquery, which PostgreSQL evaluates once per statement (an
# InitPlan) instead of once per row: the recall scan reads 20,000 rows of a large user.
ISOLATION_PREDICATE = (
    "tenant_id = (SELECT NULLIF(current_setting('memlane.tenant_id', true), '')::uuid)"
    " AND (user_id = (SELECT current_setting('memlane.user_id', true))"
    " OR (SELECT current_setting('memlane.user_id', true)) = '*')"
)


def alter_policy(table: str, predicate: str = ISOLATION_PREDICATE) -> str:
    """The statement that puts ``table``'s isolation policy on ``predicate``."""
    return f"ALTER POLICY {POLICY} ON {table} USING ({predicate}) WITH CHECK ({predicate})"


def isolate_table(table: str, role: str) -> list[str]:
    """Statements that grant ``role`` the table and put it under the isolation policy."""
    return [
        f"GRANT SELECT, INSERT, UPDATE, DELETE ON {table} TO {role}",
        f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY",
        f"CREATE POLICY {POLICY} ON {table} USING ({ISOLATION_PREDICATE})"
        f" WITH CHECK ({ISOLATION_PREDICATE})",
    ]
