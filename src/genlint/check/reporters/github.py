"""GitHub Actions workflow commands (``--format github``), as ``ruff --output-format github``:
one ``::error``/``::warning``/``::notice`` line per finding, which the runner turns into an
annotation on the pull request's files. Unlike SARIF it needs no code scanning, so it works on
every plan and in private repositories without GitHub Advanced Security (docs/ci.md).

The message opens with the human location (``table 1 row 3 cell 2`` of a DOCX, ``page 4 line
7`` of a PDF): an annotation of a binary file shows only that text. Personal values are masked
unless ``--show-values``. Values are escaped as the runner reads them (``%``, CR and LF in the
message; also ``:`` and ``,`` in a property), so a finding cannot end its line early or start
another command.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._safe import printable
from ._where import where

if TYPE_CHECKING:
    from ..report import CheckReport

__all__ = ["escape_data", "escape_property", "render"]

_LEVEL = {"error": "error", "warning": "warning", "info": "notice"}


def escape_data(text: str) -> str:
    """A command's message, escaped as the runner unescapes it."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A property value (``file=``, ``title=``), escaped as the runner unescapes it."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _data(text: str) -> str:
    # escaped first, so line breaks survive as %0A; any other control character (an escape
    # sequence for the log viewer) becomes U+FFFD
    return printable(escape_data(text))


def _prop(text: str) -> str:
    return printable(escape_property(text))


def render(report: CheckReport, *, color: bool = False) -> str:
    from ..redact import mask_report
    from ..report import display_path

    report = mask_report(report)
    out: list[str] = []
    for file in report.files:
        path = display_path(file.path)
        file_prop = _prop(path)
        if file.error is not None:
            title = _prop("genlint: cannot read")
            out.append(f"::error file={file_prop},title={title}::{_data(file.error)}")
            continue
        for f in file.findings:
            props = [f"file={file_prop}", f"line={f.line}", f"col={f.column}"]
            if f.text and "\n" not in f.text and not (f.location or f.page is not None):
                props.append(f"endColumn={f.column + len(f.text)}")
            props.append(f"title={_prop(f'genlint {f.rule}')}")
            shown = f" ({f.text})" if f.text and f.text not in f.message else ""
            message = f"{path}:{where(f)}: {f.message}{shown}"
            out.append(f"::{_LEVEL[str(f.severity)]} {','.join(props)}::{_data(message)}")
    n = len(report.findings)
    files = len(report.files)
    with_findings = sum(1 for f in report.files if f.findings)
    # the text report's summary, word for word: files with findings of files checked
    out.append(
        f"genlint: {n} finding{'s' if n != 1 else ''} in {with_findings} of {files} "
        f"file{'s' if files != 1 else ''}"
    )
    return "\n".join(out) + "\n"
