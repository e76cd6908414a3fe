"""Written forms of personal numbers, made one: the text the sensitive rules read.

A number can be written with characters that change nothing for a reader but break a pattern:
zero-width characters (U+200B, U+200C, U+200D, U+2060, U+FEFF) and soft hyphens (U+00AD)
inside it, or a no-break, thin or narrow no-break space (U+00A0, U+2009, U+202F) between its
groups. :func:`fold` removes the invisible ones and writes the other blanks as a space, once per
text; the rules read the folded text and :meth:`Folded.span` maps a span back onto the original,
so that a finding covers every character of the written value (and mask replaces all of it).

Check, mask and serve all find values through :class:`genlint.check.Checker`, which folds here:
one normalisation for the three (docs/rules.md, sensitive pack).
"""

from __future__ import annotations

import re
from array import array
from typing import NamedTuple

# removed for matching: they have no width, or (the soft hyphen) only at a line break
INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff\u00ad"
# written as a space: blanks that group digits like one
BLANKS = "\u00a0\u2009\u202f"

_ANY = re.compile(f"[{INVISIBLE}{BLANKS}]")
_INVISIBLE = re.compile(f"[{INVISIBLE}]+")
_BLANK = re.compile(f"[{BLANKS}]")


class Folded(NamedTuple):
    """The folded text and, for each of its characters, where it stands in the original."""

    text: str
    origin: array[int]

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The original span of the folded ``[start, end)``: from its first character to its
        last, with whatever invisible characters lie between them."""
        return self.origin[start], self.origin[end - 1] + 1


def needs_fold(text: str) -> bool:
    return _ANY.search(text) is not None


def fold(text: str) -> Folded | None:
    """``text`` as the rules read it, or None when folding changes nothing. Linear time: one
    pass of ``re`` for the removed characters, however many there are in a row."""
    if not needs_fold(text):
        return None
    spaced = _BLANK.sub(" ", text)
    origin = array("q")
    pieces: list[str] = []
    pos = 0
    for m in _INVISIBLE.finditer(spaced):
        pieces.append(spaced[pos : m.start()])
        origin.extend(range(pos, m.start()))
        pos = m.end()
    pieces.append(spaced[pos:])
    origin.extend(range(pos, len(spaced)))
    return Folded("".join(pieces), origin)


__all__ = ["BLANKS", "INVISIBLE", "Folded", "fold", "needs_fold"]
