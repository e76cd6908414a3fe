"""Gate(mask_prompts=True) against a scripted OpenAI-compatible server on 127.0.0.1.

The "model" writes back the tokens it was given; the server's log shows what it received.
Run: .venv/bin/python examples/mask/round_trip.py
"""

from __future__ import annotations

import json
import os
import re

from genlint.generate import Gate
from genlint.llm import OpenAICompatible
from genlint.llm.testing import Reply, ScriptedServer

PROMPT = "请给客户张三写一句短信通知，他的手机号是13812345678，邮箱zhangsan@163.com。"


def model(body: dict) -> Reply:
    tokens = re.findall(r"<[A-Z_]+_\d+>", body["messages"][-1]["content"])
    return Reply(f"张先生（{tokens[0]}）：您的合同已寄出，副本发至 {tokens[1]}。")


os.environ.setdefault("DEMO_KEY", "sk-demo")
with ScriptedServer(model) as server:
    result = Gate("placeholder", mask_prompts=True).run(
        OpenAICompatible("demo", server.url, "DEMO_KEY"), PROMPT
    )
    received = [m["content"] for r in server.requests for m in r["messages"]]
print("server received:", json.dumps(received, ensure_ascii=False))
print("raw phone number in the server's log:", any("13812345678" in m for m in received))
print("reply after restoring:", result.text)
print("ledger:", json.dumps(result.to_dict()["masking"], ensure_ascii=False))
