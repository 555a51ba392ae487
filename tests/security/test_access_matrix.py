"""The access matrix: every operation of the app's OpenAPI document × every kind of caller that
must be turned away.

A victim tenant A (users alice and bob: memories, sessions with messages, tasks, jobs, API
keys) and an attacker tenant B. For every operation (enumerated from ``create_app().openapi()``,
so a new route is covered at once, and an operation without an expectation fails
``test_every_operation_has_an_expectation``), the contract of ``app/auth/principal.py``:

- no key, a garbage or malformed key, a revoked key of A → 401 (a revoked key answers exactly
  like one that never existed);
- the admin key on user data → 403; a tenant key on admin routes → 403;
- B's key on A's paths → 404, the same body as for a tenant that does not exist;
- A's key with bob's ids under alice's path → 404, the same body as for a random id;
- A's key with ids that do not exist → 404; B's key with A's ids under B's own paths → 404;
- A's key lacking the scope an operation declares → 403 ``insufficient-scope`` (the same for
  alice's ids and random ones); B's key lacking it, on A's paths → still 404 like a missing
  tenant; a key of A bound to alice on bob's paths → 404 like a user that does not exist, and
  on paths naming no user → 403.

Never 2xx, never victim content in the body or headers, and an existing-but-foreign id answers
exactly like a random one (bodies compared without ``request_id`` and ``instance``). One world
per module keeps the file fast. tests/auth/test_isolation.py holds the end-to-end recall
isolation; this file is the exhaustive, per-route table.
"""

from __future__ import annotations

import hashlib
import uuid
from dataclasses import dataclass, field
from typing import Any, Literal

import httpx
import pytest

from app.auth.principal import ALL_SCOPES
from app.main import create_app
from tests.conftest import ADMIN_KEY, TenantCtx, new_tenant

Access = Literal["public", "admin", "tenant_or_admin", "user", "tenant"]

# What each operation accepts. A new operation must be added here (and so thought about).
EXPECTATIONS: dict[str, Access] = {
    "healthz": "public",
    "readyz": "public",
    "metrics": "public",  # its own optional token: tests/ops
    "create_tenant": "admin",
    "list_tenants": "admin",
    "create_api_key": "tenant_or_admin",
    "list_api_keys": "tenant_or_admin",
    "revoke_api_key": "tenant_or_admin",
    "create_memory": "user",
    "create_memories": "user",
    "list_memories": "user",
    "get_memory": "user",
    "update_memory": "user",
    "delete_memory": "user",
    "get_memory_history": "user",
    "list_arbitrations": "user",
    "reveal_memory_secrets": "user",
    "recall": "user",
    "get_context": "user",
    "add_messages": "user",
    "end_session": "user",
    "create_task": "user",
    "list_tasks": "user",
    "get_task": "user",
    "update_task": "user",
    "finish_task": "user",
    "export_user": "user",
    "import_user": "user",
    "erase_user_data": "user",
    "get_job": "tenant",
    "retry_job": "tenant",
    "list_users": "tenant",
    "get_user_settings": "user",
    "put_user_settings": "user",
    "get_user_settings_history": "user",
    "get_user_activity": "user",
    "list_memories_to_confirm": "user",
    "confirm_memory": "user",
    "reject_memory": "user",
    "list_scope_reads": "user",
    "create_tenant_memory": "tenant",
    "list_tenant_memories": "tenant",
    "delete_tenant_memory": "tenant",
    "put_template": "tenant",
    "list_templates": "tenant",
    "delete_template": "tenant",
    "get_user_attributes": "user",
    "put_user_attributes": "user",
}

# The scope each operation declares (docs/api-keys.md); admin-only and public ones need none.
SCOPES: dict[str, str] = {
    "create_api_key": "keys:manage",
    "list_api_keys": "keys:manage",
    "revoke_api_key": "keys:manage",
    "create_memory": "memories:write",
    "create_memories": "memories:write",
    "list_memories": "memories:read",
    "get_memory": "memories:read",
    "update_memory": "memories:write",
    "delete_memory": "memories:write",
    "get_memory_history": "memories:read",
    "list_arbitrations": "memories:read",
    "reveal_memory_secrets": "memories:reveal",
    "recall": "memories:read",
    "get_context": "memories:read",
    "add_messages": "memories:write",
    "end_session": "memories:write",
    "create_task": "memories:write",
    "list_tasks": "memories:read",
    "get_task": "memories:read",
    "update_task": "memories:write",
    "finish_task": "memories:write",
    "export_user": "memories:read",
    "import_user": "memories:write",
    "erase_user_data": "users:erase",
    "get_job": "memories:write",
    "retry_job": "memories:write",
    "list_users": "memories:read",
    "get_user_settings": "memories:read",
    "put_user_settings": "memories:write",
    "get_user_settings_history": "memories:read",
    "get_user_activity": "memories:read",
    "list_memories_to_confirm": "memories:read",
    "confirm_memory": "memories:write",
    "reject_memory": "memories:write",
    "list_scope_reads": "memories:read",
    "create_tenant_memory": "tenant:write",
    "list_tenant_memories": "memories:read",
    "delete_tenant_memory": "tenant:write",
    "put_template": "tenant:write",
    "list_templates": "memories:read",
    "delete_template": "tenant:write",
    "get_user_attributes": "memories:read",
    "put_user_attributes": "tenant:write",
}

