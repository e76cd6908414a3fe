"""A PDF label whose value the layout puts elsewhere is not an empty field; a blank PDF form
field still is (SPEC §1, "a label whose value the layout puts elsewhere"; issue 23 item 4).

The PDFs are drawn here with reportlab the way invoice generators draw them: every label of a
block first, every value afterwards, so the text layer reads the labels on lines of their own."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from genlint.check import check_paths
from genlint.readers import read_document
from genlint.readers.pdf_layout import labels_with_values

Drawn = tuple[float, float, str]  # x, y (points from the bottom), text


def _pdf(
    path: Path, items: Sequence[Drawn], lines: Sequence[tuple[float, float, float]] = ()
) -> Path:
    """A one-page PDF drawing ``items`` in that order (STSong-Light, no font file) and rule
    lines ``(x1, x2, y)`` to write on."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("STSong-Light", 11)
    for x, y, text in items:
        c.drawString(x, y, text)
    for x1, x2, y in lines:
        c.line(x1, y, x2, y)
    c.showPage()
    c.save()
    return path


def _fields(path: Path) -> list[str]:
    return [
        f.text.strip()
        for f in check_paths([str(path)], select=["placeholder/empty-field"]).findings
    ]


# an e-invoice's buyer block: labels drawn first, the values afterwards in the next column
BUYER_LABELS: list[Drawn] = [
    (40, 700, "购买方名称："),
    (40, 680, "纳税人识别号："),
    (40, 660, "地址、电话："),
]
BUYER_VALUES: list[Drawn] = [
    (130, 700, "华创科技有限公司"),
    (130, 680, "91310000MA1FL1234X"),
    (130, 660, "上海市浦东新区张江路1号"),
]


def test_labels_whose_values_stand_beside_them_are_not_empty(tmp_path: Path) -> None:
    path = _pdf(tmp_path / "invoice.pdf", BUYER_LABELS + BUYER_VALUES)
    text = read_document(str(path)).segments[0].text
    # the trap is real: the text layer puts each label at the end of a line of its own
    assert "购买方名称：\n" in text
    assert _fields(path) == []


def test_the_same_lines_in_a_text_file_are_empty_fields(tmp_path: Path) -> None:
    """What the layout decides: the labels alone on their lines, as the PDF's text layer
    reads, are empty fields in a .txt (no layout to say otherwise)."""
    path = _pdf(tmp_path / "invoice.pdf", BUYER_LABELS + BUYER_VALUES)
    txt = tmp_path / "invoice.txt"
    txt.write_text(read_document(str(path)).segments[0].text, encoding="utf-8")
    assert "购买方名称：" in _fields(txt)


def test_a_blank_pdf_form_is_still_found(tmp_path: Path) -> None:
    """Labels with nothing beside or under them but the next label, or a rule line to write
    on: the layout shows no value, so they stay empty fields."""
    path = _pdf(
        tmp_path / "form.pdf",
        [(40, 700, "姓名："), (300, 700, "性别："), (40, 680, "联系电话："), (40, 660, "住所：")],
        lines=[(90, 280, 698), (110, 280, 678)],
    )
    found = _fields(path)
    assert {"姓名：", "联系电话：", "住所："} <= set(found)


def test_a_half_filled_block_keeps_only_its_blank_label(tmp_path: Path) -> None:
    path = _pdf(tmp_path / "half.pdf", BUYER_LABELS + BUYER_VALUES[1:])
    assert _fields(path) == ["购买方名称："]


def test_a_header_row_with_its_values_in_the_boxes_below(tmp_path: Path) -> None:
    """``Invoice Date:  Due Date:  Reference:`` across, the values under each header."""
    headers: list[Drawn] = [
        (40, 600, "Invoice Date:"),
        (220, 600, "Due Date:"),
        (400, 600, "Reference:"),
    ]
    values: list[Drawn] = [
        (40, 585, "03/20/2023"),
        (220, 585, "04/04/2023"),
        (400, 585, "CUSTREF123"),
    ]
    assert _fields(_pdf(tmp_path / "filled.pdf", headers + values)) == []
    blank = _fields(_pdf(tmp_path / "blank.pdf", headers))
    assert "Invoice Date:" in blank and "Reference:" in blank


def test_a_value_wrapped_to_the_next_line(tmp_path: Path) -> None:
    items: list[Drawn] = [
        (
            40,
            500,
            "Corporate Office: 9th floor, Southern Peripheral Road | Phone: 080 100 444 | Email:",
        ),
        (40, 487, "contactus@example.com"),
    ]
    assert _fields(_pdf(tmp_path / "footer.pdf", items)) == []


def test_without_pdfium_the_text_decides(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No pypdfium2: nothing is measured, nothing suppressed (the rule reads the text as it
    did before), never an error."""
    import sys

    path = _pdf(tmp_path / "invoice.pdf", BUYER_LABELS + BUYER_VALUES)
    monkeypatch.setitem(sys.modules, "pypdfium2", None)
    assert labels_with_values(path.read_bytes(), ["购买方名称："], [0]) == frozenset()


@settings(max_examples=15, deadline=None)
@given(
    gap=st.floats(min_value=20, max_value=150),
    filled=st.lists(st.booleans(), min_size=3, max_size=3),
)
def test_each_label_follows_its_own_value(
    tmp_path_factory: pytest.TempPathFactory, gap: float, filled: list[bool]
) -> None:
    """Whatever the column gap and whichever values are drawn, no label drawn with its value
    is found, and a blank one the rule finds in the text is still found."""
    values = [
        (40 + 90 + gap, y, text)
        for (_, y, text), keep in zip(BUYER_VALUES, filled, strict=True)
        if keep
    ]
    path = _pdf(tmp_path_factory.mktemp("p") / "inv.pdf", BUYER_LABELS + values)
    expected = [label for (_, _, label), keep in zip(BUYER_LABELS, filled, strict=True) if not keep]
    found = _fields(path)
    assert set(found) <= set(expected)  # a label with its value beside it is never found
    if not filled[0]:
        assert BUYER_LABELS[0][2] in found  # and the blank one the text rule finds stays found


def test_a_page_of_nothing_but_labels_is_bounded(tmp_path: Path) -> None:
    """Bad input: a page of 800 labels and colons (more than the step measures) is read, the
    labels it did not measure left to the text rule, never an error."""
    items = [(40 + 140 * (i % 4), 820 - 4 * (i // 4), "姓名：") for i in range(800)]
    path = _pdf(tmp_path / "labels.pdf", items)
    text = read_document(str(path)).segments[0].text
    assert text.count("姓名：") == 800
    (file,) = check_paths([str(path)], select=["placeholder/empty-field"]).files
    assert file.error is None  # check_paths reports a reader's failure here, never raises
    # measured or not, a label with only the next label beside it is an empty field
    assert len(file.findings) == 800


def test_a_blank_invoice_block_is_found_to_its_last_label(tmp_path: Path) -> None:
    """The same block with no value drawn: every label is an empty field (地址、电话 is one
    label), as it is in a text file."""
    assert _fields(_pdf(tmp_path / "blank.pdf", BUYER_LABELS)) == [
        "购买方名称：",
        "纳税人识别号：",
        "地址、电话：",
    ]
