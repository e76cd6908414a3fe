"""A repair guided by the strict parser's error position, for documents of any size.

A large document with one defect (a comma or a quote missing in the middle of 600 records) is
valid everywhere else. orjson says where it stopped and why; inserting the missing comma, colon
or quote there (or removing a trailing comma) and parsing again costs one C-speed pass per
defect, keeps every record and every string exactly as written, and needs no size limit. Of the
edits that fit the error, the one that lets the parser get furthest is kept; after a few defects
the document is left to json-repair, which is better at text that is broken everywhere.
"""

from __future__ import annotations

import re
from typing import Any

import orjson

from .budget import Deadline
from .closing import close_truncated
from .direct import NotJSON, load_exact
from .result import GUESS_NOTE, TRUNCATED_NOTE

MAX_FIXES = 6
_BARE_KEY = re.compile(r"[A-Za-z_$][\w$-]*")
# A missing closing quote is looked for in the last few separators of a run this long.
_MAX_RUN = 2000
_MAX_TRIES = 3
_SEPARATORS = re.compile(r"\s*[,}\]]")
_COMMENT = re.compile(r"//[^\n]*|/\*.*?(?:\*/|\Z)", re.DOTALL)
_STRING_OR_COMMENT = re.compile(r'"(?:[^"\\]|\\.)*"|//[^\n]*|/\*.*?(?:\*/|\Z)', re.DOTALL)
_CUT_LITERAL = re.compile(r"(?:T(?:r(?:ue?)?)?|F(?:a(?:l(?:se?)?)?)?|N(?:o(?:ne?)?)?)\s*")
_PYTHON_LITERAL = re.compile(r"(?:True|False|None)\b")
_PYTHON_TO_JSON = {"True": "true", "False": "false", "None": "null"}
# After a quote that was meant inside a string: more text of the string on the same line, up to
# a quote that JSON syntax follows (not a comment, not the next string of a missing comma).
_INSIDE_STRING = re.compile(r'[^\s/"#][^\n]*?"\s*[,:}\]]')
_UNESCAPED_QUOTE = re.compile(r'(?<!\\)((?:\\\\)*)"')
_CONTROL = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def guided_repair(
    text: str, deadline: Deadline | None = None, *, close_at_end: bool = False
) -> tuple[Any, list[str]]:
    """``(value, repairs)``; NotJSON when the defects are not of the kinds fixed here.

    With ``close_at_end``, a text whose only defect left is a cut at its end (the other ones
    fixed: a Python literal, a comment…) gets its open strings and brackets closed."""
    notes: list[str] = []
    given = len(text)
    for _ in range(MAX_FIXES + 1):
        error = _error(text)
        if error is None:
            return load_exact(text), notes
        if len(notes) == MAX_FIXES:
            break
        if deadline is not None and deadline.expired():
            raise NotJSON(f"time budget of {deadline.seconds:g} s used up")
        pos, message = error
        if close_at_end and message.startswith("unexpected end of data"):
            value, closed = close_truncated(text, deadline)
            return value, notes + _at_the_given_end(closed, len(text), given)
        if close_at_end and _CUT_LITERAL.fullmatch(text, pos):
            # `"ok": Tru`: a Python literal cut off; the cut drops it as it drops `"ok": tr`
            value, closed = close_truncated(text[:pos], deadline)
            return value, notes + _at_the_given_end(closed, pos, given)
        best: tuple[int, str, str] | None = None
        for edited, note in _edits(text, pos, message):
            after = _error(edited)
            reach = len(edited) + 1 if after is None else after[0]
            # an edit must carry the parser past the defect, not just move the error
            if reach > pos + 1 and (best is None or reach > best[0]):
                best = (reach, edited, note)
        if best is None:
            raise NotJSON(f"no local edit fixes char {pos}: {message}")
        text = best[1]
        notes.append(best[2] if "char" in best[2] else f"{best[2]} at char {pos}")
    raise NotJSON(f"more than {MAX_FIXES} defects")


def _at_the_given_end(notes: list[str], at: int, given: int) -> list[str]:
    """The cut note says where the reply as given ends, not the text after the edits."""
    said = f"{TRUNCATED_NOTE} at char {at}:"
    return [
        f"{TRUNCATED_NOTE} at char {given}:" + n[len(said) :] if n.startswith(said) else n
        for n in notes
    ]


