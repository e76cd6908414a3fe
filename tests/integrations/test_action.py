"""The composite action's steps, run locally as a runner runs them (inputs pasted into the
``env`` values, a fake ``GITHUB_*`` environment, bash), on an ordinary repository with an
image, a DOCX, a PDF and Markdown: the OCR extra is installed, every file is read, the
annotations carry the human location and no personal value, and fail-on decides the step."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from support.action import ROOT, run_action
from support.pdf_build import make_pdf

PHONE = "13698765432"
CJK_FONT = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An ordinary repository: a scanned ID card photo, a contract DOCX, a PDF, a README."""
    import docx
    from PIL import Image, ImageDraw, ImageFont

    root = tmp_path_factory.mktemp("repo")
    if not CJK_FONT.exists():
        pytest.fail(f"{CJK_FONT} missing: run `make system-deps` (fonts-noto-cjk)")
    font = ImageFont.truetype(str(CJK_FONT), 28, index=2)
    image = Image.new("RGB", (700, 140), "white")
    draw = ImageDraw.Draw(image)
    draw.text((40, 30), "姓名：张三", font=font, fill="black")
    draw.text((40, 90), f"联系电话：{PHONE}", font=font, fill="black")
    (root / "assets").mkdir()
    image.save(root / "assets" / "id-card.png")
    document = docx.Document()
    document.add_paragraph("合同正文")
    table = document.add_table(rows=1, cols=2)
    table.cell(0, 0).text = "电话"
    table.cell(0, 1).text = PHONE
    document.save(str(root / "contract.docx"))
    make_pdf(root / "letter.pdf", [["第一页"], ["甲方：某某公司"]])
    (root / "README.md").write_text("# 项目\n\n说明文字。\n", "utf-8")
    return root


@pytest.fixture(scope="module")
def default_run(repo: Path, tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    return run_action(repo, tmp_path_factory.mktemp("runner"))


def test_installs_the_ocr_extra_and_reads_every_file(default_run, repo: Path) -> None:  # type: ignore[no-untyped-def]
    import json

    steps, outputs, pip_log = default_run
    assert pip_log.read_text("utf-8").split() == [
        "-m",
        "pip",
        "install",
        "--quiet",
        f"{ROOT}[docs,ocr]",
    ]
    install, check, fail = steps
    assert install.returncode == 0, install.stderr
    assert check.returncode == 0, check.stderr
    assert outputs["exit-code"] == "1", check.stderr
    assert "genlint: error" not in check.stderr, check.stderr
    annotations = [line for line in check.stdout.splitlines() if line.startswith("::")]
    text = "\n".join(annotations)
    assert PHONE not in check.stdout and PHONE not in (repo / "genlint.sarif").read_text("utf-8")
    assert "file=assets/id-card.png" in text
    assert "::contract.docx:table 1 row 1 cell 2: " in text
    assert "letter.pdf:page 2 line 1" in text
    sarif = json.loads((repo / "genlint.sarif").read_text("utf-8"))
    uris = {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        for r in sarif["runs"][0]["results"]
    }
    assert uris == {"assets/id-card.png", "contract.docx", "letter.pdf"}
    assert fail.returncode == 1 and "genlint found problems" in fail.stdout


@pytest.mark.parametrize(("fail_on", "code"), [("never", 0), ("error", 1), ("findings", 1)])
def test_fail_on(repo: Path, tmp_path: Path, fail_on: str, code: int) -> None:
    steps, outputs, _ = run_action(
        repo, tmp_path, paths="letter.pdf README.md", format="github", fail_on=fail_on
    )
    assert outputs["exit-code"] == "1"
    assert steps[-1].returncode == code, steps[-1].stdout + steps[-1].stderr


def test_fail_on_error_passes_warnings(repo: Path, tmp_path: Path) -> None:
    config = repo / "genlint.toml"
    config.write_text('[check]\nseverity = { placeholder = "warning" }\n', "utf-8")
    try:
        steps, outputs, _ = run_action(
            repo, tmp_path, paths="letter.pdf", format="sarif", fail_on="error"
        )
    finally:
        config.unlink()
    assert outputs["exit-code"] == "1" and len(steps) == 3
    assert steps[-1].returncode == 0, steps[-1].stdout


@pytest.mark.parametrize(
    ("inputs", "message"),
    [
        ({"extras": "docs]; touch PWNED; ["}, "extras must be names"),
        ({"format": "xml"}, "format must be github, sarif or both"),
        ({"format": ""}, "format is empty"),
    ],
)
def test_bad_inputs_fail_with_one_annotation(
    repo: Path, tmp_path: Path, inputs: dict[str, str], message: str
) -> None:
    steps, _, pip_log = run_action(repo, tmp_path, paths="README.md", **inputs)
    assert steps[-1].returncode == 2
    assert message in steps[-1].stdout
    assert not list(repo.glob("PWNED*"))
    if "extras" in inputs:
        assert not pip_log.exists(), "pip ran with a hostile extra"


def test_example_workflow_uploads_sarif_always_and_pins_a_commit() -> None:
    import yaml

    workflow = yaml.safe_load((ROOT / "docs/examples/github-workflow.yml").read_text("utf-8"))
    steps = workflow["jobs"]["check"]["steps"]
    upload = next(s for s in steps if "upload-sarif" in s.get("uses", ""))
    assert "always()" in upload["if"]
    genlint = next(s for s in steps if s.get("id") == "genlint")
    assert re.fullmatch(r"[\w-]+/genlint@[0-9a-f]{40}", genlint["uses"]), "pin a full commit"
    assert "ocr" in genlint["with"]["extras"] and "github" in genlint["with"]["format"]
