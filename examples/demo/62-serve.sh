#!/usr/bin/env bash
# genlint serve: the gate as an HTTP service in front of a (scripted, local) model endpoint.
set -uo pipefail
cd "$(dirname "$0")/../.."
echo
echo "== genlint serve: an OpenAI-compatible gateway that masks, checks, re-asks and restores"
work=$(mktemp -d)
.venv/bin/python examples/generate/serve.py "$work/url" &
upstream=$!
for _ in $(seq 50); do [ -s "$work/url" ] && break; sleep 0.1; done
port=$(.venv/bin/python -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
# two worker processes on one port (one per core: docs/commands/serve.md "Workers")
.venv/bin/genlint serve --port "$port" --upstream "$(cat "$work/url")" --workers 2 2>"$work/serve.log" &
service=$!
for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
echo "\$ curl -i localhost:$port/v1/chat/completions -d '{\"model\": \"demo\", \"messages\": [{\"role\": \"user\", \"content\": \"我的电话是13812345678，请起草证据目录\"}]}'"
curl -s -D "$work/headers" "http://127.0.0.1:$port/v1/chat/completions" -H 'content-type: application/json' \
  -d '{"model": "demo", "messages": [{"role": "user", "content": "我的电话是13812345678，请起草证据目录"}]}' \
  | .venv/bin/python -c 'import json,sys; print("content:", json.load(sys.stdin)["choices"][0]["message"]["content"][:120], "…")'
grep -iE '^(HTTP|x-genlint)' "$work/headers"
echo
echo "\$ curl localhost:$port/dify/moderation (a phone number in a Dify input)"
curl -s "http://127.0.0.1:$port/dify/moderation" -H 'content-type: application/json' \
  -d '{"point": "app.moderation.input", "params": {"app_id": "demo", "inputs": {"phone": "13812345678"}, "query": "请回电"}}'
echo
kill "$service" "$upstream" 2>/dev/null
wait "$service" "$upstream" 2>/dev/null
echo "--- the service's log (no bodies, no values):"
cat "$work/serve.log"
