"""Full-width punctuation used as JSON syntax: ｛“score”：5，“reason”：“好”｝.

Chinese input methods produce “ ” ： ， ｛ ｝ ［ ］ where JSON needs ASCII. They are rewritten
only outside ASCII-quoted strings, so a reason that says "好，但是：" keeps its punctuation.
"""

from __future__ import annotations

import re

_SYNTAX = (("：", ":"), ("，", ","), ("｛", "{"), ("｝", "}"), ("［", "["), ("］", "]"))
_MARKS = "“”：，｛｝［］"

# A full-width string may hold balanced inner quotes (“使用了“麦肯锡”等词”) and ends at a ” that
# JSON syntax follows. Content never runs past an unpaired “, so on text full of opening quotes
# every attempt stops at the next one and the scan stays linear.
_FOLLOWED_BY_SYNTAX = r"(?=\s*(?:[:,}\]：，｝］]|\Z))"
_STRINGS = re.compile(
    r'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\Z)'  # an ASCII string, even one cut off: left alone
    r"|'(?:[^'\\\n]|\\.|(?<=\w)'(?=\w))*(?:'|(?=\n)|\Z)"  # a single-quoted one too
    r"|“((?:[^“”]|“[^“”]*”)*)”" + _FOLLOWED_BY_SYNTAX
)
_ANY = re.compile(r"[“”：，｛｝［］０-９]")
# A number typed with the full-width keyboard (３０, －１．５) outside a string is still a number.
_WIDE_NUMBER = re.compile(r"[－＋]?[０-９]+(?:．[０-９]+)?")
_WIDE_TO_ASCII = str.maketrans("０１２３４５６７８９－＋．", "0123456789-+.")


def has_fullwidth(text: str) -> bool:
    return _ANY.search(text) is not None


def _ascii_syntax(segment: str) -> str:
    # str.replace per mark: str.translate with a mapping goes through Python per character.
    for wide, ascii_mark in _SYNTAX:
        if wide in segment:
            segment = segment.replace(wide, ascii_mark)
    if _WIDE_NUMBER.search(segment):
        segment = _WIDE_NUMBER.sub(lambda m: m.group(0).translate(_WIDE_TO_ASCII), segment)
    return segment


def normalise(text: str) -> tuple[str, int]:
    """``(text with full-width syntax made ASCII, number of marks changed)``."""
    if not has_fullwidth(text):
        return text, 0
    parts: list[str] = []
    pos = 0
    # One Python step per string; the punctuation between strings is replaced in C.
    for match in _STRINGS.finditer(text):
        parts.append(_ascii_syntax(text[pos : match.start()]))
        inner = match.group(1)
        if inner is None:  # an ASCII string
            parts.append(match.group(0))
        else:
            parts.append('"' + inner.replace("\\", "\\\\").replace('"', '\\"') + '"')
        pos = match.end()
    parts.append(_ascii_syntax(text[pos:]))
    result = "".join(parts)
    changed = sum(text.count(mark) - result.count(mark) for mark in _MARKS)
    changed += sum(len(m.group(0)) for m in _WIDE_NUMBER.finditer(text)) - sum(
        len(m.group(0)) for m in _WIDE_NUMBER.finditer(result)
    )
    return result, changed
