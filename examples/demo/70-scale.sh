#!/usr/bin/env bash
# genlint check --jobs: the same report from two worker processes, Parquet output, and Ray.
set -uo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
E=examples/check

echo "== --jobs 2 over the bundled examples: byte for byte the report of --jobs 1 =="
.venv/bin/genlint check $E/evidence $E/documents --format json --jobs 1 > "$tmp/one.json"
echo "exit code $? (--jobs 1)"
.venv/bin/genlint check $E/evidence $E/documents --format json --jobs 2 > "$tmp/two.json"
echo "exit code $? (--jobs 2)"
cmp "$tmp/one.json" "$tmp/two.json" && echo "identical reports"

echo
echo "== a missing file in the batch is reported for itself; the others are checked (exit 2) =="
.venv/bin/genlint check $E/evidence missing.txt --jobs 2 --statistics
echo "exit code $?"

echo
echo "== eval and mask take --jobs too: the same report from two processes =="
.venv/bin/genlint eval --facts examples/eval/facts.json --wiki examples/eval/pages --format json --jobs 1 > "$tmp/eval1.json"
.venv/bin/genlint eval --facts examples/eval/facts.json --wiki examples/eval/pages --format json --jobs 2 > "$tmp/eval2.json"
cmp "$tmp/eval1.json" "$tmp/eval2.json" && echo "eval: identical reports"
.venv/bin/genlint mask $E/evidence --out "$tmp/masked1" --format json --jobs 1 | sed "s#$tmp/masked1#OUT#g" > "$tmp/mask1.json"
.venv/bin/genlint mask $E/evidence --out "$tmp/masked2" --format json --jobs 2 | sed "s#$tmp/masked2#OUT#g" > "$tmp/mask2.json"
# a written PDF carries a fresh file /ID each time, whatever the number of processes
cmp "$tmp/mask1.json" "$tmp/mask2.json" && diff -r -x '*.pdf' "$tmp/masked1" "$tmp/masked2" \
  && echo "mask: identical reports and files"

echo
echo "== --out findings.parquet: one row per finding, the SPEC columns =="
.venv/bin/genlint check $E/evidence --jobs 2 --out "$tmp/findings.parquet"
echo "exit code $?"
.venv/bin/python - "$tmp/findings.parquet" <<'PY'
import sys
import pyarrow.parquet as pq

table = pq.read_table(sys.argv[1])
print(f"{table.num_rows} rows; columns: {' '.join(table.column_names)}")
for row in table.slice(0, 3).to_pylist():
    print(f"  {row['path']}:{row['line']}:{row['column']} {row['rule']} {row['text']!r}")
PY

if .venv/bin/python -c "import ray" 2>/dev/null; then
  echo
  echo "== --engine ray: a local Ray cluster, the same JSON report =="
  .venv/bin/genlint check $E/evidence $E/documents --format json --engine ray > "$tmp/ray.json"
  echo "exit code $?"
  cmp "$tmp/one.json" "$tmp/ray.json" && echo "identical to --jobs 1"
fi
