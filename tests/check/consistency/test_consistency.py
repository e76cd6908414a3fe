"""The consistency pack: its cases (cases.toml), `related`, numerals and bad input."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from genlint import check_text
from genlint.check.rules import select_rules
from genlint.check.rules.consistency.dates import find_dates
from genlint.check.rules.consistency.laws import law_named, laws
from genlint.check.rules.consistency.numerals import (
    amount_fen,
    english_number,
    parse_cn,
    to_capital,
    to_english,
    to_ordinary,
)
from genlint.config import read_toml

CASES = read_toml(Path(__file__).with_name("cases.toml"))["case"]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["text"][:24])
def test_case(case: dict[str, object]) -> None:
    found = [[f.rule, f.text] for f in check_text(str(case["text"]), select="consistency")]
    assert found == case["expect"]


def test_not_in_the_default_selection() -> None:
    assert not any(r.pack == "consistency" for r in select_rules())
    assert check_text("2026年2月30日") == []


def test_findings_name_the_other_place_in_json_and_text() -> None:
    from genlint.check.report import CheckReport, FileResult
    from genlint.check.reporters import json as json_reporter
    from genlint.check.reporters import text as text_reporter

    text = "第一行\n租金人民币壹拾万元整（¥1,000,000.00）"
    (finding,) = check_text(text, select="consistency/amount-words")
    (related,) = finding.related
    assert related["text"] == "1,000,000.00"
    assert text[related["start"] : related["end"]] == "1,000,000.00"
    assert (related["line"], related["column"]) == (2, 13)
    report = CheckReport(files=[FileResult(path="a.txt", findings=[finding])])
    data = json.loads(json_reporter.render(report))
    assert data["files"][0]["findings"][0]["related"][0]["text"] == "1,000,000.00"
    assert "related: 2:13 '1,000,000.00'" in text_reporter.render(report)


@pytest.mark.parametrize(
    "words,value",
    [("一百零七", 107), ("两千", 2000), ("廿三", 23), ("十二", 12), ("二〇二六", 2026),
     ("壹万贰仟叁佰肆拾伍", 12345), ("一千二百六十", 1260), ("九千九百九十九万", 99990000),
     ("五十五百", None), ("百千", None)],
)  # fmt: skip
def test_parse_cn(words: str, value: int | None) -> None:
    assert parse_cn(words) == value


@pytest.mark.parametrize(
    "words,fen",
    [("壹万贰仟叁佰肆拾伍元陆角柒分", 1234567), ("人民币壹拾万元整", 10000000), ("伍仟元正", 500000),
     ("1.2万元", 1200000), ("壹万零伍元", 1000500), ("伍角", 50), ("壹拾万", None)],
)  # fmt: skip
def test_amount_fen(words: str, fen: int | None) -> None:
    assert amount_fen(words) == fen


@given(st.integers(min_value=0, max_value=10**12 * 100 - 1))
def test_capital_round_trip(fen: int) -> None:
    assert amount_fen(to_capital(fen)) == fen


@given(st.integers(min_value=0, max_value=10**12))
def test_ordinary_round_trip(n: int) -> None:
    assert parse_cn(to_ordinary(n)) == n


@given(st.integers(min_value=0, max_value=10**14))
def test_english_round_trip(n: int) -> None:
    assert english_number(to_english(n)) == n


def test_dates_in_every_form() -> None:
    text = "二〇二六年十二月七日 2026-12-07 2026.12.7 2026/12/7 12/17/2026 12/7/2026"
    found = [(d.year, d.month, d.day) for d in find_dates(text)]
    assert found == [(2026, 12, 7)] * 4 + [(2026, 12, 17)]


def test_law_table_facts_and_sources() -> None:
    code = law_named("中华人民共和国民法典")
    assert code is not None and code.articles == 1260
    assert law_named("民法典") is code
    for name in ("合同法", "物权法", "担保法", "民法通则", "民法总则", "婚姻法", "继承法", "收养法",
                 "侵权责任法"):  # fmt: skip
        law = law_named(name)
        assert law is not None and law.repealed is not None, name
        assert law.repealed.isoformat() == "2021-01-01" and law.replaced_by == code.title
    assert all(law.source for law in laws().values())
    contract = law_named("合同法")
    assert contract is not None and contract.replacement[107] == "民法典第五百七十七条"


@pytest.mark.parametrize(
    "text",
    ["壹" * 200_000 + "元（¥1）", "1" * 500_000, "2026年2月30日" * 20_000,
     "第一条 a\n第二条 b\n第三条 c\n" * 5_000 + "本合同第九千九百九十九万条", "《" * 100_000],
)  # fmt: skip
def test_bad_input_is_linear(text: str) -> None:
    started = time.monotonic()
    check_text(text, select="consistency")
    assert time.monotonic() - started < 10


def test_id_facts_reports_never_show_the_id_or_its_birth_date(tmp_path: Path) -> None:
    # the related place is the ID itself: masked like any ID in every report, message included
    import subprocess
    import sys

    doc = tmp_path / "complaint.txt"
    doc.write_text(
        "乙方：孙八，性别：男，年龄：28岁，身份证号：110101199003071233\n签订日期：2026年5月1日\n",
        encoding="utf-8",
    )
    for fmt in ("json", "text"):
        done = subprocess.run(
            [sys.executable, "-m", "genlint", "check", str(doc), "--select",
             "consistency/id-facts", "--format", fmt, "--no-color"],
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert done.returncode == 1, done.stderr
        assert "id-facts" in done.stdout
        for value in ("110101199003071233", "19900307", "1990-03-07"):
            assert value not in done.stdout + done.stderr, (fmt, value)
