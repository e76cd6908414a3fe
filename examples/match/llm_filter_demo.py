"""The LLM applicability filter, shown against a local OpenAI-compatible server whose reply is
scripted (no network, no key): it rejects the payment-method criterion for a payment-term
clause, then the same server fails and every candidate is kept."""

from __future__ import annotations

import json
import sys

from genlint.cli.main import main
from genlint.llm.testing import Reply, ScriptedServer

verdicts = [
    {"criterion_id": "PAY-01", "applicable": True, "reason": "条款约定了付款期限（60日）"},
    {"criterion_id": "PAY-02", "applicable": False, "reason": "条款未涉及付款方式的选择"},
]
for title, reply in (("LLM answers", Reply(json.dumps(verdicts, ensure_ascii=False))),
                     ("LLM fails (HTTP 503)", Reply(status=503))):  # fmt: skip
    print(f"--- {title}", flush=True)
    with ScriptedServer([reply]) as server:
        code = main(["match", "--criteria", "examples/match/criteria.json",
                     "--clause", "examples/match/clause.json", "--llm", "--model", "demo",
                     "--base-url", server.url, "--api-key-env", "DEMO_KEY"])  # fmt: skip
    sys.stdout.flush()
    print(f"exit code {code}")
