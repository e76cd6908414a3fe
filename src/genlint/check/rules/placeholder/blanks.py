"""The blank characters docs/commands/check.md lists, in one place for every placeholder rule: ASCII space,
tab, NBSP (U+00A0), the ideographic space (U+3000), the U+2000–U+200A spaces, and the narrow
and medium mathematical spaces (U+202F, U+205F) Word and PDF text layers also write. Wherever a
rule takes a blank, each of these counts (underscores and rules of dashes are the blank rules'
own business)."""

from __future__ import annotations

# a regex character-class body (put it inside [...])
BLANK_CLASS = " \t\u3000\xa0\u2000-\u200a\u202f\u205f"
# the same characters as a string (for str.strip and membership)
BLANK_CHARS = " \t\u3000\xa0" + "".join(map(chr, range(0x2000, 0x200B))) + "\u202f\u205f"
BLANK_SET = frozenset(BLANK_CHARS)

__all__ = ["BLANK_CHARS", "BLANK_CLASS", "BLANK_SET"]
