"""The text a person sees in one WordprocessingML part, with where each line sits.

python-docx's object model reaches body paragraphs and tables, but not text boxes, content
controls inside runs, or tracked changes; so the reader walks the part's XML (lxml) itself,
the way Word lays it out (docs/commands/check.md "What the readers see"):

* every paragraph is one line; a table cell's paragraphs are lines of that cell;
* text in tracked insertions (``w:ins``, ``w:moveTo``) is read, text in tracked deletions
  (``w:del``, ``w:moveFrom``, ``w:delText``) and field codes (``w:instrText``) is not;
* content controls (``w:sdt``), hyperlinks, smart tags and simple fields are read through;
* a text box is read once (the DrawingML choice of ``mc:AlternateContent``, never its VML
  fallback copy), as lines of the ``textbox`` part after the paragraph that anchors it;
* a run of spaces or tabs that is underlined reads as that many underscores: it is a
  fill-in blank drawn in Word (``合同金额为人民币␣␣␣␣元``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
MC = "{http://schemas.openxmlformats.org/markup-compatibility/2006}"

_P, _R, _T, _TBL, _TR, _TC = (W + n for n in ("p", "r", "t", "tbl", "tr", "tc"))
_TXBX = W + "txbxContent"
_ALTERNATE, _CHOICE, _FALLBACK = MC + "AlternateContent", MC + "Choice", MC + "Fallback"
# never read: what was deleted, field instructions, properties
_SKIPPED = frozenset(
    W + n
    for n in ("del", "moveFrom", "delText", "delInstrText", "instrText", "pPr", "rPr", "tblPr",
              "tblGrid", "trPr", "tcPr", "sectPr", "bookmarkStart", "bookmarkEnd", "proofErr")
)
_RUN_TEXT = {W + "tab": "\t", W + "br": "\n", W + "cr": "\n", W + "noBreakHyphen": "-"}
# Word's Revisions: content changes and property changes alike
REVISION_TAGS = frozenset(
    W + n
    for n in ("ins", "del", "moveFrom", "moveTo", "rPrChange", "pPrChange", "sectPrChange",
              "tblPrChange", "trPrChange", "tcPrChange", "tblGridChange", "numberingChange",
              "cellIns", "cellDel", "cellMerge")
)
_COMMENT_ANCHORS = frozenset((W + "commentReference", W + "commentRangeStart"))
_BLANK_CHARS = frozenset(" \t\u3000\u00a0")
_NO_UNDERLINE = frozenset(("none", "0", "false"))


@dataclass
class Story:
    """The lines of one kind of part (body, header, textbox…), numbered as Word numbers them."""

    part: str
    paragraphs: int = 0
    tables: int = 0


@dataclass
class Layout:
    """Lines of text and where each sits, for a whole document."""

    lines: list[str] = field(default_factory=list)
    places: list[dict[str, Any]] = field(default_factory=list)
    textbox: Story = field(default_factory=lambda: Story("textbox"))
    first_revision_line: int | None = None
    first_comment_line: int | None = None
    # with ``track=True`` (mask writes back through it): per line, the element each piece of
    # its text came from and the piece's length (w:t, w:tab, w:br…), in reading order
    origins: list[list[tuple[Any, int]]] | None = None

    @classmethod
    def tracked(cls) -> Layout:
        return cls(origins=[])

    def add(self, text: str, place: dict[str, Any]) -> int:
        self.lines.append(text)
        self.places.append(place)
        return len(self.lines) - 1


def read_blocks(container: Any, story: Story, layout: Layout, cell: dict[str, Any] | None) -> None:
    """Paragraphs and tables of a body, header, note, comment, text box or table cell."""
    for child in container:
        tag = child.tag
        if tag == _P:
            _read_paragraph(child, story, layout, cell)
        elif tag == _TBL:
            _read_table(child, story, layout, cell)
        elif tag == _ALTERNATE:
            choice = _choice(child)
            if choice is not None:
                read_blocks(choice, story, layout, cell)
        elif tag in _SKIPPED or not isinstance(tag, str):
            continue  # deleted blocks, properties, XML comments and processing instructions
        else:
            # content controls (sdt/sdtContent), customXml, block-level insertions
            read_blocks(child, story, layout, cell)


def _read_table(tbl: Any, story: Story, layout: Layout, outer: dict[str, Any] | None) -> None:
    if outer is None:
        story.tables += 1
    rows = 0
    for tr in _children(tbl, _TR):
        trpr = tr.find(W + "trPr")
        if trpr is not None and trpr.find(W + "del") is not None:
            continue  # a row deleted in tracked changes is not there for the reader
        rows += 1
        for cells, tc in enumerate(_children(tr, _TC), start=1):
            # a nested table is found in its outermost cell: that is what a person looks for
            here = outer or {"part": story.part, "table": story.tables, "row": rows, "cell": cells}
            read_blocks(tc, story, layout, here)


def _children(parent: Any, tag: str) -> list[Any]:
    """Direct children with ``tag``, also when wrapped in content controls or customXml."""
    out: list[Any] = []
    for child in parent:
        if child.tag == tag:
            out.append(child)
        elif child.tag in (W + "sdt", W + "sdtContent", W + "customXml"):
            out.extend(_children(child, tag))
    return out


def _read_paragraph(p: Any, story: Story, layout: Layout, cell: dict[str, Any] | None) -> None:
    story.paragraphs += 1
    pieces: list[str] = []
    boxes: list[Any] = []
    flags = {"revision": False, "comment": False}
    origins: list[tuple[Any, int]] | None = [] if layout.origins is not None else None
    _inline(p, pieces, boxes, flags, origins)
    if p.find(W + "pPr/" + W + "rPr/" + W + "ins") is not None:
        flags["revision"] = True
    place = cell if cell is not None else {"part": story.part, "paragraph": story.paragraphs}
    index = layout.add("".join(pieces), place)
    if layout.origins is not None and origins is not None:
        layout.origins.append(origins)
    if flags["revision"] and layout.first_revision_line is None:
        layout.first_revision_line = index
    if flags["comment"] and layout.first_comment_line is None:
        layout.first_comment_line = index
    for box in boxes:
        read_blocks(box, layout.textbox, layout, None)


def _inline(
    el: Any,
    pieces: list[str],
    boxes: list[Any],
    flags: dict[str, bool],
    origins: list[tuple[Any, int]] | None = None,
) -> None:
    for child in el:
        tag = child.tag
        if tag == _R:
            _run(child, pieces, boxes, origins)
        elif tag in _SKIPPED or not isinstance(tag, str):
            if tag in REVISION_TAGS:
                flags["revision"] = True
            continue
        elif tag == _ALTERNATE:
            choice = _choice(child)
            if choice is not None:
                _inline(choice, pieces, boxes, flags, origins)
        elif tag in _COMMENT_ANCHORS:
            flags["comment"] = True
        else:
            if tag in REVISION_TAGS:
                flags["revision"] = True  # an insertion: read, and counted
            # hyperlink, ins, moveTo, sdt, sdtContent, smartTag, fldSimple, customXml…
            _inline(child, pieces, boxes, flags, origins)


def _run(
    r: Any, pieces: list[str], boxes: list[Any], origins: list[tuple[Any, int]] | None = None
) -> None:
    parts: list[str] = []
    for child in r:
        tag = child.tag
        if tag == _T:
            parts.append(child.text or "")
            if origins is not None:
                origins.append((child, len(parts[-1])))
        elif tag in _RUN_TEXT:
            if tag == W + "br" and child.get(W + "type") == "page":
                continue  # a page break is layout, not a line of text
            parts.append(_RUN_TEXT[tag])
            if origins is not None:
                origins.append((child, 1))
        elif tag == W + "commentReference":
            continue
        elif isinstance(tag, str) and tag not in _SKIPPED:
            # drawings, VML pictures, AlternateContent: text boxes are read as their own lines
            boxes.extend(_text_boxes(child))
    text = "".join(parts)
    if text and _underlined(r) and all(ch in _BLANK_CHARS for ch in text):
        text = "_" * len(text)
    pieces.append(text)


def _underlined(r: Any) -> bool:
    u = r.find(W + "rPr/" + W + "u")
    return u is not None and (u.get(W + "val") or "single") not in _NO_UNDERLINE


def _choice(alternate: Any) -> Any:
    """The first ``mc:Choice`` of an AlternateContent (Word writes the same content again as a
    VML fallback; reading both would read every text box twice)."""
    return alternate.find(_CHOICE)


def _text_boxes(el: Any) -> list[Any]:
    """Outermost text-box contents under ``el``, skipping VML fallback copies."""
    found: list[Any] = []
    for box in el.iter(_TXBX):
        node = box.getparent()
        nested = False
        while node is not None and node is not el:
            if node.tag in (_TXBX, _FALLBACK):
                nested = True
                break
            node = node.getparent()
        if not nested:
            found.append(box)
    return found
