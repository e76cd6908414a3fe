"""A linear repair for large truncated documents: close what was left open.

json-repair's cost grows faster than the input, so above a size limit the funnel does not call
it; a reply cut off by a token limit is still the most common defect of a large document. This
finds the open strings and brackets with one regular-expression pass (C speed), drops an
incomplete last element when needed, and appends the closers.
"""

from __future__ import annotations

import functools
import operator
import re
from itertools import accumulate
from typing import Any

import orjson

from .budget import Deadline
from .direct import NotJSON, load_exact
from .result import GUESS_NOTE, TRUNCATED_NOTE

# Strings are matched whole so brackets inside them are skipped; an unterminated string runs
# to the end of the text.
_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\\?\Z)|[\[\]{}]', re.DOTALL)
_TOKEN_WITH_COMMA = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\\?\Z)|[\[\]{},]', re.DOTALL)
_CLOSER = {"{": "}", "[": "]"}
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\\?\Z)', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_DELTA = {"[": 1, "{": 1, "]": -1, "}": -1}
_UP_TO_ZERO = functools.partial(min, 0)
# How far before the end the strict parser's error may be for closing to be worth trying: the
# attempts cut back at most to the last comma or opener of the innermost open container.
_NEAR_END = 4096
# orjson refuses deeper documents, so closing beyond this depth cannot succeed.
MAX_DEPTH = 1024
# More openers in a row (spaces, keys and colons between them allowed) than any parser here reads
# (a run inside a string counts too: such a string is refused, never misread).
_OPEN_RUN = re.compile(r'(?:[\[{]\s*(?:"[^"\\\n]{0,64}"\s*:\s*)?){' + str(MAX_DEPTH + 1) + "}")


def close_truncated(text: str, deadline: Deadline | None = None) -> tuple[Any, list[str]]:
    """Value of ``text`` with its open strings and brackets closed; NotJSON if that is not enough."""
    if len(text) > _NEAR_END:
        # Closing at the end only helps when the strict parser reads up to the end; a defect
        # far before it stays, so a long text broken in the middle is refused without a walk.
        try:
            orjson.loads(text)
        except orjson.JSONDecodeError as exc:
            if exc.pos < len(text) - _NEAR_END:
                raise NotJSON(f"a defect at char {exc.pos}, before the end") from None
    stack: list[str] = []
    opened_at: list[int] = []
    open_string_at = -1
    for count, match in enumerate(_TOKEN.finditer(text)):
        if count % 8192 == 8191 and deadline is not None and deadline.expired():
            raise NotJSON(f"time budget of {deadline.seconds:g} s used up while closing brackets")
        token = match.group()
        first = token[0]
        if first == '"':
            if match.end() == len(text) and (len(token) == 1 or _unterminated(token)):
                open_string_at = match.start()
        elif first in "{[":
            stack.append(first)
            opened_at.append(match.start())
            if len(stack) > MAX_DEPTH:
                raise NotJSON(f"nested deeper than {MAX_DEPTH} levels")
        elif not stack or _CLOSER[stack[-1]] != first:
            raise NotJSON(f"mismatched {first!r} at char {match.start()}")
        else:
            stack.pop()
            opened_at.pop()
    if not stack and open_string_at < 0:
        raise NotJSON("nothing was left open")
    closers = "".join(_CLOSER[b] for b in reversed(stack))
    body = text if open_string_at < 0 else text[:open_string_at]
    attempts: list[tuple[str, str]] = []
    if open_string_at >= 0 and open_string_at < len(text) - 1:
        # (a cut right after the opening quote holds no string yet: nothing to close)
        # A cut right after a backslash would turn the added quote into an escaped one.
        head = _without_cut_escape(text)
        attempts.append((head + '"' + closers, "closed a truncated string"))
    attempts.append((body.rstrip().rstrip(",") + closers, ""))
    after_key = stack and stack[-1] == "{" and open_string_at < 0
    head = body.rstrip()
    if after_key and head.endswith(":"):
        # Cut after a colon ('{"a": 1, "b":'): the key was written, its value is missing, and
        # gets null as it would when the model had written no value.
        attempts.append((head + " null" + closers, "gave the last key the value null"))
    if stack:
        comma = _last_comma(text, opened_at[-1])
        if comma >= 0:
            attempts.append((text[:comma] + closers, "dropped an incomplete last element"))
    if after_key and head.endswith('"'):
        # the first key of an object, cut before its colon ('{"b"'): it stays, with null
        attempts.append((head + ": null" + closers, "gave the last key the value null"))
    if stack:
        attempts.append((text[: opened_at[-1] + 1] + closers, "emptied the innermost container"))
    last_error = ""
    for candidate, note in attempts:
        try:
            # orjson only: the stdlib fallback of the direct step would double the cost of every
            # failed attempt on a large document.
            value = load_exact(candidate)
        except orjson.JSONDecodeError as exc:
            last_error = str(exc)
            continue
        repairs = [note] if note else []
        if stack:
            repairs.append(f"closed {len(stack)} open bracket{'s' if len(stack) > 1 else ''}")
        if open_string_at >= 0 and closers and _ends_with(text, closers):
            repairs.append(
                f"{GUESS_NOTE} that the string at char {open_string_at} was cut off, not "
                "missing its closing quote before the brackets it ends with"
            )
        repairs.append(cut_note(len(text), "".join(stack), open_string_at >= 0, text))
        return value, repairs
    raise NotJSON(f"closing the open brackets did not help: {last_error}")


