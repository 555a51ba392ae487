"""Every file the service reads from its own package is shipped in the wheel.

A non-Python file under ``app/`` that no ``[tool.setuptools.package-data]`` pattern names is
left out of a ``pip install .`` (only an editable install reads it from the source tree): the
act classifier's weights were missing that way, and the veto they drive was silently off.
"""

from __future__ import annotations

import tomllib
from fnmatch import fnmatch
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_data_file_under_app_is_named_by_package_data() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["app"]
    app = ROOT / "app"
    data = [
        p.relative_to(app).as_posix()
        for p in app.rglob("*")
        if p.is_file() and p.suffix not in (".py", ".pyc") and "__pycache__" not in p.parts
    ]
    assert "ingest/extraction/acts_model.npz" in data
    left_out = [f for f in data if not any(fnmatch(f, pat) for pat in patterns)]
    assert left_out == []
