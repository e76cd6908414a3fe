"""Silencing a finding as ruff users expect: the allowlist inside a hit, exclude globs,
per-file ignores, inline directives (txt, md, json), DOCX comments and the baseline."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from genlint.check import CheckConfig, check_paths, check_text
from genlint.check.suppress import (
    allowed_text,
    inline_ignores,
    normalise_blanks,
    path_matches,
)
from genlint.errors import ConfigError

PHONE = "13812345678"


def rules_of(report) -> list[str]:  # type: ignore[no-untyped-def]
    return sorted(f.rule for f in report.findings)


# --- allowlist ---


def test_allowlist_phrase_inside_a_hit_with_trailing_blanks() -> None:
    # (a label asking for a signature is a place to sign, never flagged: a contact label is)
    text = "联系人电话：\u3000 \n乙方：华夏公司\n"
    assert check_text(text, "placeholder"), "the fixture must be flagged without the allowlist"
    config = {"allowlist": ["联系人电话："]}
    assert check_text(text, "placeholder", config) == []


def test_allowlist_blanks_inside_the_phrase_are_normalised() -> None:
    assert allowed_text("签字：甲方 （盖章）", 0, 10, ["甲方\u3000（盖章）"])
    assert not allowed_text("签字：乙方（盖章）", 0, 9, ["甲方（盖章）"])


def test_allowlist_phrase_longer_than_the_hit_still_covers_it() -> None:
    text = "毕业于某某大学。"
    start = text.index("某某")
    assert allowed_text(text, start, start + 2, ["某某大学"])
    assert not allowed_text(text, start, start + 2, ["某某学院"])


def test_allowlist_does_not_silence_other_hits() -> None:
    text = f"甲方（盖章）：\n电话：{PHONE}\n"
    found = check_text(text, config={"allowlist": ["甲方（盖章）："]})
    assert [f.text for f in found] == [PHONE]


@given(st.text(alphabet=" \t\u3000\n甲乙", max_size=20))
def test_normalise_blanks_is_idempotent_and_has_no_runs(text: str) -> None:
    once = normalise_blanks(text)
    assert normalise_blanks(once) == once
    assert "  " not in once and once == once.strip()


# --- globs ---


@pytest.mark.parametrize(
    ("path", "patterns", "hit"),
    [
        ("drafts/a.md", ["drafts"], True),
        ("docs/drafts/a.md", ["drafts"], True),
        ("docs/a.md", ["*.md"], True),
        ("docs/a.txt", ["*.md"], False),
        ("docs/a.md", ["docs/*.md"], True),
        ("x/docs/a.md", ["docs/*.md"], False),
        ("docs/sub/a.md", ["docs/**/*.md"], True),
        ("docs/a.md", ["docs/**/*.md"], True),
        ("templates/t.docx", ["templates/"], True),
        ("other.txt", [], False),
    ],
)
def test_path_matches(tmp_path: Path, path: str, patterns: list[str], hit: bool) -> None:
    assert path_matches(str(tmp_path / path), patterns, str(tmp_path)) is hit


def test_exclude_and_per_file_ignores_from_the_config_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "t.txt").write_text("甲方：某某公司\n", "utf-8")
    (tmp_path / "fixtures").mkdir()
    (tmp_path / "fixtures" / "f.txt").write_text(f"甲方：某某公司 {PHONE}\n", "utf-8")
    (tmp_path / "out.txt").write_text(f"甲方：某某公司 {PHONE}\n", "utf-8")
    (tmp_path / "genlint.toml").write_text(
        '[check]\nexclude = ["templates"]\n'
        '[check.per-file-ignores]\n"fixtures/*.txt" = ["sensitive"]\n',
        "utf-8",
    )
    # from another folder: globs are relative to the configuration file
    monkeypatch.chdir(tmp_path / "fixtures")
    config = CheckConfig.load(tmp_path / "genlint.toml")
    report = check_paths([str(tmp_path)], config=config)
    paths = sorted(Path(f.path).name for f in report.files)
    assert paths == ["f.txt", "out.txt"]
    by_file = {Path(f.path).name: sorted({x.pack for x in f.findings}) for f in report.files}
    assert by_file == {"f.txt": ["placeholder"], "out.txt": ["placeholder", "sensitive"]}


def test_per_file_ignores_names_an_unknown_pack() -> None:
    with pytest.raises(ConfigError, match="per-file-ignores"):
        CheckConfig.from_section({"per-file-ignores": {"*.md": ["sensitve"]}})
    with pytest.raises(ConfigError, match="per-file-ignores"):
        CheckConfig.from_section({"per-file-ignores": {"*.md": 3}})


# --- inline directives ---


def test_inline_ignores_lines() -> None:
    text = (
        "a # genlint: ignore[sensitive]\n# genlint: ignore-next-line[placeholder/x, sensitive]\n"
        "b\n"
    )
    assert inline_ignores(text, "txt") == {1: ("sensitive",), 3: ("placeholder/x", "sensitive")}
    # prose that mentions genlint without brackets silences nothing
    assert inline_ignores("run genlint: ignore it\n", "txt") == {}
    # nor does a directive in prose, without the `#` that makes it a comment at the line's end
    assert inline_ignores("a genlint: ignore[sensitive]\n", "txt") == {}
    assert inline_ignores("a # genlint: ignore[sensitive] b\n", "txt") == {}
    assert inline_ignores("a # genlint: ignore-next-line[sensitive]\nb\n", "txt") == {}


def test_inline_in_markdown_only_inside_a_comment() -> None:
    text = (
        "甲方 <!-- genlint: ignore[sensitive] -->\n"
        "<!--\n genlint: ignore-next-line[placeholder] \n-->\n"
        "x\n"
        "genlint: ignore[sensitive] in prose\n"
        "<!-- a note that hides genlint: ignore[sensitive] -->\n"
    )
    # a comment counts only when it holds the directive alone
    assert inline_ignores(text, "md") == {1: ("sensitive",), 5: ("placeholder",)}


def _check_file(tmp_path: Path, name: str, text: str) -> list[str]:
    path = tmp_path / name
    path.write_text(text, "utf-8")
    return rules_of(check_paths([str(path)]))


def test_inline_txt(tmp_path: Path) -> None:
    base = f"电话：{PHONE}\n"
    assert _check_file(tmp_path, "a.txt", base) == ["sensitive/mobile"]
    silenced = f"电话：{PHONE}  # genlint: ignore[sensitive/mobile]\n"
    assert _check_file(tmp_path, "b.txt", silenced) == []
    other_rule = f"电话：{PHONE}  # genlint: ignore[placeholder]\n"
    assert _check_file(tmp_path, "c.txt", other_rule) == ["sensitive/mobile"]
    next_line = f"# genlint: ignore-next-line[sensitive]\n电话：{PHONE}\n电话：{PHONE}\n"
    assert _check_file(tmp_path, "d.txt", next_line) == ["sensitive/mobile"]


def test_inline_md(tmp_path: Path) -> None:
    md = f"电话：{PHONE} <!-- genlint: ignore[sensitive] -->\n\n电话：{PHONE}\n"
    assert _check_file(tmp_path, "a.md", md) == ["sensitive/mobile"]
    prose = f"电话：{PHONE} genlint: ignore[sensitive]\n"
    assert _check_file(tmp_path, "b.md", prose) == ["sensitive/mobile"]


def test_inline_json_is_data_and_silences_nothing(tmp_path: Path) -> None:
    # JSON has no comments: a directive there is a string the model wrote
    data = (
        "{\n"
        f' "phone": "{PHONE}", "note": "genlint: ignore[sensitive/mobile]",\n'
        f' "other": "{PHONE}"\n'
        "}\n"
    )
    path = tmp_path / "a.json"
    path.write_text(data, "utf-8")
    report = check_paths([str(path)])
    assert [(f.rule, f.line) for f in report.findings] == [
        ("sensitive/mobile", 2),
        ("sensitive/mobile", 3),
    ]
    assert report.suppressed == 0


def test_docx_comment_silences_the_text_it_is_anchored_on(tmp_path: Path) -> None:
    import docx

    document = docx.Document()
    silenced = document.add_paragraph(f"联系电话 {PHONE}")
    document.add_paragraph("联系电话 13912345678")
    document.add_comment(silenced.runs, text="genlint: ignore sensitive/mobile", author="法务")
    path = tmp_path / "a.docx"
    document.save(str(path))
    report = check_paths([str(path)], "sensitive")
    assert [f.text for f in report.findings] == ["13912345678"]
    # a comment that does not start with the directive silences nothing
    document = docx.Document()
    para = document.add_paragraph(f"联系电话 {PHONE}")
    document.add_comment(para.runs, text="please genlint: ignore sensitive", author="法务")
    document.save(str(path))
    assert [f.text for f in check_paths([str(path)], "sensitive").findings] == [PHONE]


# --- baseline ---


def test_baseline_reports_only_new_findings(
    run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.txt").write_text(f"电话：{PHONE}\n甲方：某某公司\n", "utf-8")
    written = run_cli("check", "a.txt", "--write-baseline", "base.json")
    assert written.code == 0, written.err
    assert "wrote 2 findings to base.json" in written.err
    raw = (tmp_path / "base.json").read_text("utf-8")
    assert PHONE not in raw and PHONE[-4:] not in raw and "某某" not in raw
    assert {r["rule"] for r in json.loads(raw)["findings"]} == {
        "sensitive/mobile",
        "placeholder/mou-entity",
    }
    same = run_cli("check", "a.txt", "--baseline", "base.json")
    assert same.code == 0 and same.out.startswith("0 findings"), same.out
    assert "2 findings accepted by base.json not shown" in same.err
    # lines moved and one new finding: only the new one is reported
    (tmp_path / "a.txt").write_text(
        f"新的一行\n电话：{PHONE}\n甲方：某某公司\n电话：13912345678\n", "utf-8"
    )
    new = run_cli("check", "a.txt", "--baseline", "base.json", "--format", "json")
    assert new.code == 1
    assert [f["line"] for f in json.loads(new.out)["files"][0]["findings"]] == [4]


def test_a_baseline_matches_from_any_working_directory(
    run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    """Files are named relative to the baseline's folder: run from the root when written, from a
    subfolder or from outside when read (CI checks out elsewhere), the same findings match."""
    repo = tmp_path / "repo"
    (repo / "docs").mkdir(parents=True)
    (repo / "docs" / "a.txt").write_text(f"电话：{PHONE}\n", "utf-8")
    monkeypatch.chdir(repo)
    assert run_cli("check", "docs/a.txt", "--write-baseline", "base.json").code == 0
    rows = json.loads((repo / "base.json").read_text("utf-8"))["findings"]
    assert [r["path"] for r in rows] == ["docs/a.txt"]
    monkeypatch.chdir(repo / "docs")
    inside = run_cli("check", "a.txt", "--baseline", "../base.json")
    assert inside.code == 0, inside.out
    monkeypatch.chdir(tmp_path)
    outside = run_cli("check", "repo/docs/a.txt", "--baseline", "repo/base.json")
    assert outside.code == 0, outside.out
    # another file with the same finding is not accepted by it
    (repo / "b.txt").write_text(f"电话：{PHONE}\n", "utf-8")
    other = run_cli("check", "repo/b.txt", "--baseline", "repo/base.json")
    assert other.code == 1


def test_baseline_under_another_key_is_refused(
    run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.txt").write_text(f"电话：{PHONE}\n", "utf-8")
    assert run_cli("check", "a.txt", "--write-baseline", "base.json").code == 0
    monkeypatch.setenv("GENLINT_FINGERPRINT_KEY", "another key")
    result = run_cli("check", "a.txt", "--baseline", "base.json")
    assert result.code == 2
    assert result.err.startswith("genlint: error: base.json: written under another")
    assert result.err.count("\n") == 1


def test_baseline_that_is_not_one(run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.txt").write_text("x\n", "utf-8")
    (tmp_path / "b.json").write_text("[1]", "utf-8")
    result = run_cli("check", "a.txt", "--baseline", "b.json")
    assert result.code == 2 and "not a genlint baseline" in result.err


def test_rule_command_lists_the_ways_that_apply(run_cli) -> None:  # type: ignore[no-untyped-def]
    text = run_cli("rule", "sensitive/mobile").out
    assert "genlint: ignore[sensitive/mobile]" in text
    assert "per-file-ignores" in text and "--baseline" in text
    document = run_cli("rule", "document/comments").out
    assert "per-file-ignores" in document and "genlint: ignore[" not in document


def test_the_directive_itself_is_not_a_finding(tmp_path: Path) -> None:
    md = "附件：某某清单 <!-- genlint: ignore[placeholder/mou-mou] -->\n"
    assert _check_file(tmp_path, "a.md", md) == []
    txt = "# genlint: ignore-next-line[placeholder]\n附件：某某清单\n"
    assert _check_file(tmp_path, "a.txt", txt) == []


def test_excluding_every_file_says_so(
    run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.txt").write_text("甲方：某某公司\n", "utf-8")
    (tmp_path / "genlint.toml").write_text('[check]\nexclude = ["*.txt"]\n', "utf-8")
    result = run_cli("check", "a.txt")
    assert result.code == 0
    assert "all 1 file excluded by [check] exclude; nothing was checked" in result.err


@given(st.lists(st.tuples(st.booleans(), st.booleans()), min_size=1, max_size=12))
def test_a_directive_silences_exactly_its_line(lines: list[tuple[bool, bool]]) -> None:
    # each line: (holds a phone, carries a directive for sensitive)
    from genlint.check.engine import Checker
    from genlint.check.suppress import suppress
    from genlint.readers import read_data

    text = "".join(
        ("电话 13812345678" if phone else "正文")
        + (" # genlint: ignore[sensitive]" if mark else "")
        + "\n"
        for phone, mark in lines
    )
    doc = read_data("x.txt", text.encode())
    found = Checker("sensitive").check_document(doc)
    kept = suppress(doc, list(found))
    assert [f.line for f in found] == [i + 1 for i, (phone, _) in enumerate(lines) if phone]
    assert [f.line for f in kept] == [
        i + 1 for i, (phone, mark) in enumerate(lines) if phone and not mark
    ]