_CUT_KEY = re.compile(r'[{,]\s*"(?:[^"\\]|\\.)*\Z')
_KEY_WITHOUT_VALUE = re.compile(r'[{,]\s*"((?:[^"\\\n]|\\.){1,80})"\s*:?\s*\Z')
_KEY_BEFORE_END = re.compile(r'"((?:[^"\\\n]|\\.){1,80})"\s*:\s*[^:]*\Z', re.DOTALL)


def cut_note(at: int, brackets: str, string_open: bool, text: str) -> str:
    """The note of a reply cut off by a token limit; ``brackets`` are the open ones, outermost
    first. It names the key whose value the cut may have shortened (a key, never a value)."""
    parts = []
    if string_open:
        parts.append("a string")
    if brackets:
        parts.append(f"{len(brackets)} container{'s' if len(brackets) > 1 else ''}")
    tail = text[-512:]
    innermost = brackets[-1:] if brackets else ""
    where = ""
    if innermost == "{" and string_open and _CUT_KEY.search(tail):
        where = "; a key cut short in the last object was dropped"
    elif innermost == "{" and (bare := _KEY_WITHOUT_VALUE.search(tail)):
        where = f"; the key {bare.group(1)!r} was cut before its value"
    elif innermost == "{":
        key = _KEY_BEFORE_END.search(tail)
        if key:
            where = f"; the value of key {key.group(1)!r} may be incomplete"
    elif innermost == "[":
        where = "; the last element of an array may be incomplete"
    return f"{TRUNCATED_NOTE} at char {at}: closed {' and '.join(parts)}{where}"


def open_at_end(text: str) -> tuple[str, bool]:
    """(brackets left open, outermost first; whether a string is left open) at the end of
    ``text``: the signs of a reply cut off by a token limit. Mismatched closers are skipped."""
    stack: list[str] = []
    string_open = False
    for match in _TOKEN.finditer(text):
        first = match.group()[0]
        if first == '"':
            token = match.group()
            string_open = match.end() == len(text) and (len(token) == 1 or _unterminated(token))
        elif first in "{[":
            stack.append(first)
        elif stack:
            stack.pop()
    return "".join(stack), string_open


def too_deep(text: str, limit: int = MAX_DEPTH) -> bool:
    """Whether brackets outside strings nest deeper than ``limit``: no parser here reads such a
    document, and refusing it early keeps 100,000 ``[`` under a millisecond instead of letting
    every repair strategy walk it."""
    if text.count("[") + text.count("{") <= limit:
        return False
    # Strings out, then everything but brackets out, then the running depth: all in C, where a
    # Python loop over 900 KB of brackets took a third of the time budget.
    if _OPEN_RUN.search(text) is not None:
        return True  # 100,000 "[" in a row: answered without building anything
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    if len(brackets) <= limit:
        return False
    depth = list(accumulate(map(_DELTA.__getitem__, brackets)))
    # a stray closer is skipped (the depth never goes below zero): subtract the lowest point so far
    floor = map(_UP_TO_ZERO, accumulate(depth, min))
    return max(map(operator.sub, depth, floor)) > limit


def _last_comma(text: str, start: int) -> int:
    """Offset of the last comma directly inside the container opened at ``start``, or -1."""
    depth = 0
    found = -1
    for match in _TOKEN_WITH_COMMA.finditer(text, start + 1):
        token = match.group()
        if token in "{[":
            depth += 1
        elif token in "}]":
            depth -= 1
        elif token == "," and depth == 0:
            found = match.start()
    return found


# The end of a string cut inside an escape (a lone backslash, part of \\uXXXX) or after the
# first half of a surrogate pair: half a character, which the closed string must not hold.
_CUT_ESCAPE = re.compile(r"(\\+)(u[0-9a-fA-F]{0,3})?\Z")
_HALF_PAIR = re.compile(r"(?<!\\)((?:\\\\)*)\\u[dD][89abAB][0-9a-fA-F]{2}\Z")


def _ends_with(text: str, closers: str) -> bool:
    """Whether ``text`` ends with ``closers`` (spaces between them allowed, a fence after)."""
    tail = re.sub(r"[\s`]+", "", text[-(4 * len(closers) + 16) :])
    return tail.endswith(closers)


def _without_cut_escape(text: str) -> str:
    cut = _CUT_ESCAPE.search(text, len(text) - 64 if len(text) > 64 else 0)
    if cut is not None and len(cut.group(1)) % 2 == 1:
        text = text[: cut.end(1) - 1]
    half = _HALF_PAIR.search(text, len(text) - 64 if len(text) > 64 else 0)
    if half is not None:
        text = text[: half.end(1)]
    return text


def _unterminated(token: str) -> bool:
    """True when a string token that reaches the end of the text has no closing quote."""
    if not token.endswith('"'):
        return True
    run = len(token) - 1 - len(token[:-1].rstrip("\\"))
    return run % 2 == 1
