#!/usr/bin/env bash
# genlint rule: every rule documents itself (what it flags, why, examples, how to silence it).
set -euo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "== genlint rule placeholder/mou-name"
.venv/bin/genlint rule placeholder/mou-name

echo "== an anonymised judgment names its parties 张某 on purpose: silence that rule, keep the ID"
printf '原告张某诉被告李某借款合同纠纷一案。\n被告身份证号：110101199003074573\n' > "$tmp/judgment.txt"
code=0
.venv/bin/genlint check "$tmp/judgment.txt" --ignore placeholder/mou-name || code=$?
echo "exit $code (1: the unmasked ID number is still found)"
test "$code" -eq 1

echo "== a long judgment: --statistics counts per rule and text; the text report folds repeats"
for i in $(seq 1 40); do printf '第%s段：原告张某称，被告李某于当日到场。\n' "$i"; done >> "$tmp/judgment.txt"
code=0
.venv/bin/genlint check "$tmp/judgment.txt" --statistics || code=$?
test "$code" -eq 1
code=0
.venv/bin/genlint check "$tmp/judgment.txt" --select placeholder | tail -4 || code=$?
