"""OCR for scanned PDF pages and images: RapidOCR's PP-OCRv4 Chinese and English models (shipped
inside the wheels, so it works offline) with pypdfium2 rendering PDF pages. The ``ocr`` extra
installs them; docs/commands/check.md "OCR engine" gives the measurements behind the choices.

Two runtimes run the same models: OpenVINO (``rapidocr-openvino``, x86-64 only, about three
times faster here) and onnxruntime (``rapidocr-onnxruntime``, every platform). The first one
installed, in that order, is used, and its name is in the file's warning ("read by OCR
(openvino)"). The angle classifier (which turns upside-down lines) runs only on a page whose
upright reading is poor: it changed no character on upright pages and costs ~15%.

Each recognised line becomes one line of the page's text with its place: ``bbox``
(``[x0, y0, x1, y1]`` from the top-left corner: PDF points for a PDF page, pixels for an
image) and ``confidence``.
"""

from __future__ import annotations

import contextvars
import functools
import importlib.util
import logging
import math
import os
import platform
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from ..errors import InputError

log = logging.getLogger(__name__)

# PDF pages are rendered at 2x (144 dpi): at 1.5x small print (8 pt) loses characters, and 2.5x
# reads nothing more for 40% more time (docs/commands/check.md "OCR engine")
PDF_SCALE = 2.0
# Pixels in one page or frame: 40 million keeps OCR of one page under 1 GB (issue 25; 89
# million took 1.9 GB). An A4 page at 300 dpi is 8.7 million, A3 at 400 dpi 31 million.
MAX_PIXELS = 40_000_000
# Below this render scale (36 dpi) no text is legible: such a page is refused, not read blind
MIN_SCALE = 0.5
# A side longer than this is a strip the detector shrinks to nothing readable
MAX_SIDE = 30_000
# Below this mean line confidence an upright reading is redone with the angle classifier
_CLS_BELOW = 0.8
# RapidOCR's default: a line read with less confidence is noise
_TEXT_SCORE = 0.5

ENGINES = {"openvino": "rapidocr_openvino", "onnxruntime": "rapidocr_onnxruntime"}
_RENDER = ("pypdfium2", "PIL")

Places = list[tuple[int, dict[str, Any]]]
# called with (pages done, pages in the file): 0 when OCR starts, then after each page
PageProgress = Callable[[int, int], None]
# the CLI's listener: (path, pages done, pages in the file, engine name)
PageListener = Callable[[str, int, int, str], None]
_LISTENER: contextvars.ContextVar[PageListener | None] = contextvars.ContextVar(
    "genlint_ocr_pages", default=None
)


@contextmanager
def listen_pages(listener: PageListener) -> Iterator[None]:
    """Within the block, OCR in this process reports each page to ``listener`` (the CLI draws
    it; the library never prints)."""
    token = _LISTENER.set(listener)
    try:
        yield
    finally:
        _LISTENER.reset(token)


_PAGE_JOBS: contextvars.ContextVar[int] = contextvars.ContextVar("genlint_ocr_jobs", default=1)
# fewer pages than this are read in this process: a worker's start (an interpreter, genlint,
# the OCR models) costs about two pages
_PARALLEL_PAGES = 3


@contextmanager
def page_jobs(jobs: int) -> Iterator[None]:
    """Within the block, a PDF's scanned pages are read by OCR in up to ``jobs`` processes
    (:mod:`genlint._pool`); the result is the same as in one."""
    token = _PAGE_JOBS.set(max(1, jobs))
    try:
        yield
    finally:
        _PAGE_JOBS.reset(token)


def page_progress(path: str) -> PageProgress | None:
    """The page callback for OCR of ``path``, or None when nobody listens."""
    listener = _LISTENER.get()
    if listener is None:
        return None
    engine = engine_name() or "none"
    return lambda done, total: listener(path, done, total, engine)


