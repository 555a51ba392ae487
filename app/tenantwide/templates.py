"""Which tenant-wide memories a user reads: the template rules, pure, and the one read that
recall makes (this module sits low, like app/users/settings.py: recall imports it).

A tenant-wide memory carries ``scope="tenant"`` and ``scope_id`` = its template's id, or None
for every user of the tenant. A template matches a user when the user's attribute
``attribute`` equals ``equals``, compared case-insensitively after trimming; the attribute
``domain``, when not given, is the part after the ``@`` of the attribute ``email``.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import TenantTemplate
from app.tenantwide.repository import AttributeRepository, TemplateRepository

EVERY_USER = ""


def attribute_of(attributes: Mapping[str, Any], name: str) -> str | None:
    """The user's attribute ``name``, normalised (trimmed, lower case); ``domain`` falls back
    on the domain of ``email``."""
    value = attributes.get(name)
    if value is None and name == "domain":
        email = attributes.get("email")
        if isinstance(email, str) and "@" in email:
            value = email.rsplit("@", 1)[1]
    return value.strip().lower() if isinstance(value, str) and value.strip() else None


def matching(templates: Iterable[TenantTemplate], attributes: Mapping[str, Any]) -> list[str]:
    """Ids of the templates whose rule the attributes satisfy, in the given order."""
    return [
        t.id
        for t in templates
        if (v := attribute_of(attributes, t.attribute)) is not None
        and v == t.equals.strip().lower()
    ]


async def templates_of(
    session: AsyncSession, tenant_id: uuid.UUID, user_id: str
) -> tuple[str, ...]:
    """The template ids whose tenant-wide memories ``user_id`` reads: ``EVERY_USER`` and those
    matched by the user's attributes. Two small reads in the caller's transaction."""
    row = await AttributeRepository(session, tenant_id, user_id).get()
    if row is None or not row.attributes:
        return (EVERY_USER,)
    templates = await TemplateRepository(session, tenant_id).all()
    return (EVERY_USER, *matching(templates, row.attributes))
