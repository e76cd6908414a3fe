"""genlint mask on PDF: true redaction. Afterwards no value can be extracted (pypdf, PDFium,
the decompressed streams of the file), check finds nothing, and the page shows boxes."""

from __future__ import annotations

import io
import zlib
from pathlib import Path

import pytest

pytest.importorskip("pypdfium2")
pytest.importorskip("reportlab")

from genlint import check_paths
from genlint.errors import InputError
from genlint.mask import Masker
from genlint.mask.pdf import mask_pdf

PHONE = "13812345678"
MAIL = "zhangsan@163.com"


def make_pdf(lines: list[str], *, encrypt: str | None = None) -> bytes:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    buffer = io.BytesIO()
    c = canvas.Canvas(buffer, encrypt=encrypt)
    y = 750
    for line in lines:
        c.setFont("STSong-Light" if any(ord(ch) > 127 for ch in line) else "Helvetica", 12)
        c.drawString(72, y, line)
        y -= 20
    c.showPage()
    c.save()
    return buffer.getvalue()


def _streams(data: bytes) -> bytes:
    """Every stream of the file, decompressed: what a forensic look would see."""
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(data))
    out = [data]
    for num in range(1, len(reader.xref_objStm) + 200):
        try:
            obj = reader.get_object(num)
        except Exception:
            continue
        if hasattr(obj, "get_data"):
            try:
                out.append(obj.get_data())
            except Exception:
                out.append(zlib.decompress(obj._data) if obj._data else b"")
    return b"".join(out)


def test_values_are_removed_from_the_text_layer_and_boxed(tmp_path: Path) -> None:
    import pypdfium2 as pdfium

    data = make_pdf([f"原告张三，联系电话{PHONE}。", "本院认为，原告的诉讼请求合法有据，应予支持。",
                     f"E-mail: {MAIL} ok"])
    result = mask_pdf("a.pdf", data, Masker())
    assert [r.rule for r in result.replacements] == ["sensitive/mobile", "sensitive/email"]
    assert all(r.page == 1 and r.replacement == "[redacted]" for r in result.replacements)
    out = tmp_path / "a.pdf"
    out.write_bytes(result.data)
    report = check_paths([str(out)], select="sensitive")
    assert report.files[0].error is None and report.files[0].findings == []
    from pypdf import PdfReader

    text = PdfReader(str(out)).pages[0].extract_text()
    assert "本院认为，原告的诉讼请求合法有据，应予支持。" in text  # lines without a value keep their text layer
    assert PHONE not in text and "zhangsan" not in text
    assert b"zhangsan" not in _streams(result.data)  # not even in an orphaned old stream
    # the page shows black where the value was
    page = pdfium.PdfDocument(result.data)[0]
    image = page.render(scale=1).to_pil().convert("L")
    dark = sum(1 for v in image.tobytes() if v < 30)
    assert dark > 500


def test_a_clean_pdf_is_unchanged() -> None:
    data = make_pdf(["脱敏后：138****5678"])
    assert mask_pdf("a.pdf", data, Masker()).data == data


def test_an_encrypted_pdf_is_refused() -> None:
    data = make_pdf([f"电话{PHONE}"], encrypt="secret")
    with pytest.raises(InputError, match="encrypted PDF"):
        mask_pdf("a.pdf", data, Masker())


def test_cli_refuses_a_scan_without_ocr_and_leaves_nothing(run_cli, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from PIL import Image

    from genlint.readers import ocr

    monkeypatch.setattr(ocr, "available", lambda: False)  # with OCR: tests/mask/test_scan_pdf.py

    image = tmp_path / "scan.png"
    Image.new("RGB", (200, 100), "white").save(image)
    from reportlab.pdfgen import canvas

    pdf = tmp_path / "in" / "scan.pdf"
    pdf.parent.mkdir()
    c = canvas.Canvas(str(pdf))
    c.drawImage(str(image), 0, 0, 595, 842)
    c.showPage()
    c.save()
    before = pdf.read_bytes()
    result = run_cli("mask", str(pdf), "--out", str(tmp_path / "out"))
    assert result.code == 2
    assert "no text layer" in result.err and result.err.count("\n") == 1
    assert "needs OCR: pip install 'genlint[ocr]'" in result.err
    assert pdf.read_bytes() == before
    assert not (tmp_path / "out" / "scan.pdf").exists()
