"""DOCX: mask in the runs, keep the formatting, rewrite only the parts that changed.

What check reads, mask writes: the reader's walk (:mod:`genlint.readers.docx_walk`) records, for
each piece of every line, the element it came from (``w:t``, ``w:tab``…); a finding's span maps
back to those elements, so a value split across runs is masked in each run, with each run's
formatting, in the body, tables, headers, footers, notes, text boxes and comments alike.
A replacement of the same length (``keep-ends``, ``stars``) is written character by character
in place; a shorter or longer one (``label``, ``token``) goes into the first run of the value and
the value's other characters are removed.

Copies the reader does not show are masked too, so no value stays extractable from the package:
a masked value found verbatim in tracked deletions, field codes, the VML fallback copy of a text
box, relationship targets (``mailto:`` links) or document properties is replaced the same way.
Finally the written package is read and checked again; if anything is still found, nothing is
written.
"""

from __future__ import annotations

import bisect
import io
import zipfile
from typing import Any

from ..errors import GenlintError, InputError
from .core import Masker
from .files import MaskedFile
from .vault import Vault

__all__ = ["mask_docx", "unmask_docx"]

_XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


class _Package:
    """A walked DOCX and the way to write spans of its extracted text back into the XML."""

    def __init__(self, path: str, data: bytes) -> None:
        from ..readers.docx import document, walk

        self.path, self.data = path, data
        self.walked = walk(path, data, track=True)
        self.doc = document(path, self.walked)
        self.text = self.doc.segments[0].text
        self.starts: list[int] = []
        pos = 0
        for line in self.walked.layout.lines:
            self.starts.append(pos)
            pos += len(line) + 1
        self.changed: set[int] = set()  # id() of roots that changed
        self.seen = {id(el) for line in self.walked.layout.origins or [] for el, _ in line}

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

    def write(self, start: int, end: int, new: str) -> None:
        """Replace ``text[start:end]`` by ``new`` in the runs it came from."""
        pieces = self.pieces(start, end)
        if not pieces:
            return
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
            return
        self.changed.update(id(el.getroottree().getroot()) for el, *_ in pieces)

    def sweep(self, values: dict[str, str]) -> int:
        """Replace masked values wherever else they sit verbatim (text the reader skips,
        attributes, other XML parts); returns how many copies were replaced."""
        count = 0
        for _kind, _name, root in self.walked.parts:
            n = _sweep_tree(root, values, self.seen)
            if n:
                self.changed.add(id(root))
                count += n
        self.others: dict[str, bytes] = {}
        text_parts = {name for _, name, _ in self.walked.parts}
        with zipfile.ZipFile(io.BytesIO(self.data)) as archive:
            for info in archive.infolist():
                name = info.filename
                if name in text_parts or not name.endswith((".xml", ".rels")):
                    continue
                blob = archive.read(name)
                if not any(v.encode() in blob for v in values):
                    continue
                root = _parse_plain(blob)
                if root is None:
                    raise InputError(f"{self.path}: part {name} holds a masked value and cannot "
                                     "be parsed to mask it")
                n = _sweep_tree(root, values, set())
                if n:
                    count += n
                    self.others[name] = _serialize(root)
        return count

    def package(self) -> bytes:
        new: dict[str, bytes] = dict(getattr(self, "others", {}))
        for _kind, name, root in self.walked.parts:
            if id(root) in self.changed:
                if any(w.startswith(f"{name}:") for w in self.walked.warnings):
                    raise InputError(f"{self.path}: part {name} has malformed XML; repair it in "
                                     "Word before masking (rewriting it could lose text)")
                new[name] = _serialize(root)
        return _rezip(self.data, new)


def _set(el: Any, text: str) -> None:
    el.text = text
    if text != text.strip():
        el.set(_XML_SPACE, "preserve")


def _sweep_tree(root: Any, values: dict[str, str], skip: set[int]) -> int:
    count = 0
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        if el.text and id(el) not in skip:
            new, n = _replace_all(el.text, values)
            if n:
                el.text, count = new, count + n
        if el.tail:
            new, n = _replace_all(el.tail, values)
            if n:
                el.tail, count = new, count + n
        for key, value in el.attrib.items():
            new, n = _replace_all(value, values)
            if n:
                el.set(key, new)
                count += n
    return count


def _replace_all(text: str, values: dict[str, str]) -> tuple[str, int]:
    count = 0
    for value, new in values.items():
        if value in text:
            count += text.count(value)
            text = text.replace(value, new)
    return text, count


def _parse_plain(blob: bytes) -> Any:
    from lxml import etree

    try:
        return etree.fromstring(blob, etree.XMLParser(resolve_entities=False, no_network=True))
    except etree.XMLSyntaxError:
        return None


def _serialize(root: Any) -> bytes:
    from lxml import etree

    out: bytes = etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)
    return out


def _rezip(data: bytes, new: dict[str, bytes]) -> bytes:
    """The same ZIP with the entries of ``new`` replaced (same order, same compression)."""
    if not new:
        return data
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as zin, zipfile.ZipFile(out, "w") as zout:
        for info in zin.infolist():
            blob = new.get(info.filename)
            zout.writestr(info, blob if blob is not None else zin.read(info.filename))
    return out.getvalue()


def mask_docx(path: str, data: bytes, masker: Masker) -> MaskedFile:
    from ..check.rules import RuleContext

    pkg = _Package(path, data)
    seg = pkg.doc.segments[0]
    ctx = RuleContext(options=masker.checker.options, kind="docx", path=path)
    findings = masker.find(seg.text, ctx, places=seg.places)
    result = masker.apply(seg.text, findings, lambda out: masker.find(out, ctx))
    warnings = list(pkg.doc.warnings)
    if not result.replacements:
        return MaskedFile(path, "docx", data, [], warnings)
    values: dict[str, str] = {}
    for r in sorted(result.replacements, key=lambda r: r.start, reverse=True):
        values.setdefault(seg.text[r.start : r.end], r.replacement)
        pkg.write(r.start, r.end, r.replacement)
    copies = pkg.sweep(values)
    if copies:
        warnings.append(f"also masked {copies} cop{'y' if copies == 1 else 'ies'} outside the "
                        "visible text (tracked deletions, field codes, links, fallback copies)")
    out = pkg.package()
    _verify(path, out, masker, values)
    return MaskedFile(path, "docx", out, result.replacements, warnings)


def _verify(path: str, out: bytes, masker: Masker, values: dict[str, str]) -> None:
    """Read the written package as check reads it: nothing may be found."""
    from ..check.rules import RuleContext
    from ..readers.docx import read

    doc = read(path, out)
    ctx = RuleContext(options=masker.checker.options, kind="docx", path=path)
    left = masker.find(doc.segments[0].text, ctx)
    if left:
        raise GenlintError(f"{path}: masking left {len(left)} value(s) readable "
                           f"({left[0].rule} at line {left[0].line}); nothing written")


def unmask_docx(path: str, data: bytes, vault: Vault) -> Any:
    from .unmask import Unmasked, check_known
    from .vault import TOKEN

    pkg = _Package(path, data)
    matches = list(TOKEN.finditer(pkg.text))
    unknown = [m.group() for m in matches
               if m.group() not in vault.tokens and m.group() not in vault.literals]
    check_known(path, unknown, vault)
    count = 0
    for m in reversed(matches):
        value = vault.tokens.get(m.group())
        if value is not None:
            pkg.write(m.start(), m.end(), value)
            count += 1
    return Unmasked(pkg.package() if count else data, count)
