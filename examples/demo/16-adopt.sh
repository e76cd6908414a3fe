#!/usr/bin/env bash
# Adopting genlint in a repository: genlint init, silencing what is fine (inline, per file, a
# baseline), and the GitHub annotations CI shows (--format github).
set -euo pipefail
cd "$(dirname "$0")/../.."
genlint="${GENLINT_DEMO_BIN:-$PWD/.venv/bin/genlint}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

echo "== genlint init: a commented genlint.toml and a pinned .pre-commit-config.yaml"
"$genlint" init . --rev 0123456789abcdef0123456789abcdef01234567 --repo https://git.example.org/genlint.git
sed -n 1,12p genlint.toml
cat .pre-commit-config.yaml
code=0
"$genlint" init . --no-pre-commit 2>&1 || code=$?
echo "exit $code (2: it never overwrites)"
test "$code" -eq 2

echo "== a contract template and a draft"
mkdir -p templates
printf '甲方（盖章）：\u3000\u3000\n乙方：某某公司\n' > templates/contract.txt
printf '甲方：华夏建设有限公司，电话 13812345678\n附件：某某清单 <!-- genlint: ignore[placeholder/mou-mou] -->\n' > draft.md
code=0
"$genlint" check . || code=$?
echo "exit $code"

echo "== silence the template's slots per file, accept today's findings in a baseline"
# uncomment the example init wrote under [check.per-file-ignores]
sed -i 's|^# "templates/\*\*" = \["placeholder"\]|"templates/**" = ["placeholder"]|' genlint.toml
grep -A2 'per-file-ignores' genlint.toml
"$genlint" check . --write-baseline .genlint-baseline.json
"$genlint" check . --baseline .genlint-baseline.json
printf '丙方：李某\n' >> draft.md
code=0
"$genlint" check . --baseline .genlint-baseline.json || code=$?
echo "exit $code (1: only the new finding is reported)"
test "$code" -eq 1

echo "== --format github: one annotation per finding, values masked"
"$genlint" check draft.md --format github || true
