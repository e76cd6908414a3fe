"""IDs, cards and phones grouped with dots or in any grouping (SPEC "What is sensitive":
``139.0000.0070``) are personal data; decimals, dates, versions, IP addresses and rows of
single digits stay clean; masking covers every one of them."""

from __future__ import annotations

import pytest

from genlint import check_text
from genlint.mask import mask_text


@pytest.mark.parametrize(
    ("text", "rule", "value"),
    [
        ("手机139.0000.0070。", "sensitive/mobile", "139.0000.0070"),
        ("手机１３９．００００．００７０", "sensitive/mobile", "１３９．００００．００７０"),
        ("电话1390 000 0070", "sensitive/mobile", "1390 000 0070"),
        ("电话139-000-00070", "sensitive/mobile", "139-000-00070"),
        ("+86 139.0000.0070", "sensitive/mobile", "+86 139.0000.0070"),
        ("身份证110105.19491231.002X", "sensitive/resident-id", "110105.19491231.002X"),
        ("卡号6222.0212.3456.7890.128", "sensitive/bank-card", "6222.0212.3456.7890.128"),
        ("2023.05.01 11010519491231002X", "sensitive/resident-id", "11010519491231002X"),
    ],
)
def test_dotted_and_other_groupings_are_found_and_masked(text: str, rule: str, value: str) -> None:
    found = [(f.rule, f.text) for f in check_text(text, select=["sensitive"])]
    assert found == [(rule, value)]
    masked = mask_text(text)
    assert len(masked.text) == len(text)
    assert check_text(masked.text, select=["sensitive"]) == []


@pytest.mark.parametrize(
    "text",
    [
        "圆周率3.1415926535897932",
        "金额13812345678.00元",
        "日期2023.05.01，版本1.2.3.4567",
        "服务器192.168.100.200",
        "1 3 5 7 9 2 4 6 8 0 1",
        "13 900 000 070",
        "编号 139.0000.0070",
        "138.****.5678",
    ],
)
def test_decimals_dates_and_loose_digits_stay_clean(text: str) -> None:
    assert check_text(text, select=["sensitive"]) == []
