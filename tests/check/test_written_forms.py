"""Personal numbers in every written form (docs/rules.md, sensitive pack): grouped by any blank,
dash or dot, with zero-width characters or soft hyphens inside, in full width. Check finds them,
mask replaces every character of them, and so does the service's masking function."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from genlint.check import Checker, check_text
from genlint.mask import mask_text
from genlint.serve.api import mask_body
from genlint.written import fold

VALUES = {
    "mobile": ("手机：", "13912345678"),
    "id": ("身份证号：", "11010519491231002X"),
    "id-plain": ("身份证号：", "110101199003074573"),
    "card": ("卡号：", "6225880123456783"),
}
BLANKS = [" ", "\u00a0", "\u2009", "\u202f", "\u3000"]
INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad"]
WIDE = str.maketrans("0123456789X", "０１２３４５６７８９Ｘ")


@st.composite
def written(draw: st.DrawFn) -> tuple[str, str]:
    """A labelled value written with one separator between groups of any sizes, invisible
    characters sprinkled in, maybe in full width."""
    kind = draw(st.sampled_from(sorted(VALUES)))
    label, value = VALUES[kind]
    if draw(st.booleans()):
        value = value.translate(WIDE)
    sep = draw(st.sampled_from([*BLANKS, "-", ""]))
    groups, i = [], 0
    while i < len(value):
        size = draw(st.integers(1, 6))
        groups.append(value[i : i + size])
        i += size
    out = []
    for ch in sep.join(groups):
        out.append(ch)
        if draw(st.integers(0, 5)) == 0:
            out.append(draw(st.sampled_from(INVISIBLE)))
    return label, "".join(out)


@settings(max_examples=300, deadline=None)
@given(written())
def test_any_written_form_is_found_and_masked_whole(case: tuple[str, str]) -> None:
    label, value = case
    text = f"{label}{value}。"
    # the value as a reader sees it: from its first visible character to its last
    start = len(label) + len(value) - len(value.lstrip("".join(INVISIBLE)))
    end = len(label) + len(value.rstrip("".join(INVISIBLE)))
    findings = check_text(text, select=["sensitive"])
    assert any(f.start <= start and f.end >= end for f in findings), (value, findings)
    for masked in (
        mask_text(text, style="label").text,
        mask_body({"text": text, "style": "label"})["text"],
    ):
        assert not any(ch.isdigit() for ch in masked), masked


@pytest.mark.parametrize(
    "value",
    ["13-91-23-45-678", "139-1234 5678", "1 3 9 1 2 3 4 5 6 7 8", "139\u00a01234\u00a05678"],
)
def test_mobile_groupings_after_a_label(value: str) -> None:
    assert [f.rule for f in check_text(f"联系电话：{value}", select=["sensitive"])] == [
        "sensitive/mobile"
    ]


@pytest.mark.parametrize(
    "text",
    [
        "金额：1 234 567.00元",
        "2023\u00a005\u00a001",
        "第\u200b12\u200b条",
        "1 3 5 7 9 2 4 6 8 0 1",
        "13 91 23 45 678",  # no phone label: a row of small numbers
        "公司电话：139\u00a01234\u00a05678",
        "订单号：6225\u200b8801\u200b2345\u200b6783",
    ],
)
def test_numbers_that_are_not_personal_stay_clean(text: str) -> None:
    assert check_text(text, select=["sensitive"]) == []


def test_the_span_keeps_the_original_characters() -> None:
    text = "手机：139\u200b1234\u00ad5678。"
    (f,) = check_text(text, select=["sensitive"])
    assert text[f.start : f.end] == "139\u200b1234\u00ad5678"
    assert mask_text(text, style="stars").text == "手机：" + "*" * 13 + "。"


def test_fold_maps_back_and_leaves_plain_text_alone() -> None:
    assert fold("手机：13912345678") is None
    folded = fold("a\u200b\u200bb\u00a0c")
    assert folded is not None and folded.text == "ab c"
    assert folded.span(0, 2) == (0, 4)


def test_passport_label_split_across_lines() -> None:
    for text in ("Passport\nNo.: E12345678", "Passport No.:\nE12345678", "护照\n号码：E12345678"):
        assert [f.rule for f in check_text(text, select=["sensitive"])] == ["sensitive/passport"]


def test_ten_thousand_zero_width_characters_inside_a_number() -> None:
    checker = Checker("sensitive")
    text = "手机：139" + "\u200b" * 10_000 + "12345678。"
    began = time.perf_counter()
    (f,) = checker.check(text)
    assert (f.start, f.end) == (3, len(text) - 1)
    big = "手机：139" + "\u200b" * 200_000 + "12345678。"
    checker.check(big)
    assert time.perf_counter() - began < 5  # linear: a fraction of a second on a slow machine