# A valid request body / query per operation, so an answer is about who calls, not about a
# malformed request. Operations missing here are sent without a body.
BODIES: dict[str, Any] = {
    "create_tenant": {"name": "probe"},
    "create_api_key": {"name": "probe"},
    "create_memory": {"content": "probe memory"},
    "create_memories": {"memories": [{"content": "probe memory"}, {"content": "probe two"}]},
    "update_memory": {"content": "overwritten by a probe"},
    "recall": {"query": "vault label locker"},
    "add_messages": {"messages": [{"role": "user", "content": "probe turn"}]},
    "create_task": {"name": "probe task"},
    "update_task": {"slots": {"city": "overwritten"}},
    "finish_task": {"conclusion": "probe conclusion"},
    "put_user_settings": {"memory_mode": "paused"},
    "create_tenant_memory": {"content": "probe tenant memory"},
    "put_template": {"attribute": "domain", "equals": "probe.example"},
    "put_user_attributes": {"attributes": {"domain": "probe.example"}},
}
QUERIES: dict[str, dict[str, str]] = {"get_context": {"query": "vault label locker"}}
# Path parameters naming an object; `session_id` is a name the client chooses (a session exists
# once written to), so it is probed by reads only.
OBJECT_PARAMS = ("memory_id", "task_id", "key_id", "job_id")
VOLATILE = ("request_id", "instance")
# Ranking factors that move with the clock between two otherwise identical recalls.
DRIFTING = ("score", "decay", "similarity")
PROBLEM_JSON = "application/problem+json"


@dataclass(frozen=True)
class Operation:
    id: str
    method: str
    path: str

    def __str__(self) -> str:
        return self.id

    def has(self, param: str) -> bool:
        return "{" + param + "}" in self.path


def _operations() -> list[Operation]:
    doc = create_app().openapi()
    return [
        Operation(op["operationId"], method.upper(), path)
        for path, methods in doc["paths"].items()
        for method, op in methods.items()
    ]


OPERATIONS = _operations()
GUARDED = [op for op in OPERATIONS if EXPECTATIONS.get(op.id, "public") != "public"]


def _of(*kinds: Access) -> list[Operation]:
    return [op for op in OPERATIONS if EXPECTATIONS.get(op.id) in kinds]


@dataclass
class World:
    a: TenantCtx
    b: TenantCtx
    client: httpx.AsyncClient
    tenant_mark: str  # in every piece of A's data: B must never see it
    bob_mark: str  # in every piece of bob's data: alice's paths must never show it
    revoked_key: str
    spare_key_id: str
    spare_key: str
    # ids of A: alice's own, bob's, and random ones that exist nowhere
    alice: dict[str, str] = field(default_factory=dict)
    bob: dict[str, str] = field(default_factory=dict)
    import_document: dict[str, Any] = field(default_factory=dict)
    # keys of A with every scope but one, by the scope they lack
    lacking: dict[str, str] = field(default_factory=dict)
    alice_bound_key: str = ""  # a key of A bound to alice (default scopes)
    b_read_only_key: str = ""  # a key of B with memories:read only

    def random_ids(self) -> dict[str, str]:
        return {
            "tenant_id": str(uuid.uuid4()),
            "user_id": "alice",
            "memory_id": str(uuid.uuid4()),
            "task_id": "t-" + uuid.uuid4().hex,
            "session_id": "s-" + uuid.uuid4().hex,
            "key_id": str(uuid.uuid4()),
            "job_id": str(uuid.uuid4()),
            "template_id": "tpl-" + uuid.uuid4().hex,
        }

    async def call(
        self, op: Operation, key: str | None, ids: dict[str, str], **headers: str
    ) -> httpx.Response:
        url = op.path.format(**ids)
        if key is not None:
            headers = {"Authorization": f"Bearer {key}", **headers}
        body = self.import_document if op.id == "import_user" else BODIES.get(op.id)
        return await self.client.request(
            op.method, url, json=body, params=QUERIES.get(op.id), headers=headers
        )


