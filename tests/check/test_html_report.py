"""``genlint check --format html``: one self-contained page, escaped, masked, and working in a
real browser (headless Chromium: every finding present, the filters hide what they should)."""

from __future__ import annotations

import os
import re
import shutil
import time
from html.parser import HTMLParser
from pathlib import Path

import pytest

from genlint import check_paths
from genlint.check.reporters import html as html_report
from support.headless import chromium

DOC = (
    "甲方：某某公司，电话13812345678。\n"
    "<script>document.body.dataset.pwned='1'</script> TBD\n"
    "签订日期：    年  月  日\n"
)


class _Rows(HTMLParser):
    """The finding rows of a page (with their attributes) and every tag seen."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[dict[str, str | None]] = []
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.body: dict[str, str | None] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        self.tags.append((tag, found))
        if tag == "body":
            self.body = found
        if tag == "div" and "finding" in (found.get("class") or "").split():
            self.rows.append(found)


def _page(tmp_path: Path, **kwargs: object) -> tuple[str, list]:  # type: ignore[type-arg]
    source = tmp_path / "合同.txt"
    source.write_text(DOC, "utf-8")
    report = check_paths([source])
    for key, value in kwargs.items():
        setattr(report, key, value)
    return html_report.render(report), report.findings


def test_page_is_self_contained_escaped_and_masked(tmp_path: Path) -> None:
    page, findings = _page(tmp_path)
    parser = _Rows()
    parser.feed(page)
    assert len(parser.rows) == len(findings) >= 4
    assert [t for t, _ in parser.tags].count("script") == 1  # ours only
    assert "<script>document" not in page and "&lt;script&gt;" in page
    assert not re.search(r"(?:src|href)\s*=\s*\"?(?:https?:)?//", page)
    assert "@import" not in page and "url(" not in page
    assert "13812345678" not in page and "138****5678" in page
    shown, _ = _page(tmp_path, show_values=True)
    assert "13812345678" in shown
    assert 'data-rule="placeholder/mou-entity"' in page


def test_language_follows_the_document_or_the_flag(tmp_path: Path) -> None:
    page, _ = _page(tmp_path)
    assert (
        '<html lang="zh"' in page and "未填写的占位符「某某公司」" in page and "修改建议：" in page
    )
    source = tmp_path / "合同.txt"
    english = html_report.render(check_paths([source]), lang="en")
    assert "unfilled placeholder &#x27;某某公司&#x27;" in english and "Fix: " in english


def _dom(tmp_path: Path, url: str) -> _Rows:
    done = chromium(tmp_path, "--virtual-time-budget=5000", "--dump-dom", url)
    assert done.returncode == 0, done.stderr[-2000:]
    parser = _Rows()
    parser.feed(done.stdout)
    assert parser.body.get("data-ready") == "1"  # the script ran
    assert "data-pwned" not in parser.body
    return parser


@pytest.mark.slow
def test_chromium_shows_every_finding_and_filters_work(tmp_path: Path) -> None:
    page, findings = _page(tmp_path)
    target = tmp_path / "report.html"
    target.write_text(page, "utf-8")
    everything = _dom(tmp_path, target.as_uri())
    assert len(everything.rows) == len(findings)
    assert not any("hidden" in row for row in everything.rows)
    only = _dom(tmp_path, target.as_uri() + "#rule=placeholder/mou-entity")
    visible = [r["data-rule"] for r in only.rows if "hidden" not in r]
    assert visible == ["placeholder/mou-entity"]
    assert len(only.rows) == len(findings)  # hidden, not removed
    warnings = _dom(tmp_path, target.as_uri() + "#severity=warning")
    assert all("hidden" in r for r in warnings.rows)  # this document has errors only


@pytest.mark.slow
def test_chromium_screenshot(tmp_path: Path) -> None:
    page, _ = _page(tmp_path)
    target = tmp_path / "report.html"
    target.write_text(page, "utf-8")
    shot = tmp_path / "check-html.png"
    chromium(tmp_path, f"--screenshot={shot}", "--window-size=1200,800", target.as_uri())
    assert shot.is_file() and shot.stat().st_size > 20_000  # drawn, not a blank page
    from PIL import Image

    with Image.open(shot) as image:
        assert image.size == (1200, 800)
        colours = image.convert("RGB").getcolors(maxcolors=1 << 20) or []
        assert len(colours) > 50  # text and highlights, not one flat colour
    keep = os.environ.get("GENLINT_DOCS_SCREENSHOTS")
    if keep:  # how docs/img/check-html.png is made
        shutil.copy(shot, Path(keep) / shot.name)


@pytest.mark.slow
def test_ten_thousand_findings_stay_usable(tmp_path: Path) -> None:
    source = tmp_path / "big.txt"
    source.write_text("".join(f"第{i}条 甲方：某某公司{i}\n" for i in range(10_000)), "utf-8")
    report = check_paths([source])
    assert len(report.findings) == 10_000
    started = time.perf_counter()
    page = html_report.render(report)
    assert time.perf_counter() - started < 10
    target = tmp_path / "big.html"
    target.write_text(page, "utf-8")
    started = time.perf_counter()
    big = _dom(tmp_path, target.as_uri() + "#severity=warning")
    took = time.perf_counter() - started
    assert len(big.rows) == 10_000 and all("hidden" in r for r in big.rows)
    assert took < 60
    assert '<details id="file-0"' in page and " open>" not in page.split("<details", 1)[1][:300]


def test_cli_html_format(run_cli, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)
    Path("a.txt").write_text(DOC, "utf-8")
    result = run_cli("check", "a.txt", "--format", "html", "--out", "r.html")
    assert result.code == 1 and Path("r.html").read_text("utf-8").startswith("<!DOCTYPE html>")
    assert run_cli("check", "a.txt", "--format", "html", "--statistics").code == 2


def test_a_scanned_page_shows_a_crop_with_the_box(tmp_path: Path) -> None:
    """OCR findings (a PDF page, an image file) carry a crop of the page with the box drawn;
    the crop is an inline PNG of the boxed region."""
    import base64
    import io

    from PIL import Image, ImageDraw

    from genlint.check.report import CheckReport, FileResult
    from genlint.findings import Finding
    from support.pdf_build import make_pdf

    pdf = make_pdf(tmp_path / "scan.pdf", [["甲方：某某公司"]])
    picture = tmp_path / "scan.png"
    image = Image.new("RGB", (400, 200), "white")
    ImageDraw.Draw(image).rectangle((50, 60, 150, 90), fill=(0, 0, 0))
    image.save(picture)

    def ocr(page: int | None, bbox: list[float]) -> Finding:
        return Finding(
            "placeholder/mou-entity", "unfilled placeholder '某某公司'", "某某公司", 3, 7,
            page=page, location={"bbox": bbox, "confidence": 0.98},
        )  # fmt: skip

    report = CheckReport(
        files=[
            FileResult(str(pdf), [ocr(1, [90.0, 30.0, 160.0, 48.0])]),
            FileResult(str(picture), [ocr(None, [50.0, 60.0, 150.0, 90.0])]),
        ]
    )
    page = html_report.render(report)
    crops = re.findall(r'src="data:image/png;base64,([^"]+)"', page)
    assert len(crops) == 2
    with Image.open(io.BytesIO(base64.b64decode(crops[1]))) as crop:
        rgb = crop.convert("RGB")
        # the margin around the box is page (white), the box outline red, the inside black
        assert rgb.getpixel((2, 2)) == (255, 255, 255)
        colours = {c for _, c in rgb.getcolors(1 << 16) or []}
        assert (220, 40, 40) in colours and (0, 0, 0) in colours
    # a file that moved away: the row says there is no picture, and the finding is still there
    picture.unlink()
    moved = html_report.render(report)
    assert "(no picture:" in moved and moved.count('class="finding"') == 2


def test_a_crop_does_not_show_a_masked_value(tmp_path: Path) -> None:
    """The crop of a scanned personal value is covered as its text is masked; with
    ``show_values`` it is shown as found."""
    import base64
    import io
    from dataclasses import replace

    from PIL import Image, ImageDraw

    from genlint.check.report import CheckReport, FileResult
    from genlint.findings import Finding

    picture = tmp_path / "scan.png"
    image = Image.new("RGB", (400, 200), "white")
    ImageDraw.Draw(image).rectangle((50, 60, 150, 90), fill=(0, 0, 0))  # "the number"
    image.save(picture)
    phone = Finding(
        "sensitive/mobile", "unmasked mobile number", "13812345678", 0, 11,
        location={"bbox": [50.0, 60.0, 150.0, 90.0], "confidence": 0.98},
    )  # fmt: skip
    report = CheckReport(files=[FileResult(str(picture), [phone])])

    def crop_colours(shown: CheckReport) -> set[tuple[int, int, int]]:
        (crop,) = re.findall(r'src="data:image/png;base64,([^"]+)"', html_report.render(shown))
        with Image.open(io.BytesIO(base64.b64decode(crop))) as png:
            return {c for _, c in png.convert("RGB").getcolors(1 << 16) or []}

    assert (0, 0, 0) not in crop_colours(report)
    assert (0, 0, 0) in crop_colours(replace(report, show_values=True))


def test_an_unreadable_file_is_named_and_is_no_finding(tmp_path: Path) -> None:
    good = tmp_path / "a.txt"
    good.write_text("甲方：某某公司\n", "utf-8")
    bad = tmp_path / "b.docx"
    bad.write_bytes(b"not a zip")
    report = check_paths([good, bad])
    page = html_report.render(report)
    parser = _Rows()
    parser.feed(page)
    assert len(parser.rows) == len(report.findings) == 1
    assert 'class="file-error"' in page and "b.docx" in page
