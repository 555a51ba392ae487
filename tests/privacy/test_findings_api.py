"""Sensitive values in places detection used to miss, through the HTTP API: passwords in
everyday phrasings, memory metadata; and input the validation used to answer wrongly."""

from __future__ import annotations

import json
import uuid
from datetime import datetime
from pathlib import Path

import asyncpg

from app.db.setup import Database
from tests.conftest import TenantCtx
from tests.memories.test_one_write_path import on_disk
from tests.tasks.test_task_limits_and_privacy import new_card


def said_texts(document: object) -> list[str]:
    """Every string in a JSON document except ids and timestamps, which are random hex and
    digits and may hold any four digits by chance."""
    if isinstance(document, dict):
        return [s for value in document.values() for s in said_texts(value)]
    if isinstance(document, list):
        return [s for value in document for s in said_texts(value)]
    if not isinstance(document, str):
        return []
    try:
        uuid.UUID(document)
        return []
    except ValueError:
        pass
    try:
        datetime.fromisoformat(document)
        return []
    except ValueError:
        return [document]


async def test_a_password_said_in_passing_is_masked_in_context_and_export(
    tenant: TenantCtx, database: Database
) -> None:
    pw = "hunter2" + uuid.uuid4().hex[:6]
    r = await tenant.client.post(
        f"{tenant.user('u')}/sessions/s1/messages?wait=true",
        json={
            "messages": [
                {"role": "user", "content": f"the password for my bank is {pw}"},
                {"role": "assistant", "content": f"Noted your password {pw}"},
                {
                    "role": "user",
                    "content": f"pwd={pw}, PIN 4821",
                    "metadata": {"pw": pw, "said": f"my password is {pw}"},
                },
            ]
        },
        headers=tenant.headers,
    )
    assert r.status_code in (200, 201), r.text
    ctx = await tenant.client.get(f"{tenant.user('u')}/sessions/s1/context", headers=tenant.headers)
    assert ctx.status_code == 200, ctx.text
    assert not [s for s in said_texts(ctx.json()) if pw in s or "4821" in s]
    assert "Noted your password ******" in ctx.text
    exported = await tenant.client.get(
        f"{tenant.user('u')}/export", params={"include_messages": "true"}, headers=tenant.headers
    )
    assert exported.status_code == 200
    assert "Noted your password ******" in exported.text
    assert not [s for s in said_texts(exported.json()) if pw in s or "4821" in s]
    conn = await asyncpg.connect(database.asyncpg_dsn)
    try:
        rows = await conn.fetch(
            "SELECT content || metadata::text FROM messages WHERE tenant_id = $1",
            uuid.UUID(tenant.id),
        )
    finally:
        await conn.close()
    assert len(rows) == 3 and not [r for r in rows if pw in r[0] or "4821" in r[0]]


async def test_memory_metadata_is_protected(
    tenant: TenantCtx, database: Database, data_dir: Path
) -> None:
    pw, card = "hunter2" + uuid.uuid4().hex[:6], new_card()
    email = f"m.{uuid.uuid4().hex[:6]}@example.com"
    clear = (pw, card)
    metadata = {
        "pw": f"my password is {pw}",
        "note": f"my password is {pw}",
        "card": card,
        "nested": {"list": [f"card {card}", 7, None], "mail": email},
        "n": int(card),  # a card number sent as a JSON number
    }
    r = await tenant.client.post(
        f"{tenant.user('u')}/memories?wait=true",
        json={"content": "note one", "metadata": metadata},
        headers=tenant.headers,
    )
    assert r.status_code == 201, r.text
    [m] = r.json()["memories"]
    masked = "*" * 12 + card[-4:]
    assert m["metadata"] == {
        "pw": "******",  # its key names a password: secret as a whole
        "note": "my password is ******",
        "card": masked,
        "nested": {"list": [f"card {masked}", 7, None], "mail": email},
        "n": masked,
    }
    job_id = r.json()["job_id"]
    base = tenant.user("u")
    reads = [
        await tenant.client.get(f"{base}/memories", headers=tenant.headers),
        await tenant.client.get(f"{base}/memories/{m['id']}/history", headers=tenant.headers),
        await tenant.client.get(f"{base}/export", headers=tenant.headers),
        await tenant.client.get(f"/v1/jobs/{job_id}", headers=tenant.headers),
    ]
    for read in reads:
        assert read.status_code == 200, read.text
        assert not [c for c in clear if c in read.text], read.text
    assert email in reads[0].text  # the owner sees the personal value
    # PATCH of the metadata alone is protected too
    patched = await tenant.client.patch(
        f"{base}/memories/{m['id']}",
        json={"metadata": {"note": f"PIN is {card[:4]}", "again": card, "pin": 9071}},
        headers=tenant.headers,
    )
    assert patched.status_code == 200, patched.text
    assert patched.json()["metadata"] == {
        "note": "PIN is ******",
        "again": masked,
        "pin": "******",  # secret by its name alone
    }

    conn = await asyncpg.connect(database.asyncpg_dsn)
    try:
        payload = await conn.fetchval(
            "SELECT payload::text FROM jobs WHERE id = $1", uuid.UUID(job_id)
        )
        stored = await conn.fetchval(
            "SELECT metadata::text FROM memories WHERE id = $1", uuid.UUID(m["id"])
        )
    finally:
        await conn.close()
    assert "my password is ******" in payload and '"pw": "******"' in payload
    for text in (payload, stored):
        assert not [c for c in (*clear, email) if c in text], text
    assert await on_disk(database, data_dir, *clear, email) == []


async def test_a_huge_integer_is_a_validation_error(tenant: TenantCtx) -> None:
    body = '{"content": "note", "metadata": {"n": ' + "9" * 5000 + "}}"
    r = await tenant.client.post(
        f"{tenant.user('u')}/memories",
        content=body,
        headers={**tenant.headers, "Content-Type": "application/json"},
    )
    assert r.status_code == 422, r.text
    assert r.headers["content-type"] == "application/problem+json"
    assert r.json()["type"] == "urn:memlane:problem:validation-error"


async def test_invisible_content_is_blank(tenant: TenantCtx) -> None:
    for content in ("\u3000\u200b", "\u200b\u200d\ufeff", " \t\n"):
        r = await tenant.client.post(
            f"{tenant.user('u')}/memories",
            content=json.dumps({"content": content}),
            headers={**tenant.headers, "Content-Type": "application/json"},
        )
        assert r.status_code == 422, (content, r.text)
        assert r.json()["type"] == "urn:memlane:problem:validation-error"
        assert "blank" in r.json()["detail"]


async def test_a_uuid_in_content_and_metadata_comes_back_as_sent(tenant: TenantCtx) -> None:
    """Its digits read as a Luhn-valid card number; it was stored masked."""
    ref = "8c524cf5-1648-4e27-a8e3-944177023849"
    r = await tenant.client.post(
        f"{tenant.user('u')}/memories?wait=true",
        json={"content": f"order {ref} arrived", "metadata": {"order_id": ref}},
        headers=tenant.headers,
    )
    assert r.status_code == 201, r.text
    [m] = await tenant.memories("u")
    assert (m["content"], m["metadata"]) == (f"order {ref} arrived", {"order_id": ref})