def normalized(r: httpx.Response) -> tuple[int, str | None, Any]:
    """Status, media type and body without the fields that differ on every request."""
    try:
        body: Any = r.json()
    except ValueError:
        body = r.text
    if isinstance(body, dict):
        body = {k: v for k, v in body.items() if k not in VOLATILE}
    return r.status_code, r.headers.get("content-type"), body


def stable(body: Any) -> Any:
    """``body`` without the ranking factors that drift with time (decay ages by the second)."""
    if isinstance(body, dict):
        return {k: stable(v) for k, v in body.items() if k not in DRIFTING}
    if isinstance(body, list):
        return [stable(v) for v in body]
    return body


def assert_refused(r: httpx.Response, status: int, slug: str, *marks: str) -> None:
    """A problem+json refusal of ``status`` that carries none of ``marks``."""
    what = f"{r.request.method} {r.request.url.path} -> {r.status_code} {r.text[:300]}"
    assert r.status_code == status, what
    assert r.headers["content-type"] == PROBLEM_JSON, what
    assert r.json()["type"] == f"urn:memlane:problem:{slug}", what
    for mark in marks:
        assert mark not in r.text, what
        assert mark not in str(r.headers), what


@pytest.fixture(scope="module")
async def world(client: httpx.AsyncClient) -> World:
    tenant_mark, bob_mark = "vx" + uuid.uuid4().hex[:10], "bx" + uuid.uuid4().hex[:10]
    a = await new_tenant(client, f"victim {tenant_mark}")
    b = await new_tenant(client, "attacker")

    async def post(url: str, body: dict[str, Any], status: int = 201) -> dict[str, Any]:
        r = await client.post(url, json=body, headers=a.headers)
        assert r.status_code == status, r.text
        return r.json()

    ids: dict[str, dict[str, str]] = {}
    for user, mark in (("alice", tenant_mark), ("bob", f"{bob_mark} {tenant_mark}")):
        written = await a.remember(user, f"{user}'s vault label is {mark}", type="fact")
        await a.say(user, f"s-{user}", f"my locker number is {mark}")
        await a.say(user, f"s-{user}-2", f"my second locker is {mark}")
        await post(
            f"{a.user(user)}/tasks",
            {"id": f"t-{user}", "name": f"plan {mark}", "required_slots": ["city"]},
        )
        await post(f"{a.user(user)}/tasks", {"id": f"t-{user}-2", "name": f"spare {mark}"})
        r = await client.patch(
            f"{a.user(user)}/tasks/t-{user}",
            json={"slots": {"city": mark}, "steps": [{"description": f"asked {mark}"}]},
            headers=a.headers,
        )
        assert r.status_code == 200, r.text
        ids[user] = {
            "tenant_id": a.id,
            "user_id": user,
            "memory_id": written["memories"][0]["id"],
            "task_id": f"t-{user}",
            "session_id": f"s-{user}",
            "job_id": written["job_id"],
            "template_id": f"tpl-{user}",
        }

    # a tenant-wide memory of A (its users read it; B never may) and a template
    await post(
        f"/v1/tenants/{a.id}/memories?wait=true", {"content": f"A's shared code {tenant_mark}"}
    )
    r = await client.put(
        f"/v1/tenants/{a.id}/templates/tpl-alice",
        json={"attribute": "domain", "equals": f"{tenant_mark}.example"},
        headers=a.headers,
    )
    assert r.status_code == 200, r.text

    # keys of A: one revoked, one spare (its id is probed from B)
    revoked = await post(f"/v1/tenants/{a.id}/keys", {"name": "to revoke"})
    r = await client.delete(f"/v1/tenants/{a.id}/keys/{revoked['id']}", headers=a.headers)
    assert r.status_code == 204
    spare = await post(f"/v1/tenants/{a.id}/keys", {"name": "spare"})
    for user in ("alice", "bob"):
        ids[user]["key_id"] = spare["id"]

    lacking = {
        scope: (
            await post(
                f"/v1/tenants/{a.id}/keys",
                {"name": f"without {scope}", "scopes": [s for s in ALL_SCOPES if s != scope]},
            )
        )["api_key"]
        for scope in ALL_SCOPES
    }
    bound = await post(f"/v1/tenants/{a.id}/keys", {"name": "alice only", "user_id": "alice"})
    assert bound["scopes"] == ["memories:read", "memories:write"], bound
    r = await client.post(
        f"/v1/tenants/{b.id}/keys", json={"scopes": ["memories:read"]}, headers=b.headers
    )
    assert r.status_code == 201, r.text
    b_read_only = r.json()["api_key"]

    # a document import accepts: the export of a user with nothing
    r = await client.get(f"{a.user('nobody')}/export", headers=a.headers)
    assert r.status_code == 200, r.text
    return World(
        a=a,
        b=b,
        client=client,
        tenant_mark=tenant_mark,
        bob_mark=bob_mark,
        revoked_key=revoked["api_key"],
        spare_key_id=spare["id"],
        spare_key=spare["api_key"],
        alice=ids["alice"],
        bob=ids["bob"],
        import_document=r.json(),
        lacking=lacking,
        alice_bound_key=bound["api_key"],
        b_read_only_key=b_read_only,
    )


