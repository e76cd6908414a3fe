"""One place of hidden DOCX text: the XML strings it is made of, and writing a span back.

A :class:`Place` is what the ``sensitive`` pack reads (a property, a paragraph's deleted text,
a link target URL-decoded) and what mask and unmask write: a span of its text maps back to the
strings (element text, tail, attribute) it came from, so a value split over runs keeps each
run's part. The list of places is :mod:`.docx_places`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, unquote

from .docx_package import Blob
from .docx_walk import W

__all__ = ["Piece", "Place", "decoded"]

_XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
_PERCENT = re.compile(r"(?:%[0-9A-Fa-f]{2})+")
# what a masked value may keep unescaped in a URL (``mailto:z***@163.com``); ``<``, ``>``,
# spaces and CJK labels are %-escaped so the link stays a valid URI
_URL_SAFE = "!#$&'()*+,/:;=?@[]~-._"
_TEXT_TAGS = frozenset((W + "t", W + "delText", W + "instrText", W + "delInstrText"))


@dataclass(slots=True)
class Piece:
    """One XML string of a place: an element's text (``attr`` None), its tail (``"#tail"``) or
    an attribute; or a :class:`Blob`'s whole text."""

    target: Any
    attr: str | None
    length: int

    def get(self) -> str:
        t = self.target
        if isinstance(t, Blob):
            return t.text
        if self.attr is None:
            return str(t.text or "")
        if self.attr == "#tail":
            return str(t.tail or "")
        return str(t.get(self.attr) or "")

    def set(self, value: str) -> None:
        t = self.target
        if isinstance(t, Blob):
            t.text = value
        elif self.attr is None:
            t.text = value
            if value != value.strip() and t.tag in _TEXT_TAGS:
                t.set(_XML_SPACE, "preserve")
        elif self.attr == "#tail":
            t.tail = value
        else:
            t.set(self.attr, value)


@dataclass
class Place:
    """Hidden text and the strings it was read from. ``text`` is what the rules read (a link
    target URL-decoded); ``raw_at`` maps each text offset to the raw offset when they differ.
    ``mirrors`` hold the same string elsewhere (one author on many revisions): they get what
    the place gets. A place that is not ``writable`` (an RTF chunk, a part read by the
    recovering parser) makes mask refuse the file when it holds a finding."""

    part: str
    item: str
    entry: str
    text: str
    pieces: list[Piece]
    raw_at: list[int] | None = None
    writable: bool = True
    mirrors: list[Piece] = field(default_factory=list)
    decode: bool = False  # holds URLs: read %-decoded
    encode: bool = False  # is a URL: what is written is %-encoded where a URL needs it

    def location(self) -> dict[str, Any]:
        """Where a person finds it: ``part`` names the kind of place, ``field`` which one
        (``properties core.xml creator``, ``deleted document.xml paragraph 4``)."""
        return {"part": self.part, "field": f"{self.part} {self.item}"}

    def raw(self) -> str:
        return "".join(p.get() for p in self.pieces)

    def write(self, start: int, end: int, new: str) -> list[int]:
        """Replace ``text[start:end]`` by ``new`` in the strings it came from; a replacement of
        the same length keeps each character in its own string (a value split over runs keeps
        each run's formatting), another goes into the first string of the span. Returns how
        many characters of the span each string held."""
        a, b = (self.raw_at[start], self.raw_at[end]) if self.raw_at else (start, end)
        if self.encode:
            new = quote(new, safe=_URL_SAFE)
        same = b - a == len(new)
        pos, first = 0, True
        layout: list[int] = []
        for piece in self.pieces:
            value = piece.get()
            lo, hi = max(a, pos), min(b, pos + len(value))
            if lo < hi:
                layout.append(hi - lo)
                if same:
                    cut = new[lo - a : hi - a]
                else:
                    cut, first = (new if first else ""), False
                piece.set(value[: lo - pos] + cut + value[hi - pos :])
            pos += len(value)
        self._refresh()
        return layout

    def write_split(self, start: int, end: int, parts: list[str]) -> bool:
        """Put ``parts`` back over ``text[start:end]`` (a token that ends its string) and the
        strings after it, the way the value was split before masking emptied them; False when
        the strings around do not have that shape (then nothing is changed)."""
        if len(parts) < 2:
            return False
        if self.raw_at is not None:
            start, end = self.raw_at[start], self.raw_at[end]
        if self.encode:
            parts = [quote(p, safe=_URL_SAFE) for p in parts]
        pos = 0
        for i, piece in enumerate(self.pieces):
            value = piece.get()
            if pos <= start and end == pos + len(value):
                rest = self.pieces[i + 1 : i + len(parts)]
                if len(rest) != len(parts) - 1 or any(p.get() for p in rest[:-1]):
                    return False
                piece.set(value[: start - pos] + parts[0])
                for p, part in zip(rest[:-1], parts[1:-1], strict=True):
                    p.set(part)
                rest[-1].set(parts[-1] + rest[-1].get())
                self._refresh()
                return True
            pos += len(value)
        return False

    def _refresh(self) -> None:
        raw = self.raw()
        for piece in self.pieces:
            piece.length = len(piece.get())
        self.text, self.raw_at = decoded(raw) if self.decode else (raw, None)
        for mirror in self.mirrors:
            mirror.set(raw)


def decoded(raw: str) -> tuple[str, list[int] | None]:
    """``raw`` with %-escapes decoded (UTF-8), and where each decoded character sits in raw."""
    if "%" not in raw or not _PERCENT.search(raw):
        return raw, None
    text: list[str] = []
    at: list[int] = []
    pos = 0
    for m in _PERCENT.finditer(raw):
        for i in range(pos, m.start()):
            text.append(raw[i])
            at.append(i)
        decoded = unquote(m.group(), errors="strict") if _utf8(m.group()) else None
        if decoded is None:
            for i in range(m.start(), m.end()):
                text.append(raw[i])
                at.append(i)
        else:
            # each decoded character owns the escapes it came from
            i = m.start()
            for ch in decoded:
                text.append(ch)
                at.append(i)
                i += len(ch.encode("utf-8")) * 3
        pos = m.end()
    for i in range(pos, len(raw)):
        text.append(raw[i])
        at.append(i)
    at.append(len(raw))
    return "".join(text), at


def _utf8(escapes: str) -> bool:
    try:
        bytes.fromhex(escapes.replace("%", "")).decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True
