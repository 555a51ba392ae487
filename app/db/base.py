"""Declarative base and column helpers shared by every model."""

from __future__ import annotations

from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy import DateTime, MetaData, func
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


ModelT = TypeVar("ModelT", bound="Base")


def transient(model: type[ModelT], values: dict[str, Any]) -> ModelT:
    """A transient instance of ``model`` holding ``values`` (attribute keys), for reading only:
    built by the mapper's class manager with its attributes set in place, without the
    per-attribute events of ``model(**values)`` (29 columns of a recalled memory cost 40–130 µs
    a row that way, docs/benchmarks.md). Never add it to a session: the unit of work sees no
    changes on it."""
    instance: ModelT = model.__mapper__.class_manager.new_instance()
    instance.__dict__.update(values)
    return instance


def created_at_column() -> Mapped[datetime]:
    return mapped_column(DateTime(timezone=True), nullable=False, server_default=func.now())


# Tables that hold a user's data: each has tenant_id and user_id and a row-level security
# policy keyed on the per-transaction settings memlane.tenant_id / memlane.user_id.
USER_OWNED_TABLES = (
    "memories",
    "memory_history",
    "arbitrations",
    "jobs",
    "sessions",
    "messages",
    "tasks",
    "user_settings",
    "user_settings_history",
    "memory_terms",
    "memory_term_stats",
)


def execute_script(sql: str) -> None:
    """Run a multi-statement SQL script inside an Alembic migration (asyncpg connection).

    asyncpg prepares every statement it is given, and a prepared statement holds one command;
    the raw connection's ``execute`` without arguments uses the simple query protocol instead.
    """
    from alembic import op
    from sqlalchemy.util import await_only

    raw = op.get_bind().connection.dbapi_connection
    await_only(raw.driver_connection.execute(sql))  # type: ignore[union-attr]
