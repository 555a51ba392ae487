"""No Docker engine runs here: the compose file and the Dockerfile are checked as documents,
and every variable the compose file sets must be a real setting."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from app.config import Settings

ROOT = Path(__file__).resolve().parents[2]


def _compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_compose_services_and_healthchecks() -> None:
    services = _compose()["services"]
    assert set(services) == {"db", "api", "worker"}
    db = services["db"]
    assert db["image"].startswith("pgvector/pgvector:")
    assert any(v.endswith(":/var/lib/postgresql/data") for v in db["volumes"])
    assert "pgdata" in _compose()["volumes"]
    for name in ("db", "api", "worker"):
        assert services[name]["healthcheck"]["test"], name
    assert services["api"]["depends_on"]["db"]["condition"] == "service_healthy"
    assert services["worker"]["depends_on"]["api"]["condition"] == "service_healthy"
    assert services["worker"]["command"][0] == "worker"
    assert services["api"]["environment"]["MEMLANE_RUN_WORKER"] == "false"
    # API and worker seal and open the same values, as the same role
    for var in ("MEMLANE_ENCRYPTION_KEY", "MEMLANE_APP_ROLE_PASSWORD", "MEMLANE_DATABASE_URL"):
        assert services["api"]["environment"][var] == services["worker"]["environment"][var], var


def test_every_memlane_variable_in_compose_is_a_setting() -> None:
    fields = {f"MEMLANE_{name.upper()}" for name in Settings.model_fields}
    for name, service in _compose()["services"].items():
        for var in service.get("environment", {}):
            if var.startswith("MEMLANE_"):
                assert var in fields, f"{name}: {var} is not a setting"


def test_compose_database_url_is_accepted_by_settings() -> None:
    env = _compose()["services"]["api"]["environment"]
    s = Settings(database_url=env["MEMLANE_DATABASE_URL"], admin_key="k", _env_file=None)  # type: ignore[call-arg]
    assert s.database_url is not None


def test_dockerfile_is_multi_stage_non_root_with_healthcheck() -> None:
    text = (ROOT / "Dockerfile").read_text()
    stages = re.split(r"^FROM ", text, flags=re.M)[1:]
    assert len(stages) >= 2
    final = stages[-1]
    assert "build-essential" not in final and "gcc" not in final
    user = re.search(r"^USER (\S+)", final, re.M)
    assert user and user.group(1) not in ("root", "0")
    assert re.search(r"^HEALTHCHECK ", final, re.M)
    assert "COPY alembic ./alembic" in final  # migrations ship with the image
    for var in re.findall(r"(MEMLANE_[A-Z_]+)=", text):
        assert var.removeprefix("MEMLANE_").lower() in Settings.model_fields, var


def test_grafana_dashboard_uses_only_exposed_metrics() -> None:
    import json

    from prometheus_client import REGISTRY

    import app.kit.metrics  # noqa: F401  (registers the metrics)

    suffixes = {"counter": ("_total",), "histogram": ("_bucket", "_sum", "_count"), "gauge": ("",)}
    exposed = {
        family.name + suffix
        for family in REGISTRY.collect()
        for suffix in suffixes.get(family.type, ("",))
    }
    dashboard = json.loads((ROOT / "deploy" / "grafana" / "memlane.json").read_text())
    used = {
        name
        for panel in dashboard["panels"]
        for target in panel["targets"]
        for name in re.findall(r"\b(memlane_[a-z_]+)", target["expr"])
    }
    assert used and used <= exposed, used - exposed
    families = {n.removesuffix("_total") for n in used} | {n.rsplit("_bucket", 1)[0] for n in used}
    for metric in (
        "memlane_context_token_usage",
        "memlane_memory_conflict_rate",
        "memlane_long_term_mem_size",
        "memlane_extract_fact_count",
        "memlane_memory_recall_hit",
    ):
        assert metric in families, metric
