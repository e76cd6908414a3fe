"""Copies of a masked value anywhere in a DOCX package, matched by normalised value.

The reader's places cover what Word keeps, but the same number also turns up where no place
looks (the VML fallback copy of a text box, a chart's cache) and in another spelling
(``139-0000-1234`` shown, ``13900001234`` deleted, ``１３９…`` full-width, ``a%40b.com`` in a
link). Every XML string of every entry (element text, tail, attribute) and every chunk is
searched for each masked value in any grouping, and each copy gets the value's replacement.
The same walk, run on the written package, is mask's last check that nothing is left.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Sequence
from typing import Any

from ..readers.docx_package import Package

__all__ = ["Copies", "copy_pattern", "skeleton", "strings", "sweep", "xml_entries"]

_SEPARATORS = "[\\s\\-.\u3000\uff0d\uff0e()\uff08\uff09]*"
_MIN_SIGNIFICANT = 6  # shorter values are too common to chase as copies


def copy_pattern(values: dict[str, str]) -> re.Pattern[str] | None:
    """One pattern for every value in any grouping: digits with any separators between them
    (ASCII or full-width), an e-mail address in any case with ``@`` or ``%40``."""
    alternatives: list[str] = []
    for value in sorted(values, key=len, reverse=True):
        norm = unicodedata.normalize("NFKC", value)
        sig = [ch for ch in norm if ch.isalnum()]
        if len(sig) < _MIN_SIGNIFICANT:
            continue
        if "@" in norm:
            local, _, domain = norm.strip().rpartition("@")
            alternatives.append(f"(?i:{re.escape(local)}(?:@|%40|\uff20){re.escape(domain)})")
            continue
        alternatives.append(_SEPARATORS.join(_char(ch) for ch in sig))
        if len(sig) == 13 and "".join(sig[:2]) == "86":  # +86 138…: the bare number is a copy
            alternatives.append(_SEPARATORS.join(_char(ch) for ch in sig[2:]))
    if not alternatives:
        return None
    return re.compile("(?<![0-9\uff10-\uff19])(?:" + "|".join(alternatives)
                      + ")(?![0-9\uff10-\uff19])")


def _char(ch: str) -> str:
    if ch.isdigit() and ch.isascii():
        return f"[{ch}{chr(0xFF10 + int(ch))}]"
    if ch.isalpha() and ch.isascii():
        return f"[{ch.lower()}{ch.upper()}{chr(0xFF21 + ord(ch.upper()) - 65)}]"
    return re.escape(ch)


def xml_entries(package: Package) -> Iterator[str]:
    """Entries that hold XML (parts, relationships, customXml) or HTML, in package order."""
    for name in package.names:
        ctype = package.content_type(name)
        if name.endswith((".xml", ".rels", ".vml")) or ctype.endswith("xml"):
            yield name


def strings(root: Any) -> Iterator[tuple[Any, str | None, str]]:
    """Every string of a tree: (element, None) text, (element, '#tail') tail, attributes."""
    for el in root.iter():
        if el.text and isinstance(el.tag, str):
            yield el, None, el.text
        if el.tail:
            yield el, "#tail", el.tail
        if isinstance(el.tag, str):
            for key, value in el.attrib.items():
                yield el, key, value


def _set(el: Any, attr: str | None, value: str) -> None:
    if attr is None:
        el.text = value
    elif attr == "#tail":
        el.tail = value
    else:
        el.set(attr, value)


class Copies:
    """The masked values, ready to be searched for: a cheap test on a whole entry or string
    (its skeleton: NFKC, separators dropped, lower case), then the exact pattern only where
    the skeleton holds a value."""

    def __init__(self, values: dict[str, str]) -> None:
        self.pattern = copy_pattern(values)
        self._by_skeleton = {skeleton(v): new for v, new in values.items()}
        for k, new in list(self._by_skeleton.items()):
            if len(k) == 13 and k.startswith("86"):  # +86 138…: the bare number is a copy
                self._by_skeleton.setdefault(k[2:], new)
        self.skeletons = sorted(k for k in self._by_skeleton if len(k) >= _MIN_SIGNIFICANT)
        # one search for all of them (a string of a package is tested thousands of times)
        self._any = re.compile("|".join(re.escape(k) for k in self.skeletons)) \
            if self.skeletons else None
        self._default = next(iter(values.values()), "")

    def __bool__(self) -> bool:
        return self.pattern is not None

    def maybe(self, text: str) -> bool:
        if "&#" in text:
            return True  # a value written with character references shows only when parsed
        return self._any is not None and self._any.search(skeleton(text)) is not None

    def find(self, text: str) -> bool:
        return self.pattern is not None and self.maybe(text) and self.pattern.search(text) is not None

    def replace(self, text: str) -> tuple[str, int]:
        if self.pattern is None or not self.maybe(text):
            return text, 0
        return self.pattern.subn(
            lambda m: self._by_skeleton.get(skeleton(m.group()), self._default), text)


_DROP = str.maketrans("", "", "+ \t\r\n\f\v\u00a0\u2002\u2003\u2009\u200b\u202f-.\u3000()\uff0d")


def skeleton(text: str) -> str:
    return unicodedata.normalize("NFKC", text).replace("%40", "@").translate(_DROP).lower()


def sweep(package: Package, values: dict[str, str], extra: Sequence[str] = ()) -> int:
    """Replace every copy of a masked value in ``package`` (and in ``extra``, HTML chunk
    entries) by the value's replacement; how many were replaced."""
    copies = Copies(values)
    if not copies:
        return 0
    count = 0
    for name in [*xml_entries(package), *extra]:
        if not copies.maybe(package.raw(name).decode("utf-8", "ignore")):
            continue
        target = package.html_root(name) if name in extra else package.root(name)
        if target is None:
            continue
        for el, attr, text in list(strings(target)):
            new, n = copies.replace(text)
            if n:
                _set(el, attr, new)
                count += n
                package.mark(name)
    return count