# --- completeness -------------------------------------------------------------------------


def test_every_operation_has_an_expectation() -> None:
    ids = {op.id for op in OPERATIONS}
    assert ids - EXPECTATIONS.keys() == set(), "add the new operations to EXPECTATIONS"
    assert EXPECTATIONS.keys() - ids == set(), "EXPECTATIONS names operations that are gone"
    # every guarded operation declares the 401 it answers
    doc = create_app().openapi()
    for op in GUARDED:
        assert "401" in doc["paths"][op.path][op.method.lower()]["responses"], op.id


def test_every_guarded_operation_declares_its_scope() -> None:
    """The scope shows in OpenAPI as the operation's bearer requirement, with its 403."""
    assert SCOPES.keys() == {op.id for op in _of("user", "tenant", "tenant_or_admin")}
    doc = create_app().openapi()
    for op in GUARDED:
        operation = doc["paths"][op.path][op.method.lower()]
        wanted = [SCOPES[op.id]] if op.id in SCOPES else []
        assert operation["security"] == [{"HTTPBearer": wanted}], op.id
        assert "403" in operation["responses"], op.id


# --- 401: no key, garbage, revoked ----------------------------------------------------------


@pytest.mark.parametrize("op", GUARDED, ids=str)
async def test_no_key_is_401(world: World, op: Operation) -> None:
    r = await world.call(op, None, world.alice)
    assert_refused(r, 401, "unauthorized", world.tenant_mark)
    assert r.headers.get("www-authenticate") == "Bearer"


def _bad_credentials(world: World) -> dict[str, dict[str, str]]:
    a_key = world.a.key
    return {
        "unknown well-formed key": {"Authorization": "Bearer mlk_" + uuid.uuid4().hex},
        "garbage": {"Authorization": "Bearer ' OR 1=1 --"},
        "the stored hash of A's key": {
            "Authorization": "Bearer " + hashlib.sha256(a_key.encode()).hexdigest()
        },
        "the listed prefix of A's key": {"Authorization": "Bearer " + a_key[:12]},
        "A's key truncated": {"Authorization": "Bearer " + a_key[:-1]},
        "A's key with a suffix": {"Authorization": "Bearer " + a_key + "x"},
        "the admin key truncated": {"Authorization": "Bearer " + ADMIN_KEY[:-1]},
        "A's key as Basic": {"Authorization": "Basic " + a_key},
        "A's key without a scheme": {"Authorization": a_key},
        "A's key in another header": {"X-API-Key": a_key},
        "empty bearer": {"Authorization": "Bearer "},
    }


@pytest.mark.parametrize("op", GUARDED, ids=str)
async def test_garbage_and_malformed_keys_are_401(world: World, op: Operation) -> None:
    for name, headers in _bad_credentials(world).items():
        r = await world.call(op, None, world.alice, **headers)
        try:
            assert_refused(r, 401, "unauthorized", world.tenant_mark)
        except AssertionError as exc:
            raise AssertionError(f"{name}: {exc}") from None


@pytest.mark.parametrize("op", GUARDED, ids=str)
async def test_revoked_key_is_401_like_an_unknown_one(world: World, op: Operation) -> None:
    revoked = await world.call(op, world.revoked_key, world.alice)
    assert_refused(revoked, 401, "unauthorized", world.tenant_mark)
    unknown = await world.call(op, "mlk_" + uuid.uuid4().hex, world.alice)
    assert normalized(revoked) == normalized(unknown), "a revoked key must not be told apart"


# --- 403: the admin key on user data, tenant keys on admin routes ---------------------------


