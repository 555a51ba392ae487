"""Task working memory is protected like memories and bounded in size, through the HTTP API."""

from __future__ import annotations

import random
import uuid
from pathlib import Path
from typing import Any

from stdnum import luhn
from stdnum.cn import ric

from app.db.setup import Database
from tests.conftest import TenantCtx
from tests.memories.test_one_write_path import on_disk


def new_card() -> str:
    """A Luhn-valid 16-digit number no other test writes."""
    body = "4" + "".join(random.choices("0123456789", k=14))
    return body + luhn.calc_check_digit(body)


def new_cn_id() -> str:
    """A valid Chinese resident ID number (GB 11643 check digit) no other test writes."""
    body = f"110105{random.randint(1950, 1999)}1231{random.randint(100, 999)}"
    return body + ric.calc_check_digit(body + "0")  # it reads the first 17 characters


async def test_task_name_slots_and_steps_are_protected(
    tenant: TenantCtx, database: Database, data_dir: Path
) -> None:
    card, cn_id, pw = new_card(), new_cn_id(), "hunter2" + uuid.uuid4().hex[:8]
    email = f"li.{uuid.uuid4().hex[:6]}@example.com"
    clear = (card, cn_id, pw, "sunflower" + pw[-4:])
    client, url, h = tenant.client, f"{tenant.user('u')}/tasks", tenant.headers

    def no_secret(text: str) -> None:
        assert not [c for c in clear if c in text], text

    r = await client.post(url, json={"id": "pt", "name": f"pay with card {card}"}, headers=h)
    assert r.status_code == 201, r.text
    no_secret(r.text)
    assert r.json()["name"] == f"pay with card {'*' * 12}{card[-4:]}"

    r = await client.patch(
        f"{url}/pt",
        json={
            "slots": {
                "card": card,
                "note": f"my password is {pw}",
                "mail": email,
                "n": 3,
                "wifi_password": "sunflower" + pw[-4:],  # secret by its name alone
                "bank_pin": 4821,
            },
            "steps": [{"description": f"user id {cn_id}"}],
        },
        headers=h,
    )
    assert r.status_code == 200, r.text
    no_secret(r.text)
    body = r.json()
    assert body["slots"] == {
        "card": "*" * 12 + card[-4:],
        "note": "my password is ******",
        "mail": email,  # a personal value comes back to its owner, as for memories
        "n": 3,
        "wifi_password": "******",
        "bank_pin": "******",
    }
    assert body["steps"][0]["description"] == "user id " + "*" * 14 + cn_id[-4:]

    for read in (
        await client.get(f"{url}/pt", headers=h),
        await client.get(url, headers=h),
    ):
        assert read.status_code == 200
        no_secret(read.text)
        assert email in read.text
    finished = await client.post(f"{url}/pt/finish", json={"conclusion": "paid"}, headers=h)
    assert finished.status_code == 200, finished.text
    no_secret(finished.text)
    assert finished.json()["task"]["slots"]["note"] == "my password is ******"
    # nothing in the clear in the database files (the tasks heap, its WAL), the email included
    assert await on_disk(database, data_dir, *clear, email) == []


async def test_task_values_are_bounded(tenant: TenantCtx) -> None:
    client, url, h = tenant.client, f"{tenant.user('u')}/tasks", tenant.headers
    assert (await client.post(url, json={"id": "big", "name": "big"}, headers=h)).status_code == 201

    async def refused(path: str, body: dict[str, Any], method: str = "PATCH") -> dict[str, Any]:
        r = await client.request(method, f"{url}{path}", json=body, headers=h)
        assert r.status_code == 422, r.text
        assert r.headers["content-type"] == "application/problem+json"
        problem: dict[str, Any] = r.json()
        assert problem["type"] == "urn:memlane:problem:validation-error", problem
        return problem

    await refused("/big", {"slots": {"k" * 65: "v"}})
    await refused("/big", {"slots": {"k": "v" * 2001}})
    await refused("/big", {"slots": {f"s{i}": "v" for i in range(101)}})
    await refused("/big", {"steps": [{"description": "d" * 2001}]})
    await refused("", {"name": "x", "required_slots": ["r" * 65]}, method="POST")
    await refused("", {"name": "x", "required_slots": [""]}, method="POST")
    # at the limits: accepted
    r = await client.patch(
        f"{url}/big",
        json={"slots": {"k" * 64: "v" * 2000, **{f"s{i}": i for i in range(98)}}},
        headers=h,
    )
    assert r.status_code == 200, r.text
    # a task holds at most 100 slots in all, over several requests
    problem = await refused("/big", {"slots": {"one": 1, "two": 2}})
    assert "100 slots" in problem["detail"]
    assert (
        await client.patch(f"{url}/big", json={"slots": {"one": 1}}, headers=h)
    ).status_code == 200
    # and at most 200 steps in all
    for _ in range(4):
        r = await client.patch(
            f"{url}/big", json={"steps": [{"description": "step"}] * 50}, headers=h
        )
        assert r.status_code == 200, r.text
    problem = await refused("/big", {"steps": [{"description": "one more"}]})
    assert "200 steps" in problem["detail"]
    got = (await client.get(f"{url}/big", headers=h)).json()
    assert len(got["steps"]) == 200 and len(got["slots"]) == 100
