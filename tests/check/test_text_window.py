"""The terminal report fits the terminal (docs/commands/check.md "Text report"): windows cut
with an ellipsis, carets exactly under the span in display cells, empty fields underlined up to
the colon, document findings with a snippet and in document order."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from genlint import check_paths
from genlint.check.reporters import text as text_report
from genlint.check.reporters._cells import cells
from support.docx_build import append_inline, inserted, new_document, run, to_bytes

WIDTHS = (60, 80, 120)
CJK = (
    "本合同由甲乙双方于签订，" * 12
    + "甲方：某某公司，电话13812345678，"
    + "双方同意如下条款。" * 12
)
MIXED = "Mixed text 中英混合 " * 8 + "[Company Name] " + "and more words " * 10
EMOJI = "😀合同😀" * 30 + "某某公司" + "🎉 party 🎉" * 20


def _report(tmp_path: Path, body: str, width: int) -> list[str]:
    path = tmp_path / "doc.txt"
    path.write_text(body, "utf-8")
    return text_report.render(check_paths([path]), width=width).splitlines()


def _caret_target(lines: list[str], quoted: str) -> str:
    """The characters the carets under the excerpt after ``quoted``'s header point at."""
    at = next(i for i, line in enumerate(lines) if f"'{quoted}'" in line)
    shown, caret = lines[at + 1], lines[at + 2]
    assert shown.startswith("    ") and caret.startswith("    ")
    start = len(caret) - len(caret.lstrip(" "))
    end = len(caret.rstrip())
    # walk the shown line cell by cell and keep the characters whose cells the carets cover
    picked, col = [], 0
    for ch in shown:
        w = cells(ch)
        if col >= start and col + w <= end and w:
            picked.append(ch)
        col += w
    return "".join(picked)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize(
    ("body", "span"),
    [(CJK, "某某公司"), (MIXED, "[Company Name]"), (EMOJI, "某某公司")],
    ids=["cjk", "mixed", "emoji"],
)
def test_carets_sit_under_the_span_and_no_line_is_wider_than_the_terminal(
    tmp_path: Path, body: str, span: str, width: int
) -> None:
    lines = _report(tmp_path, body + "\n", width)
    assert max(cells(line) for line in lines) <= width
    assert _caret_target(lines, span) == span
    # the long line was cut, and the cut says so
    excerpt = next(line for line in lines if span in line and line.startswith("    "))
    assert excerpt.strip().startswith("…") and excerpt.endswith("…")


def test_the_caret_offset_is_counted_in_cells_not_characters(tmp_path: Path) -> None:
    lines = _report(tmp_path, "甲方：某某公司\n", 200)
    at = next(i for i, line in enumerate(lines) if line.endswith("'某某公司'"))
    assert lines[at + 1] == "    甲方：某某公司"
    # 甲方： is three characters and six cells
    assert lines[at + 2] == "    " + " " * 6 + "^" * 8


@pytest.mark.parametrize("width", WIDTHS)
def test_a_long_location_goes_on_its_own_line(tmp_path: Path, width: int) -> None:
    folder = tmp_path / ("很长的文件夹名称" * 6)
    folder.mkdir()
    path = folder / "起诉状.txt"
    path.write_text("甲方：某某公司\n", "utf-8")
    lines = text_report.render(check_paths([path]), width=width).splitlines()
    assert max(cells(line) for line in lines) <= width
    header = next(i for i, line in enumerate(lines) if line.endswith("1:4:"))
    assert "placeholder/mou-entity" in lines[header + 1]
    assert lines[header + 1].startswith("  error")


def test_an_empty_field_is_underlined_up_to_its_colon(tmp_path: Path) -> None:
    lines = _report(tmp_path, "联系电话：            \n", 200)
    assert lines[0].endswith("empty form field '联系电话：'")
    assert lines[1] == "    联系电话：            "  # the blank is shown
    assert lines[2] == "    " + "^" * 10  # but not underlined


