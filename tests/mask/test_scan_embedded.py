"""Images inside documents (issue 22, pixels): a number in a picture pasted into a DOCX or drawn
on a PDF text page is found by check (part ``image``) and covered by mask in the picture's own
pixels; without OCR the images are listed as not read, and ``mask --strict`` refuses them."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from typing import Any

import pytest

from genlint.readers import ocr
from support.scans import PHONE, pdf_image_streams, render

EMF = b"\x01\x00\x00\x00" + b"\x00" * 36 + b" EMF" + b"\x00" * 40  # an EMF header: not decodable


@pytest.fixture(scope="module")
def docs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A DOCX with the number in a pasted picture (and an EMF picture), and a PDF whose text
    page draws the same picture."""
    import docx
    from reportlab.pdfgen import canvas

    root = tmp_path_factory.mktemp("embedded")
    picture = root / "card.png"
    render((f"联系电话：{PHONE}",), width_in=8).save(picture)
    document = docx.Document()
    document.add_paragraph("合同正文，没有个人信息。")
    document.add_picture(str(picture))
    document.save(str(root / "with_picture.docx"))
    _add_member(root / "with_picture.docx", "word/media/image9.emf", EMF)
    c = canvas.Canvas(str(root / "with_picture.pdf"))
    c.drawString(72, 780, "This page has a text layer of its own, long enough.")
    c.drawImage(str(picture), 72, 500, 400, 60)
    c.showPage()
    c.save()
    return root


def _add_member(path: Path, name: str, data: bytes) -> None:
    with zipfile.ZipFile(path, "a") as archive:
        archive.writestr(name, data)


def test_check_finds_the_number_in_pictures(run_cli: Any, docs: Path) -> None:
    result = run_cli(
        "check",
        str(docs / "with_picture.docx"),
        str(docs / "with_picture.pdf"),
        "--select",
        "sensitive",
        "--format",
        "json",
    )
    files = {Path(f["path"]).name: f for f in json.loads(result.out)["files"]}
    (in_docx,) = files["with_picture.docx"]["findings"]
    assert (in_docx["part"], in_docx["image"]) == ("image", "word/media/image1.png")
    assert len(in_docx["bbox"]) == 4
    assert files["with_picture.docx"]["images_not_read"] == ["word/media/image9.emf"]
    (in_pdf,) = files["with_picture.pdf"]["findings"]
    assert (in_pdf["part"], in_pdf["image"], in_pdf["page"]) == ("image", "page 1 image 1", 1)
    text = run_cli(
        "check",
        str(docs / "with_picture.docx"),
        str(docs / "with_picture.pdf"),
        "--select",
        "sensitive",
    ).out
    assert "with_picture.docx:image word/media/image1.png line 1: error sensitive/mobile" in text
    assert "with_picture.pdf:page 1 image 1 line 1: error sensitive/mobile" in text


def test_mask_covers_the_pictures_and_keeps_the_rest(
    run_cli: Any, docs: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    result = run_cli(
        "mask",
        str(docs / "with_picture.docx"),
        str(docs / "with_picture.pdf"),
        "--out",
        str(out),
        "--format",
        "json",
    )
    assert result.code == 0, result.err
    report = json.loads(result.out)
    assert [len(f["masked"]) for f in report["files"]] == [1, 1]
    assert (
        "1 image(s) not read for personal data (a format OCR cannot decode): "
        "word/media/image9.emf" in result.err
    )
    check = run_cli("check", str(out), "--select", "sensitive", "--format", "json")
    assert check.code == 0 and json.loads(check.out)["summary"]["findings"] == 0
    with (
        zipfile.ZipFile(out / "with_picture.docx") as masked,
        zipfile.ZipFile(docs / "with_picture.docx") as original,
    ):
        picture = masked.read("word/media/image1.png")
        assert PHONE not in ocr.recognise(_image(picture))[0]
        assert masked.read("word/document.xml") == original.read("word/document.xml")
        assert masked.namelist() == original.namelist()
        thumb = _image(masked.read("docProps/thumbnail.jpeg"))
        assert all(low >= 250 for low, _ in thumb.getextrema())  # blank white
        assert thumb.size == _image(original.read("docProps/thumbnail.jpeg")).size
    pdf = (out / "with_picture.pdf").read_bytes()
    from pypdf import PdfReader

    assert "text layer of its own" in PdfReader(io.BytesIO(pdf)).pages[0].extract_text()
    assert len(pdf_image_streams(pdf)) == 1  # the old picture is not left behind
    assert PHONE not in ocr.recognise(_image_from_pdf(pdf))[0]


def test_without_ocr_pictures_are_listed_and_strict_refuses(
    run_cli: Any, docs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ocr, "available", lambda: False)
    check = run_cli("check", str(docs / "with_picture.docx"), "--format", "json")
    (file,) = json.loads(check.out)["files"]
    assert file["images_not_read"] == [
        "word/media/image1.png",
        "docProps/thumbnail.jpeg",
        "word/media/image9.emf",
    ]
    assert check.err.count("not read for personal data (OCR is not installed") == 1
    loose = run_cli("mask", str(docs / "with_picture.docx"), "--out", str(tmp_path / "loose"))
    # the thumbnail needs no reading: mask blanks it
    assert loose.code == 0 and "2 image(s) not read for personal data" in loose.err
    strict = run_cli(
        "mask", str(docs / "with_picture.docx"), "--out", str(tmp_path / "strict"), "--strict"
    )
    assert strict.code == 2
    assert (
        "2 image(s) not read for personal data" in strict.err and "--strict refuses" in strict.err
    )
    assert not (tmp_path / "strict" / "with_picture.docx").exists()


def test_without_ocr_a_pdf_pages_picture_is_listed_and_strict_refuses(
    run_cli: Any, docs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ocr, "available", lambda: False)
    pdf = str(docs / "with_picture.pdf")
    check = run_cli("check", pdf, "--format", "json")
    (file,) = json.loads(check.out)["files"]
    assert file["images_not_read"] == ["page 1 image 1"]
    # mask keeps the picture as it is: it says so, and --strict refuses the file
    loose = run_cli("mask", pdf, "--out", str(tmp_path / "loose"))
    assert loose.code == 0
    assert "1 image(s) not read for personal data (OCR is not installed" in loose.err
    assert "page 1 image 1" in loose.err
    strict = run_cli("mask", pdf, "--out", str(tmp_path / "strict"), "--strict")
    assert strict.code == 2 and "--strict refuses" in strict.err
    assert not (tmp_path / "strict" / "with_picture.pdf").exists()


def _image(data: bytes) -> Any:
    from PIL import Image

    return Image.open(io.BytesIO(data)).convert("RGB")


def _image_from_pdf(data: bytes) -> Any:
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(data)
    try:
        (obj,) = [o for o in pdf[0].get_objects() if o.type == pdfium.raw.FPDF_PAGEOBJ_IMAGE]
        return obj.get_bitmap(render=False).to_pil().convert("RGB")
    finally:
        pdf.close()