@pytest.mark.parametrize("op", _of("user", "tenant"), ids=str)
async def test_admin_key_on_user_data_is_403(world: World, op: Operation) -> None:
    r = await world.call(op, ADMIN_KEY, world.bob)
    assert_refused(r, 403, "forbidden", world.bob_mark)
    # the same answer for a tenant that does not exist: the admin learns nothing from it either
    ghost = await world.call(op, ADMIN_KEY, world.random_ids())
    assert normalized(r) == normalized(ghost)


@pytest.mark.parametrize("op", _of("admin"), ids=str)
async def test_tenant_keys_on_admin_routes_are_403(world: World, op: Operation) -> None:
    for key in (world.a.key, world.b.key):
        r = await world.call(op, key, world.alice)
        assert_refused(r, 403, "forbidden", world.tenant_mark)


# --- 403: a key without the operation's scope ------------------------------------------------


@pytest.mark.parametrize("op", _of("user", "tenant", "tenant_or_admin"), ids=str)
async def test_a_key_without_the_scope_is_403(world: World, op: Operation) -> None:
    """A's own key with every scope but the one the operation declares: 403 naming the scope,
    before anything is looked up (alice's ids and random ones answer alike)."""
    key = world.lacking[SCOPES[op.id]]
    r = await world.call(op, key, world.bob)
    assert_refused(r, 403, "insufficient-scope", world.bob_mark)
    assert SCOPES[op.id] in r.json()["detail"]
    assert r.headers["www-authenticate"].startswith('Bearer error="insufficient_scope"')
    ghost = await world.call(op, key, {**world.random_ids(), "tenant_id": world.a.id})
    assert normalized(r) == normalized(ghost)


@pytest.mark.parametrize("op", _of("user", "tenant_or_admin"), ids=str)
async def test_other_tenants_key_without_the_scope_is_still_404(
    world: World, op: Operation
) -> None:
    """B's read-only key on A's paths: the tenant is checked before the scope, so B cannot
    tell A's tenant from a missing one by a 403."""
    r = await world.call(op, world.b_read_only_key, world.bob)
    assert_refused(r, 404, "not-found", world.tenant_mark)
    ghost = await world.call(op, world.b_read_only_key, world.random_ids())
    assert normalized(r) == normalized(ghost)


@pytest.mark.parametrize("op", _of("user"), ids=str)
async def test_a_key_bound_to_alice_is_404_on_bobs_paths(world: World, op: Operation) -> None:
    r = await world.call(op, world.alice_bound_key, world.bob)
    assert_refused(r, 404, "not-found", world.bob_mark)
    ghost = {**world.random_ids(), "tenant_id": world.a.id, "user_id": "u-" + uuid.uuid4().hex}
    assert normalized(r) == normalized(await world.call(op, world.alice_bound_key, ghost))


# Routes of no user that answer a user-bound key with its own user's rows (docs/api-keys.md).
USER_FILTERED = ("get_job",)


@pytest.mark.parametrize(
    "op", [op for op in _of("tenant", "tenant_or_admin") if op.id not in USER_FILTERED], ids=str
)
async def test_a_key_bound_to_alice_is_403_on_paths_of_no_user(world: World, op: Operation) -> None:
    r = await world.call(op, world.alice_bound_key, world.alice)
    assert_refused(r, 403, "insufficient-scope", world.tenant_mark)


@pytest.mark.parametrize("op", [op for op in OPERATIONS if op.id in USER_FILTERED], ids=str)
async def test_a_key_bound_to_alice_reads_only_alices_jobs(world: World, op: Operation) -> None:
    own = await world.call(op, world.alice_bound_key, world.alice)
    assert own.status_code == 200, own.text
    assert own.json()["id"] == world.alice["job_id"] and world.bob_mark not in own.text
    r = await world.call(op, world.alice_bound_key, world.bob)
    assert_refused(r, 404, "not-found", world.bob_mark)
    ghost = await world.call(op, world.alice_bound_key, world.random_ids())
    assert normalized(r) == normalized(ghost)


# --- 404: another tenant's key, another user's ids, ids that do not exist ------------------


@pytest.mark.parametrize("op", _of("user", "tenant_or_admin", "tenant"), ids=str)
async def test_other_tenants_key_is_404_like_a_missing_tenant(world: World, op: Operation) -> None:
    for victim in (world.alice, world.bob):
        r = await world.call(op, world.b.key, victim)
        assert_refused(r, 404, "not-found", world.tenant_mark)
        ghost = await world.call(op, world.b.key, world.random_ids())
        assert normalized(r) == normalized(ghost), "B learns whether A's tenant or ids exist"


def _with_object(op: Operation) -> bool:
    return any(op.has(p) for p in OBJECT_PARAMS)


