"""Masking the pixels of a PDF. Scanned pages (pages without a text layer, as ``check`` tells them):
each is rendered as OCR reads it, its findings are covered by :mod:`.images`, and the page's
content is replaced by that one redacted image. Whatever else the page drew goes with it (an
invisible OCR text layer included), and the file is rewritten from its root, so the old page
image is not carried over as an unreachable object; the page thumbnail (``/Thumb``) is dropped.
A page without findings is left as it was. The images a text page draws are redacted in their
own pixels. Text pages are then masked by :mod:`.pdf`.

The new page image has the OCR resolution (:data:`genlint.readers.ocr.PDF_SCALE`, 144 dpi).
"""

from __future__ import annotations

import io
from typing import Any

from ..errors import InputError
from .core import Masker, Replacement

__all__ = ["redact_scanned_pages"]


def redact_scanned_pages(
    path: str, data: bytes, masker: Masker, scanned: list[int]
) -> tuple[bytes, list[Replacement], list[str]]:
    """``data`` with the findings on its ``scanned`` pages (0-based, as
    :func:`genlint.readers.pdf.text_pages` tells them) covered, what was covered, and the
    images of text pages that were not read (no OCR, or pixels PDFium cannot decode); the
    bytes unchanged when no page holds one. Without OCR a scanned page is refused."""
    from ..readers import ocr
    from ..readers.pdf import pages_list

    if not scanned:
        return _redact_page_images(path, data, masker, set())
    if not ocr.available():
        verb = "has" if len(scanned) == 1 else "have"
        raise InputError(
            f"{path}: {pages_list(scanned)} {verb} no text layer (a scan); masking "
            "scanned pages needs OCR: pip install 'genlint[ocr]'"
        )
    import pypdfium2 as pdfium

    from .images import redact_image

    replacements: list[Replacement] = []
    changed: list[int] = []
    try:
        pdf = pdfium.PdfDocument(data)
    except Exception as exc:  # pdfium reads some files pypdf reads, not all
        raise InputError(f"{path}: cannot render scanned pages ({exc})") from None
    try:
        progress = ocr.page_progress(path)
        if progress is not None:
            progress(0, len(scanned))
        for done, index in enumerate(scanned, 1):
            page = pdf[index]
            if page.get_rotation():
                raise InputError(f"{path}: page {index + 1} is rotated; mask cannot redact it")
            page.close()
            image, scale = ocr.render_page(path, pdf, index)
            result = redact_image(
                path, image.convert("RGB"), masker, scale=scale, page=index + 1, where="image"
            )
            if progress is not None:
                progress(done, len(scanned))
            if not result.replacements:
                continue
            _replace_content(pdf, index, result.image)
            replacements.extend(result.replacements)
            changed.append(index)
        if not changed:
            return _redact_page_images(path, data, masker, set(scanned))
        buffer = io.BytesIO()
        pdf.save(buffer)
    finally:
        pdf.close()
    out, more, not_read = _redact_page_images(
        path, _rewrite(buffer.getvalue(), changed), masker, set(scanned)
    )
    return out, replacements + more, not_read


def _redact_page_images(
    path: str, data: bytes, masker: Masker, skip: set[int]
) -> tuple[bytes, list[Replacement], list[str]]:
    """The images drawn by text pages (outside ``skip``, the scanned pages), redacted in their
    own pixels where OCR reads a finding: the image object gets the new pixels (a new stream,
    without the old one's metadata) and the file is rewritten from its root. An image inside a
    form XObject that holds a finding is refused: its stream may be drawn elsewhere too. Also
    the names of the images not read (all of them without OCR), as the reader lists them."""
    from ..readers import ocr
    from ..readers.images_inside import MAX_IMAGES, pdf_images

    if not ocr.available():  # kept as they are, and named: --strict refuses them
        return data, [], [image.name for image in pdf_images(path, data, skip)]
    import pypdfium2 as pdfium

    from .images import redact_image

    replacements: list[Replacement] = []
    changed: list[int] = []
    try:
        pdf = pdfium.PdfDocument(data)
    except Exception:  # mask_pdf refuses a file PDFium cannot open, with its own message
        return data, [], []
    not_read: list[str] = []
    read = 0
    try:
        for index in range(1, len(pdf) + 1):
            if index - 1 in skip:
                continue
            page = pdf[index - 1]
            number = 0
            touched = False
            for obj in list(page.get_objects(max_depth=3)):
                if obj.type != pdfium.raw.FPDF_PAGEOBJ_IMAGE:
                    continue
                number += 1
                name = f"page {index} image {number}"
                width, height = obj.get_px_size()
                if width * height < 64 * 16:
                    continue
                ocr.check_pixels(path, name, width, height)
                read += 1
                if read > MAX_IMAGES:
                    raise InputError(f"{path}: over {MAX_IMAGES} images")
                try:
                    pixels = obj.get_bitmap(render=False).to_pil().convert("RGB")
                except Exception:  # a filter PDFium cannot decode, as the reader lists it
                    not_read.append(name)
                    continue
                done = redact_image(f"{path}: {name}", pixels, masker, page=index)
                if not done.replacements:
                    continue
                if obj.level > 0:
                    raise InputError(
                        f"{path}: {name} holds personal data inside a form "
                        "XObject; mask cannot redact it"
                    )
                obj.set_bitmap(pdfium.PdfBitmap.from_pil(done.image))
                for r in done.replacements:
                    r.location = {**(r.location or {}), "image": name}
                replacements.extend(done.replacements)
                touched = True
            if touched:
                page.gen_content()
                changed.append(index - 1)
            page.close()
        if not changed:
            return data, [], not_read
        buffer = io.BytesIO()
        pdf.save(buffer)
    finally:
        pdf.close()
    return _rewrite(buffer.getvalue(), []), replacements, not_read


def _replace_content(pdf: Any, index: int, image: Any) -> None:
    """Page ``index`` draws only ``image``, over its crop box."""
    import pypdfium2 as pdfium

    page = pdf[index]
    try:
        for obj in list(page.get_objects(max_depth=1)):
            page.remove_obj(obj)
        left, bottom, right, top = page.get_cropbox()
        picture = pdfium.PdfImage.new(pdf)
        picture.set_bitmap(pdfium.PdfBitmap.from_pil(image))
        picture.set_matrix(
            pdfium.PdfMatrix().scale(right - left, top - bottom).translate(left, bottom)
        )
        page.insert_obj(picture)
        page.gen_content()
    finally:
        page.close()


def _rewrite(data: bytes, changed: list[int]) -> bytes:
    """Rewritten by pypdf from the root (only reachable objects), redacted pages' thumbnails
    dropped."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import NameObject

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    for index in changed:
        page = writer.pages[index]
        for key in ("/Thumb", "/PieceInfo"):
            if key in page:
                del page[NameObject(key)]
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
