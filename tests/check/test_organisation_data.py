"""An organisation's own contact and account data is not personal data (SPEC §1 "What is
sensitive"): the label names the organisation, or the account sits under an organisation's
account name. A person's data beside an organisation word still counts."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from genlint import check_text


@pytest.mark.parametrize(
    "text",
    [
        "公司电话：13812345678",
        "单位座机：010-62345678",
        "单位邮箱：hr@acme.com.cn",
        "对公账户：110060149018001234567",
        "开户名称：华夏科技有限公司\n开户行：工商银行北京分行\n账号：6222020200112233445",
        "户名：北京某律师事务所 账号：110060149018001234567",
        # a contract's party block: the party names the holder, the bank line names a bank
        "需方（甲方）：浙江某某科技股份有限公司\n地址：杭州市余杭区\n"
        "开户银行：上海浦东发展银行股份有限公司余杭支行\n银行帐号：95260078801100000902",
        "Company Tel: 13812345678",
        "Office e-mail: legal@acme.com",
        "客服热线：13812345678",
        "总机：010-62345678",
        # a letterhead or footer block: the organisation's name alone on a line above
        "QualityHosting AG\nUferweg 40-42\nD-63571 Gelnhausen\nTel. +49 6051 916 44 10\n"
        "eMail: info@qualityhosting.de",
        "Oravel Stays Private Limited\nRegistered Office:\nSaket, New Delhi - 110017\n"
        "Corporate Office:\nSec-69, Gurgaon | Email:\ncontactus@oyorooms.com",
        "华夏科技有限公司\n地址：北京市海淀区\n电话：13812345678",
        # a unit of the organisation under its name is still the organisation
        "华夏科技有限公司\n财务部\n电话：13812345678",
        "Acme Trading Ltd\nSales Department\nTel: 13812345678",
        "Acme Trading Ltd\nTel: 13812345678",
        "Flipkart.com Customer Care : 1800 208 9898",
        "Hotline: 13812345678",
        "Siège social : 16 rue Mollien - 92100 BOULOGNE – Tél : 01 71 17 61 67 – annonce@example.fr",
        "公司地址：北京市海淀区中关村大街1号 电话：13812345678",
        # a role mailbox of an organisation the document names (its domain's name)
        "QualityHosting AG — Rechnung\n\nBitte senden Sie Fragen an buchhaltung@qualityhosting.de.",
        "北京天元律师事务所（Tianyuan Law）咨询邮箱 service@tianyuanlaw.com",
        "Acme Trading Ltd.\n\nOrders ship within 3 days; write to customer.service@acme-trading.co.uk",
    ],
)
def test_an_organisations_own_data_stays_quiet(text: str) -> None:
    assert check_text(text, select="sensitive") == []


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("联系电话：13812345678", "sensitive/mobile"),
        ("甲方（公司）联系人电话：13812345678", "sensitive/mobile"),
        ("公司法定代表人电话：13812345678", "sensitive/mobile"),
        ("账户名称：张三\n账号：6222020200112233445", "sensitive/bank-account"),
        ("乙方：张三\n开户银行：中国工商银行股份有限公司北京分行\n银行账号：6222020200112233445",
         "sensitive/bank-account"),
        ("甲方：华夏科技有限公司\n联系人：李四\n账号：6222020200112233445", "sensitive/bank-account"),
        ("邮箱：zhangsan@163.com", "sensitive/email"),
        # a role word at a free-mail domain, a role mailbox of an organisation not named, a
        # person's address at a named organisation
        ("华夏科技有限公司\n\n请发送至 sales@163.com", "sensitive/email"),
        ("（邮箱：service@abc-law.cn）", "sensitive/email"),
        ("Acme Trading Ltd.\n\nwrite to john.smith@acme-trading.co.uk", "sensitive/email"),
        ("Acme Trading Ltd.\n\nwrite to support.john@acme-trading.co.uk", "sensitive/email"),
        ("公司电话：13900000000。\n\n本人手机：13812345678", "sensitive/mobile"),
        # a person named under the letterhead, or a new block after an empty line
        ("华夏科技有限公司\n联系人：李四\n电话：13812345678", "sensitive/mobile"),
        ("华夏科技有限公司\n\n电话：13812345678", "sensitive/mobile"),
        # … named without a label, as a signature or contact block names its person
        ("华夏科技有限公司\n张三\n13812345678", "sensitive/mobile"),
        ("ACME Ltd\nAnn Lee\nEmail: ann.lee@acme.com", "sensitive/email"),
        ("ACME Ltd\nDr. Ann M. Lee\nTel: 13812345678", "sensitive/mobile"),
        ("ACME Ltd\nName: Ann Lee\nEmail: ann.lee@gmail.com", "sensitive/email"),
        # a sentence that ends in a company's name is not a letterhead
        ("本合同由张三出资，设立北京华夏科技有限公司\n电话：13812345678", "sensitive/mobile"),
        ("家庭地址：北京市海淀区中关村大街1号 电话：13812345678", "sensitive/mobile"),
        # a person named on the office's line: the number after the name may be theirs
        ("公司地址：北京市海淀区中关村大街1号 联系人：张三 手机：13812345678", "sensitive/mobile"),
        ("公司地址：北京市海淀区中关村大街1号 负责人张三 13812345678", "sensitive/mobile"),
        # a number inside a sentence under the letterhead is not the block's contact line
        ("某律师事务所\n请核实 13912345678", "sensitive/mobile"),
    ],
)
def test_a_persons_data_still_counts(text: str, rule: str) -> None:
    assert [f.rule for f in check_text(text, select="sensitive")] == [rule]


@given(
    st.sampled_from(["联系电话", "手机", "电话", "Tel", "本人电话"]),
    st.from_regex(r"1[3-9][0-9]{9}", fullmatch=True),
)
def test_a_personal_label_never_becomes_an_organisations(label: str, phone: str) -> None:
    found = check_text(f"{label}：{phone}", select="sensitive")
    assert [f.text for f in found] == [phone]


def _party_table(tmp_path, left: list[str], right: list[str]):  # type: ignore[no-untyped-def]
    """A contract's party block laid out in two columns of a DOCX table, one field per row."""
    from tests.support.docx_build import new_document, to_bytes

    document = new_document()
    table = document.add_table(rows=len(left), cols=2)
    for row, (a, b) in enumerate(zip(left, right, strict=True)):
        table.cell(row, 0).text = a
        table.cell(row, 1).text = b
    path = tmp_path / "parties.docx"
    path.write_bytes(to_bytes(document))
    return path


def _accounts(path) -> list[str]:  # type: ignore[no-untyped-def]
    from genlint.check import check_paths

    (file,) = check_paths([path], select="sensitive").files
    return [f.text for f in file.findings if f.rule == "sensitive/bank-account"]


def test_a_companys_account_in_its_column_of_a_party_table_stays_quiet(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # the reader gives the cells row by row, so the holder stands six lines above the account;
    # its column says whose account it is
    left = [
        "需方（甲方）：浙江沃乐科技股份有限公司",
        "联系地址：杭州市余杭区仓兴街397号",
        "开户银行：浦发银行杭州余杭支行",
        "银行账号：95260078801100000902",
    ]
    right = ["供方（乙方）：", "地址：", "开户银行：", "银行帐号："]
    assert _accounts(_party_table(tmp_path, left, right)) == []


def test_a_persons_account_beside_a_companys_column_still_counts(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # the company in the other column is not this account's holder
    left = ["乙方：张三", "开户银行：中国工商银行", "银行账号：95260078801100000902"]
    right = ["甲方：北京远航科技有限公司", "开户银行：中国银行", "银行账号："]
    assert _accounts(_party_table(tmp_path, left, right)) == ["95260078801100000902"]
