"""A DOCX review copy: one Word comment per finding on its exact text.

The body is walked again with the reader's own walker (``readers.docx_walk``, tracking where
each character came from), on python-docx's tree, so a finding's offsets name the same ``w:t``
elements the check read. Runs are split at the span's ends (each piece keeps the run's
properties, so formatting is unchanged) and a comment marks the range from the first to the
last run: python-docx ≥ 1.2 provides the comments part and the range markers, :class:`_Comments`
writes the comments themselves in linear time. Findings outside the body (headers, notes, comments,
text boxes) or whose text is no longer where the check read it go into one comment at the start
of the document that lists them.
"""

from __future__ import annotations

import bisect
import copy
import io
from itertools import pairwise
from typing import Any

from ...errors import InputError
from .notes import AUTHOR, INITIALS, Noted, hidden_summary

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"


def annotate_docx(path: str, data: bytes, items: list[Noted], lang: str) -> tuple[bytes, int]:
    """The review copy of ``data`` and how many notes it holds."""
    import docx

    from ...readers.docx_walk import Layout, Story, read_blocks

    try:
        document = docx.Document(io.BytesIO(data))
    except Exception as exc:  # python-docx raises many types for a broken package
        raise InputError(f"{path}: cannot open for annotating ({type(exc).__name__})") from None
    body = document.element.body
    layout = Layout.tracked()
    read_blocks(body, Story("body"), layout, None)
    pieces = _pieces(layout)
    text = "\n".join(layout.lines)

    anchored: list[tuple[Noted, int, int]] = []
    hidden: list[Noted] = []
    for item in items:
        f = item.finding
        part = (f.location or {}).get("part", "body")
        if part == "body" and f.end > f.start and text[f.start : f.end] == f.text:
            anchored.append((item, f.start, f.end))
        elif part == "body" and f.rule.startswith("document/") and f.line <= len(layout.lines):
            # a zero-width document finding: the whole paragraph it points at
            start = sum(len(line) + 1 for line in layout.lines[: f.line - 1])
            end = start + len(layout.lines[f.line - 1])
            anchored.append((item, start, end) if end > start else (item, -1, -1))
        else:
            hidden.append(item)
    hidden += [item for item, start, _ in anchored if start < 0]
    anchored = [a for a in anchored if a[1] >= 0]

    pieces = _split(pieces, {b for _, start, end in anchored for b in (start, end)})
    comments = _Comments(document)
    notes = 0
    starts = [s for _, s, _ in pieces]  # sorted: the walker reads in order
    for item, start, end in anchored:
        runs = []
        at = max(0, bisect.bisect_right(starts, start) - 1)
        while at < len(pieces) and pieces[at][1] < end:
            el, s, n = pieces[at]
            r = el.getparent()
            if s + n > start and r is not None and r.tag == _W + "r":
                runs.append(r)
            at += 1
        if not runs:
            hidden.append(item)
            continue
        comments.add(runs[0], runs[-1], item.note)
        notes += 1
    if hidden:
        first = _first_run(document)
        comments.add(first, first, hidden_summary(hidden, lang))
        notes += len(hidden)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue(), notes


