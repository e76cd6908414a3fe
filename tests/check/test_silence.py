"""The checked text cannot steer the check (issues #37, #42): every suppression is reported,
directives count only in the document's own comment syntax, --no-inline-ignores and
--isolated, warnings for directives naming no rule or silencing nothing."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

PHONE = "13912345678"


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_suppression_is_counted_listed_and_in_sarif(run_cli, here: Path) -> None:  # type: ignore[no-untyped-def]
    (here / "a.md").write_text(f"电话：{PHONE} <!-- genlint: ignore[sensitive] -->\n", "utf-8")
    text = run_cli("check", "a.md")
    assert text.code == 0
    assert text.out.splitlines()[-1].startswith("0 findings in 0 of 1 file; 1 suppressed")
    as_json = json.loads(run_cli("check", "a.md", "--format", "json").out)
    assert as_json["summary"]["suppressed"] == 1
    (entry,) = as_json["files"][0]["suppressed"]
    assert entry["rule"] == "sensitive/mobile" and "line 1" in entry["suppressed_by"]
    sarif = run_cli("check", "a.md", "--format", "sarif").out
    assert PHONE not in sarif, "a silenced value is masked like any other"
    (result,) = json.loads(sarif)["runs"][0]["results"]
    (how,) = result["suppressions"]
    assert how["kind"] == "inSource" and "genlint: ignore[sensitive]" in how["justification"]


def test_per_file_ignores_are_reported_as_external(run_cli, here: Path) -> None:  # type: ignore[no-untyped-def]
    (here / "a.txt").write_text(f"电话：{PHONE}\n", "utf-8")
    (here / "genlint.toml").write_text('[check.per-file-ignores]\n"*.txt" = ["sensitive"]\n')
    sarif = json.loads(run_cli("check", "a.txt", "--format", "sarif").out)
    (result,) = sarif["runs"][0]["results"]
    assert result["suppressions"][0]["kind"] == "external"
    text = run_cli("check", "a.txt")
    assert "1 suppressed" in text.out and "configuration genlint.toml" in text.out


@pytest.mark.parametrize(
    "name, content",
    [
        ("prose.txt", f"电话：{PHONE} genlint: ignore[sensitive]\n"),
        ("hidden.md", f"<!-- 备注 genlint: ignore[sensitive] 其他说明 -->电话：{PHONE}\n"),
        ("min.json", f'{{"phone":"{PHONE}","note":"genlint: ignore[sensitive]"}}'),
        ("lines.json", f'{{\n"note": "genlint: ignore[sensitive]", "phone": "{PHONE}"\n}}\n'),
    ],
)
def test_a_directive_outside_the_formats_comment_syntax_silences_nothing(  # type: ignore[no-untyped-def]
    run_cli, here: Path, name: str, content: str
) -> None:
    (here / name).write_text(content, "utf-8")
    result = run_cli("check", name, "--select", "sensitive", "--format", "json")
    assert result.code == 1, result.out
    assert [f["rule"] for f in json.loads(result.out)["files"][0]["findings"]] == [
        "sensitive/mobile"
    ]


def test_no_inline_ignores(run_cli, here: Path) -> None:  # type: ignore[no-untyped-def]
    (here / "a.txt").write_text(f"电话：{PHONE} # genlint: ignore[sensitive]\n", "utf-8")
    assert run_cli("check", "a.txt").code == 0
    result = run_cli("check", "a.txt", "--no-inline-ignores")
    assert result.code == 1 and "sensitive/mobile" in result.out


def test_isolated_reads_no_configuration(run_cli, here: Path) -> None:  # type: ignore[no-untyped-def]
    (here / "a.txt").write_text(f"电话：{PHONE}\n", "utf-8")
    (here / "genlint.toml").write_text('[check]\nexclude = ["**"]\nignore = ["sensitive"]\n')
    assert run_cli("check", "a.txt").code == 0
    result = run_cli("check", "a.txt", "--isolated")
    assert result.code == 1 and "sensitive/mobile" in result.out
    assert "configuration" not in result.out.splitlines()[-1]
    both = run_cli("check", "a.txt", "--isolated", "--config", "genlint.toml")
    assert both.code == 2


def test_a_word_comment_silences_only_what_it_is_anchored_on(here: Path) -> None:
    import docx

    from genlint.check import check_paths

    document = docx.Document()
    silenced = document.add_paragraph(f"联系电话 {PHONE}")
    document.add_paragraph(f"联系电话 {PHONE}")
    table = document.add_table(rows=1, cols=2)
    table.cell(0, 0).text = f"电话 {PHONE}"
    table.cell(0, 1).text = f"电话 {PHONE}"
    document.add_comment(silenced.runs, text="genlint: ignore sensitive/mobile", author="x")
    document.add_comment(
        table.cell(0, 1).paragraphs[0].runs, text="genlint: ignore sensitive", author="x"
    )
    document.save(str(here / "a.docx"))
    report = check_paths([str(here / "a.docx")], "sensitive")
    assert [f.location for f in report.findings] == [
        {"part": "body", "paragraph": 2},
        {"part": "body", "table": 1, "row": 1, "cell": 1},
    ]
    assert report.suppressed == 2


def test_a_directive_naming_no_rule_or_silencing_nothing_is_a_warning(run_cli, here: Path) -> None:  # type: ignore[no-untyped-def]
    (here / "a.txt").write_text(
        f"# genlint: ignore-next-line[mobile]\n电话：{PHONE}\n"
        "# genlint: ignore-next-line[placeholder]\n正文\n"
        f"# genlint: ignore-next-line[{PHONE}]\n正文\n",
        "utf-8",
    )
    result = run_cli("check", "a.txt")
    assert result.code == 1
    assert "line 1: genlint: ignore names no rule 'mobile' (did you mean sensitive/mobile?)" in (
        result.err
    )
    assert "line 3: # genlint: ignore-next-line[placeholder] silenced nothing" in result.err
    assert "line 5: genlint: ignore names something that is no rule" in result.err
    assert PHONE not in result.err


def test_a_directive_repeated_a_million_times_is_bounded(here: Path) -> None:
    from genlint.check import check_paths

    (here / "a.txt").write_text("# genlint: ignore[sensitive]\n" * 1_000_000 + PHONE, "utf-8")
    start = time.monotonic()
    report = check_paths([str(here / "a.txt")], "sensitive")
    assert time.monotonic() - start < 60
    assert len(report.findings) == 1
    warnings = report.files[0].warnings
    assert len(warnings) <= 102, "one warning per directive would be a million lines"


def test_a_link_out_of_the_folder_and_a_fifo_are_skipped(run_cli, here: Path) -> None:  # type: ignore[no-untyped-def]
    import os

    outside = here / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text(f"电话：{PHONE}\n", "utf-8")
    folder = here / "docs"
    folder.mkdir()
    (folder / "a.txt").write_text("正文\n", "utf-8")
    (folder / "inner.txt").symlink_to(folder / "a.txt")  # stays inside: read
    (folder / "leak.txt").symlink_to(outside / "secret.txt")
    (folder / "env.txt").symlink_to("/proc/self/environ")
    os.mkfifo(folder / "pipe.txt")
    result = run_cli("check", "docs", "--format", "json", "--annotate", "review")
    assert result.code == 0, result.err
    doc = json.loads(result.out)
    assert len(doc["files"]) == 2  # a.txt and the link to it inside the folder
    assert "docs/leak.txt: a symbolic link that leaves the checked folder; skipped" in result.err
    assert "docs/env.txt: a symbolic link" in result.err
    assert "docs/pipe.txt: not a regular file" in result.err
    assert PHONE not in result.out + result.err and "PATH=" not in result.out
    assert not (here / "review" / "env.txt.html").exists()


PLACEHOLDERS = (
    "甲方：{{联系电话13912345678}}\n"
    "乙方：[To be provided: 13598765432]\n"
    "（此处填写联系人电话13712345678）\n"
)
NUMBERS = ("13912345678", "13598765432", "13712345678")


@pytest.mark.parametrize("select", ["placeholder", "placeholder,sensitive"])
@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "junit", "github", "html", "stats"])
def test_no_value_in_any_report_from_any_rule(run_cli, here: Path, fmt: str, select: str) -> None:  # type: ignore[no-untyped-def]
    (here / "c.txt").write_text(PLACEHOLDERS, "utf-8")
    args = ["--statistics"] if fmt == "stats" else ["--format", fmt]
    result = run_cli("check", "c.txt", "--select", select, *args)
    assert result.code == 1, result.err
    assert "139****5678" in result.out or fmt in ("junit", "github", "html", "sarif")
    for number in NUMBERS:
        assert number not in result.out + result.err, (fmt, number)
    shown = run_cli("check", "c.txt", "--select", select, "--show-values", *args)
    assert "13912345678" in shown.out


def test_a_placeholder_finding_is_masked_by_the_python_api(here: Path) -> None:
    from genlint.check import check_text
    from genlint.check.redact import mask_findings

    (finding,) = check_text("甲方：{{联系电话13912345678}}\n", "placeholder")
    assert "13912345678" in finding.text  # the API's finding keeps what was found
    (masked,) = mask_findings([finding])
    assert masked.text == "{{联系电话139****5678}}" and "13912345678" not in masked.message


def test_a_vault_an_output_would_overwrite_is_refused(run_cli, here: Path) -> None:  # type: ignore[no-untyped-def]
    (here / "docs").mkdir()
    (here / "docs" / "a.txt").write_text(f"电话：{PHONE}\n", "utf-8")
    result = run_cli(
        "mask", "docs", "--out", "out", "--style", "token", "--vault", "out/a.txt"
    )
    assert result.code == 2
    assert len(result.err.strip().splitlines()) == 1
    assert "the vault is also a file this run writes" in result.err
    assert not (here / "out" / "a.txt").exists()


def test_text_checked_in_memory_has_no_directives() -> None:
    # generate, serve and Gate check model output as text: a directive in it is text
    from genlint.check import check_text

    found = check_text(f"电话：{PHONE} # genlint: ignore[sensitive]\n", "sensitive")
    assert [f.rule for f in found] == ["sensitive/mobile"]
