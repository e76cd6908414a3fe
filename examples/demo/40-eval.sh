#!/usr/bin/env bash
# genlint eval: faithfulness of a generated code wiki to extracted facts (SPEC §4).
set -uo pipefail
cd "$(dirname "$0")/../.."
echo
echo "== genlint eval: the requirement's example (faithful, but 2 of 4 key facts uncovered) =="
.venv/bin/genlint eval --facts examples/eval/facts.json --wiki examples/eval/wiki.json
echo "exit code $?"
echo
echo "== the same page with claims for the two uncovered facts =="
.venv/bin/genlint eval --facts examples/eval/facts.json --wiki examples/eval/wiki_complete.json --format json
echo "exit code $?"
echo
echo "== a folder of pages (zh, en, ja) in one run =="
.venv/bin/genlint eval --facts examples/eval/facts.json --wiki examples/eval/pages
echo "exit code $?"
echo
echo "== the HTML report: one self-contained file =="
out="$(mktemp -d)/evaluation_report.html"
.venv/bin/genlint eval --facts examples/eval/facts.json --wiki examples/eval/pages --out "$out" 2>&1
echo "exit code $? — wrote $out ($(wc -c <"$out") bytes, $(grep -o '<tr class="claim' "$out" | wc -l) claim rows)"
echo
echo "== --explain: the verb class and reference class each claim was compared on (stderr) =="
.venv/bin/genlint eval --facts examples/eval/facts.json --wiki examples/eval/wiki.json --explain --format json >/dev/null
echo "exit code $?"
echo
echo "== bad input: exit 2, one line naming the JSON path =="
.venv/bin/genlint eval --facts examples/eval/facts.json --wiki examples/eval/bad_wiki.json 2>&1
echo "exit code $?"
echo
echo "== promptfoo: two prompts compared by genlint's assertion (offline, recorded replies) =="
promptfoo="${PROMPTFOO_BIN:-.cache/promptfoo/node_modules/.bin/promptfoo}"
if [ -x "$promptfoo" ]; then
  home="$(mktemp -d)"
  PROMPTFOO_DISABLE_TELEMETRY=1 PROMPTFOO_DISABLE_UPDATE=1 PROMPTFOO_CONFIG_DIR="$home" \
    PROMPTFOO_PYTHON="$PWD/.venv/bin/python" \
    "$promptfoo" eval -c examples/promptfoo/promptfooconfig.yaml --no-cache --no-share \
    --no-progress-bar -o "$home/results.json" >/dev/null 2>&1
  echo "promptfoo exit code $? (100 = some test failed)"
  .venv/bin/python - "$home/results.json" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))["results"]["results"]
for r in sorted(rows, key=lambda r: (r["prompt"]["label"], r["vars"]["method"])):
    g = r["gradingResult"]
    print(f'{r["prompt"]["label"].split(":")[0]:<9} {r["vars"]["method"]:<18} '
          f'{"PASS" if r["success"] else "FAIL"} score {g["score"]:.2f}  {g["reason"][:90]}')
PY
else
  echo "(promptfoo not installed: run 'make promptfoo' to include this step)"
fi
