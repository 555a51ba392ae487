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


# Tables of a whole tenant (no user column): a row is visible to every transaction of its
# tenant, never to another tenant's.
TENANT_PREDICATE = (
    "tenant_id = (SELECT NULLIF(current_setting('memlane.tenant_id', true), '')::uuid)"
)


def isolate_tenant_table(table: str, role: str) -> list[str]:
    """Statements that grant ``role`` the table and put it under the tenant-only policy."""
    return [
        f"GRANT SELECT, INSERT, UPDATE, DELETE ON {table} TO {role}",
        f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY",
        f"CREATE POLICY {POLICY} ON {table} USING ({TENANT_PREDICATE})"
        f" WITH CHECK ({TENANT_PREDICATE})",
    ]


# Tenant-wide memories (docs/scopes.md) are rows of the reserved owner TENANT_WIDE_USER
# (app/kit/types.py). This second, SELECT-only policy lets every user of the tenant read them:
# permissive policies are OR-ed for reads, while INSERT, UPDATE and DELETE still need the
# isolation policy, so only a transaction of the reserved owner itself changes them.
TENANT_WIDE_POLICY = "memlane_tenant_wide"


def tenant_wide_read_policy(table: str, owner: str) -> str:
    """The statement that lets every transaction of a tenant read ``owner``'s rows of
    ``table`` (``owner`` is a constant, never client input)."""
    return (
        f"CREATE POLICY {TENANT_WIDE_POLICY} ON {table} FOR SELECT"
        f" USING ({TENANT_PREDICATE} AND user_id = '{owner}')"
    )
