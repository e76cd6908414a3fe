#!/usr/bin/env bash
# The consistency pack (off by default): what the document itself contradicts or cannot be
# true, each finding with the place it contradicts (docs/commands/check.md "What is inconsistent").
set -euo pipefail
cd "$(dirname "$0")/../.."
echo
echo "== genlint check --select consistency examples/consistency/contract.txt"
code=0
.venv/bin/genlint check examples/consistency/contract.txt --select consistency --no-color || code=$?
test "$code" -eq 1
