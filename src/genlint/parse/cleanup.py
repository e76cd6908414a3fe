"""Rewrites done before json-repair, for defects it repairs differently from what was meant.

json-repair writes "" for a missing value (``{"a": }``) and keeps ``undefined`` and ``...``
placeholders as text; a model that wrote those meant null, and "more of the same". Strings are
matched first and left alone.

A number whose exponent has no digits (``2e``, ``2e+``: a reply cut inside the number, or a
typo) is read as its digits before the exponent, and the result says it guessed. genlint owns
this reading: json-repair gave ``[2, "e"]`` up to 0.64.6 and ``[2]`` from 0.64.9 on, and the
answer must not change with its version (docs/install.md "Tested ranges").

Numbers stay numbers (docs/commands/parse.md "Numbers"): ``NaN``, ``Infinity`` and
``-Infinity`` written as values are float values (json-repair makes them strings and drops the
sign), and an object member's value written with thousands separators (``"amount": 674,107``,
where a comma cannot start the next member because a digit follows it) is one number, with a
guess note, since the text could also be a number and a member missing its key.
"""

from __future__ import annotations

import re
from typing import Any

from .result import GUESS_NOTE

# A string cut off by the end of the reply is still a string: "She said: must not become
# "She said: null.
_TOKENS = re.compile(
    r'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\Z)'
    r"|'(?:[^'\\\n]|\\.|(?<=\w)'(?=\w))*(?:'|(?=\n)|\Z)"
    r"|(?P<missing>:)(?P<gap>\s*)(?=[,}\]]|\Z)"
    r"|(?P<undefined>(?<![\w$])undefined(?![\w$]))"
    r"|(?P<before>[\[{,])\s*(?P<ellipsis>\.\.\.|…)\s*,?"
    r"|(?P<mantissa>(?<![\w.$])-?\d+(?:\.\d+)?)[eE][+-]?(?![\w.$+-])"
    r"|(?P<nonfinite>(?<![\w$.-])-?(?:NaN|Infinity)(?![\w$]))"
    r"|(?P<colon>:[ \t]*)(?P<thousands>-?\d{1,3}(?:,\d{3})+(?:\.\d+)?)"
    r"(?=[ \t]*(?:[}\r\n]|,[ \t]*[\"'}\r\n]|\Z))",
    re.DOTALL,
)


def clean(text: str) -> tuple[str, list[str]]:
    """``(rewritten text, notes)``; the text is unchanged when there is nothing to rewrite."""
    if (
        ":" not in text
        and "undefined" not in text
        and "..." not in text
        and "…" not in text
        and "e" not in text
        and "E" not in text
        and "N" not in text
    ):
        return text, []
    counts = {"missing": 0, "undefined": 0, "ellipsis": 0}
    exponents: list[int] = []
    grouped: list[int] = []
    nonfinite: list[int] = []

    def replace(match: re.Match[str]) -> str:
        if match.group("missing"):
            counts["missing"] += 1
            return ": null" + match.group("gap")
        if match.group("undefined"):
            counts["undefined"] += 1
            return "null"
        if match.group("ellipsis"):
            counts["ellipsis"] += 1
            return match.group("before")
        if match.group("mantissa"):
            exponents.append(match.start())
            return match.group("mantissa")
        if match.group("nonfinite"):
            nonfinite.append(match.start())
            return f'"{NONFINITE_MARK}{match.group("nonfinite")}"'
        if match.group("thousands"):
            grouped.append(match.start("thousands"))
            return match.group("colon") + match.group("thousands").replace(",", "")
        return match.group(0)

    cleaned = _TOKENS.sub(replace, text)
    notes = []
    if counts["missing"]:
        notes.append(f"wrote null for {counts['missing']} missing value(s)")
    if counts["undefined"]:
        notes.append(f"read {counts['undefined']} undefined as null")
    if counts["ellipsis"]:
        notes.append(f"dropped {counts['ellipsis']} '...' placeholder(s)")
    if exponents:
        notes.append(
            f"{GUESS_NOTE} that {len(exponents)} number(s) whose exponent has no digits (the "
            f"first at char {exponents[0]}) are the digits before the exponent"
        )
    if nonfinite:
        notes.append(
            f"{NONFINITE_NOTE} {len(nonfinite)} NaN/Infinity value(s) (the first at char "
            f"{nonfinite[0]}) as float values; JSON output has no such numbers and writes null"
        )
    if grouped:
        notes.append(
            f"{GUESS_NOTE} that {len(grouped)} number(s) with thousands separators (the first at "
            f"char {grouped[0]}) are one number each"
        )
    return cleaned, notes


# A string no reply holds, standing for a non-finite number until json-repair has read the text.
NONFINITE_MARK = "\x00genlint-nonfinite\x00"
NONFINITE_NOTE = "read"


def restore_nonfinite(value: Any) -> Any:
    """``value`` with every placeholder string of :func:`clean` back as its float."""
    if isinstance(value, str) and value.startswith(NONFINITE_MARK):
        return float(value[len(NONFINITE_MARK) :].replace("Infinity", "inf"))
    if isinstance(value, list):
        return [restore_nonfinite(v) for v in value]
    if isinstance(value, dict):
        return {k: restore_nonfinite(v) for k, v in value.items()}
    return value
