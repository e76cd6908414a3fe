"""How reports show a personal value (genlint.check.redact): masked in the keep-ends style,
same length, span and location intact, in the finding and in every line shown around any
finding; nothing else changes, and masking twice changes nothing more."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from genlint import check_text
from genlint.check.redact import MaskedFinding, mask_report, mask_text_spans
from genlint.check.report import CheckReport, FileResult

# no 公司 or 单位: 公司电话 before a value makes it an organisation's own number, not personal data
FILLER = st.text(alphabet=st.sampled_from(list("甲方某乙，。电话 abc\n\t")), max_size=30)


@st.composite
def mobile(draw: st.DrawFn) -> str:
    body = "1" + draw(st.sampled_from("3589")) + draw(st.text("0123456789", min_size=9, max_size=9))
    sep = draw(st.sampled_from(["", " ", "-", "."]))
    return body if not sep else sep.join((body[:3], body[3:7], body[7:]))


@st.composite
def planted_text(draw: st.DrawFn) -> tuple[str, list[str]]:
    values = draw(st.lists(mobile(), min_size=1, max_size=4))
    parts = [draw(FILLER)]
    for value in values:
        parts += ["电话", value, "，" + draw(FILLER)]
    return "".join(parts), values


@settings(max_examples=150, deadline=None)
@given(planted_text())
def test_masked_display_keeps_length_span_and_everything_else(case: tuple[str, list[str]]) -> None:
    text, values = case
    findings = check_text(text)
    personal = [f for f in findings if f.rule.startswith("sensitive/")]
    assert set(values) <= {f.text for f in personal}, "every planted value is found"
    report = CheckReport(files=[FileResult("t.txt", findings=findings)])
    shown = mask_report(report).files[0].findings
    assert len(shown) == len(findings)
    for before, after in zip(findings, shown, strict=True):
        # where it is does not change: offsets, line and column, rule, severity
        assert (after.rule, after.start, after.end, after.line, after.column) == (
            before.rule,
            before.start,
            before.end,
            before.line,
            before.column,
        )
        assert len(after.text) == len(before.text)
        assert after.source_column == before.source_column
        assert after.source_line is not None and before.source_line is not None
        assert len(after.source_line) == len(before.source_line)
        if before.rule.startswith("sensitive/"):
            assert isinstance(after, MaskedFinding) and after.text != before.text
            # separators stay where they were (139.****.0070)
            assert [c for c in after.text if not c.isalnum() and c != "*"] == [
                c for c in before.text if not c.isalnum()
            ]
        else:
            assert after.text == before.text
        # outside the personal spans, the shown line is what it was
        base = before.start - before.source_column
        covered = set()
        for p in personal:
            covered.update(range(p.start - base, p.end - base))
        for i, (a, b) in enumerate(zip(after.source_line, before.source_line, strict=True)):
            if i not in covered:
                assert a == b
        for p in personal:
            assert p.text not in after.source_line
    assert mask_report(mask_report(report)).files[0].findings == shown, "idempotent"
    assert mask_report(report, show_values=True) is report


def test_a_span_cut_by_the_shown_window_is_masked_in_the_part_inside() -> None:
    assert mask_text_spans("5678 tail", [(-7, "13812345678", "138****5678")]) == "5678 tail"
    assert mask_text_spans("x 1381234", [(2, "13812345678", "138****5678")]) == "x 138****"
    # characters that are not the value are left alone
    assert mask_text_spans("x 1399999", [(2, "13812345678", "138****5678")]) == "x 1399999"


def test_the_message_and_fix_lose_the_value_too() -> None:
    from genlint.check.redact import mask_finding
    from genlint.findings import Finding

    f = Finding(
        "sensitive/mobile", "number 13812345678 found", "13812345678", 0, 11, fix="mask 13812345678"
    )
    f.path = "contract.txt"
    shown = mask_finding(f)
    assert shown.message == "number 138****5678 found" and shown.fix == "mask 138****5678"
    assert shown.path == "contract.txt", "the masked finding still says where it is"
    assert f.text == "13812345678", "the finding itself is not changed"


def test_every_reporter_masks_a_report_rendered_anywhere() -> None:
    """``genlint serve`` and a user's script render reports without the CLI: each reporter
    masks by itself unless the report says ``show_values``."""
    from dataclasses import replace

    from genlint.check.reporters import REPORTERS, render
    from genlint.check.reporters import statistics as stats

    text = "电话13812345678，甲方某某公司"
    report = CheckReport(files=[FileResult("t.txt", findings=check_text(text))])
    for fmt in REPORTERS:
        assert "13812345678" not in render(fmt, report), fmt
    for fmt in ("text", "json"):
        assert "13812345678" not in stats.render(report, fmt)
    shown = replace(report, show_values=True)
    for fmt in ("text", "json", "sarif"):
        assert "13812345678" in render(fmt, shown), fmt
    assert report.files[0].findings[0].text == "13812345678", "the report itself is unchanged"
