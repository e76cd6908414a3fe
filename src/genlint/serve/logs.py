"""serve's log: one JSON object per line on stderr, so a log collector reads every line.

The access log's message is already a JSON object (``{"method": …, "status": …, "ms": …}``)
and is written as it is; any other record (a warning of a library, an error) becomes
``{"level": "warning", "logger": "genlint.check", "message": "…"}``. The rest of genlint
prefixes its lines with ``genlint: LEVEL:`` for people; serve's reader is a program.
"""

from __future__ import annotations

import json
import logging
import sys

__all__ = ["JsonLines", "configure_logging"]


class JsonLines(logging.Formatter):
    """A record as one line of JSON."""

    def format(self, record: logging.LogRecord) -> str:
        message = record.getMessage()
        if message.startswith("{") and record.levelno == logging.INFO and not record.exc_info:
            try:
                if isinstance(json.loads(message), dict):
                    return message.replace("\n", " ").replace("\r", " ")
            except ValueError:
                pass
        entry = {"level": record.levelname.lower(), "logger": record.name, "message": message}
        if record.exc_info:
            entry["error"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


def configure_logging() -> None:
    """Every handler of the root logger writes JSON lines (one on stderr when there is none),
    and serve's access log is on."""
    root = logging.getLogger()
    if not root.handlers:
        root.addHandler(logging.StreamHandler(sys.stderr))
        root.setLevel(logging.WARNING)
    for handler in root.handlers:
        handler.setFormatter(JsonLines())
    logging.getLogger("genlint.serve").setLevel(logging.INFO)
