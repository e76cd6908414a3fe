"""``genlint unmask`` for DOCX: tokens back to their values in every place mask wrote them.

The visible text (a value that was split over runs with different formatting gets each run's
part back, from the layout the vault recorded), the hidden places (properties, link targets,
field codes…, through the reader's place list), then any other copy mask swept (a fallback
copy of a text box). A vault token still in the package afterwards (in a place that cannot be
rewritten) is reported as not placed: the caller says which, and exits 1.
"""

from __future__ import annotations

from typing import Any

from .docx import DocxPackage
from .docx import _set as _set_text  # a w:t's text, spaces kept as mask writes them
from .docx_copies import _set  # one way to write a string back where it was read
from .unmask import Unmasked, check_known
from .vault import TOKEN, Vault

__all__ = ["unmask_package"]

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


def unmask_package(path: str, data: bytes, vault: Vault) -> Unmasked:
    from .docx_copies import strings, xml_entries

    pkg = DocxPackage(path, data)
    shown = list(TOKEN.finditer(pkg.text))
    hidden = [(place, list(TOKEN.finditer(place.text))) for place in pkg.places
              if "<" in place.text]
    unknown = [m.group() for m in [*shown, *(m for _, ms in hidden for m in ms)]
               if m.group() not in vault.tokens and m.group() not in vault.literals]
    check_known(path, unknown, vault)
    count = 0
    for m in reversed(shown):
        value = vault.tokens.get(m.group())
        if value is not None:
            _restore_runs(pkg, m.start(), m.end(), value, vault.runs.get(m.group(), []))
            count += 1
    for place, matches in hidden:
        if not place.writable:
            continue  # reported below as not placed
        for m in reversed(matches):
            value = vault.tokens.get(m.group())
            if value is not None:
                pkg.restore_hidden(place, m.start(), m.end(), value, vault.runs.get(m.group(), []))
                count += 1
    for name in list(xml_entries(pkg.parts)):
        root = pkg.parts.root(name)
        if root is None or (b"&lt;" not in pkg.parts.raw(name) and name not in pkg.parts.changed):
            continue
        for el, attr, text in list(strings(root)):
            new, n, _unknown = vault.restore(text)
            if n:
                _set(el, attr, new)
                count += n
                pkg.parts.mark(name)
    unplaced = _left(pkg, vault)
    return Unmasked(pkg.package() if count else data, count, unplaced)


def _restore_runs(pkg: DocxPackage, start: int, end: int, value: str,
                  layouts: list[list[int]]) -> None:
    """Write ``value`` over the token at ``[start, end)``; when the vault knows how the value
    was split over runs and the emptied runs follow the token, each run gets its part."""
    pieces = pkg.pieces(start, end)
    texts = [el for el, *_ in pieces if el.tag == _W + "t"]
    if len(texts) == 1:
        _el, a, b, _at = next(p for p in pieces if p[0] is texts[0])
        following = _following_texts(pkg, start, texts[0])
        for layout in layouts:
            if sum(layout) != len(value) or len(following) < len(layout) - 1:
                continue
            if b != len(texts[0].text or "") or any(t.text for t in following[: len(layout) - 2]):
                continue
            parts, pos = [], 0
            for n in layout:
                parts.append(value[pos : pos + n])
                pos += n
            old = texts[0].text or ""
            _set_text(texts[0], old[:a] + parts[0])
            for t, part in zip(following[: len(layout) - 2], parts[1:-1], strict=True):
                _set_text(t, part)
            last = following[len(layout) - 2]
            _set_text(last, parts[-1] + (last.text or ""))
            pkg.mark_element(texts[0])
            return
    pkg.write(start, end, value)


def _following_texts(pkg: DocxPackage, start: int, el: Any) -> list[Any]:
    """The ``w:t`` elements after ``el`` in its line, in reading order."""
    import bisect

    origins = pkg.walked.layout.origins or []
    line = max(0, bisect.bisect_right(pkg.starts, start) - 1)
    row = [e for e, _n in origins[line] if e.tag == _W + "t"] if line < len(origins) else []
    return row[row.index(el) + 1 :] if el in row else []


def _left(pkg: DocxPackage, vault: Vault) -> list[str]:
    """Vault tokens the package still holds after restoring (sorted, each once)."""
    from urllib.parse import unquote

    from .docx_copies import strings, xml_entries

    left: set[str] = set()
    for name in xml_entries(pkg.parts):
        raw = pkg.parts.raw(name)
        if b"&lt;" not in raw and b"%3C" not in raw:
            continue
        root = pkg.parts.root(name)
        if root is None:
            continue
        for _el, _attr, text in strings(root):
            for candidate in (text, unquote(text)) if "%" in text else (text,):
                left.update(m.group() for m in TOKEN.finditer(candidate)
                            if m.group() in vault.tokens)
    for place in pkg.places:
        if not place.writable:
            left.update(m.group() for m in TOKEN.finditer(place.text) if m.group() in vault.tokens)
    return sorted(left)
