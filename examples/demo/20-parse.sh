#!/usr/bin/env bash
# genlint parse: LLM replies that should be JSON, through direct → repaired → extracted → fields.
set -uo pipefail
cd "$(dirname "$0")/../.."
echo
echo "== genlint parse: a judge reply with a reasoning draft, prose and a fenced object with a trailing comma =="
.venv/bin/genlint parse examples/parse/judge_reply.txt --schema examples/parse/verdict.schema.json --format json
echo
echo "== full-width punctuation used as JSON syntax (quotes inside the value stay) =="
.venv/bin/genlint parse examples/parse/fullwidth_reply.txt
echo
echo "== no JSON at all: the fields step reads **评分**：… and **理由**：… =="
.venv/bin/genlint parse examples/parse/fields_reply.txt --fields score,reason --format json
echo
echo "== a reply cut off by the token limit: complete records are kept =="
.venv/bin/genlint parse examples/parse/truncated_reply.txt
echo
echo "== a quote the model forgot to escape: the value, and the guess said on stderr =="
.venv/bin/genlint parse examples/parse/raw_quote_reply.txt
echo
echo "== a refusal: nothing acceptable, exit 1, each step says why =="
.venv/bin/genlint parse examples/parse/refusal.txt --schema examples/parse/verdict.schema.json --format json
echo "exit code $?"
echo
echo "== the same reply from standard input, as text output =="
.venv/bin/genlint parse - < examples/parse/refusal.txt
echo "exit code $?"
