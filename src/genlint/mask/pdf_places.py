"""Masking the hidden places of a PDF: the same slots the reader reads
(:mod:`genlint.readers.pdf_places`), rewritten in a pypdf writer.

- Info dictionary entries, annotation contents and titles, form field values (``/V``,
  ``/DV``, choice options, captions), outline titles, attachment names: masked in the chosen
  style, in place.
- Link URIs (annotations, form fields, outlines): masked as read (URL-decoded), written back
  percent-encoded where needed, so a ``mailto:`` link still opens a mail to the masked address.
- XMP metadata holding a finding: removed (XMP is a free-form XML packet; an edited packet could
  still carry the value in a form no rule reads); a packet of an image or another object is
  emptied.
- Appearance streams that draw a finding, or belong to a field or annotation whose text was
  masked: removed; a text field's appearance is drawn again from its masked value (pypdf's
  generator) and the form marked ``/NeedAppearances``, so a viewer shows the masked value.
- A script or rich text kept as a stream and holding a finding: removed.
- Attachments: masked as files by the existing maskers (txt, md, json, docx, pdf, bounded in
  depth); one that cannot be masked refuses the whole file.

A slot of a kind this module does not know refuses the file: nothing is written with a value
inside (fail closed).
"""

from __future__ import annotations

import os
from typing import Any
from urllib.parse import quote

from ..errors import GenlintError, InputError
from .core import Masker, Replacement

__all__ = ["REMOVED", "mask_places"]

REMOVED = "(removed)"
# characters a URI keeps as they are when a masked value is written back into it
_URI_SAFE = "!#$&'()*+,/:;=?@[]~-._%"


def mask_places(path: str, writer: Any, masker: Masker, depth: int) -> list[Replacement]:
    """Mask every slot of ``writer`` that holds a finding; the replacements made."""
    from ..readers.pdf_places import places

    out: list[Replacement] = []
    masked_owners: set[int] = set()
    try:
        slots = list(places(writer))
    except InputError as exc:
        raise InputError(f"{path}: {exc}; nothing written") from None
    redraw: list[Any] = []
    for slot in slots:
        try:
            if slot.kind == "appearance":
                findings = masker.find(slot.text)
                if findings or _owned_by(slot.owner, masked_owners):
                    _drop_appearance(writer, slot)
                    out.extend(_removed(findings, slot))
                    if slot.part == "form-field":
                        redraw.append(slot)
                continue
            done = _mask_slot(path, writer, slot, masker, depth)
        except GenlintError:
            raise
        except Exception as exc:  # a damaged object pypdf cannot rewrite: fail closed
            raise InputError(f"{path}: {slot.label} ({slot.part}) cannot be rewritten "
                             f"({type(exc).__name__}); nothing written") from None
        if done:
            masked_owners.add(id(slot.owner))
            out.extend(done)
    for slot in redraw:
        _redraw(writer, slot)
    return out


def _redraw(writer: Any, slot: Any) -> None:
    """A text field's appearance drawn again from its masked value (pypdf's generator), so a
    viewer that ignores ``/NeedAppearances`` still shows the field; where pypdf cannot, the
    field stays without an appearance (the value is never drawn from an old stream)."""
    from ..readers.pdf_places import resolved, string_text

    field = slot.owner
    node, names, value, kind = field, [], None, None
    for _ in range(32):  # the qualified name and the inherited value and type
        if node is None or not hasattr(node, "get"):
            break
        if node.get("/T") is not None:
            names.append(string_text(node.get("/T")) or "")
        value = value if value is not None else string_text(node.get("/V"))
        kind = kind or node.get("/FT")
        node = resolved(node.get("/Parent"))
    if kind != "/Tx" or value is None or slot.page is None or not names:
        return
    try:
        writer.update_page_form_field_values(
            writer.pages[slot.page - 1], {".".join(reversed(names)): value},
            auto_regenerate=None)
    except Exception:  # pypdf could not draw it: no appearance is the safe state
        if "/AP" in field:
            del field["/AP"]


def _mask_slot(path: str, writer: Any, slot: Any, masker: Masker, depth: int) -> list[Replacement]:
    from pypdf.generic import NameObject

    if slot.kind == "file":
        return _mask_attachment(path, writer, slot, masker, depth)
    findings = masker.find(slot.text)
    if not findings:
        return []
    if slot.kind in ("xmp", "stream"):
        del slot.owner[slot.key]
        return _removed(findings, slot)
    if slot.kind == "xmp-stream":  # referred to from an object no list names: emptied
        for key in ("/Filter", "/DecodeParms"):
            if key in slot.owner:
                del slot.owner[key]
        slot.owner._data = b""
        slot.owner.decoded_self = None
        return _removed(findings, slot)
    result = masker.mask(slot.text)
    if slot.kind == "options":
        slot.owner[NameObject(slot.key)] = _masked_array(slot.owner[slot.key].get_object(), masker)
    elif not write_slot(writer, slot, result.text):
        raise InputError(f"{path}: {slot.label} ({slot.part}) holds personal data that mask "
                         "cannot rewrite; nothing written")
    return [_located(r, slot) for r in result.replacements]


