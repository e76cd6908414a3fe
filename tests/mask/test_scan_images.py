"""`genlint mask` on images (PNG, JPEG, multi-frame TIFF): personal data read by real OCR is
covered in the pixels, metadata is dropped, the output reads clean by OCR, and hostile or
damaged images are one clear error with nothing written."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from genlint import check_paths
from genlint.readers import ocr
from support.scans import PHONE, RESIDENT_ID, render

KEPT = "本合同自双方签字之日起生效"


def _ocr_text(path: Path) -> str:
    from PIL import Image

    with Image.open(path) as image:
        texts = []
        for frame in range(getattr(image, "n_frames", 1)):
            image.seek(frame)
            texts.append(ocr.recognise(image.convert("RGB"))[0])
    return "\n".join(texts)


@pytest.fixture(scope="module")
def masked(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """One mask run over a PNG, a JPEG with EXIF and ICC data, and a two-frame TIFF."""
    from genlint.cli.main import main

    root = tmp_path_factory.mktemp("images")
    src = root / "in"
    src.mkdir()
    render().save(src / "card.png", pnginfo=_png_text(f"owner {PHONE}"))
    exif = _exif_with(f"tel {PHONE}")
    render().save(src / "photo.jpg", exif=exif, icc_profile=b"\0" * 128, quality=95)
    frames = [render(("第一页，没有个人信息。",)), render()]
    frames[0].save(
        src / "pages.tif",
        save_all=True,
        append_images=frames[1:],
        tiffinfo={0x013B: f"tel {PHONE}", 0x010E: f"owner {PHONE}"},
    )
    out = root / "out"
    buffer = io.StringIO()
    import contextlib

    with contextlib.redirect_stdout(buffer):
        code = main(["mask", str(src), "--out", str(out), "--format", "json"])
    return {"code": code, "report": json.loads(buffer.getvalue()), "src": src, "out": out}


def _png_text(value: str) -> Any:
    from PIL import PngImagePlugin

    info = PngImagePlugin.PngInfo()
    info.add_text("Author", value)
    info.add_itxt("XML:com.adobe.xmp", f"<x:xmpmeta><dc:creator>{value}</dc:creator></x:xmpmeta>")
    return info


def _exif_with(value: str) -> bytes:
    from PIL import Image

    exif = Image.Exif()
    exif[0x013B] = value  # Artist
    return exif.tobytes()


def test_images_are_masked_and_read_clean_by_ocr(masked: dict[str, Any]) -> None:
    assert masked["code"] == 0
    files = {Path(f["path"]).name: f for f in masked["report"]["files"]}
    for name in ("card.png", "photo.jpg"):
        rules = sorted(m["rule"] for m in files[name]["masked"])
        assert rules == ["sensitive/mobile", "sensitive/resident-id"], name
        text = _ocr_text(masked["out"] / name)
        assert PHONE not in text and RESIDENT_ID[:-1] not in text
        assert KEPT in text  # only the values are covered, not the page
    (page_two,) = {m["page"] for m in files["pages.tif"]["masked"]}
    assert page_two == 2  # the second frame held the values
    report = check_paths([masked["out"]], select=["sensitive"])
    assert report.findings == [] and report.exit_code == 0
    assert PHONE not in json.dumps(masked["report"])


def test_each_masked_value_has_its_box_in_pixels(masked: dict[str, Any]) -> None:
    card = next(f for f in masked["report"]["files"] if f["path"].endswith("card.png"))
    phone = next(m for m in card["masked"] if m["rule"] == "sensitive/mobile")
    x0, y0, x1, y1 = phone["bbox"]
    # drawn at y=100..135 after the label "联系电话：" (5 x 28 px from x=40, so x=180), eleven
    # digits of ~15 px: the box starts at most a character early and ends at most one late
    assert 140 <= x0 <= 185 and 330 <= x1 <= 385 and 90 <= y0 < y1 <= 145
    assert phone["part"] == "image" and phone["replacement"] == "[redacted]"


# ImageDescription, Artist, Copyright, XMP, ICC profile, the EXIF and GPS sub-directories
_PRIVATE_TAGS = {0x010E, 0x013B, 0x8298, 700, 34675, 0x8769, 0x8825}


def test_metadata_is_dropped(masked: dict[str, Any]) -> None:
    from PIL import Image

    for name in ("card.png", "photo.jpg", "pages.tif"):
        data = (masked["out"] / name).read_bytes()
        assert PHONE.encode() not in data and b"xmpmeta" not in data
        with Image.open(io.BytesIO(data)) as image:
            # a TIFF's own structure is tags too; what may carry personal data must be gone
            assert not _PRIVATE_TAGS & set(image.getexif()) and "icc_profile" not in image.info
            assert name.endswith(".tif") or not image.getexif()
            assert not {"Author", "XML:com.adobe.xmp", "exif"} & set(image.info)
    with Image.open(masked["out"] / "pages.tif") as tiff:
        assert tiff.n_frames == 2


def test_token_style_draws_the_token_and_keeps_it_in_the_vault(
    run_cli: Any, tmp_path: Path
) -> None:
    render().save(tmp_path / "card.png")
    vault = tmp_path / "vault.json"
    result = run_cli(
        "mask",
        str(tmp_path / "card.png"),
        "--out",
        str(tmp_path / "out"),
        "--style",
        "token",
        "--vault",
        str(vault),
    )
    assert result.code == 0, result.err
    text = _ocr_text(tmp_path / "out" / "card.png")
    # the token is drawn in the box; a file vault's token carries its random id
    # (<PHONE_1_srnmlw>), and OCR may read an underscore of it as nothing
    assert PHONE not in text and re.search(r"PHONE_?1", text), text
    assert PHONE in vault.read_text("utf-8")


def test_a_value_still_readable_after_redaction_is_refused(
    run_cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from genlint.mask import images

    monkeypatch.setattr(
        images, "_cover", lambda image, box, label: None
    )  # a box that hides nothing
    render().save(tmp_path / "card.png")
    result = run_cli("mask", str(tmp_path / "card.png"), "--out", str(tmp_path / "out"))
    assert result.code == 2
    assert "still readable by OCR after redaction; nothing written" in result.err
    assert result.err.count("\n") == 1 and PHONE not in result.err
    assert not (tmp_path / "out" / "card.png").exists()


def test_without_ocr_an_image_is_refused_naming_the_extra(
    run_cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    render(("空白",)).save(tmp_path / "card.png")
    monkeypatch.setattr(ocr, "available", lambda: False)
    result = run_cli("mask", str(tmp_path / "card.png"), "--out", str(tmp_path / "out"))
    assert result.code == 2
    assert "needs OCR: pip install 'genlint[ocr]'" in result.err
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def _png_header(width: int, height: int) -> bytes:
    import struct
    import zlib

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    return (
        b"\x89PNG\r\n\x1a\n"
        + struct.pack(">I", len(ihdr))
        + chunk
        + struct.pack(">I", zlib.crc32(chunk))
    )


@pytest.mark.parametrize(
    ("name", "make", "message"),
    [
        ("bomb.png", lambda: _png_header(100_000, 100_000), "cannot read image"),
        ("truncated.png", lambda: _encoded(render(("截断",)), "PNG")[:300], "cannot read image"),
        ("strip.png", lambda: _encoded(_strip(), "PNG"), "too large to OCR"),
    ],
)
def test_hostile_images_are_one_clear_error(
    run_cli: Any, tmp_path: Path, name: str, make: Any, message: str
) -> None:
    (tmp_path / name).write_bytes(make())
    for command in ("check", "mask"):
        args = [command, str(tmp_path / name)] + (
            ["--out", str(tmp_path / "out")] if command == "mask" else []
        )
        result = run_cli(*args)
        assert result.code == 2, (command, result.err)
        assert message in result.err and result.err.count("genlint: error:") == 1
        assert "Traceback" not in result.err
    assert not (tmp_path / "out" / name).exists()


def _strip() -> Any:
    from PIL import Image

    return Image.new("L", (100_001, 2), 255)


def _encoded(image: Any, fmt: str) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, fmt)
    return buffer.getvalue()


_LINE = st.text(alphabet="中文号码0123456789abc：", min_size=1, max_size=30)


@given(line=_LINE, data=st.data())
def test_a_span_box_lies_in_its_line_and_grows_with_the_span(
    line: str, data: st.DataObject
) -> None:
    from genlint.mask.images import PAD, _span_boxes

    a = data.draw(st.integers(0, len(line) - 1))
    b = data.draw(st.integers(a + 1, len(line)))
    c = data.draw(st.integers(0, a))
    d = data.draw(st.integers(b, len(line)))
    lines = [(0, len(line), [10.0, 20.0, 10.0 + 20 * len(line), 50.0])]
    ((x0, y0, x1, y1),) = _span_boxes(line, lines, a, b)
    ((u0, _, u1, _),) = _span_boxes(line, lines, c, d)
    assert 10 - PAD <= x0 < x1 <= 10 + 20 * len(line) + PAD and (y0, y1) == (20 - PAD, 50 + PAD)
    assert u0 <= x0 and x1 <= u1  # a wider span is covered by a box at least as wide


def test_a_photo_turned_by_its_exif_orientation_is_read_and_written_upright(
    run_cli: Any, tmp_path: Path
) -> None:
    from PIL import Image

    upright = render(width_in=10)
    exif = Image.Exif()
    exif[0x0112] = 6  # "turn 90 degrees clockwise to show": what phone cameras write
    upright.rotate(90, expand=True).save(tmp_path / "photo.jpg", exif=exif, quality=95)
    result = run_cli(
        "mask", str(tmp_path / "photo.jpg"), "--out", str(tmp_path / "out"), "--format", "json"
    )
    assert result.code == 0, result.err
    assert len(json.loads(result.out)["files"][0]["masked"]) == 2
    with Image.open(tmp_path / "out" / "photo.jpg") as masked:
        assert masked.size == upright.size and not masked.getexif()
    text = _ocr_text(tmp_path / "out" / "photo.jpg")
    assert KEPT in text and PHONE not in text
