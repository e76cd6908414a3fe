"""The placeholder principles of SPEC §1 ("Principles that hold for every class above"), tested
as principles: any blank character in any blank, every class through every reader, the traps,
the judgment profile, and bad input that must stay linear."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from genlint import check_text
from genlint.check import check_paths

# SPEC §1: "A blank is any run of blank characters" — each element is one blank unit
SPEC_BLANKS = [
    " ",
    "\u00a0",
    "\u3000",
    *[chr(c) for c in range(0x2000, 0x200B)],
    "\t",
]
blank_runs = st.lists(st.sampled_from(SPEC_BLANKS), min_size=3, max_size=10).map("".join)

# (template with {B} where the blank stands, the rule that must find it)
BLANK_CLASSES = [
    ("姓名：{B}性别：男", "placeholder/empty-field"),
    ("联系电话：{B}", "placeholder/empty-field"),
    ("日期：{B}年{B}月{B}日", "placeholder/blank-date"),
    ("2026年{B}月{B}日", "placeholder/blank-date"),
    ("金额（{B}）元", "placeholder/empty-slot"),
    ("【{B}】", "placeholder/empty-slot"),
    ("本合同一式{B}份，双方各执一份。", "placeholder/gap-blank"),
    ("逾期{B}日的，按日支付违约金。", "placeholder/gap-blank"),
    ("依法向{B}人民法院起诉。", "placeholder/gap-blank"),
    ("人民币（大写）{B}元", "placeholder/gap-blank"),
    ("损失{B}×{B}元", "placeholder/x-value"),
    ("第{B}号", "placeholder/gap-blank"),
]


@pytest.mark.parametrize(("template", "rule"), BLANK_CLASSES)
@settings(max_examples=25, deadline=None)
@given(blank=blank_runs)
def test_any_spec_blank_character_in_a_blank_keeps_it_found(
    template: str, rule: str, blank: str
) -> None:
    text = template.replace("{B}", blank)
    first = text.index(blank)
    found = [f for f in check_text(text, select="placeholder") if f.rule == rule]
    assert found, f"{rule} lost {text!r}"
    # the finding is where the blank is (or its label, for a field), not somewhere else
    assert any(f.start <= first + len(blank) and f.end >= first for f in found)


@settings(max_examples=40, deadline=None)
@given(blank=st.lists(st.sampled_from(SPEC_BLANKS), min_size=1, max_size=6).map("".join))
def test_a_filled_value_stays_clean_whatever_blanks_surround_it(blank: str) -> None:
    # the other side of the property: blanks around real values are not slots
    for text in (
        f"本合同一式两份{blank}",
        f"日期：2026年3月1日{blank}",
        f"金额（{blank}5000{blank}）元",
    ):
        assert check_text(text, select="placeholder") == [], text


# every class through every reader: the same text gives the same findings (SPEC: a rule that
# behaves differently on the same text in a .txt, a DOCX paragraph, a DOCX table cell or a PDF
# line is a defect)
READER_CASES = [
    "姓名：      性别：",
    "日期：    年  月  日",
    "本合同一式    份",
    "金额（    ）元",
    "交货地点：待定",
    "由【股东3】出资",
    "服务内容：【具体的服务内容，如（写明服务地点）】",
    "Employer: [Legal name of the employer]",
    "The Supplier shall [describe the services].",
    "Address: [To be provided]",
    "副本×份",
    "日期：年月日",
    "房屋坐落于            区（县）",
    "人民币（大写）\u00a0元（￥\u00a0元）",
    "地址、电话：      开户行及账号：",
    "现委托本所\u00a0\u00a0\u00a0\u00a0律师为其诉讼代理人",
    "此致\n\u00a0\u00a0\u00a0\u00a0（姓名或单位名称）",
]


def _found(path: Path) -> list[tuple[str, str]]:
    (file,) = check_paths([path], select="placeholder").files
    assert file.error is None, file.error
    return sorted((f.rule, f.text) for f in file.findings)


def _docx(path: Path, text: str, in_table: bool) -> Path:
    from tests.support.docx_build import new_document, to_bytes

    document = new_document()
    if in_table:
        table = document.add_table(rows=1, cols=2)
        table.cell(0, 0).text = text
        table.cell(0, 1).text = "备注"
    else:
        document.add_paragraph(text)
    path.write_bytes(to_bytes(document))
    return path


@pytest.mark.parametrize("text", READER_CASES)
def test_every_class_is_found_alike_through_every_reader(tmp_path: Path, text: str) -> None:
    from tests.support.pdf_build import make_pdf

    txt = tmp_path / "a.txt"
    txt.write_text(text + "\n", encoding="utf-8")
    want = _found(txt)
    assert want, f"the .txt reading finds nothing in {text!r}"
    assert _found(_docx(tmp_path / "p.docx", text, in_table=False)) == want
    assert _found(_docx(tmp_path / "t.docx", text, in_table=True)) == want
    assert _found(make_pdf(tmp_path / "a.pdf", [[text]])) == want


# --- classes the principles name ------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "rule", "span"),
    [
        ("| Name | |", "placeholder/empty-field", "Name"),
        ("| 姓名 | 张三 |\n| 电话 |   |", "placeholder/empty-field", "电话"),
        (
            "<table><tr><td>Company</td><td>&nbsp;</td></tr></table>",
            "placeholder/empty-field",
            "Company",
        ),
        ("Name:\nTitle:\nEmail:", "placeholder/empty-field", "Title:"),
        ("签约代表：\n委托代理人：\n日期：", "placeholder/empty-field", "委托代理人："),
        ("日期：年月日", "placeholder/blank-date", "年月日"),
        ("日期：\n年月\n日", "placeholder/blank-date", "年月\n日"),
        ("（待补充）", "placeholder/to-be-supplied", "待补充"),
        ("付款方式：TBC", "placeholder/filler", "TBC"),
        ("dated [●] 2026", "placeholder/empty-slot", "[●]"),
        ("signed by [Party A]", "placeholder/slot-label", "[Party A]"),
        ("由【股东3】出资", "placeholder/slot-label", "【股东3】"),
        ("[<mark>duties</mark>] and more", "placeholder/slot-label", "[<mark>duties</mark>]"),
        (
            "on a [once per month / semimonthly] basis",
            "placeholder/slot-label",
            "[once per month / semimonthly]",
        ),
        ("× 件专利侵权民事案件", "placeholder/x-value", "× 件"),
        ("关联案件：\n× 次专利确权行政程序", "placeholder/x-value", "× 次"),
        ("公诉机关××××人民检察院", "placeholder/x-value", "××××人民检察院"),
    ],
)
def test_principle_classes(text: str, rule: str, span: str) -> None:
    found = [(f.rule, f.text) for f in check_text(text, select="placeholder")]
    assert (rule, span) in found, found


@pytest.mark.parametrize(
    "text",
    [
        # headings and lead-ins whose content follows
        "甲方收款账户信息：\n账户名：北京远航科技有限公司\n开户行：中国银行北京分行",
        "BUYER:\nName: Ann Lee\nTitle: CEO",
        "甲方（盖章）：\n法定代表人：张三",
        "Signature: ____________\nName: Ann Lee",
        # already masked, in any masking character
        "尾号××××的银行卡",
        "手机尾号XXXX",
        "身份证号后三位为×××",  # any length the words name, not only 后四位/后六位
        "银行卡号末5位××××× ",
        "尾号622867114270xxxxx号银行卡",
        "手机号138****5678",
        # a party defined by that name; a Markdown header row; statute numerals
        'ABC Ltd. ("Party A") and [Party A] agree',
        "| 项目 | |\n| --- | --- |\n| 货款 | 5000元 |",
        "依据《中华人民共和国民法典》第五百七十七条、第五百八十四条",
        "本合同一式两份，自双方签字之日起生效。",
    ],
)
def test_traps_stay_clean(text: str) -> None:
    assert check_text(text, select="placeholder") == []


# --- the judgment profile -------------------------------------------------------------------

JUDGMENT = "原告李某与被告张某1、王某某、马XX借款纠纷。被告电话13812345678。日期：    年  月  日"


def test_judgment_profile_keeps_anonymised_names_quiet_and_the_rest_found() -> None:
    plain = {(f.rule, f.text) for f in check_text(JUDGMENT)}
    assert {("placeholder/mou-name", "李某"), ("placeholder/x-value", "马XX")} <= plain
    judged = {(f.rule, f.text) for f in check_text(JUDGMENT, options={"profile": "judgment"})}
    assert not any(rule.startswith("placeholder/mou") for rule, _ in judged)
    assert ("placeholder/x-value", "马XX") not in judged
    assert ("sensitive/mobile", "13812345678") in judged
    assert ("placeholder/blank-date", "    年  月  日") in judged
    # 某某公司 is still a placeholder in a judgment: only names are anonymised
    assert [f.text for f in check_text("由某某公司承担", options={"profile": "judgment"})] == [
        "某某公司"
    ]


def test_judgment_profile_from_the_config_and_the_command_line(tmp_path: Path, run_cli) -> None:  # type: ignore[no-untyped-def]
    doc = tmp_path / "j.txt"
    doc.write_text("原告李某与被告张某1借款纠纷。\n", encoding="utf-8")
    assert run_cli("check", str(doc)).code == 1
    assert run_cli("check", "--profile", "judgment", str(doc)).code == 0
    config = tmp_path / "genlint.toml"
    config.write_text('[check]\nprofile = "judgment"\n', encoding="utf-8")
    assert run_cli("check", "--config", str(config), str(doc)).code == 0
    # the command line beats the file
    assert run_cli("check", "--config", str(config), "--profile", "default", str(doc)).code == 1
    config.write_text('[check]\nprofile = "court"\n', encoding="utf-8")
    bad = run_cli("check", "--config", str(config), str(doc))
    assert bad.code == 2 and "profile" in bad.err and "Traceback" not in bad.err


# --- bad input: linear time, no crash ------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "| 姓名 | |\n" * 20_000,  # a table with thousands of empty cells
        "姓名：性别：民族：电话：\n" * 10_000,  # a form of nothing but labels and colons
        "\u00a0" * 2_000_000,  # an NBSP flood
        "甲方：" + "\u3000" * 500_000 + "乙方：",
        ("本合同一式 " + "\u2003" * 50) * 20_000,  # one long line of gaps
    ],
)
def test_bad_input_stays_linear(text: str) -> None:
    start = time.perf_counter()
    check_text(text, select="placeholder")
    assert time.perf_counter() - start < 20


def test_a_docx_label_cell_beside_an_empty_cell_is_an_empty_field(tmp_path: Path) -> None:
    from tests.support.docx_build import new_document, to_bytes

    document = new_document()
    table = document.add_table(rows=5, cols=2)
    rows = [
        ("联系电话", ""),
        ("姓名", "张三"),
        ("当事人信息", ""),
        ("其他□", ""),
        ("合计", "\u00a0"),
    ]
    for r, (label, value) in enumerate(rows):
        table.cell(r, 0).text = label
        table.cell(r, 1).text = value
    document.add_paragraph("备注")  # a body paragraph after the table is not a cell
    path = tmp_path / "t.docx"
    path.write_bytes(to_bytes(document))
    (file,) = check_paths([path], select="placeholder").files
    assert [(f.text, f.location) for f in file.findings] == [
        ("联系电话", {"part": "body", "table": 1, "row": 1, "cell": 1}),
        ("合计", {"part": "body", "table": 1, "row": 5, "cell": 1}),
    ]


def test_a_label_ending_its_docx_cell_is_empty_unless_the_next_cell_holds_the_value(
    tmp_path: Path,
) -> None:
    from tests.support.docx_build import new_document, to_bytes

    document = new_document()
    table = document.add_table(rows=2, cols=2)
    table.cell(0, 0).text = "姓名："
    table.cell(0, 1).text = "张三"  # the value in the next cell: not empty
    table.cell(1, 0).text = "需方：甲公司"
    table.cell(1, 1).text = "供方：乙公司\n联系人："  # ends the row's last cell: empty
    document.add_paragraph("产品名称、型号、数量")  # the next line is body text, not the value
    path = tmp_path / "t.docx"
    path.write_bytes(to_bytes(document))
    (file,) = check_paths([path], select="placeholder").files
    assert [(f.text, f.location) for f in file.findings] == [
        ("联系人：", {"part": "body", "table": 1, "row": 2, "cell": 2})
    ]


@settings(max_examples=25, deadline=None)
@given(blank=st.sampled_from(SPEC_BLANKS))
def test_a_single_blank_character_in_an_amount_in_words_is_a_blank(blank: str) -> None:
    # 人民币（大写） 元: nothing but one blank where the amount belongs (a DOCX built with one NBSP)
    text = f"人民币（大写）{blank}元（￥{blank}元）"
    found = [f for f in check_text(text, select="placeholder") if f.rule == "placeholder/gap-blank"]
    assert found and found[0].start <= text.index(blank), text


def _md_and_docx_paragraph_findings(
    tmp_path: Path, lines: list[str]
) -> list[list[tuple[str, str]]]:
    from tests.support.docx_build import new_document, to_bytes

    md = tmp_path / "a.md"
    md.write_text("\n\n".join(lines) + "\n", encoding="utf-8")
    document = new_document()
    for line in lines:
        document.add_paragraph(line)
    docx = tmp_path / "a.docx"
    docx.write_bytes(to_bytes(document))
    return [
        [pair for pair in _found(path) if pair[0] == "placeholder/empty-field"]
        for path in (md, docx)
    ]


def test_the_last_field_of_a_form_block_before_the_next_partys_heading_is_empty(
    tmp_path: Path,
) -> None:
    # Markdown and DOCX paragraphs keep tables apart: 乙方（卖方） after 统一社会信用代码： is the
    # next party's heading, not its value (a DOCX table cell or a .txt column may hold one)
    lines = [
        "甲方（买方）",
        "名称：",
        "统一社会信用代码：",
        "乙方（卖方）",
        "名称：",
        "统一社会信用代码：",
        "本合同各方经平等自愿协商，签订本合同。",
        "产地：",
        "# 采购价款",
        "每次采购价款以订单为准。",
    ]
    want = [
        ("placeholder/empty-field", "产地："),
        *[
            ("placeholder/empty-field", label)
            for label in ("名称：", "名称：", "统一社会信用代码：", "统一社会信用代码：")
        ],
    ]
    for found in _md_and_docx_paragraph_findings(tmp_path, lines):
        assert sorted(found) == sorted(want), found


def test_a_value_on_the_next_line_stays_a_value_where_a_table_may_have_put_it(
    tmp_path: Path,
) -> None:
    assert [f.text for f in check_text("姓名：\n\n性别：\n\n民族：\n汉", select="placeholder")] == [
        "姓名：",
        "性别：",
    ]


@pytest.mark.parametrize(
    ("text", "found"),
    [
        # a lead-in naming the group whose parts follow: 收款账号 above 户名/账号/开户行
        ("甲方指定收款账号：\n户名：\n账号：\n开户行：", ["户名：", "账号：", "开户行："]),
        # one of several parties of a role heads its signature block like 甲方（盖章）
        ("乙方1（盖章）：\n法定代表人或授权代表：", ["法定代表人或授权代表："]),
        # 事项 names the matters a field holds, not a group of fields: empty before the next label
        ("申请人：\n请求事项：\n事实与理由：", ["申请人：", "请求事项：", "事实与理由："]),
        # names of one field joined by 、
        ("名称：\n地址、电话：\n开户行及账号：", ["名称：", "地址、电话：", "开户行及账号："]),
        # the finding is the label and its colon, not the blank after it
        ("甲方（出借方）： \n地址：  ", ["甲方（出借方）：", "地址："]),
    ],
)
def test_form_blocks_read_by_their_principles(text: str, found: list[str]) -> None:
    got = [
        f.text
        for f in check_text(text, select="placeholder")
        if f.rule == "placeholder/empty-field"
    ]
    assert got == found


def test_a_label_before_a_markdown_heading_is_empty(tmp_path: Path) -> None:
    md = tmp_path / "a.md"
    md.write_text(
        "合同编号：\n\n# 增资扩股协议\n\n鉴于：\n\n1. 甲方系丙方实际控制人。\n", encoding="utf-8"
    )
    assert _found(md) == [("placeholder/empty-field", "合同编号：")]


@settings(max_examples=25, deadline=None)
@given(blank=st.sampled_from(SPEC_BLANKS))
def test_any_spec_blank_character_keeps_signature_lines_quiet_and_html_cells_empty(
    blank: str,
) -> None:
    # the signature veto and the HTML empty cell take every blank SPEC §1 lists, not a few
    for text in (
        f"Signature:{blank}____________",
        f"签字：{blank}________",
        f"Signed:\n\n__________{blank * 3}__________\n\nDirector   Secretary",
    ):
        assert check_text(text, select="placeholder") == [], repr(text)
    cell = f"<table><tr><td>Company</td><td>{blank}</td></tr></table>"
    assert [f.text for f in check_text(cell, select="placeholder")] == ["Company"]
