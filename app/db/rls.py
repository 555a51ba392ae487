"""Row-level security DDL, shared by migrations. Changing it needs a new migration."""

from __future__ import annotations

POLICY = "memlane_isolation"
# A row is visible when it belongs to the transaction's tenant and user ('*' = every user of
# that one tenant). Unset settings match nothing: current_setting(..., true) is NULL or ''.
ISOLATION_PREDICATE = (
    "tenant_id = NULLIF(current_setting('memlane.tenant_id', true), '')::uuid"
    " AND (user_id = current_setting('memlane.user_id', true)"
    " OR current_setting('memlane.user_id', true) = '*')"
)


def isolate_table(table: str, role: str) -> list[str]:
    """Statements that grant ``role`` the table and put it under the isolation policy."""
    return [
        f"GRANT SELECT, INSERT, UPDATE, DELETE ON {table} TO {role}",
        f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY",
        f"CREATE POLICY {POLICY} ON {table} USING ({ISOLATION_PREDICATE})"
        f" WITH CHECK ({ISOLATION_PREDICATE})",
    ]
