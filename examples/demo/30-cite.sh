#!/usr/bin/env bash
# genlint cite: <sources>[…]</sources> markers to numbered citations and a reference list.
set -uo pipefail
cd "$(dirname "$0")/../.."
C=examples/cite
echo
echo "== genlint cite: markers become [n], the reference list follows (ids 9 and 'web' name no source: exit 1) =="
.venv/bin/genlint cite $C/chapter.md --sources $C/sources.json
echo "exit code $?"
echo
echo "== --renumber --style gb7714: 1…n by first appearance, GB/T 7714-2015 list =="
.venv/bin/genlint cite $C/chapter.md --sources $C/sources.json --renumber --style gb7714 2>/dev/null
echo "exit code $?"
echo
echo "== two chapters, one document, APA 7: numbering runs across chapters =="
.venv/bin/genlint cite $C/chapter.md $C/chapter2.md --sources $C/sources.json --renumber --style apa 2>/dev/null | tail -12
echo
echo "== --format json: cited, invalid_ids, uncited, merged duplicates, coverage =="
.venv/bin/genlint cite $C/chapter.md --sources $C/sources.json --style mla --format json 2>/dev/null |
  .venv/bin/python -c 'import json,sys; d=json.load(sys.stdin); d.pop("text"); d["coverage"].pop("uncited"); print(json.dumps(d, ensure_ascii=False, indent=1))'
echo
echo "== genlint check --select citation: what is left to fix before (exit 1) =="
.venv/bin/genlint check $C/chapter.md --select citation --sources $C/sources.json
echo "exit code $?"
echo
echo "== a bad source list: exit 2 with one line naming the entry =="
bad="$(mktemp -d)/bad-sources.json"
echo '[{"id": 1, "title": "A"}, {"id": 2}]' > "$bad"
.venv/bin/genlint cite $C/chapter.md --sources "$bad"
echo "exit code $?"
