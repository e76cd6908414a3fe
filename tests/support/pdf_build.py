"""Real PDFs with Chinese text for the tests (reportlab's built-in STSong-Light CID font, no
font file), optionally encrypted with pypdf."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path


def make_pdf(
    path: Path,
    pages: Sequence[Sequence[str]],
    password: str | None = None,
    owner_password: str | None = None,
) -> Path:
    """A PDF whose pages hold the given lines, in the CID font STSong-Light (no font file)."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    c = canvas.Canvas(str(path), pagesize=A4)
    for lines in pages:
        c.setFont("STSong-Light", 12)
        y = 800
        for line in lines:
            c.drawString(60, y, line)
            y -= 20
        c.showPage()
    c.save()
    if password is not None or owner_password is not None:
        from pypdf import PdfReader, PdfWriter

        writer = PdfWriter(clone_from=PdfReader(str(path)))
        writer.encrypt(password or "", owner_password, algorithm="RC4-128")
        with path.open("wb") as fh:
            writer.write(fh)
    return path


# --- the leak audit's PDFs: distinct personal-data values planted in every place a PDF keeps
# text (page text, text drawn one character per object, Info, XMP, annotations, links, form
# fields, outlines, the structure tree's alternate text, attachments). Generated here, so no third-party data is vendored.

AUDIT_PLACES = (
    "page-text",
    "per-char",
    "info",
    "xmp",
    "annotation",
    "link",
    "form-field",
    "bookmark",
    "alt-text",
    "attachment-txt",
    "attachment-json",
    "attachment-docx",
    "attachment-pdf",
)


def audit_value(n: int) -> str:
    """The n-th distinct planted value: mobiles, e-mails, resident IDs and bank cards in turn
    (each passes its check, so ``sensitive`` must find it)."""
    kind = n % 4
    if kind == 0:
        return f"1{3 + n % 7}{(n * 7919 + 12345678) % 10**9:09d}"
    if kind == 1:
        return f"audit{n}.user@example{n % 5}.cn"
    if kind == 2:
        return resident_id(f"110101{1960 + n % 40}{1 + n % 12:02d}{1 + n % 28:02d}{n % 1000:03d}")
    return luhn_card(f"622202{n * 104729 % 10**12:012d}")


def resident_id(first17: str) -> str:
    weights = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
    total = sum(int(d) * w for d, w in zip(first17, weights, strict=True))
    return first17 + "10X98765432"[total % 11]


def luhn_card(first18: str) -> str:
    digits = [int(d) for d in first18]
    total = 0
    for i, d in enumerate(reversed(digits)):
        if i % 2 == 0:
            d *= 2
            d = d - 9 if d > 9 else d
        total += d
    return first18 + str((10 - total % 10) % 10)


def _per_char(c: object, text: str, x: float, y: float) -> None:
    """Each character its own text object (as some generators write): pypdf reads one
    character per line."""
    from reportlab.pdfbase import pdfmetrics

    for ch in text:
        font = "STSong-Light" if ord(ch) > 127 else "Helvetica"
        c.setFont(font, 11)  # type: ignore[attr-defined]
        c.drawString(x, y, ch)  # type: ignore[attr-defined]
        x += pdfmetrics.stringWidth(ch, font, 11)


