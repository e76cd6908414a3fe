"""Rewrites done before json-repair, for defects it repairs differently from what was meant.

json-repair writes "" for a missing value (``{"a": }``) and keeps ``undefined`` and ``...``
placeholders as text; a model that wrote those meant null, and "more of the same". Strings are
matched first and left alone.

A number whose exponent has no digits (``2e``, ``2e+``: a reply cut inside the number, or a
typo) is read as its digits before the exponent, and the result says it guessed. genlint owns
this reading: json-repair gave ``[2, "e"]`` up to 0.64.6 and ``[2]`` from 0.64.9 on, and the
answer must not change with its version (docs/install.md "Tested ranges").
"""

from __future__ import annotations

import re

from .result import GUESS_NOTE

# A string cut off by the end of the reply is still a string: "She said: must not become
# "She said: null.
_TOKENS = re.compile(
    r'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\Z)'
    r"|'(?:[^'\\\n]|\\.|(?<=\w)'(?=\w))*(?:'|(?=\n)|\Z)"
    r"|(?P<missing>:)(?P<gap>\s*)(?=[,}\]]|\Z)"
    r"|(?P<undefined>(?<![\w$])undefined(?![\w$]))"
    r"|(?P<before>[\[{,])\s*(?P<ellipsis>\.\.\.|…)\s*,?"
    r"|(?P<mantissa>(?<![\w.$])-?\d+(?:\.\d+)?)[eE][+-]?(?![\w.$])",
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
    ):
        return text, []
    counts = {"missing": 0, "undefined": 0, "ellipsis": 0}
    exponents: list[int] = []

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
    return cleaned, notes
