"""PDF encryption, page-relative lines, and scans read by real OCR (the ``ocr`` extra, which
``make test`` installs): a scanned page is never a silent pass."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from genlint import check_paths
from genlint.readers import ocr

from .conftest import make_pdf

# fonts-noto-cjk, installed by `make test` (Makefile: system-deps)
_CJK_FONT = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
SCAN_LINES = ("甲方：某某有限公司", "联系电话：13812345678", "本合同自双方签字之日起生效。")


def _scan_image(lines: tuple[str, ...] = SCAN_LINES):  # type: ignore[no-untyped-def]
    from PIL import Image, ImageDraw, ImageFont

    if not _CJK_FONT.exists():
        pytest.fail(f"{_CJK_FONT} missing: run `make system-deps` (fonts-noto-cjk)")
    font = ImageFont.truetype(str(_CJK_FONT), 28, index=2)  # index 2: Simplified Chinese
    image = Image.new("RGB", (900, 60 + 70 * len(lines)), "white")
    draw = ImageDraw.Draw(image)
    for i, line in enumerate(lines):
        draw.text((40, 30 + 70 * i), line, font=font, fill="black")
    return image


def _scanned_pdf(path: Path, pages: int = 1) -> Path:
    """An image-only PDF, as a scanner writes it: no text layer at all."""
    images = [_scan_image() for _ in range(pages)]
    images[0].save(path, save_all=True, append_images=images[1:], resolution=72)
    return path


def test_aes_encrypted_pdf_with_only_an_owner_password_is_read(tmp_path: Path) -> None:
    from pypdf import PdfReader, PdfWriter

    path = make_pdf(tmp_path / "limited.pdf", [["甲方：某某公司"]])
    writer = PdfWriter(clone_from=PdfReader(str(path)))
    writer.encrypt("", "owner-secret", algorithm="AES-256")
    with path.open("wb") as fh:
        writer.write(fh)
    assert PdfReader(str(path)).is_encrypted
    (file,) = check_paths([path]).files
    assert file.error is None
    assert [f.text for f in file.findings] == ["某某公司"]


def test_pdf_that_needs_a_password_says_so(tmp_path: Path) -> None:
    path = make_pdf(tmp_path / "locked.pdf", [["某某公司"]], password="user-secret")
    (file,) = check_paths([path]).files
    assert file.error == f"{path}: encrypted PDF needs a password; genlint cannot read its text"


def test_pdf_lines_count_from_the_top_of_their_page(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = make_pdf(
        tmp_path / "two.pdf", [["第一页", "正文", "正文"], ["第二页", "乙方：某某公司"]]
    )
    (finding,) = check_paths([path]).findings
    assert (finding.page, finding.line, finding.text) == (2, 2, "某某公司")
    result = run_cli("check", str(path))
    assert "two.pdf:page 2 line 2: error placeholder/mou-entity" in result.out


def test_a_scan_without_ocr_is_bad_input_naming_pages_and_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run_cli
) -> None:  # type: ignore[no-untyped-def]
    scan = _scanned_pdf(tmp_path / "scan.pdf", pages=3)
    text = make_pdf(tmp_path / "text.pdf", [["某某公司"]])
    monkeypatch.setattr(ocr, "available", lambda: False)
    result = run_cli("check", str(scan), str(text))
    assert result.code == 2  # never 0, though the other file was read
    assert (
        f"genlint: error: {scan}: pages 1-3 have no text layer; reading it needs OCR: "
        "pip install 'genlint[ocr]'"
    ) in result.err
    assert "text.pdf:page 1 line 1: error placeholder/mou-entity" in result.out


def test_an_image_without_ocr_and_a_file_that_is_not_an_image(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "photo.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 40)
    (tmp_path / "fake.jpg").write_text("just text", "utf-8")
    monkeypatch.setattr(ocr, "available", lambda: False)
    report = check_paths([tmp_path])
    errors = {Path(f.path).name: f.error for f in report.files}
    assert errors["fake.jpg"] == f"{tmp_path / 'fake.jpg'}: not an image (PNG, JPEG or TIFF)"
    assert "an image has no text layer; reading it needs OCR" in (errors["photo.png"] or "")
    assert report.exit_code == 2


def test_a_damaged_image_is_bad_input_with_ocr(tmp_path: Path) -> None:
    (tmp_path / "broken.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 40)
    (file,) = check_paths([tmp_path / "broken.png"]).files
    assert file.error and file.error.startswith(f"{tmp_path / 'broken.png'}: cannot read image")


@pytest.fixture(scope="module")
def ocr_report(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """One real OCR run over a scanned PDF page, a PNG, and a PDF mixing a text page and a
    scanned page (OCR takes about a second per small page on this machine)."""
    root = tmp_path_factory.mktemp("scans")
    _scanned_pdf(root / "scan.pdf")
    _scan_image().save(root / "photo.png")
    # page 1 with a text layer, page 2 a scan
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    writer.append(PdfReader(str(make_pdf(root / "t.pdf", [["第一页正文，没有问题。"]]))))
    writer.append(PdfReader(str(root / "scan.pdf")))
    with (root / "mixed.pdf").open("wb") as fh:
        writer.write(fh)
    (root / "t.pdf").unlink()
    return check_paths(sorted(root.iterdir()))


def test_ocr_finds_placeholders_and_personal_data_on_a_scanned_page(ocr_report) -> None:  # type: ignore[no-untyped-def]
    files = {Path(f.path).name: f for f in ocr_report.files}
    scan = files["scan.pdf"]
    assert scan.error is None and scan.warnings == [f"read by OCR ({ocr.engine_name()}): page 1 (no text layer)"]
    by_text = {f.text: f for f in scan.findings}
    assert {"某某有限公司", "13812345678"} <= set(by_text)
    finding = by_text["某某有限公司"]
    assert finding.page == 1 and finding.line == 1
    x0, y0, x1, y1 = finding.location["bbox"]
    # drawn at x=40, y=30..70 in a 900-pixel-wide image saved at 72 dpi (1 px = 1 pt)
    assert 20 <= x0 < x1 <= 400 and 15 <= y0 < y1 <= 90
    assert finding.location["confidence"] > 0.8
    assert by_text["13812345678"].line == 2
    assert ocr_report.exit_code == 1


def test_ocr_reads_images_with_pixel_boxes(ocr_report) -> None:  # type: ignore[no-untyped-def]
    photo = next(f for f in ocr_report.files if f.path.endswith("photo.png"))
    finding = next(f for f in photo.findings if f.text == "13812345678")
    assert finding.page is None and finding.line == 2
    assert finding.to_dict()["bbox"][1] > 80  # second line, below the first
    assert 0 < finding.to_dict()["confidence"] <= 1


def test_only_the_scanned_page_of_a_mixed_pdf_is_ocred(ocr_report) -> None:  # type: ignore[no-untyped-def]
    mixed = next(f for f in ocr_report.files if f.path.endswith("mixed.pdf"))
    assert mixed.warnings == [f"read by OCR ({ocr.engine_name()}): page 2 (no text layer)"]
    found = {f.text: f for f in mixed.findings}
    assert found["某某有限公司"].page == 2 and found["某某有限公司"].line == 1
    assert "bbox" in found["某某有限公司"].location


def test_ocr_findings_in_json_and_sarif(ocr_report) -> None:  # type: ignore[no-untyped-def]
    from genlint.check.reporters import render

    data = json.loads(render("json", ocr_report))
    scan = next(f for f in data["files"] if f["path"].endswith("scan.pdf"))
    first = scan["findings"][0]
    assert {"page", "bbox", "confidence"} <= set(first)
    sarif = json.loads(render("sarif", ocr_report))
    result = sarif["runs"][0]["results"][0]
    assert result["locations"][0]["logicalLocations"][0]["name"] == "page 2 line 1"  # mixed.pdf


_PAGE_LINES = st.lists(
    st.sampled_from(["正文内容。", "甲方：某某公司", "", "电话13812345678", "X年X月X日签订"]),
    min_size=1,
    max_size=5,
).map("\n".join)


@settings(max_examples=60, deadline=None)
@given(pages=st.lists(_PAGE_LINES, min_size=1, max_size=4))
def test_page_and_line_always_point_at_the_finding(pages: list[str]) -> None:
    from genlint.check.engine import Checker

    text = "\n".join(pages)
    starts, pos = [], 0
    for page in pages:
        starts.append(pos)
        pos += len(page) + 1
    for finding in Checker().check(text, page_starts=starts):
        assert finding.page is not None
        line = pages[finding.page - 1].split("\n")[finding.line - 1]
        assert line[finding.column - 1 :].startswith(finding.text)


def test_a_tiff_with_more_pages_than_the_limit_is_refused_not_cut(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from PIL import Image

    from genlint.readers import image

    monkeypatch.setattr(image, "MAX_FRAMES", 2)
    frames = [Image.new("L", (40, 40), 255) for _ in range(3)]
    path = tmp_path / "scan.tif"
    frames[0].save(path, save_all=True, append_images=frames[1:])
    (file,) = check_paths([path]).files
    assert file.error == f"{path}: 3 pages in one image file, over the 2-page limit"
