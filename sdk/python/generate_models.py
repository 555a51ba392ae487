"""Regenerate ``src/memlane_client/models.py`` from the server's ``openapi/openapi.json``.

    python sdk/python/generate_models.py          # from the repository root

The models are generated (datamodel-code-generator, pinned in the server's dev extra) so every
response shape follows the committed OpenAPI document; tests/sdk/test_models.py fails when the
committed file differs from a fresh generation.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
OPENAPI = HERE.parents[1] / "openapi" / "openapi.json"
MODELS = HERE / "src" / "memlane_client" / "models.py"

ARGS = [
    "--input-file-type", "openapi",
    "--output-model-type", "pydantic_v2.BaseModel",
    "--target-python-version", "3.11",
    "--use-standard-collections",
    "--use-union-operator",
    "--field-constraints",
    "--use-schema-description",
    "--disable-timestamp",
    "--enum-field-as-literal", "all",
    "--use-annotated",
    "--collapse-root-models",
    "--formatters", "ruff-format",
]  # fmt: skip


def generate(output: Path = MODELS, openapi: Path = OPENAPI) -> None:
    """Write the models generated from ``openapi`` to ``output``."""
    exe = Path(sys.executable).parent / "datamodel-codegen"
    cmd = [str(exe), "--input", str(openapi), "--output", str(output), *ARGS]
    subprocess.run(cmd, check=True, capture_output=True)


if __name__ == "__main__":
    generate()
    print(f"wrote {MODELS}")
