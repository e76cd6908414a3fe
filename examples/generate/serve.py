"""A stand-in for an LLM endpoint in the demo: no real model is reachable offline.

Starts genlint's scripted OpenAI-compatible server on 127.0.0.1. The first reply still has
placeholders and an unmasked phone number; the second (the answer to genlint's re-ask) is clean.
Writes the base URL to the file named on the command line, then serves until terminated.
"""

from __future__ import annotations

import signal
import sys
import threading
from pathlib import Path

from genlint.llm.testing import Reply, ScriptedServer

HERE = Path(__file__).resolve().parent


def main() -> None:
    replies = [
        Reply((HERE / "reply-1-dirty.txt").read_text(encoding="utf-8")),
        Reply((HERE / "reply-2-clean.txt").read_text(encoding="utf-8")),
    ]
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    with ScriptedServer(replies) as server:
        Path(sys.argv[1]).write_text(server.url, encoding="utf-8")
        stop.wait()


if __name__ == "__main__":
    main()