@pytest.mark.parametrize("op", [op for op in _of("user") if _with_object(op)], ids=str)
async def test_other_users_ids_are_404_like_random_ids(world: World, op: Operation) -> None:
    """A's own key, alice's path, bob's memory/task ids."""
    foreign = {**world.bob, "user_id": "alice"}
    r = await world.call(op, world.a.key, foreign)
    assert_refused(r, 404, "not-found", world.bob_mark)
    random = {**world.random_ids(), "tenant_id": world.a.id}
    assert normalized(r) == normalized(await world.call(op, world.a.key, random))


@pytest.mark.parametrize("op", [op for op in GUARDED if _with_object(op)], ids=str)
async def test_ids_that_do_not_exist_are_404(world: World, op: Operation) -> None:
    key = ADMIN_KEY if EXPECTATIONS[op.id] == "admin" else world.a.key
    r = await world.call(op, key, {**world.random_ids(), "tenant_id": world.a.id})
    assert_refused(r, 404, "not-found")


@pytest.mark.parametrize("op", [op for op in GUARDED if _with_object(op)], ids=str)
async def test_other_tenants_ids_under_own_paths_are_404_like_random(
    world: World, op: Operation
) -> None:
    """B's key on B's own paths (same user names), with A's memory, task, key and job ids."""
    for victim in (world.alice, world.bob):
        foreign = {**victim, "tenant_id": world.b.id}
        r = await world.call(op, world.b.key, foreign)
        assert_refused(r, 404, "not-found", world.tenant_mark)
        random = {**world.random_ids(), "tenant_id": world.b.id, "user_id": victim["user_id"]}
        assert normalized(r) == normalized(await world.call(op, world.b.key, random))


async def test_admin_cannot_revoke_a_key_through_another_tenants_path(world: World) -> None:
    [op] = [op for op in OPERATIONS if op.id == "revoke_api_key"]
    r = await world.call(op, ADMIN_KEY, {"tenant_id": world.b.id, "key_id": world.spare_key_id})
    assert_refused(r, 404, "not-found")


# --- ids inside queries and bodies -------------------------------------------------------


async def test_foreign_ids_in_queries_and_bodies_reveal_nothing(world: World) -> None:
    """Bob's ids passed as filters or scopes from alice's path answer like random ids."""
    a, bob, base = world.a, world.bob, world.a.user("alice")
    random = world.random_ids()
    probes: list[tuple[str, str, dict[str, Any] | None, dict[str, Any] | None, str]] = [
        ("GET", f"{base}/arbitrations", {"memory_id": "{memory_id}"}, None, "memory_id"),
        ("POST", f"{base}/recall", None, {"query": "locker", "task_id": "{task_id}"}, "task_id"),
        (
            "POST",
            f"{base}/recall",
            None,
            {"query": "locker", "session_id": "{session_id}"},
            "session_id",
        ),
        ("GET", f"{base}/sessions/{{session_id}}/context", {"query": "locker"}, None, "session_id"),
        (
            "GET",
            f"{base}/sessions/s-alice/context",
            {"query": "locker", "task_id": "{task_id}"},
            None,
            "task_id",
        ),
    ]

    def fill(value: Any, ids: dict[str, str]) -> Any:
        if isinstance(value, str):
            return value.format(**ids)
        if isinstance(value, dict):
            return {k: fill(v, ids) for k, v in value.items()}
        return value

    for method, url, params, body, name in probes:
        answers = []
        for ids in (bob, random):
            r = await world.client.request(
                method,
                fill(url, ids),
                params=fill(params, ids),
                json=fill(body, ids),
                headers=a.headers,
            )
            assert world.bob_mark not in r.text, (method, url, name, r.text[:300])
            status, media_type, answer = normalized(r)
            answers.append((status, media_type, stable(answer)))
        assert answers[0] == answers[1], (method, url, name, answers)


async def test_a_task_id_taken_by_another_user_is_not_revealed(world: World) -> None:
    """Creating alice's task under bob's task id answers like any fresh id (no 409 oracle)."""
    a = world.a
    taken = await world.client.post(
        f"{a.user('alice')}/tasks", json={"id": "t-bob-2", "name": "mine"}, headers=a.headers
    )
    fresh = await world.client.post(
        f"{a.user('alice')}/tasks",
        json={"id": "t-" + uuid.uuid4().hex, "name": "mine"},
        headers=a.headers,
    )
    assert taken.status_code == fresh.status_code == 201, (taken.text, fresh.text)
    assert world.bob_mark not in taken.text
    bobs = await world.client.get(f"{a.user('bob')}/tasks/t-bob-2", headers=a.headers)
    assert bobs.json()["name"] == f"spare {world.bob_mark} {world.tenant_mark}"


