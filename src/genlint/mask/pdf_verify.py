"""The last net under ``genlint mask`` on PDF: every string object in the written file, wherever
it sits (a structure tree's ``/ActualText``, a JavaScript action, a place no list names), is
checked for personal data. One that holds a finding means the file is not written."""

from __future__ import annotations

import io
from typing import Any

from .core import Masker

__all__ = ["leftover_strings"]


def leftover_strings(data: bytes, masker: Masker) -> list[str]:
    """Where a string object of ``data`` still holds a finding (``object 12 /ActualText``),
    without the value."""
    from pypdf import PdfReader
    from pypdf.generic import ArrayObject, DictionaryObject

    from ..readers.pdf_objects import numbered
    from ..readers.pdf_places import string_text

    reader = PdfReader(io.BytesIO(data), strict=False)
    out: list[str] = []
    for num, obj in numbered(reader):  # bounded as the reader's net is
        stack: list[tuple[Any, str]] = [(obj, "")]
        while stack:
            node, key = stack.pop()
            if isinstance(node, DictionaryObject):
                for k, v in node.items():
                    if not hasattr(v, "idnum"):  # an indirect object is visited on its own
                        stack.append((v, str(k)))
            elif isinstance(node, ArrayObject):
                stack.extend((v, key) for v in node if not hasattr(v, "idnum"))
            else:
                text = string_text(node) if not hasattr(node, "idnum") else None
                if text and masker.find(text):
                    out.append(f"object {num} {key}".rstrip())
    return out