def write_slot(writer: Any, slot: Any, text: str) -> bool:
    """Write ``text`` into a slot that holds one string (a URI written percent-encoded where
    needed); False, with nothing written, for a slot of another kind or an indirect string
    ``writer`` does not own. Shared by mask and unmask."""
    from pypdf.generic import NameObject, TextStringObject

    new = TextStringObject(quote(text, safe=_URI_SAFE) if slot.kind == "uri" else text)
    if slot.kind in ("string", "uri"):
        slot.owner[NameObject(slot.key)] = new
    elif slot.kind == "name-key":
        slot.owner[slot.key][slot.index] = new
    elif slot.kind == "array-item":
        slot.owner[slot.index] = new
    elif slot.kind == "indirect-string" and slot.owner is writer:
        writer._objects[slot.index - 1] = new
    else:
        return False
    return True


def _masked_array(array: Any, masker: Masker) -> Any:
    """A choice field's options (strings, or [export, shown] pairs) with each string masked."""
    from pypdf.generic import ArrayObject, TextStringObject

    from ..readers.pdf_places import string_text

    out = ArrayObject()
    for item in array:
        item = item.get_object() if hasattr(item, "get_object") else item
        text = string_text(item)
        if text is not None:
            out.append(TextStringObject(masker.mask(text).text))
        elif isinstance(item, list):
            out.append(_masked_array(item, masker))
        else:
            out.append(item)
    return out


def _located(r: Replacement, slot: Any) -> Replacement:
    r.page = slot.page
    r.location = {"part": slot.part, "field": slot.label}
    return r


def _removed(findings: list[Any], slot: Any) -> list[Replacement]:
    return [
        Replacement(f.rule, f.start, f.end, REMOVED, f.end - f.start, f.line, f.column,
                    slot.page, None, {"part": slot.part, "field": slot.label})
        for f in findings
    ]


def _owned_by(owner: Any, masked: set[int]) -> bool:
    """``owner`` or a field above it (a widget's parent field) had its text masked."""
    node = owner
    for _ in range(32):
        if node is None:
            return False
        if id(node) in masked:
            return True
        parent = node.get("/Parent") if hasattr(node, "get") else None
        node = parent.get_object() if parent is not None else None
    return False


def _drop_appearance(writer: Any, slot: Any) -> None:
    from pypdf.generic import BooleanObject, NameObject

    if slot.key in slot.owner:
        del slot.owner[slot.key]
    acro = writer.root_object.get("/AcroForm")
    if slot.part == "form-field" and acro is not None:
        acro.get_object()[NameObject("/NeedAppearances")] = BooleanObject(True)


def _mask_attachment(path: str, writer: Any, slot: Any, masker: Masker,
                     depth: int) -> list[Replacement]:
    from pypdf.generic import DecodedStreamObject, NameObject, NumberObject

    from ..readers import READERS
    from ..readers.pdf_segments import MAX_DEPTH
    from .files import mask_bytes

    suffix = os.path.splitext(slot.name)[1].lower()
    inner = f"{path}#{slot.label.replace(' ', '-')}{suffix}"
    try:
        if suffix not in READERS:  # check cannot read it, so mask cannot vouch for it
            raise InputError(f"genlint does not read {suffix or 'a file without a suffix'} "
                             "files")
        if suffix == ".pdf" and depth + 1 > MAX_DEPTH:
            raise InputError(f"nests attachments deeper than {MAX_DEPTH} levels")
        masked = mask_bytes(inner, slot.data, masker, depth=depth + 1)
    except InputError as exc:
        raise InputError(f"{path}: {slot.label} cannot be masked ({_short(exc, inner)}); "
                         "nothing written") from None
    if not masked.replacements:
        return []
    old = slot.owner[slot.key].get_object()
    plain = DecodedStreamObject()
    for key, value in old.items():
        if key not in ("/Filter", "/DecodeParms", "/Length", "/Params"):
            plain[NameObject(key)] = value
    plain.set_data(masked.data)
    new = plain.flate_encode()
    params = old.get("/Params")
    if params is not None:
        params = params.get_object()
        for stale in ("/CheckSum", "/ModDate"):
            if stale in params:
                del params[stale]
        params[NameObject("/Size")] = NumberObject(len(masked.data))
        new[NameObject("/Params")] = params
    slot.owner[NameObject(slot.key)] = writer._add_object(new)
    if slot.key == "/F" and "/UF" in slot.owner:  # the same file under its Unicode key
        slot.owner[NameObject("/UF")] = slot.owner[slot.key]
    out: list[Replacement] = []
    for r in masked.replacements:
        fields = dict(r.location or {})
        inner = fields.pop("field", None) or fields.pop("part", None)
        fields.pop("part", None)
        label = f"{slot.label} > {inner}" if inner and inner != "body" else slot.label
        r.location = {**fields, "part": "attachment", "field": label}
        out.append(r)
    return out


def _short(exc: Exception, inner: str) -> str:
    """The inner error without the inner file's made-up path."""
    text = str(exc)
    return text[len(inner) + 2:] if text.startswith(f"{inner}: ") else text
