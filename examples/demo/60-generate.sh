#!/usr/bin/env bash
# genlint generate: a scripted local endpoint answers with placeholders first; genlint re-asks
# with the findings and the second reply passes.
set -uo pipefail
cd "$(dirname "$0")/../.."
echo
echo "== genlint generate: generate, check, re-ask with the findings"
work=$(mktemp -d)
.venv/bin/python examples/generate/serve.py "$work/url" &
server=$!
for _ in $(seq 50); do [ -s "$work/url" ] && break; sleep 0.1; done
url=$(cat "$work/url")
echo "\$ genlint generate --prompt-file examples/generate/prompt.txt --model demo --base-url $url --select placeholder,sensitive --out $work/evidence.txt"
.venv/bin/genlint generate --prompt-file examples/generate/prompt.txt --model demo --base-url "$url" \
  --select placeholder,sensitive --out "$work/evidence.txt"
echo "(exit code $?)"
echo "--- $work/evidence.txt"
cat "$work/evidence.txt"
kill "$server" 2>/dev/null
wait "$server" 2>/dev/null
rm -rf "$work"