def test_a_span_wider_than_the_terminal_shows_its_start(tmp_path: Path) -> None:
    line = text_report.window("前文" + "某" * 100 + "后文", 2, 100, 40)
    shown, caret = line
    assert cells(shown) <= 40 and shown.startswith("…某") and shown.endswith("…")
    assert caret == " " + "^" * (cells(shown) - 2)


@settings(max_examples=300, deadline=None)
@given(
    st.text(min_size=0, max_size=120),
    st.text(min_size=0, max_size=40),
    st.text(min_size=0, max_size=120),
    st.integers(min_value=20, max_value=140),
)
def test_window_invariants(before: str, span: str, after: str, width: int) -> None:
    from genlint.check.reporters._safe import printable

    before, span, after = (printable(t).replace("\n", " ") for t in (before, span, after))
    shown, caret = text_report.window(before + span + after, len(before), len(span), width)
    assert cells(shown) <= width and cells(caret) <= width
    assert set(caret.strip()) == {"^"}
    if cells(before + span + after) + 1 <= width:
        assert shown == before + span + after  # nothing cut when it fits
    elif span and cells(span) <= width - 2:
        assert span in shown  # the whole span is shown whenever it can be


def test_document_findings_have_a_snippet_and_come_in_document_order(tmp_path: Path) -> None:
    document = new_document()
    document.add_paragraph("第一条 甲方：某某公司")
    p = document.add_paragraph()
    append_inline(p, run("第二条 金额为人民币"), inserted("一百元"), run("，由乙方支付"))
    document.add_paragraph("第三条 乙方：某某银行")
    path = tmp_path / "草稿.docx"
    path.write_bytes(to_bytes(document))
    report = check_paths([path])
    rules = [f.rule for f in report.findings]
    assert rules.index("placeholder/mou-entity") < rules.index("document/tracked-changes")
    assert rules.index("document/tracked-changes") < len(rules) - 1  # before 某某银行's
    lines = text_report.render(report, width=80).splitlines()
    at = next(i for i, line in enumerate(lines) if line.endswith("before it goes out"))
    assert lines[at + 1] == "    第二条 金额为人民币一百元，由乙方支付"
    assert lines[at + 2] == "    ^"


def test_the_cli_fits_columns_and_leaves_a_pipe_unwrapped(
    run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "long.txt").write_text(CJK + "\n", "utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "60")
    fitted = run_cli("check", "long.txt").out.splitlines()
    assert max(cells(line) for line in fitted) <= 60
    monkeypatch.delenv("COLUMNS")
    piped = run_cli("check", "long.txt").out.splitlines()
    # one header line per finding, whole, for grep
    assert "long.txt:1:148: error placeholder/mou-entity unfilled placeholder '某某公司'" in piped


@settings(max_examples=300, deadline=None)
@given(st.text(min_size=0, max_size=300), st.integers(min_value=20, max_value=140))
def test_wrap_keeps_every_line_within_the_width_and_drops_no_text(text: str, width: int) -> None:
    from genlint.check.reporters._cells import wrap
    from genlint.check.reporters._safe import printable

    text = printable(text).replace("\n", " ")
    lines = wrap(text, width, "  ")
    assert all(cells(line) <= width for line in lines)
    # only the spaces at a break and the continuation indent differ
    joined = "".join(line[2:] if i else line for i, line in enumerate(lines))
    assert joined.replace(" ", "") == text.replace(" ", "")


def test_standard_input_is_not_annotated_and_says_so(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import os
    import subprocess
    import sys

    monkeypatch.chdir(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "genlint", "check", "-", "--annotate", "out"],
        input="甲方：某某公司\n".encode(),
        capture_output=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(Path(text_report.__file__).parents[3])},
    )
    assert done.returncode == 2
    assert b"genlint: error: not annotated: -: standard input has no file to copy" in done.stderr
    assert b"Traceback" not in done.stderr