async def test_a_session_name_shared_by_two_users_stays_two_sessions(world: World) -> None:
    a = world.a
    await a.say("alice", "s-bob-2", "alice writes into a session named like bob's")
    mine = await world.client.get(f"{a.user('alice')}/sessions/s-bob-2/context", headers=a.headers)
    assert mine.status_code == 200 and world.bob_mark not in mine.text
    bobs = await world.client.get(f"{a.user('bob')}/sessions/s-bob-2/context", headers=a.headers)
    assert bobs.status_code == 200 and "alice writes" not in bobs.text


async def test_import_cannot_reach_another_tenants_memories(world: World) -> None:
    """B imports a document naming A's memory ids (as its entries, and as what they supersede):
    ids are remapped, A's rows are untouched."""
    victim = world.bob["memory_id"]
    doc = await world.client.get(
        f"{world.a.user('bob')}/export", headers=world.a.headers
    )  # only to borrow a valid memory entry shape
    entry = dict(doc.json()["memories"][0])
    entry.update(id=victim, content="attacker content", supersedes=None, superseded_by=None)
    # (A memory that supersedes itself is refused outright, 422: the link is on a second entry.)
    successor = {**entry, "id": str(uuid.uuid4()), "content": "attacker successor"}
    successor.update(supersedes=victim)
    forged = {**world.import_document, "memories": [entry, successor], "tenant_id": world.a.id}
    r = await world.client.post(
        f"{world.b.user('bob')}/import", json=forged, headers=world.b.headers
    )
    assert r.status_code == 200, r.text
    assert world.tenant_mark not in r.text
    for decision in r.json()["decisions"]:
        assert victim not in (decision["new_memory_id"], decision["existing_memory_id"])
    mine = await world.client.get(
        f"{world.a.user('bob')}/memories/{victim}", headers=world.a.headers
    )
    assert mine.status_code == 200
    assert mine.json()["content"] == f"bob's vault label is {world.bob_mark} {world.tenant_mark}"
    assert mine.json()["status"] == "active" and mine.json()["superseded_by"] is None


async def test_alice_reads_never_show_bob(world: World) -> None:
    """Every read of alice's own data with A's key (lists, recall, context, export)."""
    reads = [op for op in _of("user") if op.method == "GET" or op.id == "recall"]
    for op in reads:
        if _with_object(op):
            continue  # alice's own objects: covered by the 404 tests for bob's
        r = await world.call(op, world.a.key, world.alice)
        assert r.status_code == 200, (op.id, r.text[:300])
        assert world.bob_mark not in r.text, op.id
    r = await world.client.get(
        f"{world.a.user('alice')}/export",
        params={"include_messages": "true"},
        headers=world.a.headers,
    )
    assert r.status_code == 200 and world.tenant_mark in r.text and world.bob_mark not in r.text


async def test_idempotency_keys_are_per_user_and_tenant(world: World) -> None:
    """An Idempotency-Key bob used is no oracle and no shortcut to bob's job, for alice or B."""
    a, b, key = world.a, world.b, {"Idempotency-Key": "idem-" + uuid.uuid4().hex}
    body = {"content": "an idempotent probe"}
    bobs = await world.client.post(
        f"{a.user('bob')}/memories", json=body, headers={**a.headers, **key}
    )
    assert bobs.status_code == 202
    for url, headers in (
        (f"{a.user('alice')}/memories", a.headers),
        (f"{b.user('bob')}/memories", b.headers),
    ):
        same = await world.client.post(url, json=body, headers={**headers, **key})
        other = await world.client.post(
            url, json={"content": "another body"}, headers={**headers, "Idempotency-Key": "x"}
        )
        assert other.status_code == 202
        reused = await world.client.post(
            url, json={"content": "a third body"}, headers={**headers, **key}
        )
        # the same key with another body conflicts only with the caller's own first use
        assert same.status_code == 202 and same.json()["job_id"] != bobs.json()["job_id"]
        assert reused.status_code == 409, reused.text


async def test_metrics_do_not_name_tenants_to_anonymous_callers(world: World, app: Any) -> None:
    """``GET /metrics`` answers anyone when ``metrics_token`` is unset, and
    ``memlane_long_term_mem_size`` is labelled by tenant id: an anonymous caller (or tenant B)
    learns that tenant A exists, its id and its memory count — the hint the 404s above hide."""
    from app.jobs.monitor import sample

    await sample(app.state.memlane)  # what the monitor does every metrics_sample_interval_s
    r = await world.client.get("/metrics")
    assert r.status_code == 200
    assert world.a.id not in r.text


