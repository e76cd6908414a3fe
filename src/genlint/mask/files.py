"""Masking a file: read it as ``check`` reads it, mask what ``check`` finds, write it back.

Text (txt, md) and JSON are written back byte for byte outside the masked spans: the text is
decoded as the reader decodes it and encoded again in the same encoding, and a file that would
not come back identical (damaged bytes read as U+FFFD) is refused rather than rewritten. In JSON
only string values are read, so only string values are masked, inside their quotes (escapes
outside the value stay as written). DOCX and PDF have their own modules.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field

from ..errors import InputError
from .core import Masker, Replacement

__all__ = ["MaskedFile", "mask_bytes"]

_IMAGES = frozenset((".png", ".jpg", ".jpeg", ".tif", ".tiff"))


@dataclass
class MaskedFile:
    """A masked file: its new bytes, what was replaced, and the reader's warnings."""

    path: str
    kind: str
    data: bytes
    replacements: list[Replacement] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    # images inside the file that were not read for personal data (no OCR extra, EMF/WMF)
    images_not_read: list[str] = field(default_factory=list)


def suffix_of(path: str) -> str:
    return os.path.splitext(path)[1].lower()


def mask_bytes(path: str, data: bytes, masker: Masker, *, depth: int = 0) -> MaskedFile:
    """The masked bytes of one file, by its suffix (another suffix is plain text, as ``check``
    reads it); ``depth``: how deep inside a PDF's attachments it is. Raises InputError when the
    file cannot be masked faithfully, and with ``masker.strict`` when it holds images that were
    not read."""
    result = _mask_by_suffix(path, data, masker, depth)
    if result.images_not_read:
        from ..readers.images_inside import not_read_note

        note = not_read_note(result.images_not_read)
        if masker.strict:
            raise InputError(f"{path}: {note}; --strict refuses the file")
        result.warnings.append(note)
    return result


def _mask_by_suffix(path: str, data: bytes, masker: Masker, depth: int) -> MaskedFile:
    suffix = suffix_of(path)
    if suffix == ".docx":
        from .docx import mask_docx
        from .docx_images import redact_docx_images

        data, covered, notes, not_read = redact_docx_images(path, data, masker)  # pixels
        result = mask_docx(path, data, masker)
        result.replacements[:0] = covered
        result.warnings.extend(notes)
        result.images_not_read.extend(not_read)
        return result
    if suffix == ".pdf":
        from .pdf import mask_pdf

        return mask_pdf(path, data, masker, depth=depth)
    if suffix in _IMAGES:
        from .images import mask_image

        return mask_image(path, data, masker)
    if suffix == ".json":
        return _mask_json(path, data, masker)
    return _mask_text(path, data, masker)


def _ctx(masker: Masker, kind: str, path: str, code: tuple[tuple[int, int], ...] = ()) -> object:
    from ..check.rules import RuleContext

    return RuleContext(options=masker.checker.options, kind=kind, path=path, code_ranges=code)


def _mask_text(path: str, data: bytes, masker: Masker) -> MaskedFile:
    from ..readers import READERS
    from ..readers import markdown as md_reader
    from ..readers import text as text_reader

    module = md_reader if READERS.get(suffix_of(path)) == md_reader.__name__ else text_reader
    doc = module.read(path, data)
    encoding = _encoding(path, doc.encoding, doc.segments[0].text if doc.segments else "", data)
    seg = doc.segments[0]
    ctx = _ctx(masker, doc.kind, path, tuple(seg.code_ranges))
    after = _ctx(masker, doc.kind, path)
    findings = masker.find(seg.text, ctx)  # type: ignore[arg-type]
    result = masker.apply(seg.text, findings, lambda out: masker.find(out, after))  # type: ignore[arg-type]
    out = result.text.encode(encoding) if result.replacements else data
    return MaskedFile(path, doc.kind, out, result.replacements, list(doc.warnings))


def _encoding(path: str, encoding: str | None, text: str, data: bytes) -> str:
    name = encoding or "utf-8"
    try:
        same = text.encode(name) == data
    except UnicodeEncodeError:
        same = False
    if not same:
        raise InputError(
            f"{path}: cannot be written back byte for byte in {name} (damaged or mixed bytes); "
            "convert it to clean UTF-8 first"
        )
    return name


