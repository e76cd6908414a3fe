"""The sensitive pack against SPEC §1 "What is sensitive" as extended by issue 12: landlines,
bank accounts, passports, plates, written variants (full-width, legacy IDs, any grouping), the
opt-in name and address rules, and what must stay clean (order and case numbers, amounts,
identifiers, masked values). Spans are exact: the value only, never its label."""

from __future__ import annotations

import datetime
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from genlint import check_text
from genlint.check import Checker
from genlint.check.rules import select_rules
from genlint.check.rules.sensitive.checks import id_check_char, luhn_ok

ALL = "sensitive,sensitive/person-name,sensitive/address"


def _found(text: str, select: str = ALL) -> list[tuple[str, str, int]]:
    out = []
    for f in check_text(text, select=select):
        assert text[f.start : f.end] == f.text
        out.append((f.rule.split("/", 1)[1], f.text, f.start))
    return out


# (text, [(rule, value)]): each value is reported at its first occurrence in the text
POSITIVE = [
    # resident IDs: 18 characters, any grouping, full width, legacy 15 digits
    ("身份证号：11010519491231002X。", [("resident-id", "11010519491231002X")]),
    ("身份证号：110 105 1949 1231 002X", [("resident-id", "110 105 1949 1231 002X")]),
    ("身份证号：110105-19491231-002X 2023年入职", [("resident-id", "110105-19491231-002X")]),
    ("证件号 110101 19900307 4573，", [("resident-id", "110101 19900307 4573")]),
    ("入职 2023 110101 19900307 4573", [("resident-id", "110101 19900307 4573")]),
    (
        "身份证１１０１０５１９４９１２３１００２Ｘ",
        [("resident-id", "１１０１０５１９４９１２３１００２Ｘ")],
    ),
    ("身份证号：110105　19491231　002X", [("resident-id", "110105　19491231　002X")]),
    ("旧身份证号110105491231002，已换领。", [("resident-id", "110105491231002")]),
    (
        "110105 19491231 002X 13812345678",
        [("resident-id", "110105 19491231 002X"), ("mobile", "13812345678")],
    ),
    # mobiles: full width, grouped, with a country code
    ("手机：１３８１２３４５６７８", [("mobile", "１３８１２３４５６７８")]),
    ("手机：138-1234-5678，", [("mobile", "138-1234-5678")]),
    ("Tel: +86 139 1234 5678", [("mobile", "+86 139 1234 5678")]),
    ("联系电话13812345678转8001", [("mobile", "13812345678")]),
    # bank cards: any grouping, full width
    ("卡号 6222 0212 3456 7890 128", [("bank-card", "6222 0212 3456 7890 128")]),
    ("6222-0212-3456-7890-128", [("bank-card", "6222-0212-3456-7890-128")]),
    ("银行卡622202 1234567890128。", [("bank-card", "622202 1234567890128")]),
    ("银行卡：6225880123456783 2023年开户", [("bank-card", "6225880123456783")]),
    (
        "1 110101199003074573 13812345678 6222021234567890128 6225880123456783 2023 5000 100",
        [
            ("resident-id", "110101199003074573"),
            ("mobile", "13812345678"),
            ("bank-card", "6222021234567890128"),
            ("bank-card", "6225880123456783"),
        ],
    ),
    ("卡号：６２２５８８０１２３４５６７８３", [("bank-card", "６２２５８８０１２３４５６７８３")]),
    # e-mail with a full-width ＠
    ("邮箱：zhangsan＠163.com。", [("email", "zhangsan＠163.com")]),
    # landlines: a dash or bracket, +86, or a label makes them certain
    ("座机：010-12345678", [("landline", "010-12345678")]),
    ("010-12345678", [("landline", "010-12345678")]),
    ("联系电话（0755）1234 5678。", [("landline", "（0755）1234 5678")]),
    ("电话：(010)62345678", [("landline", "(010)62345678")]),
    ("Tel: 0571 8888 6666", [("landline", "0571 8888 6666")]),
    ("办公电话：02188886666", [("landline", "02188886666")]),
    ("Tel: +86 21 6123 4567", [("landline", "+86 21 6123 4567")]),
    ("传真：0755-88886666-801", [("landline", "0755-88886666")]),
    # bank accounts: 10–25 digits after an account label, with or without Luhn
    ("银行账号：1100 6014 9018 0012 345", [("bank-account", "1100 6014 9018 0012 345")]),
    ("账号为110060149018001234567。", [("bank-account", "110060149018001234567")]),
    ("卡号6222021234567890123（Luhn 不通过）", [("bank-account", "6222021234567890123")]),
    ("Account No.: 0200-0012-0901-2345", [("bank-account", "0200-0012-0901-2345")]),
    ("账号：110105491231002", [("bank-account", "110105491231002")]),
    ("收款账号：1234567890", [("bank-account", "1234567890")]),
    # passports and travel permits after their label
    ("护照号码：E12345678", [("passport", "E12345678")]),
    ("护照号 G1234567，", [("passport", "G1234567")]),
    ("往来港澳通行证C12345678", [("passport", "C12345678")]),
    ("Passport No: AB1234567", [("passport", "AB1234567")]),
    ("护照号码：Ｅ１２３４５６７８", [("passport", "Ｅ１２３４５６７８")]),
    # licence plates
    ("车牌号粤B·12345的车辆", [("plate", "粤B·12345")]),
    ("驾驶京A12345号小型轿车", [("plate", "京A12345")]),
    ("新能源车粤BD12345", [("plate", "粤BD12345")]),
    ("粤B12345D", [("plate", "粤B12345D")]),
    ("沪A·3B7C2", [("plate", "沪A·3B7C2")]),
    ("京A1234学", [("plate", "京A1234学")]),
    # names and addresses (opt-in)
    ("姓名：张三，性别：男", [("person-name", "张三")]),
    ("联系人: 欧阳娜娜", [("person-name", "欧阳娜娜")]),
    ("委托代理人：李四，北京某律师事务所律师", [("person-name", "李四")]),
    ("住址：北京市朝阳区建国路88号", [("address", "北京市朝阳区建国路88号")]),
    (
        "地址：广州市天河区体育西路100号3栋201室 电话：***",
        [("address", "广州市天河区体育西路100号3栋201室")],
    ),
    ("住所地：上海市浦东新区世纪大道1号", [("address", "上海市浦东新区世纪大道1号")]),
    (
        "住址：北京市朝阳区建国路88号 13812345678",
        [("address", "北京市朝阳区建国路88号"), ("mobile", "13812345678")],
    ),
]

