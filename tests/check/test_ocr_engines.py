"""The OCR engines: OpenVINO (x86-64) and onnxruntime run the same models and find the same
findings on rendered scans (Noto CJK, turned up to 3 degrees, noise, 150-300 dpi); the engine is
chosen by the platform; the angle classifier runs on a page that needs it; OCR reports its
pages as it goes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from genlint.check import Checker
from genlint.readers import ocr
from support.scans import PHONE, RESIDENT_ID, render, scanned_pdf

BOTH = all(ocr._installed(module) for module in ocr.ENGINES.values())


def _sensitive(text: str) -> set[tuple[str, str]]:
    return {(f.rule, f.text) for f in Checker("sensitive").check(text)}


@pytest.mark.skipif(not BOTH, reason="needs both OCR runtimes (x86-64)")
@pytest.mark.parametrize(
    ("dpi", "angle", "noise"), [(150, 2.0, 0.003), (300, -3.0, 0.0), (200, 0.0, 0.006)]
)
def test_the_faster_engine_finds_what_onnxruntime_finds(
    dpi: int, angle: float, noise: float
) -> None:
    image = render(dpi=dpi, angle=angle, noise=noise, width_in=10)
    before, _ = ocr.recognise(image, engine="onnxruntime", angle=True)  # the engine until now
    after, places = ocr.recognise(image, engine="openvino")
    assert _sensitive(after) == _sensitive(before)
    assert {text for _, text in _sensitive(after)} == {PHONE, RESIDENT_ID}
    assert len(places) == 4


@pytest.mark.parametrize(
    ("machine", "installed", "expected"),
    [
        ("x86_64", {"rapidocr_openvino", "rapidocr_onnxruntime"}, "openvino"),
        ("AMD64", {"rapidocr_openvino", "rapidocr_onnxruntime"}, "openvino"),
        ("x86_64", {"rapidocr_onnxruntime"}, "onnxruntime"),
        ("aarch64", {"rapidocr_openvino", "rapidocr_onnxruntime"}, "onnxruntime"),
        ("arm64", set(), None),
    ],
)
def test_the_engine_is_chosen_by_platform_and_what_is_installed(
    monkeypatch: pytest.MonkeyPatch, machine: str, installed: set[str], expected: str | None
) -> None:
    monkeypatch.setattr(ocr.platform, "machine", lambda: machine)
    monkeypatch.setattr(
        ocr, "_installed", lambda module: module in installed or module in ("PIL", "pypdfium2")
    )
    ocr.engine_name.cache_clear()
    try:
        assert ocr.engine_name() == expected
        assert ocr.available() is (expected is not None)
    finally:
        ocr.engine_name.cache_clear()


def test_an_upside_down_page_is_read_with_the_angle_classifier() -> None:
    image = render(("联系电话：13812345678", "本合同自双方签字之日起生效。"), width_in=8).rotate(
        180
    )
    upright_only, _ = ocr.recognise(image, angle=False)
    assert PHONE not in upright_only.replace(" ", "")  # the detector finds lines, not their way up
    text, _ = ocr.recognise(image)  # poor upright reading: the classifier turns the lines
    assert PHONE in text.replace(" ", "")


def test_ocr_reports_each_page_and_the_note_comes_first(run_cli: Any, tmp_path: Path) -> None:
    path = scanned_pdf(tmp_path / "two.pdf", [render(("第一页",), width_in=4), render(width_in=10)])
    seen: list[tuple[str, int, int, str]] = []
    with ocr.listen_pages(lambda *call: seen.append(call)):
        ocr.ocr_pdf_pages(str(path), path.read_bytes(), [0, 1])
    engine = ocr.engine_name()
    assert seen == [(str(path), done, 2, engine) for done in (0, 1, 2)]
    result = run_cli("check", str(path), "--select", "sensitive")
    assert result.err.splitlines()[0] == f"genlint: note: {path}: reading 2 pages by OCR ({engine})"
    assert "genlint: note" not in result.out  # stdout is the report only
    quiet = run_cli("check", str(path), "--select", "sensitive", "--format", "json")
    assert quiet.out.startswith("{")


def test_the_page_bar_draws_on_a_terminal_only(monkeypatch: pytest.MonkeyPatch) -> None:
    import io
    import sys

    from genlint.cli.progress import progress_bar

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    stream = Terminal()
    monkeypatch.setattr(sys, "stderr", stream)
    with progress_bar("checking", 1, pages=True) as advance:
        assert advance is None  # one file: no file bar, but OCR pages are shown
        listener = ocr._LISTENER.get()
        assert listener is not None
        listener("scan.pdf", 0, 3, "openvino")
        listener("scan.pdf", 1, 3, "openvino")
        listener("scan.pdf", 3, 3, "openvino")
    assert "reading 3 pages by OCR (openvino)" in stream.getvalue()
    assert ocr._LISTENER.get() is None  # the listener does not outlive the run
    assert "\x1b" in stream.getvalue()  # a bar was drawn

    plain = io.StringIO()  # not a terminal: the note alone, no bar
    monkeypatch.setattr(sys, "stderr", plain)
    with progress_bar("checking", 1, pages=True) as advance:
        assert advance is None
        listener = ocr._LISTENER.get()
        assert listener is not None
        listener("scan.pdf", 0, 3, "openvino")
        listener("scan.pdf", 1, 3, "openvino")
    assert plain.getvalue() == "genlint: note: scan.pdf: reading 3 pages by OCR (openvino)\n"
    assert ocr._LISTENER.get() is None


def test_pages_read_in_parallel_are_the_pages_read_in_one_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from genlint import check_paths

    monkeypatch.setattr(ocr, "_useful_processes", lambda: 2)  # as on an idle machine

    pages = [render((f"第{i}页，联系电话：1381234567{i}",), width_in=8) for i in range(3)]
    path = scanned_pdf(tmp_path / "three.pdf", pages)
    data = path.read_bytes()
    alone = ocr.ocr_pdf_pages(str(path), data, [0, 1, 2])
    seen: list[int] = []
    with ocr.page_jobs(2), ocr.listen_pages(lambda _p, done, _t, _e: seen.append(done)):
        shared = ocr.ocr_pdf_pages(str(path), data, [0, 1, 2])
    assert shared == alone and list(shared) == [0, 1, 2]
    assert seen == [0, 1, 2, 3]
    one = check_paths([path], jobs=1).findings
    two = check_paths([path], jobs=2).findings
    assert [f.to_dict() for f in two] == [f.to_dict() for f in one]
    assert {f.text for f in one if f.rule == "sensitive/mobile"} == {
        f"1381234567{i}" for i in range(3)
    }


def test_a_loaded_machine_reads_pages_in_one_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ocr.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(ocr.os, "getloadavg", lambda: (9.0, 9.0, 9.0))
    assert ocr._useful_processes() == 1
    monkeypatch.setattr(ocr.os, "getloadavg", lambda: (0.2, 0.2, 0.2))
    assert ocr._useful_processes() == 2
