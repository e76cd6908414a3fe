"""`genlint mask` on scanned PDF pages: the page image gets opaque boxes over the OCR boxes of
its findings and replaces everything the page drew; the old image does not stay in the file;
the output reads clean by OCR and by ``check``."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from genlint import check_paths
from genlint.errors import InputError
from genlint.readers import ocr
from support.scans import PHONE, RESIDENT_ID, pdf_image_streams, render, scanned_pdf


def _make_mixed(path: Path) -> Path:
    """Page 1 a text page holding a phone number, page 2 a scan holding two values."""
    from pypdf import PdfReader, PdfWriter
    from reportlab.pdfgen import canvas

    text = path.with_suffix(".text.pdf")
    c = canvas.Canvas(str(text))
    c.drawString(72, 750, "Tel 13900001234 on the text page")
    c.showPage()
    c.save()
    scan = scanned_pdf(path.with_suffix(".scan.pdf"), [render()])
    writer = PdfWriter()
    writer.append(PdfReader(str(text)))
    writer.append(PdfReader(str(scan)))
    with path.open("wb") as fh:
        writer.write(fh)
    return path


@pytest.fixture(scope="module")
def masked(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    import contextlib

    from genlint.cli.main import main

    root = tmp_path_factory.mktemp("scanpdf")
    src = root / "in"
    src.mkdir()
    scanned_pdf(src / "scan.pdf", [render(("第一页没有个人信息。",)), render()])
    _make_mixed(root / "mixed.pdf").rename(src / "mixed.pdf")
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        code = main(
            [
                "mask",
                str(src / "scan.pdf"),
                str(src / "mixed.pdf"),
                "--out",
                str(root / "out"),
                "--format",
                "json",
            ]
        )
    return {"code": code, "report": json.loads(buffer.getvalue()), "src": src, "out": root / "out"}


def test_scanned_pages_are_masked_in_their_pixels(masked: dict[str, Any]) -> None:
    assert masked["code"] == 0
    scan = next(f for f in masked["report"]["files"] if f["path"].endswith("scan.pdf"))
    assert sorted((m["page"], m["rule"]) for m in scan["masked"]) == [
        (2, "sensitive/mobile"),
        (2, "sensitive/resident-id"),
    ]
    assert all(m["part"] == "image" and len(m["bbox"]) == 4 for m in scan["masked"])
    report = check_paths([masked["out"]], select=["sensitive"])
    assert report.exit_code == 0 and report.findings == []
    # the scan is still a scan: its other text is read by OCR from the output
    out = check_paths([masked["out"] / "scan.pdf"], select=["placeholder"])
    assert out.files[0].error is None


def test_ocr_of_the_output_pages_finds_no_value(masked: dict[str, Any]) -> None:
    data = (masked["out"] / "scan.pdf").read_bytes()
    pages = ocr.ocr_pdf_pages("scan.pdf", data, [0, 1])
    text = "\n".join(t for t, _ in pages.values())
    assert PHONE not in text and RESIDENT_ID[:-1] not in text
    assert "第一页没有个人信息" in text and "本合同自双方签字之日起生效" in text


def test_the_old_page_image_is_not_left_in_the_file(masked: dict[str, Any]) -> None:
    src = (masked["src"] / "scan.pdf").read_bytes()
    out = (masked["out"] / "scan.pdf").read_bytes()
    before, after = pdf_image_streams(src), pdf_image_streams(out)
    assert len(before) == 2 and len(after) == 2  # page 1 kept, page 2 replaced, nothing extra
    assert before[0] in after and before[1] not in after


def test_a_mixed_pdf_masks_its_text_page_and_its_scan(masked: dict[str, Any]) -> None:
    mixed = next(f for f in masked["report"]["files"] if f["path"].endswith("mixed.pdf"))
    assert sorted(m["page"] for m in mixed["masked"]) == [1, 2, 2]
    assert b"13900001234" not in (masked["out"] / "mixed.pdf").read_bytes()


def _pdf_with_image(width: int, height: int) -> bytes:
    """One page drawing an image whose header claims ``width`` x ``height`` pixels."""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] "
        b"/Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>",
        b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray "
        b"/BitsPerComponent 8 /Length 4 >>\nstream\n\xff\xff\xff\xff\nendstream" % (width, height),
        b"<< /Length 35 >>\nstream\nq 595 0 0 842 0 0 cm /Im0 Do Q\nendstream",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def test_a_page_image_too_large_to_decode_is_refused_before_rendering(
    run_cli: Any, tmp_path: Path
) -> None:
    path = tmp_path / "huge.pdf"
    path.write_bytes(_pdf_with_image(200_000, 200_000))  # 40 GB of pixels if decoded
    for args in (["check", str(path)], ["mask", str(path), "--out", str(tmp_path / "out")]):
        result = run_cli(*args)
        assert result.code == 2, result.err
        assert "an image on page 1 of 200000x200000 pixels is too large to OCR" in result.err
        assert result.err.count("genlint: error:") == 1
    assert not (tmp_path / "out" / "huge.pdf").exists()


def test_a_large_page_is_rendered_at_a_lower_scale_down_to_legibility() -> None:
    assert ocr.page_scale("p.pdf", 0, 595, 842) == ocr.PDF_SCALE
    poster = ocr.page_scale("p.pdf", 0, 7_200, 7_200)  # 100 x 100 inches
    assert ocr.MIN_SCALE <= poster < ocr.PDF_SCALE and (7_200 * poster) ** 2 <= ocr.MAX_PIXELS
    with pytest.raises(InputError, match="pixels"):  # 200 x 200 inches: 36 dpi would not fit
        ocr.page_scale("p.pdf", 0, 14_400, 14_400)
