"""Dify's API-based moderation extension (``POST /dify/moderation``).

``app.moderation.input`` masks personal data in the user's variables and query
(``action: overridden``); ``app.moderation.output`` masks it in the model's output. Dify sends
streamed output in 100-character pieces. Depending on its version it sends each piece alone or
everything so far; both are handled: when a text continues the last one seen for the app, the
whole text is checked; otherwise the piece is checked together with the tail of the previous
piece (``dify_carry_chars``), so a phone number split across two pieces is still found, and the
part of it in this piece is masked — the whole value never reaches the user. Values are masked
in the ``keep-ends`` style (``138****5678``).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from ..mask import Masker
from .chat import ServeError

_MAX_APPS = 1_024


class OutputCarry:
    """Per app (bounded LRU): the last text seen, and the tail of everything sent so far."""

    def __init__(self, tail_chars: int) -> None:
        self.tail_chars = tail_chars
        self._last: OrderedDict[str, tuple[str, str]] = OrderedDict()
        self._lock = threading.Lock()

    def swap(self, app: str, text: str) -> tuple[str, str]:
        """(previous text, tail before this text); records ``text``."""
        with self._lock:
            previous, tail = self._last.pop(app, ("", ""))
            accumulated = _continues(previous, text)
            new_tail = text if accumulated else tail + text
            self._last[app] = (text, new_tail[-self.tail_chars :] if self.tail_chars else "")
            while len(self._last) > _MAX_APPS:
                self._last.popitem(last=False)
        return previous, tail


# A text that repeats the whole previous one (at least this long) is everything so far, not
# a new piece: short pieces may start alike by chance.
_MIN_ACCUMULATED = 16


def _continues(previous: str, text: str) -> bool:
    return (
        len(previous) >= _MIN_ACCUMULATED
        and len(text) > len(previous)
        and text.startswith(previous)
    )


def moderate(body: Any, masker: Masker, carry: OutputCarry) -> dict[str, Any]:
    if not isinstance(body, dict) or not isinstance(body.get("point"), str):
        raise ServeError(400, "body must be an object with a 'point'")
    point = body["point"]
    if point == "ping":
        return {"result": "pong"}
    params = body.get("params")
    if not isinstance(params, dict):
        raise ServeError(400, "'params' must be an object")
    if point == "app.moderation.input":
        return _input(params, masker)
    if point == "app.moderation.output":
        return _output(params, masker, carry)
    raise ServeError(400, f"unknown extension point {point!r}")


def _input(params: dict[str, Any], masker: Masker) -> dict[str, Any]:
    inputs = params.get("inputs") or {}
    if not isinstance(inputs, dict):
        raise ServeError(400, "'params.inputs' must be an object")
    flagged = False
    out_inputs: dict[str, Any] = {}
    for name, value in inputs.items():
        if isinstance(value, str):
            result = masker.mask(value)
            flagged |= bool(result.replacements)
            out_inputs[name] = result.text
        else:
            out_inputs[name] = value
    query = params.get("query")
    if isinstance(query, str):
        result = masker.mask(query)
        flagged |= bool(result.replacements)
        query = result.text
    if not flagged:
        return {"flagged": False, "action": "direct_output", "preset_response": ""}
    return {"flagged": True, "action": "overridden", "inputs": out_inputs, "query": query}


def _output(params: dict[str, Any], masker: Masker, carry: OutputCarry) -> dict[str, Any]:
    text = params.get("text")
    if not isinstance(text, str):
        raise ServeError(400, "'params.text' must be a string")
    app = str(params.get("app_id") or "")
    previous, tail = carry.swap(app, text)
    if _continues(previous, text):
        # Dify sent everything so far: check it whole
        masked = masker.mask(text).text
    else:
        # a value across the seam: part of it already went out with earlier pieces, so its
        # part here becomes stars (the whole value never reaches the user); values wholly
        # inside this piece are masked in the usual style
        crossing = [f for f in masker.find(tail + text) if f.start < len(tail) < f.end]
        masked = masker.mask(text).text
        if crossing:
            masked = _blank_seam(masked, crossing, len(tail))
    if masked == text:
        return {"flagged": False, "action": "direct_output", "preset_response": ""}
    return {"flagged": True, "action": "overridden", "text": masked}


def _blank_seam(text: str, findings: list[Any], offset: int) -> str:
    """Stars over the letters and digits of each finding's part in this piece."""
    chars = list(text)
    for f in findings:
        for i in range(max(f.start - offset, 0), min(f.end - offset, len(chars))):
            if chars[i].isalnum():
                chars[i] = "*"
    return "".join(chars)
