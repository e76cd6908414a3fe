"""Hostile files for tests/test_hostile.py, generated (nothing read from outside the repository):
a DOCX whose entry lies about its size, DOCX parts nested too deeply or using entities, PDFs
with an inline-image scan or a page of 200 × 200 inches, damaged mostly-ASCII UTF-8."""

from __future__ import annotations

import io
import random
import struct
import zipfile
import zlib
from pathlib import Path

from support.docx_build import new_document, to_bytes


def _docx_with(transform: object) -> dict[str, bytes]:
    document = new_document()
    document.add_paragraph("电话13812345678")
    with zipfile.ZipFile(io.BytesIO(to_bytes(document))) as archive:
        parts = {name: archive.read(name) for name in archive.namelist()}
    if callable(transform):
        parts["word/document.xml"] = transform(parts["word/document.xml"])
    return parts


def write_docx(path: Path, parts: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in parts.items():
            archive.writestr(name, data)
    return path


def lying_zip_bomb(path: Path, inflated_mb: int = 700) -> Path:
    """A DOCX whose ``word/document.xml`` declares its real size and CRC but whose deflate
    stream goes on with ``inflated_mb`` MB of zeros: ``zipfile`` inflates all of it in one
    call before cutting it to the declared size."""
    parts = _docx_with(None)
    xml = parts.pop("word/document.xml")
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
    stream = [deflate.compress(xml) + deflate.flush(zlib.Z_FULL_FLUSH)]
    zeros = deflate.compress(b"\0" * (1 << 20)) + deflate.flush(zlib.Z_FULL_FLUSH)
    stream += [zeros] * inflated_mb  # after a full flush every megabyte compresses alike
    stream.append(deflate.flush(zlib.Z_FINISH))
    entries = [(name, zlib.compress(data, 6)[2:-4], zlib.crc32(data), len(data))
               for name, data in parts.items()]
    entries.insert(0, ("word/document.xml", b"".join(stream), zlib.crc32(xml), len(xml)))
    return _raw_zip(path, entries)


def _raw_zip(path: Path, entries: list[tuple[str, bytes, int, int]]) -> Path:
    """A ZIP written by hand, so an entry's declared size can differ from its data."""
    out = io.BytesIO()
    central = []
    for name, data, crc, size in entries:
        offset = out.tell()
        encoded = name.encode()
        out.write(struct.pack("<4sHHHHHIIIHH", b"PK\x03\x04", 20, 0, 8, 0, 0, crc, len(data),
                              size, len(encoded), 0) + encoded + data)
        central.append(struct.pack("<4sHHHHHHIIIHHHHHII", b"PK\x01\x02", 20, 20, 0, 8, 0, 0,
                                   crc, len(data), size, len(encoded), 0, 0, 0, 0, 0, offset)
                       + encoded)
    start = out.tell()
    directory = b"".join(central)
    out.write(directory)
    out.write(struct.pack("<4sHHHHIIH", b"PK\x05\x06", 0, 0, len(entries), len(entries),
                          len(directory), start, 0))
    path.write_bytes(out.getvalue())
    return path


def deep_docx(path: Path, levels: int = 300) -> Path:
    def deepen(xml: bytes) -> bytes:
        text = xml.decode()
        at = text.index("<w:body>") + len("<w:body>")
        inner = "<w:p><w:r><w:t>深处电话13912345678</w:t></w:r></w:p>"
        nested = "<w:sdt><w:sdtContent>" * levels + inner + "</w:sdtContent></w:sdt>" * levels
        return (text[:at] + nested + text[at:]).encode()

    return write_docx(path, _docx_with(deepen))


def entity_docx(path: Path) -> Path:
    def entity(xml: bytes) -> bytes:
        text = xml.decode()
        text = text.replace("?>", '?><!DOCTYPE w:document [<!ENTITY co "某某公司">]>', 1)
        return text.replace("电话13812345678", "&co;之后电话13812345678").encode()

    return write_docx(path, _docx_with(entity))


def inline_image_pdf(path: Path, page: tuple[float, float] = (595, 842)) -> Path:
    """A scan whose page image is drawn inline (``BI … ID … EI``), not as an image resource."""
    from PIL import Image, ImageDraw
    from reportlab.pdfgen import canvas

    image = Image.new("RGB", (400, 100), "white")
    ImageDraw.Draw(image).text((10, 40), "Tel 13812345678", fill="black")
    c = canvas.Canvas(str(path), pagesize=page)
    c.drawInlineImage(image, 50, 600, 400, 100)
    c.save()
    return path


def damaged_ascii(path: Path, seed: int = 3) -> Path:
    """Mostly-ASCII UTF-8 with a dozen stray bytes (a detector called it mac_latin2)."""
    rng = random.Random(seed)
    data = bytearray(b"Contact ops@example.com, phone 13812345678. All good here. " * 4)
    for _ in range(12):
        data.insert(rng.randrange(len(data)), rng.choice([0x80, 0x9F, 0xA5, 0xC3, 0xE9, 0xF0, 0xFF]))
    path.write_bytes(bytes(data))
    return path
