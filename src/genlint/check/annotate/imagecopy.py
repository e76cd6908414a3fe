"""A review copy of a scanned image (PNG, JPEG, TIFF read by OCR): an HTML page showing each
page with every finding's box drawn and numbered, and the notes beside it (self-contained: the
pictures are inline PNGs)."""

from __future__ import annotations

import base64
from html import escape
from pathlib import Path

from .crops import box_in_pixels, page_png, pages_of, span_box
from .notes import Noted
from .textcopy import STYLE

_EXTRA = """
.page{flex:3;position:relative;border:1px solid #ddd;background:#fff;align-self:flex-start}
.page img{display:block;max-width:100%}
.box{position:absolute;border:0;background:rgba(255,224,102,.25)}
.box b{position:absolute;top:-16px;left:0;background:#c92a2a;color:#fff;font-size:11px;
 padding:0 3px}
"""


def annotate_image(path: str, data: bytes, items: list[Noted], lang: str) -> tuple[bytes, int]:
    """The HTML review copy of a scanned image and how many notes it holds."""
    del data  # the frames are read from the file by PIL
    title = escape(Path(path).name)
    heading = (
        f"{title}：genlint 发现 {len(items)} 处问题"
        if lang == "zh"
        else f"{title}: {len(items)} finding{'s' if len(items) != 1 else ''} by genlint"
    )
    by_page: dict[int, list[tuple[int, list[float]]]] = {}
    unplaced: list[int] = []
    for n, item in enumerate(items, 1):
        bbox = span_box(item.finding)
        if bbox is None:
            unplaced.append(n)
        else:
            by_page.setdefault(item.finding.page or 1, []).append((n, bbox))
    pictures = []
    with pages_of(path) as pages:
        for number, placed in sorted(by_page.items()):
            png, scale = page_png(pages, number, [bbox for _, bbox in placed])
            image, _ = pages.page(number)
            boxes = []
            for n, bbox in placed:
                x0, y0, x1, y1 = box_in_pixels(bbox, scale)
                boxes.append(
                    f'<a class="box" id="f-{n}" href="#note-{n}" style="left:'
                    f"{100 * x0 / image.width:.3f}%;top:{100 * y0 / image.height:.3f}%;"
                    f"width:{100 * (x1 - x0) / image.width:.3f}%;"
                    f'height:{100 * (y1 - y0) / image.height:.3f}%"><b>{n}</b></a>'
                )
            encoded = base64.b64encode(png).decode()
            pictures.append(
                f'<div class="page" data-page="{number}"><img alt="page {number}" '
                f'src="data:image/png;base64,{encoded}">{"".join(boxes)}</div>'
            )
    notes = [
        f'<li id="note-{n}"{" class=unplaced" if n in unplaced else ""} '
        f'data-rule="{escape(item.finding.rule)}"><a href="#f-{n}">{escape(item.note)}</a></li>'
        for n, item in enumerate(items, 1)
    ]
    page = (
        f'<!DOCTYPE html>\n<html lang="{lang}"><head><meta charset="utf-8">'
        f"<title>{heading}</title><style>{STYLE}{_EXTRA}</style></head><body>"
        f"<header>{heading}</header><main><div>{''.join(pictures)}</div>"
        f'<ol class="notes">{"".join(notes)}</ol></main></body></html>\n'
    )
    return page.encode("utf-8"), len(items)
