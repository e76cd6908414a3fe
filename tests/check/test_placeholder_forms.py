"""Placeholder classes of SPEC §1 added for issue 12: empty form fields, a lone ×/X for an amount,
slot labels in markup, traditional script and the spans of 某 names; exact spans, traps, a
property of the empty-field rule and linear time on pathological input."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from genlint import check_text


def _found(text: str) -> list[tuple[str, str]]:
    return [(f.rule.split("/", 1)[1], f.text) for f in check_text(text, select="placeholder")]


POSITIVE = [
    # empty form fields: the label, its colon and the blank after it
    ("姓名：      性别：", [("empty-field", "姓名："), ("empty-field", "性别：")]),
    (
        "姓　　名：        性　　别：",
        [("empty-field", "姓　　名："), ("empty-field", "性　　别：")],
    ),
    ("联系电话：　　　　", [("empty-field", "联系电话：")]),
    ("身份证号码：\xa0\xa0", [("empty-field", "身份证号码：")]),
    ("签订日期：", [("empty-field", "签订日期：")]),
    (
        "甲方：\n地址：\n电话：",
        [("empty-field", "甲方："), ("empty-field", "地址："), ("empty-field", "电话：")],
    ),
    ("姓名：\n\n性别：\n\n民族：\n汉", [("empty-field", "姓名："), ("empty-field", "性别：")]),
    ("姓名：张三 性别：", [("empty-field", "性别：")]),
    ("原告：张三，男，汉族，联系电话：", [("empty-field", "联系电话：")]),
    ("姓名：性别：", [("empty-field", "姓名："), ("empty-field", "性别：")]),
    ("Name:\t\tDate:", [("empty-field", "Name:"), ("empty-field", "Date:")]),
    (
        "Name:\nTitle:\nDate:",
        [("empty-field", "Name:"), ("empty-field", "Title:"), ("empty-field", "Date:")],
    ),
    ("| 姓名： |   |", [("empty-field", "姓名：")]),
    (
        "- **姓名：**  \n- **性别：**",
        [("empty-field", "**姓名：**"), ("empty-field", "**性别：**")],
    ),
    (
        "乙方（签字）：\n\n    年  月  日",
        [("blank-date", "    年  月  日")],  # the signature line stays empty on purpose
    ),
    (
        "甲方：张三\n联系地址：\n\n根据《中华人民共和国民法典》及相关法律法规的规定，甲乙双方经协商一致，订立本合同。",
        [("empty-field", "联系地址：")],
    ),
    ("名称：\n住所地：", [("empty-field", "名称："), ("empty-field", "住所地：")]),
    (
        "Principal Amount: $__________\nDate:\nFOR VALUE RECEIVED, the undersigned Borrower "
        "promises to pay to the order of Lender as follows:",
        [("underscore-blank", "__________"), ("empty-field", "Date:")],
    ),
    # a lone × or X for an amount or a count
    ("副本×份", [("x-value", "×份")]),
    ("副本X份", [("x-value", "X份")]),
    ("赔偿损失 × 元。", [("x-value", "× 元")]),
    # slot labels through markup, escapes, quotes, case; instructions; date parts
    ("[<mark>First Name</mark>]", [("slot-label", "[<mark>First Name</mark>]")]),
    ("\\[TITLE\\]", [("slot-label", "\\[TITLE\\]")]),
    ("Dated [Today’s date]", [("slot-label", "[Today’s date]")]),
    ("in the State of [State]", [("slot-label", "[State]")]),
    ("[STATE]", [("slot-label", "[STATE]")]),
    ("a [jurisdiction of formation] corporation", [("slot-label", "[jurisdiction of formation]")]),
    ("located in [Fill in the city and state]", [("slot-label", "[Fill in the city and state]")]),
    ("原告：（写明姓名、住所）", [("slot-label", "（写明姓名、住所）")]),
    ("【年份】年【月份】月", [("slot-label", "【年份】年【月份】月")]),
    ("版本 v{version}", [("template-var", "{version}")]),
    # traditional script, modifiers, names
    ("某某銀行", [("mou-entity", "某某銀行")]),
    (
        "某公司/某銀行/某縣",
        [("mou-entity", "某公司"), ("mou-entity", "某銀行"), ("mou-entity", "某縣")],
    ),
    ("張某簽訂合同", [("mou-name", "張某")]),
    ("张某签订合同", [("mou-name", "张某")]),
    ("某中介公司", [("mou-entity", "某中介公司")]),
    ("某房地产中介公司", [("mou-entity", "某房地产中介公司")]),
    ("支付张某人民币5000元", [("mou-name", "张某")]),
    ("甲方张某乙方李某", [("mou-name", "张某"), ("mou-name", "李某")]),
]


@pytest.mark.parametrize(("text", "expected"), POSITIVE, ids=[t[:20] for t, _ in POSITIVE])
def test_positive_spans(text: str, expected: list[tuple[str, str]]) -> None:
    assert _found(text) == expected


NEGATIVE = {
    "empty-field": [
        "诉讼请求：\n1. 判令被告支付货款10000元；",
        "诉讼请求：\n判令被告支付货款10000元。",
        "原告：张三\n被告：李四\n诉讼请求：\n判令被告还款。",
        "备注：\n本合同一式两份。",
        "会议时间为10:30，地点另行通知。",
        "详见 http://example.com/a:b 的说明",
        "Note: the parties agree.",
        "Note:\nThe parties agree.",
        "Note:  \n  indented content",
        "事实与理由：\n  原告与被告于2023年签订合同。",
        "当事人：\n- 姓名：张三",
        "姓名：\n张三",
        "审判长：王立新，审判员：陈静。",
        "双方约定如下：",
        "原告诉称：被告欠款未还，故诉至法院，请求：",
        "备注：付款方式：转账",
        "姓名：张三  性别：男",
        "WHEREAS:\nThe parties wish to",
        "时间：2026年3月1日 10:30",
        "def f():\n    return 1",
        "被告辩称：\n原告的请求没有事实依据。",
        "本院认为：\n依法成立的合同，对当事人具有法律约束力。",
        "原告向本院提出诉讼请求：1.判令被告付款；2.诉讼费由被告承担。事实和理由：\n原告与被告签订合同。",
        "| 对齐 |\n|:---|---:|",
    ],
    "x-value": [
        "3×4",
        "3 × 4",
        "拍X片",
        "X光片",
        "单价 × 数量",
        "6228 **** xxxx 1234",
        "622848xxxxxxxx1234",
    ],
    "slot-label": [
        "脚注[^1]",
        "- [x] 已完成",
        "[2023] EWHC 1",
        "he said [sic] that",
        "see [the attached schedule](#schedule)",
        "see [Source 1]",
        "[1] 参考文献",
        "[NOTE] this",
        "甲方（盖章）：张三",
        "（注明：已核实）",
        "（2023）京01民初1号",
    ],
    "template-var": ["\\frac{a}{b}", "\\mathbf{x}", "\\it{a}", "x^{2}", "a{color:red}"],
    "mou": ["某些中介公司", "某種程度", "某個人", "某天去店里", "某一方违约"],
}


@pytest.mark.parametrize("text", [t for ts in NEGATIVE.values() for t in ts], ids=lambda t: t[:20])
def test_negative_traps_stay_clean(text: str) -> None:
    assert _found(text) == []


_LABEL = st.sampled_from(["姓名", "性别", "联系电话", "Name", "Date", "备注", "地址", "签订日期"])
_BLANK = st.text(alphabet=" \t\u3000\xa0", max_size=6)
_CONTENT = st.text(
    alphabet=st.characters(
        blacklist_characters="：:\n\r|", blacklist_categories=("Cs", "Zs", "Cc")
    ),
    min_size=1,
    max_size=20,
)


@settings(max_examples=300, deadline=None)
@given(label=_LABEL, colon=st.sampled_from("：:"), blank=_BLANK, content=_CONTENT, tail=_BLANK)
def test_empty_field_never_fires_when_content_follows_the_colon(
    label: str, colon: str, blank: str, content: str, tail: str
) -> None:
    text = f"{label}{colon}{blank}{content}{tail}"
    found = check_text(text, select="placeholder/empty-field")
    assert found == [], text


@settings(max_examples=200, deadline=None)
@given(label=_LABEL, colon=st.sampled_from("：:"), blank=_BLANK, nxt=_LABEL)
def test_empty_field_span_is_label_and_colon_without_the_blank(
    label: str, colon: str, blank: str, nxt: str
) -> None:
    # a form line: the field, a wide blank, the next label; the finding is exactly the first
    # label and its colon (SPEC §1: the blank after it is not quoted)
    text = f"{label}{colon}{blank}\u3000{nxt}{colon}"
    found = check_text(text, select="placeholder/empty-field")
    assert [f.text for f in found][:1] == [f"{label}{colon}"]


PATHOLOGICAL = {
    "mou": "某" * 1_000_000,
    "underscores": "_" * 1_000_000,
    "full-width colons": "：" * 1_000_000,
    "colons": ":" * 1_000_000,
    "colon lines": "：\n" * 500_000,
    "label colon pairs": "a:" * 500_000,
    "brackets": "[a]" * 333_333,
    "parentheses": "（写明" * 333_333,
    "one form line": "姓名：张三 性别：" * 110_000,
    "blank lines after a label": "姓名：" + "\n" * 1_000_000,
}


@pytest.mark.parametrize("text", PATHOLOGICAL.values(), ids=PATHOLOGICAL.keys())
def test_pathological_input_runs_in_linear_time(text: str) -> None:
    # 1 MB under 2 s on a loaded 2-core machine: a quadratic scan would take minutes
    t = time.process_time()
    check_text(text, select="placeholder")
    assert time.process_time() - t < 2.0


def test_a_flood_of_empty_fields_stays_linear() -> None:
    # every line a finding: the cost is the findings themselves, linear in their number
    small, big = "姓名：\n" * 5_000, "姓名：\n" * 50_000
    t = time.process_time()
    assert len(check_text(small, select="placeholder")) == 5_000
    t_small = time.process_time() - t
    t = time.process_time()
    assert len(check_text(big, select="placeholder")) == 50_000
    t_big = time.process_time() - t
    assert t_big < 2.0 + 20 * t_small