def _installed(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


@functools.lru_cache(maxsize=1)
def engine_name() -> str | None:
    """The runtime OCR uses here: OpenVINO on x86-64 when installed, else onnxruntime."""
    x86 = platform.machine().lower() in ("x86_64", "amd64")
    order = ("openvino", "onnxruntime") if x86 else ("onnxruntime",)
    return next((name for name in order if _installed(ENGINES[name])), None)


def available() -> bool:
    """Whether the ``ocr`` extra is installed (checked without importing it)."""
    return engine_name() is not None and all(_installed(name) for name in _RENDER)


def require_ocr(path: str, what: str) -> None:
    if not available():
        raise InputError(
            f"{path}: {what} no text layer; reading it needs OCR: pip install 'genlint[ocr]'"
        )


def check_pixels(path: str, what: str, width: float, height: float) -> None:
    """The one bound on what is decoded or rendered for OCR: InputError past it."""
    if width * height > MAX_PIXELS or max(width, height) > MAX_SIDE:
        raise InputError(
            f"{path}: {what} of {int(width)}x{int(height)} pixels is too large to OCR "
            f"(limit {MAX_PIXELS:,} pixels, {MAX_SIDE:,} a side)"
        )


@functools.lru_cache(maxsize=4)
def _engine(name: str, threads: int = 0) -> Any:
    """The RapidOCR pipeline of a runtime; ``threads``: inference threads (0: every core)."""
    if name == "openvino":
        from rapidocr_openvino import RapidOCR

        option = "inference_num_threads"
    else:
        from rapidocr_onnxruntime import RapidOCR

        option = "intra_op_num_threads"
    # its own logger prints to stderr at INFO; the library stays quiet unless asked
    logging.getLogger("RapidOCR").setLevel(logging.WARNING)
    if not threads:
        return RapidOCR()
    return RapidOCR(**{f"{stage}_{option}": threads for stage in ("det", "cls", "rec")})


def recognise(
    image: Any,
    scale: float = 1.0,
    *,
    engine: str | None = None,
    angle: bool | None = None,
    threads: int = 0,
) -> tuple[str, Places]:
    """Text lines of a PIL image, top to bottom, and the box and confidence of each.

    ``engine``: a key of :data:`ENGINES` (default :func:`engine_name`); ``angle``: run the angle
    classifier always (True), never (False), or when the upright reading is poor (None);
    ``threads``: inference threads (0: every core)."""
    import numpy as np

    name = engine or engine_name()
    if name is None:
        raise InputError("OCR is not installed: pip install 'genlint[ocr]'")
    rgb = image.convert("RGB")
    if all(high - low < 8 for low, high in rgb.getextrema()):
        return "", []  # one colour (a blank page, an empty thumbnail): nothing is drawn
    ocr = _engine(name, threads)
    pixels = np.asarray(rgb)
    # every line comes back (text_score 0), so that a page read upside down shows as poor
    # instead of empty; lines below RapidOCR's own threshold are dropped here
    result, _ = ocr(pixels, use_cls=bool(angle), text_score=0.0)
    if angle is None and result and _poor(result):
        result, _ = ocr(pixels, use_cls=True, text_score=0.0)
    lines: list[str] = []
    places: Places = []
    pos = 0
    # RapidOCR returns lines in reading order (top to bottom, then left to right)
    for box, text, confidence in result or []:
        if float(confidence) < _TEXT_SCORE:
            continue
        xs = [float(x) for x, _ in box]
        ys = [float(y) for _, y in box]
        bbox = [round(v / scale, 1) for v in (min(xs), min(ys), max(xs), max(ys))]
        places.append((pos, {"bbox": bbox, "confidence": round(float(confidence), 3)}))
        lines.append(str(text))
        pos += len(str(text)) + 1
    return "\n".join(lines), places


def _poor(result: list[Any]) -> bool:
    """Upside-down lines read upright come back as a few low-confidence characters."""
    weights = [max(1, len(str(text))) for _, text, _ in result]
    mean = sum(float(c) * w for (_, _, c), w in zip(result, weights, strict=True)) / sum(weights)
    return mean < _CLS_BELOW


def page_scale(path: str, index: int, width_pt: float, height_pt: float) -> float:
    """The render scale of a PDF page: :data:`PDF_SCALE`, lowered for a page so large that it
    would pass :data:`MAX_PIXELS` (a poster is read at a lower resolution). A page that would
    need less than :data:`MIN_SCALE` (36 dpi: no text is legible) is refused: a 4.5 KB PDF can
    declare a page of 200 x 200 inches (issue 25)."""
    if width_pt <= 0 or height_pt <= 0 or not math.isfinite(width_pt * height_pt):
        raise InputError(f"{path}: page {index + 1} has no size to render")
    fit = math.sqrt(MAX_PIXELS / (width_pt * height_pt))
    fit = min(fit, MAX_SIDE / max(width_pt, height_pt))
    if fit < MIN_SCALE:
        raise InputError(
            f"{path}: page {index + 1} is {width_pt:.0f} x {height_pt:.0f} points; reading it for "
            f"OCR would take over {MAX_PIXELS:,} pixels, so it is not read"
        )
    return min(PDF_SCALE, fit)


def render_page(path: str, pdf: Any, index: int) -> tuple[Any, float]:
    """A PDF page rendered for OCR (a PIL image) and the scale it was rendered at; the images
    the page draws are bounded before any is decoded."""
    page = pdf[index]
    try:
        _check_page_images(path, page, index)
        width, height = page.get_size()
        scale = page_scale(path, index, width, height)
        image = page.render(scale=scale).to_pil()
    finally:
        page.close()
    return image, scale


def _check_page_images(path: str, page: Any, index: int) -> None:
    import pypdfium2 as pdfium

    for obj in page.get_objects(max_depth=3):
        if obj.type == pdfium.raw.FPDF_PAGEOBJ_IMAGE:
            width, height = obj.get_px_size()
            check_pixels(path, f"an image on page {index + 1}", width, height)


def ocr_pdf_pages(
    path: str,
    data: bytes,
    indexes: list[int],
) -> dict[int, tuple[str, Places]]:
    """OCR the pages at ``indexes`` (0-based) of a PDF; bboxes in PDF points. Each page is
    reported to the listener of :func:`listen_pages`, if any."""
    from .pdf import pages_list

    require_ocr(path, f"{pages_list(indexes)} {'has' if len(indexes) == 1 else 'have'}")
    import pypdfium2 as pdfium

    out: dict[int, tuple[str, Places]] = {}
    try:
        pdf = pdfium.PdfDocument(data)
    except Exception as exc:  # pdfium reads some files pypdf reads, not all
        raise InputError(f"{path}: cannot render scanned pages for OCR ({exc})") from None
    progress = page_progress(path)
    if progress is not None:
        progress(0, len(indexes))
    jobs = min(_PAGE_JOBS.get(), len(indexes), _useful_processes())
    if jobs > 1 and len(indexes) >= _PARALLEL_PAGES:
        pdf.close()  # opened here only to fail early, with this message, on a file PDFium refuses
        return _ocr_pages_parallel(path, data, indexes, jobs, progress)
    try:
        for done, index in enumerate(indexes, 1):
            image, scale = render_page(path, pdf, index)
            out[index] = recognise(image, scale)
            if progress is not None:
                progress(done, len(indexes))
    finally:
        pdf.close()
    return out


def _useful_processes() -> int:
    """How many processes can OCR at once here: one per idle core (and this one). OCR keeps
    every core it is given busy, so on a machine already loaded a second process only adds a
    worker's start (measured: 0.65x with the load average at 9 on 2 cores)."""
    cores = os.cpu_count() or 1
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # no load average (Windows): trust --jobs
        return cores
    return max(1, 1 + int(cores - load))


def _ocr_pages_parallel(
    path: str, data: bytes, indexes: list[int], jobs: int, progress: PageProgress | None
) -> dict[int, tuple[str, Places]]:
    """The pages read by ``jobs`` processes, each with the PDF open once; same pages, same
    engine, same scale: the same text and boxes as :func:`ocr_pdf_pages` in one process."""
    from .. import _pool

    count = [0]

    def done(_index: int) -> None:
        count[0] += 1
        if progress is not None:
            progress(count[0], len(indexes))

    # each process one share of the cores: N processes of every core each would only contend
    threads = max(1, (os.cpu_count() or 1) // jobs)
    job: _pool.Job[int, tuple[str, Places]] = _pool.Job(
        setup=page_reader,
        settings=(path, data, threads),
        noun="page",
        describe=lambda index: f"{path} page {index + 1}",
    )
    results = _pool.run(indexes, job, jobs, done=done)
    return dict(zip(indexes, results, strict=True))


def page_reader(settings: tuple[str, bytes, int]) -> Callable[[int], tuple[str, Places]]:
    """A process's OCR of one page of the PDF in ``settings`` (path, bytes, inference threads;
    ``_pool.Job.setup``)."""
    import pypdfium2 as pdfium

    path, data, threads = settings
    try:
        pdf = pdfium.PdfDocument(data)
    except Exception as exc:
        raise InputError(f"{path}: cannot render scanned pages for OCR ({exc})") from None

    def read_page(index: int) -> tuple[str, Places]:
        image, scale = render_page(path, pdf, index)
        return recognise(image, scale, threads=threads)

    return read_page