NEGATIVE = [
    # order, case and other numbers
    "订单号：13812345678",
    "订单号2013812345678",
    "订单编号：6222021234567890128",
    "Order No. 13812345678",
    "案号（2023）京01民初123号",
    "(2023)粤0305民初12345号",
    "编号110105491231002",
    "营业执照号码110105491231002",
    "IMEI：355555123456789",
    "号码110105491231002345",
    "2023050112345678",
    "2019 2020 2021 2022",
    "50000 30000 20000 1000",
    # amounts, decimals, identifiers
    "金额13812345678元",
    "共计13812345678元",
    "6222021234567890128 元",
    "110105491231002万",
    "¥13812345678",
    "人民币6222021234567890128元",
    "13812345678.50",
    "3.1415926535897932",
    "user_13812345678",
    "id13812345678",
    "13812345678abc",
    # masked values
    "138****5678",
    "１３８＊＊＊＊５６７８",
    "110101********1234",
    "6222 **** **** 0128",
    "622848xxxxxxxx1234",
    "卡号：622202******0128",
    "账号：6222 **** **** 0128",
    "z***@163.com",
    "z***＠163.com",
    "010-****5678",
    "护照号码：E1234****",
    "粤B·***45",
    "姓名：张某",
    "姓名：张**",
    "姓名：***",
    "姓名：李某某，男",
    "联系人：王女士",
    "住址：北京市朝阳区***",
    "住址：北京市朝阳区××路××号",
    "住址：某某市某某路",
    # not the kind the label or format names
    "身份证号：110105194912310021",
    "110101199013074573",
    "6222021234567890123",
    "电话：12345678",
    "0755 12345678",
    "021 6123 4567",
    "邮编：518000，日期2023-05-01",
    "010-12345678-9",
    "账号：123456789",
    "账号：110060149018001234567890123",
    "QQ账号：1234567890",
    "会员卡号：1234567890",
    "账号余额：1234567890元",
    "护照有效期：2030年1月1日",
    "护照：见附件",
    "护照号码：E12345678X1",
    "京ICP备12345678号",
    "苏B2-20080023",
    "全新BMW320轿车",
    "沪A600519",
    "京N·1234",
    "京ABCD12",
    "姓名：见附件",
    "姓名：张三同意本协议",
    "住址：北京市朝阳区",
    "地址：见附件",
]


@pytest.mark.parametrize(("text", "expected"), POSITIVE, ids=[t for t, _ in POSITIVE])
def test_flagged_with_exact_span(text: str, expected: list[tuple[str, str]]) -> None:
    want = sorted((rule, value, text.index(value)) for rule, value in expected)
    assert sorted(_found(text)) == want


@pytest.mark.parametrize("text", NEGATIVE)
def test_clean(text: str) -> None:
    assert _found(text) == []


