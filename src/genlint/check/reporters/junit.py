"""JUnit XML: one test suite, one test case per file. A file with findings fails (one
``<failure>`` listing them); an unreadable file is an ``<error>``; a clean file passes."""

from __future__ import annotations

from typing import TYPE_CHECKING
from xml.etree import ElementTree as ET

from ._safe import xml_text
from ._where import where

if TYPE_CHECKING:
    from ..report import CheckReport


def render(report: CheckReport, *, color: bool = False) -> str:
    from ..redact import mask_report
    from ..report import display_path

    report = mask_report(report)

    failures = sum(1 for f in report.files if f.findings and f.error is None)
    errors = len(report.errors)
    suite = ET.Element(
        "testsuite",
        {
            "name": "genlint check",
            "tests": str(len(report.files)),
            "failures": str(failures),
            "errors": str(errors),
            "skipped": "0",
        },
    )
    for file in report.files:
        path = xml_text(display_path(file.path))
        case = ET.SubElement(suite, "testcase", {"classname": "genlint.check", "name": path})
        if file.error is not None:
            ET.SubElement(case, "error", {"message": xml_text(file.error), "type": "unreadable"})
        elif file.findings:
            n = len(file.findings)
            failure = ET.SubElement(
                case,
                "failure",
                {"message": f"{n} finding{'s' if n != 1 else ''}", "type": "genlint"},
            )
            failure.text = xml_text(
                "\n".join(
                    f"{path}:{where(f)}: {f.rule} {f.message}"
                    for f in file.findings
                )
            )
    suites = ET.Element(
        "testsuites",
        {"tests": str(len(report.files)), "failures": str(failures), "errors": str(errors)},
    )
    suites.append(suite)
    ET.indent(suites)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"
    )