def _error(text: str) -> tuple[int, str] | None:
    try:
        orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        return exc.pos, exc.msg
    return None


def _edits(text: str, pos: int, message: str) -> list[tuple[str, str]]:
    head, tail = text[:pos], text[pos:]
    edits: list[tuple[str, str]] = []
    if message.startswith("unexpected end of data"):
        return edits  # truncation: closing the open brackets is close_truncated's job
    if message.startswith("trailing comma"):
        edits.append((head + tail[1:], "removed a trailing comma"))
    if "expected ',' or" in message:
        edits.append((head + "," + tail, "inserted a missing comma"))
    if "expected ':'" in message:
        edits.append((head + ":" + tail, "inserted a missing colon"))
    if "string key" in message:
        key = _BARE_KEY.match(text, pos)
        if key is not None:
            edits.append((head + f'"{key.group()}"' + text[key.end() :], "quoted a bare key"))
    if "control character" in message and tail[:1] in _CONTROL:
        edits.append(
            (
                head + _CONTROL[tail[0]] + tail[1:],
                f"{GUESS_NOTE} that the raw control character at char {pos} is inside a string",
            )
        )
    if message.startswith("unexpected character"):
        if _COMMENT.match(tail) is not None:
            # every comment at once: a commented reply has one per record, more than MAX_FIXES
            removed = [0]

            def blank(match: re.Match[str]) -> str:
                if match.group()[0] == '"':
                    return match.group()
                removed[0] += 1
                return " "

            edited = head + _STRING_OR_COMMENT.sub(blank, tail)
            edits.append((edited, f"removed {removed[0]} comment(s) from char {pos} on"))
            return edits
        literal = _PYTHON_LITERAL.match(tail)
        if literal is not None:
            json_literal = _PYTHON_TO_JSON[literal.group()]
            edits.append(
                (
                    head + json_literal + tail[literal.end() :],
                    f"read {literal.group()} as {json_literal}",
                )
            )
            return edits
        if tail[:1] == ",":
            # a doubled comma: [{…},, {…}] or {"a": 1,, "b": 2}
            edits.append((head + tail[1:], "removed a doubled comma"))
        # a string value or key whose opening quote is missing: "name": 记录300",
        edits.append((head + '"' + tail, f"{GUESS_NOTE} where a string starts: inserted a quote"))
        edits.extend(_closing_quotes(text, pos))
        quote = text.rfind('"', 0, pos)
        inside = _INSIDE_STRING.match(text, pos)
        # only after a value (the parser wants `,` or a closer): after a key it wants `:`
        right_after = "expected ','" in message and quote > 0 and not text[quote + 1 : pos].strip()
        if right_after and text[quote - 1] != "\\" and inside is not None:
            # quotes inside a string that the model did not escape: "记"录"5", "say "hi""; the
            # parser stopped right after one. Every quote up to the one JSON syntax follows is
            # escaped
            last = text.rfind('"', pos, inside.end())
            run = text[quote:last]
            if text[quote - 1] == '"' and run.count('"') % 2:
                # `""value"`: a doubled opening quote, not a quoted word inside the string
                return edits
            body = _UNESCAPED_QUOTE.sub(r'\1\\"', run)
            note = f"{GUESS_NOTE} that the quote at char {quote} is inside a string: escaped it"
            edits.append((text[:quote] + body + text[last:], note))
    return edits


def _closing_quotes(text: str, pos: int) -> list[tuple[str, str]]:
    """A string whose closing quote is missing ran on to the next string's opening quote; the
    parser stops after that. The quote goes before one of the last separators inside the run."""
    run_end = text.rfind('"', 0, pos)
    run_start = text.rfind('"', 0, run_end)
    if run_start < 0 or run_end - run_start > _MAX_RUN:
        return []
    edits = []
    for match in _SEPARATORS.finditer(text, run_start + 1, run_end):
        cut = match.start()
        note = f"{GUESS_NOTE} where the string at char {run_start} ends: inserted a quote at char {cut}"
        edits.append((text[:cut] + '"' + text[cut:], note))
    return edits[-_MAX_TRIES:]
