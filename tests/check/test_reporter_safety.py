"""One bad character never costs a report: every reporter, every character a format cannot carry."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from genlint.check import CheckReport, FileResult
from genlint.check.reporters import REPORTERS, render
from genlint.findings import Finding

# a lone surrogate (half an emoji), every C0 control, DEL, C1 controls, U+FFFE/U+FFFF
HOSTILE = ["\ud83d", "\udc00", *map(chr, range(0x20)), "\x7f", "\x85", "\x9b", "\ufffe", "\uffff"]


def _report(ch: str) -> CheckReport:
    text = f"甲方{ch}某某公司"
    start = text.index("某某公司")
    finding = Finding(
        rule="placeholder/mou-mou",
        message=f"unfilled placeholder '某某公司{ch}'",
        text=text[start : start + 4],
        start=start,
        end=start + 4,
        source_line=text,
        source_column=start,
    )
    return CheckReport(
        files=[
            FileResult(f"evidence/a{ch}.txt", [finding]),
            FileResult("evidence/b.txt", error=f"cannot read {ch}"),
        ]
    )


@pytest.mark.parametrize("fmt", list(REPORTERS))
@pytest.mark.parametrize("ch", HOSTILE, ids=[f"U+{ord(c):04X}" for c in HOSTILE])
def test_every_reporter_carries_every_character(fmt: str, ch: str) -> None:
    out = render(fmt, _report(ch))
    out.encode("utf-8")  # writable to a UTF-8 stream: no lone surrogate left raw
    if fmt in ("json", "sarif", "gitlab"):
        data = json.loads(out)
        assert data  # one valid document
    elif fmt == "junit":
        ET.fromstring(out.split("\n", 1)[1])  # valid XML: CI parsers take it
        assert "某某公司" in out
    else:
        assert "某某公司" in out and "placeholder/mou-mou" in out
        if ch not in "\t\n\r\ufffe\uffff":
            assert ch not in out, "no control character reaches the terminal raw"
