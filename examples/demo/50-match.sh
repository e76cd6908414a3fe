#!/usr/bin/env bash
# genlint match: review criteria for contract clauses (exact reference, semantic, LLM filter).
set -uo pipefail
cd "$(dirname "$0")/../.."
echo
echo "== genlint match: exact clause reference (第四条第一款 = 第4.1条) =="
.venv/bin/genlint match --criteria examples/match/criteria.json --clause examples/match/clause_exact.json
echo
echo "== genlint match: semantic candidates for a clause with no exact reference =="
.venv/bin/genlint match --criteria examples/match/criteria.json --clause examples/match/clause.json --format json
echo
echo "== genlint match --clauses: a whole contract =="
.venv/bin/genlint match --criteria examples/match/criteria.json --clauses examples/match/contract.json
echo
echo "== a criterion's template limits its article number to its own contract; a clause nothing covers gets none =="
.venv/bin/genlint match --criteria examples/match/criteria_template.json --clauses examples/match/lease_clauses.json
echo
echo "== the LLM applicability filter, against a local scripted server =="
.venv/bin/python examples/match/llm_filter_demo.py
echo
echo "== a bad criteria file: exit 2, one line naming the entry =="
.venv/bin/genlint match --criteria examples/match/bad_criteria.json --clause examples/match/clause.json
echo "exit code $?"