def test_every_new_rule_has_cases_here() -> None:
    rules = {rule for _, expected in POSITIVE for rule, _ in expected}
    assert {"landline", "bank-account", "passport", "plate", "person-name", "address"} <= rules


# --- opt-in rules ---------------------------------------------------------------------------

NAME_AND_ADDRESS = "姓名：张三，住址：北京市朝阳区建国路88号，电话13812345678"


@pytest.mark.parametrize("select", [None, "sensitive", "placeholder,sensitive"])
def test_opt_in_rules_are_off_by_default(select: str | None) -> None:
    rules = {f.rule for f in check_text(NAME_AND_ADDRESS, select=select)}
    assert "sensitive/mobile" in rules
    assert not rules & {"sensitive/person-name", "sensitive/address"}


def test_opt_in_rules_run_when_selected_by_id() -> None:
    only = check_text(NAME_AND_ADDRESS, select="sensitive/person-name")
    assert [(f.rule, f.text) for f in only] == [("sensitive/person-name", "张三")]
    both = check_text(NAME_AND_ADDRESS, select=ALL)
    assert {f.rule for f in both} == {
        "sensitive/person-name",
        "sensitive/address",
        "sensitive/mobile",
    }
    ignored = check_text(NAME_AND_ADDRESS, select=ALL, ignore="sensitive/address")
    assert "sensitive/address" not in {f.rule for f in ignored}


def test_select_rules_honours_default() -> None:
    ids = {r.id for r in select_rules("sensitive")}
    assert "sensitive/plate" in ids and "sensitive/person-name" not in ids
    assert "sensitive/address" in {r.id for r in select_rules("sensitive,sensitive/address")}
    assert "sensitive/address" not in {r.id for r in select_rules(None)}


def test_cli_selects_an_opt_in_rule(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    doc = tmp_path / "form.txt"
    doc.write_text("姓名：张三\n", "utf-8")
    assert run_cli("check", str(doc)).code == 0
    result = run_cli("check", str(doc), "--select", "sensitive/person-name")
    assert result.code == 1 and "sensitive/person-name" in result.out


# --- properties -----------------------------------------------------------------------------

# Han text with no digit, letter, mask or label: what surrounds a value there is neutral
_HAN = [
    ch
    for ch in "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动"
    "同也能下过子说产种面而方后多定学法所民得经之进着等部度家力里如水化高自理起小物现实加量都两"
    "体制机当使点从本去把性好应开它合还因由其些然前外天政日那社义事平形相全表间样与关各重新线内"
    "，。；、（）《》"
    if ch not in "号元万亿圆块币额款金账帐卡码单编型证行"
]
han = st.text(alphabet=st.sampled_from(_HAN), max_size=30)
_PROVINCE_CODES = ["11", "12", "31", "32", "33", "37", "41", "44", "51", "61", "65", "82"]
_WIDE = str.maketrans("0123456789X", "０１２３４５６７８９Ｘ")


@st.composite
def resident_ids(draw: st.DrawFn) -> str:
    born = draw(st.dates(datetime.date(1900, 1, 1), datetime.date.today()))
    head = (
        draw(st.sampled_from(_PROVINCE_CODES))
        + draw(st.from_regex(r"[0-9]{4}", fullmatch=True))
        + born.strftime("%Y%m%d")
        + draw(st.from_regex(r"[0-9]{3}", fullmatch=True))
    )
    return head + id_check_char(head)


@st.composite
def mobiles(draw: st.DrawFn) -> str:
    return draw(st.from_regex(r"1[3-9][0-9]{9}", fullmatch=True))


@st.composite
def cards(draw: st.DrawFn) -> str:
    prefix = draw(st.sampled_from(["62", "4", "51", "35", "9558"]))
    size = draw(st.integers(16, 19))
    body = prefix + draw(st.from_regex(f"[0-9]{{{size - len(prefix) - 1}}}", fullmatch=True))
    number = next(body + d for d in "0123456789" if luhn_ok(body + d))
    assume(not (size == 18 and number[:2] in _PROVINCE_CODES))
    return number


@st.composite
def grouped(draw: st.DrawFn, number: str, min_group: int) -> str:
    """The number in a random grouping (one separator throughout) or whole."""
    sep = draw(st.sampled_from(["", " ", "-"]))
    if not sep:
        return number
    cuts, i = [], 0
    while len(number) - i > min_group * 2:
        i += draw(st.integers(min_group, min(8, len(number) - i - min_group)))
        cuts.append(i)
    parts = [number[a:b] for a, b in zip([0, *cuts], [*cuts, len(number)], strict=True)]
    return sep.join(parts)


def _written(draw: st.DrawFn, value: str) -> str:
    return value.translate(_WIDE) if draw(st.booleans()) else value


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), han, han)
def test_a_valid_value_in_chinese_text_is_found_with_its_span(
    data: st.DataObject, before: str, after: str
) -> None:
    kind = data.draw(st.sampled_from(["resident-id", "mobile", "bank-card"]))
    if kind == "resident-id":
        value = data.draw(grouped(data.draw(resident_ids()), 3))
    elif kind == "mobile":
        number = data.draw(mobiles())
        value = data.draw(st.sampled_from([number, f"{number[:3]} {number[3:7]} {number[7:]}"]))
    else:
        value = data.draw(grouped(data.draw(cards()), 4))
        # a row of round amounts is not a card (a documented limit)
        assume(sum(p.endswith("00") for p in value.replace("-", " ").split()) <= 1)
    value = _written(data.draw, value)
    text = before + value + after
    found = [(f.rule, f.start, f.end) for f in check_text(text, select="sensitive")]
    assert (f"sensitive/{kind}", len(before), len(before) + len(value)) in found


