#!/usr/bin/env bash
# genlint check: unfilled placeholders and unmasked personal data in generated evidence files.
set -uo pipefail
cd "$(dirname "$0")/../.."
E=examples/check/evidence
echo
echo "== genlint check: a clean evidence file (exit 0) =="
.venv/bin/genlint check $E/01-clean.txt
echo "exit code $?"
echo
echo "== the whole folder: Markdown, JSON, GBK text, DOCX (table, header, footer), PDF (pages) =="
.venv/bin/genlint check $E
echo "exit code $?"
echo
echo "== JSON report of the PDF: findings carry their page =="
.venv/bin/genlint check $E/06-judgment.pdf --format json
echo "exit code $?"
echo
echo "== only the desensitisation check, as JUnit XML =="
.venv/bin/genlint check $E --select sensitive --format junit
echo "exit code $?"
echo
echo "== with a config file: allowlist, a disabled rule, a severity override, an extra pattern =="
echo "金额待定，联系人王某，邮箱 wang@example.com，日期：    年  月  日" |
  .venv/bin/genlint check - --config examples/check/genlint.toml
echo "exit code $?"
echo
echo "== bad input: an unknown rule (exit 2, one line on stderr) =="
.venv/bin/genlint check $E --select placeholder/no-such-rule
echo "exit code $?"
