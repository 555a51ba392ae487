#!/usr/bin/env bash
# Every benchmark of docs/benchmarks.md, one after the other, at one commit on one machine
# (33 min on the reference machine). Each script writes its own JSON to bench/results/;
# this prints the list of those files at the end. Options of the scripts: bench/README.md.
#
#   bash bench/all.sh                 # from the repository root, inside the project's venv
#   MEM0_PYTHON=/path/to/venv/bin/python bash bench/all.sh
set -euo pipefail
cd "$(dirname "$0")/.."
mem0_python="${MEM0_PYTHON:-/tmp/mem0-venv/bin/python}"
# fail now, not after the first 50 minutes
"$mem0_python" -c "import mem0" || { echo "no mem0 in $mem0_python (bench/README.md, mem0_side_by_side.py)"; exit 2; }
python -c "import rank_bm25" || { echo 'rank_bm25 missing: pip install -e ".[bench]"'; exit 2; }
started=$(date -u +%s)
marker=$(mktemp)
echo "commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- app alembic bench || echo ' (+ uncommitted changes)')"

python bench/recall_plan.py --mode vector
python bench/recall_plan.py --mode hybrid
python bench/locomo.py --bm25 --mode vector hybrid text --infer
python bench/load.py
python bench/mem0_side_by_side.py --mem0-variants exact --mem0-python "$mem0_python"

echo "all benchmarks done in $(( ($(date -u +%s) - started) / 60 )) min; results:"
find bench/results -name '*.json' -newer "$marker" -print | sort
rm -f "$marker"