class _Comments:
    """Adds Word comments in linear time. ``Document.add_comment`` (python-docx 1.2) finds each
    new id by reading every existing one, so 10,000 comments took minutes; here the next id is
    counted once and the same XML is written: a ``w:comment`` in the comments part (author,
    initials, date; one paragraph per line of the note, the first with the annotation mark)
    and ``commentRangeStart`` / ``commentRangeEnd`` + ``commentReference`` around the runs,
    placed by python-docx's own run methods."""

    def __init__(self, document: Any) -> None:
        import datetime as dt

        # python-docx creates the comments part (with its relationship) if the file has none
        self.part = document.comments._comments_elm
        used = [int(x) for x in self.part.xpath("./w:comment/@w:id")]
        self.next_id = max(used, default=-1) + 1
        self.date = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")

    def add(self, first: Any, last: Any, note: str) -> None:
        from xml.sax.saxutils import escape, quoteattr

        from docx.oxml import parse_xml
        from docx.oxml.ns import nsdecls

        cid = self.next_id
        self.next_id += 1
        paragraphs = []
        for index, line in enumerate(note.split("\n")):
            mark = (
                '<w:r><w:rPr><w:rStyle w:val="CommentReference"/></w:rPr><w:annotationRef/></w:r>'
                if index == 0
                else ""
            )
            paragraphs.append(
                '<w:p><w:pPr><w:pStyle w:val="CommentText"/></w:pPr>'
                f'{mark}<w:r><w:t xml:space="preserve">{escape(line)}</w:t></w:r></w:p>'
            )
        self.part.append(
            parse_xml(
                f'<w:comment {nsdecls("w")} w:id="{cid}" w:author={quoteattr(AUTHOR)} '
                f'w:initials={quoteattr(INITIALS)} w:date="{self.date}">'
                f"{''.join(paragraphs)}</w:comment>"
            )
        )
        first.insert_comment_range_start_above(cid)
        last.insert_comment_range_end_and_reference_below(cid)


def _pieces(layout: Any) -> list[tuple[Any, int, int]]:
    """(element, offset in the body text, length) of every piece of text the walker read."""
    out: list[tuple[Any, int, int]] = []
    pos = 0
    for line, origins in zip(layout.lines, layout.origins or [], strict=True):
        at = pos
        for el, length in origins:
            out.append((el, at, length))
            at += length
        pos += len(line) + 1
    return out


def _split(pieces: list[tuple[Any, int, int]], bounds: set[int]) -> list[tuple[Any, int, int]]:
    """The pieces with every ``w:t`` cut at each bound inside it: its run becomes one run per
    part, each with a copy of the run's properties (``w:rPr``), so a range can start and end
    exactly at the span and nothing looks different."""
    out: list[tuple[Any, int, int]] = []
    ordered = sorted(bounds)
    for el, start, length in pieces:
        first = bisect.bisect_right(ordered, start)
        last = bisect.bisect_left(ordered, start + length)
        cuts = [b - start for b in ordered[first:last]]
        run = el.getparent()
        if not cuts or el.tag != _W + "t" or run is None or run.tag != _W + "r":
            out.append((el, start, length))
            continue
        out.extend(_split_run(run, el, cuts, start))
    return out


def _split_run(run: Any, t: Any, cuts: list[int], start: int) -> list[tuple[Any, int, int]]:
    text = t.text or ""
    edges = [0, *cuts, len(text)]
    parts = [text[a:b] for a, b in pairwise(edges)]
    children = list(run)
    after = children[children.index(t) + 1 :]  # what follows the text moves to the last run
    _set_text(t, parts[0])
    out = [(t, start, len(parts[0]))]
    previous = run
    at = start + len(parts[0])
    for part in parts[1:]:
        new_run = copy.deepcopy(run)
        for child in list(new_run):
            if child.tag != _W + "rPr":
                new_run.remove(child)
        new_t = copy.deepcopy(t)
        _set_text(new_t, part)
        new_run.append(new_t)
        previous.addnext(new_run)
        previous = new_run
        # the element as it sits in the tree (python-docx's class for it)
        out.append((new_run[len(new_run) - 1], at, len(part)))
        at += len(part)
    for child in after:
        previous.append(child)
    return out


def _set_text(t: Any, text: str) -> None:
    t.text = text
    if text != text.strip():
        t.set(_XML_SPACE, "preserve")


def _first_run(document: Any) -> Any:
    """The first run of the body holding text, else a new empty run in a first paragraph."""
    from docx.oxml import OxmlElement

    body = document.element.body
    for r in body.iter(_W + "r"):
        if r.find(_W + "t") is not None:
            return r
    paragraph = body.find(_W + "p")
    if paragraph is None:
        paragraph = OxmlElement("w:p")
        body.insert(0, paragraph)
    run = OxmlElement("w:r")
    paragraph.append(run)
    return run
