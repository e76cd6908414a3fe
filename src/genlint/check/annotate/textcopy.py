"""A review copy of a txt, md or json file: the file's text as an HTML page, each finding
highlighted where it is and its note numbered beside it (self-contained: inline CSS, no script,
no network). The page shows the document's own text, as a DOCX copy does; the notes mask
personal values unless the report shows them.

A finding is placed by its ``line``/``column`` in the file (for JSON the place in the file, not
in the decoded string); a span the file writes with escapes is found as written there. One that
cannot be placed is still listed, marked "not placed".
"""

from __future__ import annotations

import json
from html import escape
from pathlib import Path

from .notes import Noted

STYLE = """
body{font:15px/1.6 system-ui,"Noto Sans CJK SC","Microsoft YaHei",sans-serif;margin:0;
 color:#1d1d1f;background:#fafafa}
header{padding:12px 20px;background:#243b53;color:#fff}
main{display:flex;gap:20px;padding:20px;align-items:flex-start}
pre{flex:3;white-space:pre-wrap;word-break:break-word;background:#fff;padding:16px;margin:0;
 border:1px solid #ddd;font:14px/1.7 ui-monospace,"Noto Sans Mono CJK SC",monospace}
mark{background:#ffe066;border-bottom:2px solid #e8590c;padding:0 1px}
mark.warning{background:#d0ebff;border-color:#1c7ed6}
sup{color:#c92a2a;font-weight:600;font-size:11px}
ol{flex:2;margin:0;padding:0 0 0 28px;position:sticky;top:8px;max-height:95vh;overflow:auto}
li{margin:0 0 10px;white-space:pre-wrap;background:#fff;border:1px solid #ddd;padding:6px 8px}
li.unplaced{border-style:dashed}
"""


def annotate_text(path: str, data: bytes, items: list[Noted], lang: str) -> tuple[bytes, int]:
    """The HTML review copy of a text file and how many notes it holds."""
    from ...readers.text import decode_text

    text = decode_text(data, path).text
    spans = [_span(text, item) for item in items]
    title = escape(Path(path).name)
    heading = (
        f"{title}：genlint 发现 {len(items)} 处问题"
        if lang == "zh"
        else f"{title}: {len(items)} finding{'s' if len(items) != 1 else ''} by genlint"
    )
    notes = []
    for n, (item, span) in enumerate(zip(items, spans, strict=True), 1):
        unplaced = " (未定位)" if lang == "zh" else " (not placed)"
        cls = "" if span is not None else ' class="unplaced"'
        notes.append(
            f'<li id="note-{n}"{cls} data-rule="{escape(item.finding.rule)}">'
            f'<a href="#f-{n}">{escape(item.note)}</a>{"" if span else unplaced}</li>'
        )
    body = highlighted(text, [(s, i) for i, s in enumerate(spans, 1) if s is not None], items)
    page = (
        f'<!DOCTYPE html>\n<html lang="{lang}"><head><meta charset="utf-8">'
        f"<title>{heading}</title><style>{STYLE}</style></head><body>"
        f"<header>{heading}</header><main><pre>{body}</pre>"
        f'<ol class="notes">{"".join(notes)}</ol></main></body></html>\n'
    )
    return page.encode("utf-8"), len(items)


def _span(text: str, item: Noted) -> tuple[int, int] | None:
    """Where the finding's text is in the file's text, from its line and column."""
    f = item.finding
    at = 0
    for _ in range(f.line - 1):
        at = text.find("\n", at) + 1
        if at == 0:
            return None
    at += f.column - 1
    if f.text and text.startswith(f.text, at):
        return at, at + len(f.text)
    written = json.dumps(f.text, ensure_ascii=False)[1:-1]
    if f.text and text.startswith(written, at):
        return at, at + len(written)
    return (at, at) if 0 <= at <= len(text) and not f.text else None


def highlighted(text: str, spans: list[tuple[tuple[int, int], int]], items: list[Noted]) -> str:
    """``text`` as HTML with each ``((start, end), number)`` span in a ``<mark>`` (overlapping
    spans split into pieces, each marked with every finding over it) and the number after it."""
    events: dict[int, list[tuple[int, int]]] = {}
    for (start, end), n in spans:
        events.setdefault(start, []).append((0, n))
        events.setdefault(end, []).append((1, n))
    out: list[str] = []
    active: list[int] = []
    pos = 0
    for at in sorted(events):
        if at > pos:
            piece = escape(text[pos:at])
            if active:
                sev = str(items[active[0] - 1].finding.severity)
                ids = " ".join(f"f{n}" for n in active)
                out.append(f'<mark class="{sev}" data-notes="{ids}">{piece}</mark>')
            else:
                out.append(piece)
            pos = at
        for kind, n in sorted(events[at]):
            if kind == 1:
                active.remove(n)
                out.append(f'<sup id="f-{n}"><a href="#note-{n}">{n}</a></sup>')
        for kind, n in sorted(events[at]):
            if kind == 0:
                active.append(n)
                if not any(e == (1, n) for e in events[at]):
                    continue
                # a zero-width span (a field with nothing in it): the number alone
                active.remove(n)
                out.append(f'<sup id="f-{n}"><a href="#note-{n}">{n}</a></sup>')
    out.append(escape(text[pos:]))
    return "".join(out)
