"""An offline stand-in for a model: canned replies per prompt style and method.

promptfoo calls ``call_api(prompt, options, context)``; the reply is what a model answered to
that prompt when the example was recorded, so the comparison runs offline and the same every time.
"""

import re
from pathlib import Path

REPLIES = Path(__file__).parent / "replies"


def call_api(prompt, options, context):
    style = re.search(r"STYLE: (\w+)", prompt).group(1)
    method = context["vars"]["method"]
    reply = REPLIES / f"{style}-{method}.txt"
    if not reply.is_file():
        return {"error": f"no recorded reply for {style}/{method}"}
    return {"output": reply.read_text(encoding="utf-8")}
