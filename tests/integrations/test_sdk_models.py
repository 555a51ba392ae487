"""The SDK's models are what the generator makes of the committed OpenAPI document."""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_committed_models_match_a_fresh_generation(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location(
        "generate_models", ROOT / "sdk" / "python" / "generate_models.py"
    )
    assert spec is not None and spec.loader is not None
    generator = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generator)
    fresh = tmp_path / "models.py"
    generator.generate(output=fresh)
    committed = ROOT / "sdk" / "python" / "src" / "memlane_client" / "models.py"
    # compared as syntax trees: a formatter's version does not matter, a changed model does
    assert ast.dump(ast.parse(committed.read_text())) == ast.dump(ast.parse(fresh.read_text())), (
        "sdk/python/src/memlane_client/models.py is out of date: run "
        "`python sdk/python/generate_models.py`"
    )
