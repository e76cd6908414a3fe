"""Where a finding is, as a person looks for it (docs/commands/check.md "Locations"):
``table 2 row 3 cell 1`` or ``header paragraph 1`` in a DOCX, ``page 4 line 7`` in a PDF,
``line:column`` in a text file. The text and JUnit reporters print it after the path."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...findings import Finding


def where(finding: Finding) -> str:
    loc = finding.location or {}
    part = loc.get("part")
    prefix = f"{part} " if part and part != "body" else ""
    if "table" in loc:
        return f"{prefix}table {loc['table']} row {loc['row']} cell {loc['cell']}"
    if "paragraph" in loc:
        return f"{prefix}paragraph {loc['paragraph']}"
    if "field" in loc:  # a hidden place of a PDF (``page 2 annotation 1 link``, ``Info /Author``)
        return loc["field"] + (f" line {finding.line}" if finding.line > 1 else "")
    if finding.page is not None:
        return f"page {finding.page} line {finding.line}"
    if "bbox" in loc:
        return f"line {finding.line}"
    text = f"{finding.line}:{finding.column}"
    if finding.pointer is not None:
        text += f" ({finding.pointer or '/'})"
    return text
