"""Review copies (``genlint check --annotate DIR``): each checked file again, with its findings
where a reviewer works. DOCX: Word comments on the exact text; PDF: highlight annotations with
popup notes, page content unchanged; txt/md/json: an HTML copy with each finding highlighted
and its note beside it. Inputs are never touched; every copy is written atomically under DIR,
at the input's path relative to the inputs' common folder (a copy of ``a/x.docx`` is
``DIR/a/x.docx``; a text file's is ``DIR/a/x.md.html``; a scanned image's, an HTML page with
the boxes drawn on it, ``DIR/a/x.png.html``).

A file that cannot be annotated is skipped with its reason (:class:`Annotated.skipped`); the
CLI says so on standard error and exits 2, never silently.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ...errors import GenlintError

if TYPE_CHECKING:
    from ..report import CheckReport
    from .notes import Noted

__all__ = ["IMAGE_KINDS", "Annotated", "annotate_report", "copy_name"]

# scans read by OCR: their copy is an HTML page with the boxes drawn on the picture
IMAGE_KINDS = frozenset((".png", ".jpg", ".jpeg", ".tif", ".tiff"))


@dataclass
class Annotated:
    """What ``--annotate`` wrote: (input, copy, notes) per file, and (input, reason) skipped."""

    written: list[tuple[str, str, int]] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)


def copy_name(path: str, root: Path) -> Path:
    """Where the copy of ``path`` goes under the output folder: its path relative to ``root``,
    with ``.html`` added for the text kinds."""
    relative = Path(os.path.abspath(path)).relative_to(root)
    kind = Path(path).suffix.lower()
    return relative if kind in (".docx", ".pdf") else relative.with_name(relative.name + ".html")


def annotate_report(
    report: CheckReport, out_dir: str, *, lang: str | None = None, show_values: bool = False
) -> Annotated:
    """Write a review copy of every file of ``report`` that was read into ``out_dir``."""
    from ..._io import atomic_write
    from ..redact import mask_report
    from .notes import noted

    target = Path(out_dir)
    if target.exists() and not target.is_dir():
        raise GenlintError(f"{out_dir}: not a folder")
    result = Annotated()
    for file in report.files:
        if file.path == "-":  # no file to copy
            result.skipped.append(("-", "standard input has no file to copy; check a file"))
    readable = [f for f in report.files if f.error is None and f.path != "-"]
    if not readable:
        return result
    shown = mask_report(report, show_values=show_values)
    by_path = {id(f): s for f, s in zip(report.files, shown.files, strict=True)}
    root = Path(os.path.commonpath([os.path.dirname(os.path.abspath(f.path)) for f in readable]))
    for file in readable:
        items, language = noted(file, by_path[id(file)], lang)
        destination = target / copy_name(file.path, root)
        try:
            data = Path(file.path).read_bytes()
            payload, notes = _annotate(file.path, data, items, language)
            destination.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(destination, payload, inputs=[f.path for f in report.files])
        except (GenlintError, OSError, ValueError) as exc:
            result.skipped.append((file.path, str(exc)))
            continue
        result.written.append((file.path, str(destination), notes))
    return result


def _annotate(path: str, data: bytes, items: list[Noted], lang: str) -> tuple[bytes, int]:
    kind = Path(path).suffix.lower()
    if kind == ".docx":
        from .docx import annotate_docx

        return annotate_docx(path, data, items, lang)
    if kind == ".pdf":
        from .pdf import annotate_pdf

        return annotate_pdf(path, data, items, lang)
    if kind in IMAGE_KINDS:
        from .imagecopy import annotate_image

        return annotate_image(path, data, items, lang)
    from .textcopy import annotate_text

    return annotate_text(path, data, items, lang)