_MASKS = ["*", "＊", "x", "×"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), han, han)
def test_a_masked_value_is_never_flagged(data: st.DataObject, before: str, after: str) -> None:
    number = data.draw(st.one_of(resident_ids(), mobiles(), cards()))
    keep_head = data.draw(st.integers(0, 6))
    keep_tail = data.draw(st.integers(0, 4))
    assume(len(number) - keep_head - keep_tail >= 4)
    mask = data.draw(st.sampled_from(_MASKS)) * (len(number) - keep_head - keep_tail)
    masked = number[:keep_head] + mask + number[len(number) - keep_tail :]
    masked = data.draw(grouped(masked, 3)) if data.draw(st.booleans()) else masked
    assert check_text(before + _written(data.draw, masked) + after, select="sensitive") == []


# text built from what the new rules look at, for the windows property
_PIECES = st.sampled_from(
    [
        *"0123456789０１２３ -—：:()（）·号某 \n",
        "账号：",
        "卡号",
        "护照号码：",
        "通行证",
        "座机：",
        "电话",
        "姓名：",
        "住址：",
        "北京市朝阳区建国路88号",
        "张三",
        "粤B",
        "京A",
        "E1234567",
        "12345",
        "11010519491231002X",
        "110105491231002",
        "6222021234567890128",
        "13812345678",
        "010-",
        "订单号",
        "元",
        "正文" * 120,
    ]
)


@settings(max_examples=200, deadline=None)
@given(st.lists(_PIECES, max_size=40).map("".join))
def test_windows_never_change_findings(text: str) -> None:
    """The trigger windows are a speed hint only, for the opt-in rules too."""
    import copy

    fast = Checker(select=ALL)
    slow = Checker(select=ALL)
    slow.rules = [copy.copy(rule) for rule in slow.rules]
    for rule in slow.rules:
        rule.trigger = None  # type: ignore[misc]
    assert [f.to_dict() for f in fast.check(text)] == [f.to_dict() for f in slow.check(text)]


@pytest.mark.parametrize(
    "text",
    ["账号：1-2-3-4-5-6-7-8-9-0", "护照号码：Ｅ12345678", "1３812345678", "粤B1234学", "(010)6"],
)
def test_windows_never_change_findings_on_forms_without_a_trigger(text: str) -> None:
    test_windows_never_change_findings.hypothesis.inner_test(text)  # type: ignore[attr-defined]


# --- bad input ------------------------------------------------------------------------------

_MB = 1_000_000
PATHOLOGICAL = {
    "digits": "1" * _MB,
    "spaced digits": "1 " * (_MB // 2),
    "dashed digits": "1-" * (_MB // 2),
    "colons": ":" * _MB,
    "full-width colons": "：" * _MB,
    "labels": "账号：" * (_MB // 3),
    "name labels": "姓名：" * (_MB // 3),
    "address": "住址：北京市" + "路" * _MB,
    "plates": "京A" * (_MB // 2),
    "letters and digits": "E1" * (_MB // 2),
    "at signs": "a@" * (_MB // 2),
    "full-width digits": "１" * _MB,
    "brackets": "(0" * (_MB // 2),
}


@pytest.mark.parametrize("name", list(PATHOLOGICAL))
def test_pathological_input_runs_in_linear_time(name: str) -> None:
    text = PATHOLOGICAL[name]
    checker = Checker(select=ALL)
    start = time.process_time()
    checker.check(text)
    # a megabyte takes well under 0.5 s; 2 s leaves room for a loaded machine, while a
    # quadratic scan would take minutes
    assert time.process_time() - start < 2.0, name