def build_audit_pdf(index: int, places: Sequence[str] = AUDIT_PLACES,
                    first_value: int = 0) -> tuple[bytes, list[tuple[str, str]]]:
    """A PDF with one distinct value in each of ``places``; returns its bytes and the
    (place, value) pairs planted. ``first_value`` numbers the values (distinct across files)."""
    import io
    import json

    from pypdf import PdfReader, PdfWriter
    from pypdf.annotations import Link, Text
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    counter = iter(range(first_value, first_value + 100))
    planted: list[tuple[str, str]] = []

    def value(place: str) -> str:
        v = audit_value(next(counter))
        planted.append((place, v))
        return v

    buffer = io.BytesIO()
    c = canvas.Canvas(buffer)
    c.setFont("STSong-Light", 12)
    c.drawString(72, 780, f"审计文件 {index}：本合同由双方签订，以下为联系人信息。")
    if "page-text" in places:
        c.drawString(72, 750, f"联系方式：{value('page-text')}，请核对。")
    if "per-char" in places:
        _per_char(c, f"客户资料 {value('per-char')} 结束", 72, 720)
    if "form-field" in places:
        c.acroForm.textfield(name=f"contact{index}", value=value("form-field"), x=72, y=600,
                             width=300, height=20, fontName="Helvetica", fontSize=10)
    c.setFont("STSong-Light", 12)
    c.drawString(72, 560, "以上信息仅供内部使用。")
    c.showPage()
    c.setFont("STSong-Light", 12)
    c.drawString(72, 780, "第二页：附件与说明。")
    c.showPage()
    c.save()
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(buffer.getvalue())))
    if "info" in places:
        writer.add_metadata({"/Author": f"经办人 {value('info')}", "/Title": f"审计 {index}"})
    if "xmp" in places:
        v = value("xmp")
        writer.xmp_metadata = (
            '<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>'
            '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF '
            'xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
            '<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">'
            f"<dc:creator><rdf:Seq><rdf:li>{v}</rdf:li></rdf:Seq></dc:creator>"
            '</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>'
        ).encode()
    if "annotation" in places:
        writer.add_annotation(0, Text(rect=(400, 700, 420, 720),
                                      text=f"审核意见：联系 {value('annotation')}"))
    if "link" in places:
        v = value("link")
        target = f"mailto:{v.replace('@', '%40')}" if "@" in v else f"https://x.example/?id={v}"
        writer.add_annotation(1, Link(rect=(72, 700, 300, 720), url=target))
    if "bookmark" in places:
        writer.add_outline_item(title=f"联系人 {value('bookmark')}", page_number=0)
    if "alt-text" in places:
        from pypdf.generic import ArrayObject, DictionaryObject, NameObject, TextStringObject

        figure = DictionaryObject({
            NameObject("/S"): NameObject("/Figure"),
            NameObject("/Alt"): TextStringObject(f"签名页，经办人电话 {value('alt-text')}"),
        })
        writer.root_object[NameObject("/StructTreeRoot")] = writer._add_object(DictionaryObject({
            NameObject("/Type"): NameObject("/StructTreeRoot"),
            NameObject("/K"): ArrayObject([writer._add_object(figure)]),
        }))
    if "attachment-txt" in places:
        writer.add_attachment(f"notes{index}.txt",
                              f"备注：客户电话 {value('attachment-txt')}\n".encode())
    if "attachment-json" in places:
        writer.add_attachment(f"data{index}.json", json.dumps(
            {"联系人": {"号码": value("attachment-json")}}, ensure_ascii=False).encode())
    if "attachment-docx" in places:
        import docx

        document = docx.Document()
        document.add_paragraph(f"附件：经办人联系方式 {value('attachment-docx')}。")
        attached = io.BytesIO()
        document.save(attached)
        writer.add_attachment(f"letter{index}.docx", attached.getvalue())
    if "attachment-pdf" in places:
        inner, inner_planted = build_audit_pdf(
            index, ("page-text", "info"), first_value=first_value + 50)
        writer.add_attachment(f"inner{index}.pdf", inner)
        planted.extend((f"attachment-pdf/{p}", v) for p, v in inner_planted)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue(), planted


def audit_corpus(files: int = 22) -> list[tuple[str, bytes, list[tuple[str, str]]]]:
    """``files`` audit PDFs, each with a different mix of places (every place in most), values
    distinct across the corpus: (name, bytes, planted)."""
    out = []
    for i in range(files):
        # drop one place per file in turn, so files differ in which places they use
        skip = AUDIT_PLACES[i % len(AUDIT_PLACES)] if i >= len(AUDIT_PLACES) else None
        places = [p for p in AUDIT_PLACES if p != skip]
        data, planted = build_audit_pdf(i, places, first_value=i * 100)
        out.append((f"audit{i:02d}.pdf", data, planted))
    return out
