"""The walk-through on a real `memlane serve`: tenants, writes, restart, recall, isolation."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.server import ServeProcess

CITY = {"ann": "Oslo", "ben": "Lima"}


def test_memories_survive_a_restart_and_stay_isolated(tmp_path: Path) -> None:
    server = ServeProcess(tmp_path / "memlane")
    server.start()
    try:
        with server.client() as http:
            admin = {"Authorization": f"Bearer {server.admin_key}"}
            tenants = {}
            for name in ("acme", "globex"):
                r = http.post("/v1/tenants", json={"name": name}, headers=admin)
                assert r.status_code == 201
                tenants[name] = r.json()
            for name, t in tenants.items():
                for user in ("ann", "ben"):
                    r = http.post(
                        f"/v1/tenants/{t['id']}/users/{user}/memories?wait=true",
                        json={
                            "content": f"{user} of {name} lives in {CITY[user]}",
                            "type": "profile",
                        },
                        headers={"Authorization": f"Bearer {t['api_key']}"},
                    )
                    assert r.status_code == 201, r.text
        assert server.stop() == 0
        assert not (server.data_dir / "pgdata" / "postmaster.pid").exists(), (
            "Ctrl-C left postgres running"
        )
        server.start()
        with server.client() as http:
            for name, t in tenants.items():
                for user in ("ann", "ben"):
                    r = http.post(
                        f"/v1/tenants/{t['id']}/users/{user}/recall",
                        json={"query": "where do I live?"},
                        headers={"Authorization": f"Bearer {t['api_key']}"},
                    )
                    assert r.status_code == 200
                    contents = [m["content"] for m in r.json()["memories"]]
                    assert contents == [f"{user} of {name} lives in {CITY[user]}"]
            # the first tenant's key does not open the second tenant
            acme, globex = tenants["acme"], tenants["globex"]
            r = http.post(
                f"/v1/tenants/{globex['id']}/users/ann/recall",
                json={"query": "where do I live?"},
                headers={"Authorization": f"Bearer {acme['api_key']}"},
            )
            assert r.status_code == 404
    finally:
        if server.proc is not None:
            server.stop()


def test_admin_key_is_generated_once_and_kept(tmp_path: Path) -> None:
    server = ServeProcess(tmp_path / "memlane")
    server.env.pop("MEMLANE_ADMIN_KEY")
    server.start()
    try:
        key_file = server.data_dir / "admin_key"
        key = key_file.read_text().strip()
        assert key_file.stat().st_mode & 0o777 == 0o600
        assert key in server.log_path.read_text()
        server.restart()
        assert key_file.read_text().strip() == key
        assert server.log_path.read_text().count(key) == 1, (
            "the admin key must be printed only once"
        )
        with server.client() as http:
            assert (
                http.post(
                    "/v1/tenants", json={"name": "x"}, headers={"Authorization": f"Bearer {key}"}
                ).status_code
                == 201
            )
    finally:
        if server.proc is not None:
            server.stop()
