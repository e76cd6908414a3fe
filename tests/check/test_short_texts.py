"""Short texts (a JSON file's strings): once a checker has seen many, one search for any
trigger decides which texts no rule needs to read. It must never skip a text a rule flags."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from genlint.check import Checker
from genlint.check.engine import _COMBINE_AFTER, _any_of
from genlint.check.rules import all_rules
from support.checkers import unwindowed_checker

_PIECES = st.sampled_from(
    [
        "某某公司", "张某", "X年X月X日", "按X4计算", "XX元", "【】", "【公司名称】", "____", "姓名：",
        "13812345678", "110105194912310021", "a@b.cn", "ｚ＠ｂ.ｃｎ", "京A12345", "E12345678",
        "[姓名]", "{{x}}", "（写明姓名）", "１３８１２３４５６７８", "0755-12345678", "年  月",
        "\U0001f600", "○○公司", "TBD", "正文", "，", " ", "\n", "合同", "of the", "2023年",
    ]
)  # fmt: skip
_CHECKERS: dict[str, Checker] = {}


def _warm() -> Checker:
    """A checker with every rule that has passed the threshold (its joined pattern built)."""
    if "warm" not in _CHECKERS:
        checker = Checker(select=",".join(r.id for r in all_rules()))
        for _ in range(_COMBINE_AFTER):
            checker.check("无")
        assert checker._any_trigger is not None
        _CHECKERS["warm"] = checker
        _CHECKERS["reference"] = unwindowed_checker(checker)
    return _CHECKERS["warm"]


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, max_size=8).map("".join))
def test_a_warm_checker_finds_what_rules_without_triggers_find(text: str) -> None:
    warm = _warm()
    assert [f.to_dict() for f in warm.check(text)] == [
        f.to_dict() for f in _CHECKERS["reference"].check(text)
    ]


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab1某X【】_ ", max_size=12))
def test_the_joined_pattern_matches_where_any_pattern_does(text: str) -> None:
    patterns = [re.compile(p) for p in ("某某", "X\\d", "【\\s*】", "(?<![a-z])1", "_{2,}")]
    joined = _any_of(patterns)
    assert joined is not None
    assert (joined.search(text) is not None) == any(p.search(text) for p in patterns)


def test_patterns_that_cannot_be_joined_are_not() -> None:
    assert _any_of([re.compile("a"), re.compile("(b)\\1")]) is None  # a numbered group
    assert _any_of([re.compile("a"), re.compile("b", re.IGNORECASE)]) is None
    assert _any_of([re.compile("a"), re.compile("(?x) b")]) is None  # a global flag, mid-pattern
    assert _any_of([]) is None
