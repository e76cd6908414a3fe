"""Every other string of a PDF: the net under the named places of :mod:`.pdf_places`.

A string object that no named place covers (a document-level script, a named destination's
title, a private dictionary a generator left behind) is still read for the ``sensitive`` pack
(``part`` ``object``, ``field`` ``object 12 /JS``) and masked in place by ``genlint mask``, so
``check`` and ``mask`` see the same strings however a file is built.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

__all__ = ["numbered", "other_strings", "taken_by"]

# objects visited at most, and nodes inside one object (a crafted file could fan out)
_MAX_OBJECTS = 200_000
MAX_NODES = 10_000


def taken_by(slot: Any) -> list[tuple[int, Any]]:
    """The (container, key or index) pairs whose strings ``slot`` reads."""
    from .pdf_places import resolved

    if slot.kind in ("string", "uri"):
        # an indirect string (``/Author 12 0 R``) is this slot's too, not an object of its own
        return [(id(slot.owner), slot.key), (id(resolved(slot.owner.get(slot.key))), None)]
    if slot.kind == "name-key":
        return [(id(resolved(slot.owner.get(slot.key))), slot.index)]
    if slot.kind == "options":
        out: list[tuple[int, Any]] = []
        stack = [resolved(slot.owner.get(slot.key))]
        while stack:
            array = stack.pop()
            if isinstance(array, list):
                for i, item in enumerate(array):
                    out.append((id(array), i))
                    stack.append(resolved(item))
        return out
    return []


def numbered(doc: Any) -> Iterator[tuple[int, Any]]:
    """Every indirect object of a pypdf reader or writer with its number (bounded)."""
    from pypdf import PdfWriter

    if isinstance(doc, PdfWriter):
        for index, obj in enumerate(doc._objects[:_MAX_OBJECTS]):
            if obj is not None:
                yield index + 1, obj
        return
    numbers = sorted({num for gens in doc.xref.values() for num in gens})
    for num in numbers[:_MAX_OBJECTS]:
        try:
            obj = doc.get_object(num)
        except Exception:  # a broken object: its neighbours are still read
            continue
        if obj is not None:
            yield num, obj


def other_strings(doc: Any, taken: set[tuple[int, Any]]) -> Iterator[Any]:
    """A slot for each string inside an indirect object's dictionaries and arrays that
    ``taken`` does not hold (``kind`` ``string`` in a dictionary, ``array-item`` in an
    array), and for each string that is an indirect object itself (``indirect-string``:
    object number ``index`` of the document ``owner``)."""
    from pypdf.generic import ArrayObject, DictionaryObject

    from .pdf_places import Slot, string_text

    for num, obj in numbered(doc):
        text = string_text(obj) if not isinstance(obj, list | dict) else None
        if text is not None:  # a string that is an object of its own
            if text.strip() and (id(obj), None) not in taken:
                yield Slot("object", f"object {num}", "indirect-string", doc, "", text,
                           index=num)
            continue
        stack: list[tuple[Any, str]] = [(obj, "")]
        visited = 0
        while stack and visited < MAX_NODES:
            node, where = stack.pop()
            visited += 1
            if isinstance(node, DictionaryObject):
                for key, value in list(node.items()):
                    if hasattr(value, "idnum"):
                        continue  # an indirect object is visited on its own
                    text = string_text(value) if not isinstance(value, list | dict) else None
                    if text is not None:
                        if text.strip() and (id(node), key) not in taken:
                            yield Slot("object", f"object {num} {key}", "string", node,
                                       str(key), text)
                    elif isinstance(value, DictionaryObject | ArrayObject):
                        stack.append((value, str(key)))
            elif isinstance(node, ArrayObject):
                for index, value in enumerate(node):
                    if hasattr(value, "idnum"):
                        continue
                    text = string_text(value) if not isinstance(value, list | dict) else None
                    if text is not None:
                        if text.strip() and (id(node), index) not in taken:
                            yield Slot("object", f"object {num} {where}[{index}]".strip(),
                                       "array-item", node, where, text, index=index)
                    elif isinstance(value, DictionaryObject | ArrayObject):
                        stack.append((value, where))
