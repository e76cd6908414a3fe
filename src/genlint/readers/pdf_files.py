"""Attached files of a PDF (the ``/EmbeddedFiles`` name tree and file specifications of
file-attachment annotations): the ``attachment`` places of :mod:`.pdf_places`, each file's
bytes read once, bounded in size."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .pdf_places import Slot, bounded, resolved, string_text

__all__ = ["MAX_ATTACHMENT_BYTES", "attachments", "file_spec"]

# an attachment larger than this (declared or decompressed) is not read: bad input, never a
# silent pass
MAX_ATTACHMENT_BYTES = 32 * 1024 * 1024


def attachments(doc: Any) -> Iterator[Slot]:
    names = resolved(doc.root_object.get("/Names"))
    tree = resolved(names.get("/EmbeddedFiles")) if names is not None and hasattr(
        names, "get") else None
    if tree is None:
        return
    count = 0
    seen: set[int] = set()
    stack = [tree]
    while stack:
        node = stack.pop()
        if node is None or not hasattr(node, "get") or id(node) in seen:
            continue
        seen.add(id(node))
        entries = list(resolved(node.get("/Names")) or [])
        for i in range(1, len(entries), 2):
            spec = resolved(entries[i])
            if spec is None or not hasattr(spec, "get"):
                continue
            count = bounded(count + 1, "attachments")
            name = string_text(entries[i - 1]) or ""
            label = f"attachment {count}"
            if name:
                yield Slot("attachment", f"{label} key", "name-key", node, "/Names", name,
                           index=i - 1)
            yield from file_spec(spec, label)
        for kid in reversed(list(resolved(node.get("/Kids")) or [])):
            stack.append(resolved(kid))


def file_spec(spec: Any, label: str) -> Iterator[Slot]:
    name = ""
    for key in ("/UF", "/F", "/Desc"):
        text = string_text(spec.get(key))
        if text:
            if key != "/Desc":
                name = name or text
            yield Slot("attachment", f"{label} {'description' if key == '/Desc' else 'name'}",
                       "string", spec, key, text)
    ef = resolved(spec.get("/EF"))
    if ef is None or not hasattr(ef, "get"):
        return
    for key in ("/F", "/UF"):
        stream = resolved(ef.get(key))
        if stream is None or not hasattr(stream, "get_data"):
            continue
        yield Slot("attachment", label, "file", ef, key, name=name or "attachment.bin",
                   data=_file_bytes(stream, label))
        break  # /UF, when both are present, is the same stream


def _file_bytes(stream: Any, label: str) -> bytes:
    from ..errors import InputError

    params = resolved(stream.get("/Params"))
    size = resolved(params.get("/Size")) if params is not None and hasattr(params, "get") else None
    if isinstance(size, int) and size > MAX_ATTACHMENT_BYTES:
        raise InputError(f"{label} is larger than {MAX_ATTACHMENT_BYTES // 2**20} MB; "
                         "genlint does not read it")
    try:
        data = bytes(stream.get_data())
    except Exception as exc:
        raise InputError(f"{label} cannot be decompressed ({type(exc).__name__})") from None
    if len(data) > MAX_ATTACHMENT_BYTES:
        raise InputError(f"{label} is larger than {MAX_ATTACHMENT_BYTES // 2**20} MB; "
                         "genlint does not read it")
    return data
