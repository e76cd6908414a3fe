"""AcroForm fields and XFA forms of a PDF: the ``form-field`` places of
:mod:`.pdf_places` (values, defaults, tooltips, options, captions, the appearance stream that
draws the value, actions; an XFA form's XML)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .pdf_places import (
    Slot,
    action_slots,
    appearance_slots,
    bounded,
    resolved,
    stream_bytes,
    string_text,
    text_slot,
    xml_text,
)

__all__ = ["field_slots", "form_fields"]

_FIELD_KEYS = ("/V", "/DV", "/TU", "/TM")


def form_fields(doc: Any, pages: dict[int, int], seen: set[int]) -> Iterator[Slot]:
    """The AcroForm field tree; ``seen`` gets every field and widget visited (a widget that
    no field lists is read with the page's annotations)."""
    acro = resolved(doc.root_object.get("/AcroForm"))
    if acro is None or not hasattr(acro, "get"):
        return
    yield from _xfa(acro)
    fields = resolved(acro.get("/Fields")) or []
    stack = [resolved(f) for f in reversed(list(fields))]
    count = 0
    while stack:
        field = stack.pop()
        if field is None or not hasattr(field, "get") or id(field) in seen:
            continue
        seen.add(id(field))
        count = bounded(count + 1, "form fields")
        number = None
        page_ref = field.get("/P")
        if page_ref is not None and hasattr(page_ref, "idnum"):
            number = pages.get(page_ref.idnum)
        yield from field_slots(doc, field, f"form field {count}", number)
        for kid in reversed(list(resolved(field.get("/Kids")) or [])):
            stack.append(resolved(kid))


def _xfa(acro: Any) -> Iterator[Slot]:
    """An XFA form's XML (its datasets hold the filled-in values): read as XML text; the
    masker removes it (viewers then use the AcroForm fields, which are masked)."""
    xfa = resolved(acro.get("/XFA"))
    if xfa is None:
        return
    streams = [xfa] if hasattr(xfa, "get_data") else [
        resolved(item) for item in (xfa if isinstance(xfa, list) else [])]
    texts = [xml_text(stream_bytes(st)) for st in streams if hasattr(st, "get_data")]
    yield Slot("form-field", "XFA form data", "xmp", acro, "/XFA", "\n".join(texts))


def field_slots(doc: Any, field: Any, label: str, number: int | None) -> Iterator[Slot]:
    for key in _FIELD_KEYS:
        value = resolved(field.get(key))
        text = string_text(value)
        if text:
            yield Slot("form-field", f"{label} {key}", "string", field, key, text, number)
        elif value is not None and hasattr(value, "__iter__") and not hasattr(value, "get"):
            items = [t for t in (string_text(v) for v in value) if t]
            if items:
                yield Slot("form-field", f"{label} {key}", "options", field, key,
                           "\n".join(items), number)
    yield from text_slot("form-field", f"{label} /RV", field, "/RV", number)  # rich value
    opts = resolved(field.get("/Opt"))
    if opts is not None and hasattr(opts, "__iter__"):
        items = []
        for opt in opts:
            opt = resolved(opt)
            if hasattr(opt, "__iter__") and not isinstance(opt, str):
                items.extend(t for t in (string_text(v) for v in opt) if t)
            else:
                t = string_text(opt)
                if t:
                    items.append(t)
        if items:
            yield Slot("form-field", f"{label} /Opt", "options", field, "/Opt",
                       "\n".join(items), number)
    mk = resolved(field.get("/MK"))
    if mk is not None and hasattr(mk, "get"):
        for key in ("/CA", "/RC", "/AC"):
            text = string_text(mk.get(key))
            if text:
                yield Slot("form-field", f"{label} caption {key}", "string", mk, key, text,
                           number)
    page = doc.pages[number - 1] if number else None
    yield from appearance_slots("form-field", label, field, page, number)
    yield from action_slots("form-field", label, field, number)
