"""Every other string of a PDF: the net under the named places of :mod:`.pdf_places`.

A string object that no named place covers (a document-level script, a named destination's
title, a private dictionary a generator left behind) is still read for the ``sensitive`` pack
(``part`` ``object``, ``field`` ``object 12 /JS``) and masked in place by ``genlint mask``, so
``check`` and ``mask`` see the same strings however a file is built.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..errors import InputError

__all__ = ["numbered", "other_strings", "taken_by"]

# Objects read at most, and dictionaries and arrays walked over the whole file: a crafted file
# could fan out without end. Past either, the file is refused, not read in part (a string left
# unread would pass as clean); 2,000,000 nodes take about two seconds, and a 1,000-page tagged
# report holds about a quarter of that.
MAX_OBJECTS = 200_000
MAX_WALKED = 2_000_000


def _within_objects(count: int) -> None:
    if count > MAX_OBJECTS:
        raise InputError(f"more than {MAX_OBJECTS:,} objects; genlint does not read the file")


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
        _within_objects(len(doc._objects))
        for index, obj in enumerate(doc._objects):
            if obj is not None:
                yield index + 1, obj
        return
    numbers = sorted({num for gens in doc.xref.values() for num in gens})
    _within_objects(len(numbers))
    for num in numbers:
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

    walked = 0
    for num, obj in numbered(doc):
        text = string_text(obj) if not isinstance(obj, list | dict) else None
        if text is not None:  # a string that is an object of its own
            if text.strip() and (id(obj), None) not in taken:
                yield Slot("object", f"object {num}", "indirect-string", doc, "", text,
                           index=num)
            continue
        stack: list[tuple[Any, str]] = [(obj, "")]
        while stack:
            node, where = stack.pop()
            walked += 1
            if walked > MAX_WALKED:
                raise InputError(
                    f"more than {MAX_WALKED:,} dictionaries and arrays; genlint does not read "
                    "the file"
                )
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
