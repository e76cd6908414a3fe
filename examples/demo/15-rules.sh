#!/usr/bin/env bash
# genlint rule: every rule documents itself (what it flags, why, examples, how to silence it).
set -euo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "== genlint rule placeholder/mou-name"
.venv/bin/genlint rule placeholder/mou-name

echo "== an anonymised judgment names its parties 张某 on purpose: --profile judgment, keep the ID"
printf '原告张某诉被告李某借款合同纠纷一案。\n被告身份证号：110101199003074573\n' > "$tmp/judgment.txt"
code=0
.venv/bin/genlint check "$tmp/judgment.txt" --profile judgment || code=$?
echo "exit $code (1: the unmasked ID number is still found)"
test "$code" -eq 1

echo "== a long judgment: --statistics counts per rule and text; the text report folds repeats"
for i in $(seq 1 40); do printf '第%s段：原告张某称，被告李某于当日到场。\n' "$i"; done >> "$tmp/judgment.txt"
code=0
.venv/bin/genlint check "$tmp/judgment.txt" --statistics || code=$?
test "$code" -eq 1
code=0
.venv/bin/genlint check "$tmp/judgment.txt" --select placeholder | tail -4 || code=$?

echo "== a court form's empty fields, and kinds of personal data beyond IDs and phones"
printf '原告：张三，男，汉族\n住所地：            联系电话：\n委托诉讼代理人：\n被告座机：010-62751234，车牌号：京A12345\n开户账号：6222 0200 1234 5678 901\n' > "$tmp/form.txt"
code=0
.venv/bin/genlint check "$tmp/form.txt" || code=$?
test "$code" -eq 1
echo "== opt-in rules: names and addresses after their labels (off by default)"
code=0
printf '姓名：李四\n住址：北京市海淀区中关村大街27号\n' | .venv/bin/genlint check - --select sensitive/person-name,sensitive/address || code=$?
test "$code" -eq 1
