#!/usr/bin/env bash
# The speed figures of docs/benchmarks.md's targets (recall under write load, large users
# against a bare exact scan, the app's own overhead, end to end and writes, mem0 at scale),
# one after the other at one commit on one machine: ~20 min on the reference machine when the
# recall-plan data are reused, ~50 min when they are loaded first. Run nothing else meanwhile.
#
#   bash bench/speed.sh
#   RECALL_PLAN_400K=/data/rp400k RECALL_PLAN_1M=/data/rp1m bash bench/speed.sh   # reuse loaded rows
#   MEM0_PYTHON=/path/to/venv/bin/python bash bench/speed.sh
set -euo pipefail
cd "$(dirname "$0")/.."
mem0_python="${MEM0_PYTHON:-/tmp/mem0-venv/bin/python}"
"$mem0_python" -c "import mem0" || { echo "no mem0 in $mem0_python (bench/README.md, mem0_side_by_side.py)"; exit 2; }
started=$(date -u +%s)
marker=$(mktemp)
echo "commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- app alembic bench || echo ' (+ uncommitted changes)')"
uptime

python bench/recall_plan.py --rows 400000 --runs 1 --queries 60 --exact-sample 0 \
    ${RECALL_PLAN_400K:+--data-dir "$RECALL_PLAN_400K"}
python bench/recall_plan.py --rows 1000000 --runs 1 --queries 40 --exact-sample 0 \
    ${RECALL_PLAN_1M:+--data-dir "$RECALL_PLAN_1M"}
python bench/contention.py --runs 3 --queries 60
python bench/load.py --rows 44000 --runs 2 --queries 100 --http-writes 200 --exact-sample 5
python bench/mem0_side_by_side.py --sizes 2000 20000 --no-locomo --mem0-python "$mem0_python"

echo "speed benchmarks done in $(( ($(date -u +%s) - started) / 60 )) min; results:"
find bench/results -name '*.json' -newer "$marker" -print | sort
rm -f "$marker"
