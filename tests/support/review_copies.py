"""Reading review copies back (tests of ``genlint check --annotate``): the text each Word
comment is anchored on, and the text under each PDF highlight."""

from __future__ import annotations

import io
import re
from typing import Any

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


def docx_comments(data: bytes) -> list[tuple[str, str, str]]:
    """(author, comment text, anchored text) for every comment of a DOCX, in id order, read with
    python-docx (the comments) and lxml (the ranges in the body)."""
    import docx

    document = docx.Document(io.BytesIO(data))
    anchored: dict[str, list[str]] = {}
    active: list[str] = []
    for el in document.element.body.iter():
        if el.tag == W + "commentRangeStart":
            active.append(el.get(W + "id"))
            anchored.setdefault(el.get(W + "id"), [])
        elif el.tag == W + "commentRangeEnd":
            if el.get(W + "id") in active:
                active.remove(el.get(W + "id"))
        elif el.tag == W + "t" and el.text:
            for cid in active:
                anchored[cid].append(el.text)
        elif el.tag == W + "p" and active:
            for cid in active:
                anchored[cid].append("\n")
    return [
        (c.author, c.text, "".join(anchored.get(str(c.comment_id), [])).strip("\n"))
        for c in sorted(document.comments, key=lambda c: c.comment_id)
    ]


def docx_text_and_format(data: bytes) -> list[tuple[str, str]]:
    """Every character of the body with the run properties it is drawn with (the review copy
    must look like the input)."""
    import docx
    from lxml import etree

    document = docx.Document(io.BytesIO(data))
    out: list[tuple[str, str]] = []
    for r in document.element.body.iter(W + "r"):
        props = r.find(W + "rPr")
        key = etree.tostring(props).decode() if props is not None else ""
        for t in r.iter(W + "t"):
            out.extend((ch, key) for ch in t.text or "")
    return out


def pdf_highlights(data: bytes) -> list[tuple[int, str, str, Any]]:
    """(page, text under the highlight, note, popup) of every highlight of a PDF."""
    import pypdfium2 as pdfium
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(data))
    pdf = pdfium.PdfDocument(data)
    out = []
    try:
        for index, page in enumerate(reader.pages):
            textpage = pdf[index].get_textpage()
            for ref in page.get("/Annots", []):
                annot = ref.get_object()
                if annot["/Subtype"] != "/Highlight":
                    continue
                x0, y0, x1, y1 = (float(v) for v in annot["/Rect"])
                under = textpage.get_text_bounded(x0, y0, x1, y1)
                out.append((index + 1, under, str(annot["/Contents"]), annot.get("/Popup")))
    finally:
        pdf.close()
    return out


def pdf_highlight_rects(data: bytes) -> dict[str, Any]:
    """``top``: each page's crop box top; ``marks``: (page, rule, rect) of every highlight."""
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(data))
    marks = []
    for index, page in enumerate(reader.pages):
        for ref in page.get("/Annots", []):
            annot = ref.get_object()
            if annot["/Subtype"] == "/Highlight":
                rule = re.search(r"\[([a-z]+/[a-z-]+)\]", str(annot["/Contents"]))
                rect = tuple(float(v) for v in annot["/Rect"])
                marks.append((index + 1, rule.group(1) if rule else "", rect))
    return {"top": [float(p.cropbox.top) for p in reader.pages], "marks": marks}


def pdf_notes(data: bytes) -> list[str]:
    """The text of every sticky note (``/Text`` annotation) of a PDF."""
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(data))
    return [
        str(ref.get_object()["/Contents"])
        for page in reader.pages
        for ref in page.get("/Annots", [])
        if ref.get_object()["/Subtype"] == "/Text"
    ]


def assert_every_finding_noted(report: Any, out_dir: Any) -> int:
    """Every finding of ``report`` has its note at its place in the review copy under
    ``out_dir`` (``annotate_report`` having written them): a DOCX comment anchored on the
    finding's text or listed in the note at the start, a PDF highlight over its text on its page
    or listed in the sticky note, a mark around its text in an HTML copy. The notes checked."""
    import html
    import os
    from pathlib import Path

    from genlint.check.annotate import copy_name
    from genlint.check.reporters._where import where

    readable = [f for f in report.files if f.error is None]
    root = Path(os.path.commonpath([os.path.dirname(os.path.abspath(f.path)) for f in readable]))
    checked = 0
    for file in readable:
        copy = Path(out_dir) / copy_name(file.path, root)
        data = copy.read_bytes()
        kind = Path(file.path).suffix.lower()
        if kind == ".docx":
            comments = docx_comments(data)
            start = "\n".join(t for _, t, _ in comments if t.startswith("genlint"))
            for f in file.findings:
                on_text = any(
                    same_text(on, f.text) and f"[{f.rule}]" in t.splitlines()[0]
                    for _, t, on in comments
                )
                on_paragraph = f.rule.startswith("document/") and any(
                    f"[{f.rule}]" in t for _, t, _ in comments
                )
                listed = f"{where(f)}: " in start and f"[{f.rule}]" in start
                assert on_text or on_paragraph or listed, (file.path, f)
                checked += 1
        elif kind == ".pdf":
            marks = pdf_highlights(data)
            sticky = "\n".join(pdf_notes(data))
            rects = pdf_highlight_rects(data)
            for f in file.findings:
                needle = "".join(f.text.split())
                if (f.location or {}).get("bbox") is not None:  # a scan: inside the OCR line
                    x0, y0, x1, y1 = f.location["bbox"]
                    top = rects["top"][f.page - 1]
                    assert any(
                        page == f.page
                        and rule == f.rule
                        and x0 - 0.5 <= a <= c <= x1 + 0.5
                        and abs(b - (top - y1)) < 0.5
                        and abs(d - (top - y0)) < 0.5
                        for page, rule, (a, b, c, d) in rects["marks"]
                    ), (file.path, f)
                    checked += 1
                    continue
                highlighted = any(
                    page == f.page and needle in "".join(under.split()) and f"[{f.rule}]" in note
                    for page, under, note, _ in marks
                )
                assert highlighted or f"[{f.rule}]" in sticky, (file.path, f)
                checked += 1
        else:
            page = data.decode("utf-8")
            for n, f in enumerate(file.findings, 1):
                marked = re.search(rf'data-notes="[^"]*\bf{n}\b[^"]*">([^<]*)</mark>', page)
                assert marked is not None, (file.path, f)
                shown = html.unescape(
                    "".join(
                        m.group(1)
                        for m in re.finditer(
                            rf'data-notes="[^"]*\bf{n}\b[^"]*">([^<]*)</mark>', page
                        )
                    )
                )
                assert shown in (f.text, json_written(f.text)), (file.path, f, shown)
                assert f'id="note-{n}"' in page
                checked += 1
    return checked


def same_text(anchored: str, found: str) -> bool:
    """Whether a comment's range holds the finding's text: the reader reads underlined blanks
    as ``_`` (a line to write on), the document holds the blanks themselves."""
    if anchored == found:
        return True
    return len(anchored) == len(found) and all(
        a == b or (b == "_" and a.isspace()) for a, b in zip(anchored, found, strict=True)
    )


def json_written(text: str) -> str:
    import json

    return json.dumps(text, ensure_ascii=False)[1:-1]
