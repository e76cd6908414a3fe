"""``genlint cite`` end to end, in process."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parents[1] / "fixtures" / "cite"
CHAPTER = FIXTURES / "chapter.md"
SOURCES = FIXTURES / "sources.json"

EXPECTED_TEXT = (
    "# 三峡水电站\n\n"
    "[1][2]三峡水电站装机容量为 2250 万千瓦，是世界上装机容量最大的水电站。\n\n"
    "综合来看，其发电量约占全国水电的 1.8%[3]。\n\n"
    "```text\n<sources>[1]</sources> 在代码中保持原样\n```\n\n"
    "大坝高 181 米 [4]。\n"
)


def test_json_output(run_cli) -> None:  # type: ignore[no-untyped-def]
    result = run_cli("cite", str(CHAPTER), "--sources", str(SOURCES), "--format", "json")
    assert result.code == 1  # ids were dropped
    data = json.loads(result.out)
    assert data["text"] == EXPECTED_TEXT
    assert data["cited"] == [1, 2, 3, 4]
    assert data["invalid_ids"] == [9, "web"]
    assert data["uncited"] == [6]
    assert data["merged"] == {"5": 2}
    assert data["counts"] == {"1": 1, "2": 1, "3": 1, "4": 1, "6": 0}
    assert data["coverage"]["sentences"] == 3 and data["coverage"]["cited_sentences"] == 3
    assert (
        data["bibliography"]
        .splitlines()[0]
        .startswith("[1] 李世民, 三峡工程综述. 北京: 科学出版社, 2019.")
    )
    assert "三峡" in result.out  # CJK not escaped
    assert result.err.splitlines() == [
        "genlint: warning: dropped citation: id 9 names no source",
        "genlint: warning: dropped citation: 'web' is no id",
    ]


def test_text_output_is_text_then_bibliography(run_cli) -> None:  # type: ignore[no-untyped-def]
    result = run_cli("cite", str(CHAPTER), "--sources", str(SOURCES), "--style", "gb7714")
    text, _, bibliography = result.out.partition("\n\n[1] ")
    assert text + "\n" == EXPECTED_TEXT
    lines = ("[1] " + bibliography).splitlines()
    assert [line[:3] for line in lines] == ["[1]", "[2]", "[3]", "[4]"]
    assert lines[3].endswith("Dam engineering[J]. Water Power, 2021, 7: 1-20.")


def test_renumber_and_config(run_cli, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    chapter = tmp_path / "c.md"
    chapter.write_text("A<sources>[4]</sources>. B<sources>[2, 4]</sources>. C [4].", "utf-8")
    (tmp_path / "genlint.toml").write_text('[cite]\nrenumber = true\nstyle = "apa"\n', "utf-8")
    monkeypatch.chdir(tmp_path)
    result = run_cli("cite", "c.md", "--sources", str(SOURCES), "--format", "json")
    data = json.loads(result.out)
    assert result.code == 0
    assert data["text"] == "A[1]. B[2][1]. C [1]."
    assert data["numbers"] == {"4": 1, "2": 2} and data["style"] == "apa"
    flag = run_cli("cite", "c.md", "--sources", str(SOURCES), "--no-renumber", "--format", "json")
    assert json.loads(flag.out)["text"] == "A[4]. B[2][4]. C [4]."


def test_out_writes_atomically_and_leaves_input(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    chapter = tmp_path / "c.md"
    original = "<sources>[1]</sources>\n正文。\n"
    chapter.write_text(original, "utf-8")
    out = tmp_path / "out.md"
    result = run_cli("cite", str(chapter), "--sources", str(SOURCES), "--out", str(out))
    assert result.code == 0 and result.out == ""
    assert out.read_text("utf-8").startswith("[1]正文。\n\n[1] 李世民")
    assert chapter.read_text("utf-8") == original
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_several_files_are_chapters_of_one_document(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    one, two = tmp_path / "1.md", tmp_path / "2.md"
    one.write_text("甲<sources>[3]</sources>。", "utf-8")
    two.write_text("乙<sources>[1, 3]</sources>。", "utf-8")
    result = run_cli(
        "cite", str(one), str(two), "--sources", str(SOURCES), "--renumber", "--format", "json"
    )
    data = json.loads(result.out)
    assert data["chapters"] == ["甲[1]。", "乙[2][1]。"]
    assert data["cited"] == [3, 1]
    assert len(data["bibliography"].splitlines()) == 2


@pytest.mark.parametrize(
    ("sources_json", "message"),
    [
        ('{"id": 1}', "expected a list of sources, got an object"),
        ('[{"id": 1, "title": "a"}, {"id": 2}]', '[1] missing "title"'),
        ('[{"title": "a"}]', '[0] missing "id"'),
        ('[{"id": 1, "title": "a"}, {"id": 1, "title": "b"}]', "[1] duplicate id 1 (also at [0])"),
        ("[{", "invalid JSON at line 1"),
    ],
)
def test_bad_sources_exit_2_naming_the_entry(
    run_cli, tmp_path: Path, sources_json: str, message: str
) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "sources.json"
    bad.write_text(sources_json, "utf-8")
    result = run_cli("cite", str(CHAPTER), "--sources", str(bad))
    assert result.code == 2 and result.out == ""
    assert result.err.startswith(f"genlint: error: {bad}: ")
    assert message in result.err
    assert result.err.count("\n") == 1 and "Traceback" not in result.err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["missing.md", "--sources", str(SOURCES)], "missing.md: no such file"),
        ([str(CHAPTER), "--sources", str(SOURCES), "--style", "harvard"], "unknown citation style"),
        ([str(CHAPTER)], "Missing option '--sources'"),
        ([str(CHAPTER), "--sources", "nope.json"], "nope.json: no such file"),
    ],
)
def test_usage_errors_exit_2(run_cli, args: list[str], message: str) -> None:  # type: ignore[no-untyped-def]
    result = run_cli("cite", *args)
    assert result.code == 2
    assert result.err.startswith("genlint: error: ") and message in result.err
    assert result.err.count("\n") == 1


def test_bad_config_exits_2(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    config = tmp_path / "g.toml"
    config.write_text("[cite]\nsytle = 'apa'\n", "utf-8")
    result = run_cli("cite", str(CHAPTER), "--sources", str(SOURCES), "--config", str(config))
    assert result.code == 2 and "unknown key 'sytle'" in result.err
