"""What a repair had to guess, and where a reply was cut: the notes behind ``guessed`` and
``truncated``.

A repair of a string with a raw quote, a raw line break, single quotes or a missing closing quote
chooses where the string ends among several readings; json-repair makes that choice without
always saying so, so the text itself is read for the signs of one. Each sign is one C-speed
regular-expression search; the notes give the position of the first occurrence, never the text
(a string may hold personal data).
"""

from __future__ import annotations

import re

from .closing import cut_note, open_at_end
from .result import GUESS_NOTE

# A single-quoted string where a JSON string stands: after [ { , : and before : , ] }.
_SINGLE_QUOTED = re.compile(r"""[\[{,:]\s*'|'\s*[:,\]}]""")
# A double-quoted token followed by something that is not syntax: a quote inside a string that
# the model did not escape, or a missing closing quote (the token ran on to the next string).
_DOUBLE = r'"[^"\\]*(?:\\.[^"\\]*)*"'
# The strings are read in order from the start (atomic groups: linear, no backtracking); where
# the reading stops before the end, a string was followed by something that is not syntax.
_IN_ORDER = re.compile(
    r"""(?>[^"]*+(?>"[^"\\]*+(?:\\.[^"\\]*+)*+")(?=[ \t]*+(?:[\s:,\]}'"/]|\Z)))*+""",
    re.DOTALL,
)
_TOKEN = re.compile(_DOUBLE, re.DOTALL)


def string_guesses(text: str) -> list[str]:
    """One note per kind of string-boundary guess the text forces on a repair."""
    notes: list[str] = []
    stop = _IN_ORDER.match(text).end()  # type: ignore[union-attr]  # matches the empty string
    quote = text.find('"', stop)
    # one string left open at the end is a cut (the truncated note says so), not a guess
    if quote >= 0 and text.find('"', quote + 1) >= 0:
        notes.append(
            f"{GUESS_NOTE} where the string at char {quote} ends: a quote inside it is not "
            "escaped, or its closing quote is missing"
        )
    single = _SINGLE_QUOTED.search(text)
    if single is not None:
        notes.append(
            f"{GUESS_NOTE} where single-quoted strings end (first at char {single.start()}): "
            "an apostrophe inside one could end it"
        )
    if "\n" in text or "\r" in text:
        for token in _TOKEN.finditer(text):
            if "\n" in token.group() or "\r" in token.group():
                notes.append(
                    f"{GUESS_NOTE} that the line break at char {_first_break(token)} is inside "
                    "a string (a raw line break)"
                )
                break
    return notes


def _first_break(token: re.Match[str]) -> int:
    body = token.group()
    at = min(i for i in (body.find("\n"), body.find("\r")) if i >= 0)
    return token.start() + at


def reply_cut_note(text: str) -> str | None:
    """The note of a reply cut off by a token limit (open strings or containers at its end)."""
    brackets, string_open = open_at_end(text)
    if not brackets and not string_open:
        return None
    return cut_note(len(text), brackets, string_open, text)
