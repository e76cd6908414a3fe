"""DOCX: mask in the runs, keep the formatting, and mask every hidden place check reads.

What check reads, mask writes: the reader's walk (:mod:`genlint.readers.docx_walk`) records, for
each piece of every visible line, the element it came from (``w:t``, ``w:tab``…); a finding's
span maps back to those elements, so a value split across runs is masked in each run, with each
run's formatting. The hidden places (:mod:`genlint.readers.docx_places`: properties, deletions,
field codes, link targets, alt text, document variables, glossary, customXml, authors, altChunk
parts) are read, masked and written back through the same list the reader uses; a link keeps
working (``mailto:z***@163.com``). Then every copy of a masked value, in any grouping, is
replaced wherever else the package holds it (:mod:`.docx_copies`).

Fail closed: a place that cannot be rewritten safely (an RTF or MHTML chunk, a part read by the
recovering parser) holding a finding refuses the file, naming the place. The written package is
read again with the same places and searched again for every masked value; if anything is
found, nothing is written.
"""

from __future__ import annotations

import bisect
from typing import Any

from ..errors import GenlintError, InputError
from ..readers.docx_place import Place
from .core import Masker, Replacement
from .files import MaskedFile
from .vault import Vault

__all__ = ["mask_docx", "unmask_docx"]

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"


class DocxPackage:
    """A walked DOCX, its hidden places, and the way to write spans of either back."""

    def __init__(self, path: str, data: bytes) -> None:
        from ..readers.docx import document, hidden_places, walk

        self.path = path
        self.walked = walk(path, data, track=True)
        self.doc = document(path, self.walked)
        self.text = self.doc.segments[0].text
        self.parts, self.places = hidden_places(data, self.walked)
        # where each visible line starts in ``text`` (the reader's line places carry it)
        self.starts = [offset for offset, _ in self.doc.segments[0].places]
        self._entry = {id(root): name for _kind, name, root in self.walked.parts}

    @property
    def warnings(self) -> list[str]:
        return [*self.doc.warnings, *self.parts.warnings]

    def chunks(self) -> list[str]:
        return sorted({p.entry for p in self.places if p.part == "embedded-html"
                       and self.parts.content_type(p.entry).startswith(("text/html",
                                                                        "application/xhtml"))})

    # -- visible text -----------------------------------------------------------------------
    def pieces(self, start: int, end: int) -> list[tuple[Any, int, int, int]]:
        """(element, offset in it, offset in it, offset in the text) for every piece of text
        overlapping ``[start, end)``."""
        origins = self.walked.layout.origins or []
        out: list[tuple[Any, int, int, int]] = []
        line = max(0, bisect.bisect_right(self.starts, start) - 1)
        while line < len(origins) and self.starts[line] < end:
            pos = self.starts[line]
            for el, length in origins[line]:
                a, b = max(start, pos), min(end, pos + length)
                if a < b:
                    out.append((el, a - pos, b - pos, a))
                pos += length
            line += 1
        return out

    def write(self, start: int, end: int, new: str) -> list[int]:
        """Replace ``text[start:end]`` by ``new`` in the runs it came from: character by
        character when the length is kept, else in the value's first run. Returns how many
        characters of the value each run held (unmask gives each run its part back)."""
        pieces = self.pieces(start, end)
        layout = [b - a for el, a, b, _ in pieces if el.tag == _W + "t"]
        same = len(new) == end - start
        first = True
        for el, a, b, at in pieces:
            is_text = el.tag == _W + "t"
            if same:
                if is_text:
                    old = el.text or ""
                    _set(el, old[:a] + new[at - start : at - start + (b - a)] + old[b:])
                    first = False
                continue
            if not is_text:
                parent = el.getparent()
                if parent is not None and not first:
                    parent.remove(el)
                continue
            old = el.text or ""
            _set(el, old[:a] + (new if first else "") + old[b:])
            first = False
        if first:  # no w:t in the span (only tabs): the value cannot hold personal data
            return []
        for el, *_ in pieces:
            self.mark_element(el)
        return layout

    def mark_element(self, el: Any) -> None:
        """Mark the part a visible element belongs to as changed."""
        name = self._entry.get(id(el.getroottree().getroot()))
        if name is not None:
            self._mark(name)

    # -- hidden places ----------------------------------------------------------------------
    def write_hidden(self, place: Place, start: int, end: int, new: str) -> list[int]:
        """Replace ``place.text[start:end]``; refuses a place that cannot be rewritten safely."""
        if place.entry in self.parts.malformed:
            self._mark(place.entry)  # says why
        if not place.writable:
            raise InputError(
                f"{self.path}: {place.part} place {place.item} holds personal data that mask "
                "cannot rewrite safely; nothing written (remove it in Word first)"
            )
        layout = place.write(start, end, new)
        self._mark(place.entry)
        return layout

    def restore_hidden(self, place: Place, start: int, end: int, value: str,
                       layouts: list[list[int]]) -> None:
        """Write ``value`` over a token in a hidden place, split over the strings it was split
        over when the vault recorded how."""
        for layout in layouts:
            if sum(layout) == len(value) and len(layout) > 1:
                parts, pos = [], 0
                for n in layout:
                    parts.append(value[pos : pos + n])
                    pos += n
                if place.write_split(start, end, parts):
                    self._mark(place.entry)
                    return
        self.write_hidden(place, start, end, value)

    def _mark(self, name: str) -> None:
        if name in self.parts.malformed:
            raise InputError(f"{self.path}: part {name} has malformed XML; repair it in Word "
                             "before masking (rewriting it could lose text)")
        self.parts.mark(name)

    def package(self) -> bytes:
        return self.parts.rezip()