# --- keys: shown once, compared safely ------------------------------------------------------


async def test_a_key_secret_is_shown_once(world: World, admin_headers: dict[str, str]) -> None:
    a, client = world.a, world.client
    created = await client.post(
        f"/v1/tenants/{a.id}/keys", json={"name": "once"}, headers=a.headers
    )
    assert created.status_code == 201
    secret = created.json()["api_key"]
    assert secret.startswith("mlk_") and len(secret) >= 40
    digest = hashlib.sha256(secret.encode()).hexdigest()
    for headers in (a.headers, admin_headers):
        listed = await client.get(f"/v1/tenants/{a.id}/keys", headers=headers)
        assert listed.status_code == 200
        assert secret not in listed.text and digest not in listed.text
        assert all(set(k) == set(listed.json()[0]) for k in listed.json())
        assert "api_key" not in listed.json()[0] and "key_hash" not in listed.json()[0]
        [mine] = [k for k in listed.json() if k["id"] == created.json()["id"]]
        assert mine["prefix"] == secret[:12]  # enough to recognise, far too little to use
    tenants = await client.get("/v1/tenants", headers=admin_headers)
    assert secret not in tenants.text and a.key not in tenants.text
    assert all("api_key" not in t for t in tenants.json())


async def test_keys_are_compared_in_constant_time_or_by_hash(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The admin key is compared with ``hmac.compare_digest`` (``same_secret``); a tenant key is
    never compared at all: its SHA-256 is looked up (an index lookup on a hash reveals nothing
    about the secret's bytes, so no timing oracle). A timing test would be flaky; this one
    checks the code path instead."""
    import hmac

    from app.auth import keys, principal
    from app.auth.repository import TenantRepository

    compared: list[tuple[bytes, bytes]] = []
    looked_up: list[str] = []
    real_compare, real_lookup = hmac.compare_digest, TenantRepository.active_key_by_hash

    def spy_compare(x: Any, y: Any) -> bool:
        compared.append((x, y))
        return real_compare(x, y)

    async def spy_lookup(self: TenantRepository, key_hash: str) -> Any:
        looked_up.append(key_hash)
        return await real_lookup(self, key_hash)

    monkeypatch.setattr(keys.hmac, "compare_digest", spy_compare)
    monkeypatch.setattr(TenantRepository, "active_key_by_hash", spy_lookup)
    assert principal.same_secret is keys.same_secret

    r = await world.client.get(f"{world.a.user('alice')}/memories", headers=world.a.headers)
    assert r.status_code == 200
    assert looked_up == [hashlib.sha256(world.a.key.encode()).hexdigest()]
    assert world.a.key not in looked_up  # the secret itself never reaches SQL
    assert compared and all(isinstance(x, bytes) for pair in compared for x in pair)

    compared.clear()
    looked_up.clear()
    r = await world.client.get("/v1/tenants", headers={"Authorization": f"Bearer {ADMIN_KEY}"})
    assert r.status_code == 200
    assert (ADMIN_KEY.encode(), ADMIN_KEY.encode()) in compared and looked_up == []


# --- nothing the attackers sent changed A ----------------------------------------------------


async def test_zz_the_victim_is_intact(world: World) -> None:
    """Runs last in this module: after every probe above, A's data and keys are as they were."""
    a, client = world.a, world.client
    for user, ids in (("alice", world.alice), ("bob", world.bob)):
        r = await client.get(f"{a.user(user)}/memories/{ids['memory_id']}", headers=a.headers)
        assert r.status_code == 200 and r.json()["status"] == "active", r.text
        assert "overwritten" not in r.text
        task = await client.get(f"{a.user(user)}/tasks/t-{user}", headers=a.headers)
        assert task.status_code == 200 and task.json()["status"] == "open"
        assert task.json()["slots"]["city"] != "overwritten"
        listed = await client.get(f"{a.user(user)}/memories", headers=a.headers)
        written = {m["content"] for m in listed.json()["items"]}
        assert not written & {"probe memory", "probe two"}, "a refused write was stored"
    spare = {"Authorization": f"Bearer {world.spare_key}"}
    assert (await client.get(f"{a.user('bob')}/memories", headers=spare)).status_code == 200
    listed = await client.get(f"/v1/tenants/{a.id}/keys", headers=a.headers)
    names = {k["name"] for k in listed.json()}
    assert "probe" not in names  # no key was created in A by anyone but A