def _mask_json(path: str, data: bytes, masker: Masker) -> MaskedFile:
    from ..readers.json_strings import read, string_values

    doc = read(path, data)  # validates, decodes, and locates findings as check does
    raw = doc_raw = data.decode(doc.encoding or "utf-8")
    _encoding(path, doc.encoding, doc_raw, data)
    by_pointer = {seg.pointer: seg for seg in doc.segments if seg.packs is None}
    ctx = _ctx(masker, "json", path)
    edits: list[tuple[int, int, str]] = []
    replacements: list[Replacement] = []
    hidden: list[tuple[str, str, int, int]] = []
    for pointer, value, start, end in string_values(raw, hidden):
        seg = by_pointer.get(pointer)
        if seg is None or seg.text != value:
            continue
        findings = masker.find(value, ctx, pointer=pointer, locate=seg.locate)  # type: ignore[arg-type]
        if not findings:
            continue
        result = masker.apply(value, findings, lambda out: masker.find(out, ctx))  # type: ignore[arg-type]
        positions = _raw_positions(raw, start, end)
        for r in result.replacements:
            escaped = json.dumps(r.replacement, ensure_ascii=False)[1:-1]
            edits.append((positions[r.start], positions[r.end], escaped))
            if r.pointer is None:
                r.pointer = pointer
        replacements.extend(result.replacements)
    renamed = _mask_keys_and_numbers(raw, hidden, masker, ctx, edits, replacements)
    if renamed:
        # a pointer through a masked key names it masked, as the written file has it: the
        # report never shows the value (and the pointer still leads to the place)
        for r in replacements:
            if r.pointer:
                r.pointer = "/".join(renamed.get(t, t) for t in r.pointer.split("/"))
    edits.sort()
    if not edits:
        return MaskedFile(path, "json", data, [], list(doc.warnings))
    pieces: list[str] = []
    pos = 0
    for a, b, new in edits:
        pieces.append(raw[pos:a])
        pieces.append(new)
        pos = b
    pieces.append(raw[pos:])
    out = "".join(pieces)
    return MaskedFile(path, "json", out.encode(doc.encoding or "utf-8"), replacements,
                      list(doc.warnings))


def _mask_keys_and_numbers(
    raw: str,
    hidden: list[tuple[str, str, int, int]],
    masker: Masker,
    ctx: object,
    edits: list[tuple[int, int, str]],
    replacements: list[Replacement],
) -> dict[str, str]:
    """Personal data in a key is masked inside its quotes, like a string value. A number that
    holds it (a phone stored as 13900000070) becomes a string holding the masked number
    (``"139****0070"``): a number cannot hold a mask, and a changed number would be a wrong
    value that looks right (docs/commands/mask.md). Returns the masked keys as JSON pointer
    tokens, original to masked."""
    from ..readers.json_strings import _Lines, _locator, _pointer_token

    lines = _Lines(raw)
    renamed: dict[str, str] = {}
    for pointer, value, start, end in hidden:
        is_key = raw[start - 1 : start] == '"'
        if is_key:
            value = json.loads(raw[start - 1 : end + 1])
        locate = _locator(lines, start, end)
        findings = masker.find(value, ctx, pointer=pointer, locate=locate)  # type: ignore[arg-type]
        if not findings:
            continue
        recheck = lambda out: masker.find(out, ctx)  # type: ignore[arg-type]  # noqa: E731
        result = masker.apply(value, findings, recheck)
        if not result.replacements:
            continue
        for r in result.replacements:
            if r.pointer is None:
                r.pointer = pointer
        replacements.extend(result.replacements)
        if not is_key:
            edits.append((start, end, json.dumps(result.text, ensure_ascii=False)))
            continue
        renamed[_pointer_token(value)] = _pointer_token(result.text)
        positions = _raw_positions(raw, start, end)
        for r in result.replacements:
            escaped = json.dumps(r.replacement, ensure_ascii=False)[1:-1]
            edits.append((positions[r.start], positions[r.end], escaped))
    return renamed


_ESCAPE = re.compile(r"\\u[0-9a-fA-F]{4}|\\.|[^\\]", re.S)


def _raw_positions(raw: str, start: int, end: int) -> list[int]:
    """For each code point of the decoded string body ``raw[start:end]``, where it starts in
    ``raw`` (plus ``end``): escapes such as ``\\u4e2d`` and surrogate pairs are one code point."""
    out: list[int] = []
    high: int | None = None
    for m in _ESCAPE.finditer(raw, start, end):
        tok = m.group()
        code = int(tok[2:], 16) if tok.startswith("\\u") else -1
        if high is not None:
            if 0xDC00 <= code < 0xE000:
                out.append(high)
                high = None
                continue
            out.append(high)  # a lone high surrogate is a code point of its own
            high = None
        if 0xD800 <= code < 0xDC00:
            high = m.start()
            continue
        out.append(m.start())
    if high is not None:
        out.append(high)
    out.append(end)
    return out