def _set(el: Any, text: str) -> None:
    el.text = text
    if text != text.strip():
        el.set(_XML_SPACE, "preserve")


def mask_docx(path: str, data: bytes, masker: Masker) -> MaskedFile:
    from ..check.rules import RuleContext
    from .docx_copies import sweep

    pkg = DocxPackage(path, data)
    seg = pkg.doc.segments[0]
    ctx = RuleContext(options=masker.checker.options, kind="docx", path=path)
    found = masker.find(seg.text, ctx, places=seg.places)
    shown = masker.apply(seg.text, found, lambda out: masker.find(out, ctx))
    warnings = pkg.warnings
    values: dict[str, str] = {}
    hidden: list[Replacement] = []
    for place in pkg.places:
        where = [(0, place.location())]
        found_here = masker.find(place.text, ctx, places=where)
        if not found_here:
            continue
        result = masker.apply(place.text, found_here, lambda out: masker.find(out, ctx))
        original = place.text
        for r in sorted(result.replacements, key=lambda r: r.start, reverse=True):
            values.setdefault(original[r.start : r.end], r.replacement)
            layout = pkg.write_hidden(place, r.start, r.end, r.replacement)
            if masker.vault is not None and len(layout) > 1:
                masker.vault.note_runs(r.replacement, layout)
        hidden.extend(result.replacements)
    if not shown.replacements and not hidden:
        return MaskedFile(path, "docx", data, [], warnings)
    for r in sorted(shown.replacements, key=lambda r: r.start, reverse=True):
        values.setdefault(seg.text[r.start : r.end], r.replacement)
        layout = pkg.write(r.start, r.end, r.replacement)
        if masker.vault is not None and len(layout) > 1:
            masker.vault.note_runs(r.replacement, layout)
    copies = sweep(pkg.parts, values, pkg.chunks())
    if copies:
        warnings.append(f"also masked {copies} cop{'y' if copies == 1 else 'ies'} of masked "
                        "values outside the places check reads (fallback copies, other parts)")
    out = pkg.package()
    _verify(path, out, masker, values)
    # offsets of hidden replacements are into their place's text, as check reports them; their
    # location names the place
    return MaskedFile(path, "docx", out, [*shown.replacements, *hidden], warnings)


def _verify(path: str, out: bytes, masker: Masker, values: dict[str, str]) -> None:
    """Read the written package as check reads it, every place included: nothing may be
    found, and no masked value may be left anywhere in the package in any spelling."""
    from ..check.rules import RuleContext
    from ..readers.docx import read_package
    from .docx_copies import Copies, strings, xml_entries

    doc, package = read_package(path, out)
    ctx = RuleContext(options=masker.checker.options, kind="docx", path=path)
    for seg in doc.segments:
        left = masker.find(seg.text, ctx, places=seg.places)
        if left:
            where = dict(left[0].location or {})
            place = where.get("field") or " ".join(str(v) for v in where.values()) \
                or f"line {left[0].line}"
            raise GenlintError(f"{path}: {len(left)} value(s) still readable after masking "
                               f"({left[0].rule} in {place}); nothing written")
    copies = Copies(values)
    if not copies:
        return
    for name in xml_entries(package):
        if not copies.maybe(package.raw(name).decode("utf-8", "ignore")):
            continue
        root = package.root(name)
        if root is None:
            raise GenlintError(f"{path}: part {name} cannot be read back; nothing written")
        if any(copies.find(text) for _el, _attr, text in strings(root)):
            raise GenlintError(f"{path}: a masked value is still in part {name} after masking; "
                               "nothing written")


def unmask_docx(path: str, data: bytes, vault: Vault) -> Any:
    from .docx_unmask import unmask_package

    return unmask_package(path, data, vault)
