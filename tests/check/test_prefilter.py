"""The vectorised trigger pass (genlint/check/prefilter.py): long texts find what re finds."""

from __future__ import annotations

import bisect
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from genlint.check import Checker
from genlint.check.engine import _VECTOR_TEXT
from genlint.check.prefilter import TriggerPlan, _NotSequence, _sequences
from genlint.check.rules import all_rules
from genlint.check.windows import merged_windows


def _shown(pattern: str) -> list[list[str]]:
    return [["".join(sorted(map(chr, s))) for s in seq] for seq in _sequences(pattern)]


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        ("某", [["某"]]),
        (r"\[", [["["]]),
        ("年[ _]", [["年", " _"]]),
        ("a[bc]?d", [["a", "d"], ["a", "bc", "d"]]),
        ("(?:ab|c){2}", [["a", "b", "a", "b"], ["a", "b", "c"], ["c", "a", "b"], ["c", "c"]]),
        # a lookbehind inside the match narrows the character it overlaps
        ("[0-9A-Z](?<=[0-9])x", [["0123456789", "x"]]),
        # one reaching before the match adds a position: the window starts one earlier
        ("[A-Z](?<=[京沪][A-C])", [["京沪", "ABC"]]),
        ("a(?=bc)", [["a", "b", "c"]]),
        # contradictions never match; negative lookarounds and anchors only narrow
        ("a(?=b)c", []),
        (r"(?<![A-Z])ab\b", [["a", "b"]]),
    ],
)
def test_patterns_become_sequences_of_sets(pattern: str, expected: list[list[str]]) -> None:
    assert _shown(pattern) == expected


@pytest.mark.parametrize(
    "pattern", [r"\d{3}", "a+", "a{1,3}", "[^a]", "(?i)ab", "x*", "a|", "\U0001f600", "\x00"]
)
def test_other_patterns_are_left_to_re(pattern: str) -> None:
    with pytest.raises(_NotSequence):
        _sequences(pattern)


def test_every_shipped_trigger_is_vectorised() -> None:
    # a trigger left to re costs a whole scan per long text: the shipped ones must not be
    triggers = {r.trigger for r in all_rules() if r.trigger is not None}
    plan = TriggerPlan({t: [re.compile(p) for p in _as_tuple(t)] for t in triggers})
    assert plan._fallback == {}


def _as_tuple(trigger: str | tuple[str, ...]) -> tuple[str, ...]:
    return (trigger,) if isinstance(trigger, str) else trigger


_PIECES = st.sampled_from(
    [
        "某某公司", "张某", "X年X月X日", "按X4计算", "XX元", "【】", "【公司名称】", "【判决结果】", "____",
        "姓名：", "  ", "\n", "13812345678", "138 1234 5678", "正文", "110105194912310021",
        "11010519491231002X", "a@b.cn", "ｚ＠ｂ.ｃｎ", "京A12345", "粤B·D12345", "E12345678",
        "[姓名]", "{{x}}", "，", "（写明姓名）", "１３８１２３４５６７８", "0755-12345678", "年  月",
        "账号：6222021234567890128", "\U0001f600", "\ud800", "○○公司", "TBD", "lorem ipsum",
    ]
)
_FILLER = "本院认为，原告与被告签订的合同合法有效。\n"


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(_PIECES, st.integers(0, 400)), min_size=1, max_size=60))
def test_long_texts_find_what_the_re_windows_find(parts: list[tuple[str, int]]) -> None:
    # pieces spread over a text past the vectorised threshold, at any distance from each other
    text = "".join(piece + _FILLER[: gap % len(_FILLER)] * (gap // 20 + 1) for piece, gap in parts)
    text = text + _FILLER * max(0, (_VECTOR_TEXT - len(text)) // len(_FILLER) + 1)
    assert len(text) >= _VECTOR_TEXT
    checker = _checker()
    plan = TriggerPlan(checker._triggers)
    vector = plan.windows(text)
    for key, patterns in checker._triggers.items():
        # every trigger match has the reach the trigger contract needs in its pattern's windows
        # (200 back or to its line's start, 300 on), and each pattern's windows lie in the
        # trigger's
        for pattern, part in zip(patterns, vector[key].parts, strict=True):
            for m in pattern.finditer(text):
                back = max(text.rfind("\n", max(0, m.start() - 200), m.start()) + 1, m.start() - 200, 0)
                _assert_within(((back, min(len(text), m.end() + 300)),), part, pattern.pattern)
            _assert_within(part, vector[key].all, pattern.pattern)
    assert [f.to_dict() for f in checker.check(text)] == [
        f.to_dict() for f in _unwindowed().check(text)
    ]


def _assert_within(inner: tuple, outer: tuple, what: object) -> None:
    starts = [a for a, _ in outer]
    for a, b in inner:
        i = bisect.bisect_right(starts, a) - 1
        assert i >= 0 and outer[i][0] <= a and b <= outer[i][1], (what, (a, b))


_CACHE: dict[str, Checker] = {}


def _checker() -> Checker:
    if "fast" not in _CACHE:
        ids = ",".join(r.id for r in all_rules())  # the opt-in rules too
        _CACHE["fast"] = Checker(select=ids)
    return _CACHE["fast"]


def _unwindowed() -> Checker:
    from support.checkers import unwindowed_checker

    if "slow" not in _CACHE:
        _CACHE["slow"] = unwindowed_checker(_checker())
    return _CACHE["slow"]


def test_a_trigger_that_is_no_sequence_keeps_its_re_scan() -> None:
    patterns = [re.compile(r"T\w+-")]
    plan = TriggerPlan({"ticket": patterns, "mou": [re.compile("某")]})
    text = _FILLER * 1000 + "见 TKT-123，某公司。\n" + _FILLER * 10
    windows = plan.windows(text)
    assert windows["ticket"].all == merged_windows(text, patterns) != ()
    assert windows["mou"].all == merged_windows(text, [re.compile("某")])


@pytest.mark.parametrize("rule_id", ["placeholder/x-value", "placeholder/slot-label"])
def test_patterns_scanned_by_part_start_with_their_trigger_pattern(rule_id: str) -> None:
    # ctx.finditer(pattern, text, part) scans only where trigger pattern `part` matched: that
    # is right only if every match of the pattern starts with a match of it
    from genlint.check.rules.placeholder.labels import SlotLabel
    from genlint.check.rules.placeholder.marks import XValue

    rule = {"placeholder/x-value": XValue, "placeholder/slot-label": SlotLabel}[rule_id]()
    patterns = rule._runs if isinstance(rule, XValue) else rule._patterns
    assert isinstance(rule.trigger, tuple) and len(patterns) == len(rule.trigger)
    for pattern, trigger in zip(patterns, rule.trigger, strict=True):
        for example in (*rule.bad, *rule.good, "【姓名】", "［名称］", "〈日期〉", "<your name>", "（写明住所）", "(填写)"):
            for m in pattern.finditer(example):
                assert re.match(trigger, example[m.start() :]), (pattern.pattern, example)


def test_each_pattern_of_a_listed_rule_holds_its_own_trigger() -> None:
    # a pack rule with a list of patterns scans pattern i only near trigger pattern i
    from genlint.check.rules import PatternRule

    listed = [r for r in all_rules() if isinstance(r, PatternRule) and len(r.patterns) > 1]
    assert {r.id for r in listed} >= {"placeholder/empty-slot", "placeholder/underscore-blank"}
    for rule in listed:
        assert isinstance(rule.trigger, tuple)
        for pattern, trigger in zip(rule.patterns, rule.trigger, strict=True):
            for example in rule.bad:
                for m in pattern.finditer(example):
                    assert re.search(trigger, m.group()), (rule.id, pattern.pattern, example)


def test_a_list_of_patterns_needs_a_trigger_for_each() -> None:
    from genlint.check.rules import PatternRule
    from genlint.errors import ConfigError

    with pytest.raises(ConfigError, match="one trigger pattern for each"):
        PatternRule("placeholder/x", "x", ["a", "b"], trigger=("a",))


def test_a_text_read_in_slices_gets_the_windows_of_a_text_read_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # long texts are converted a slice at a time (bounded memory): slices must not change them
    import genlint.check.prefilter as prefilter

    checker = _checker()
    plan = TriggerPlan(checker._triggers)
    pieces = ["某某公司", "X年X月X日", "【】", "13812345678", "京A12345", "\n", "____", "正文" * 40]
    text = "".join(pieces[(i * 7) % len(pieces)] + "本院认为。" * (i % 50) for i in range(3000))
    whole = plan.windows(text)
    monkeypatch.setattr(prefilter, "_SLICE", 997)  # slice edges fall anywhere
    assert plan.windows(text) == whole


def test_the_vectorised_pass_takes_bounded_memory_on_a_huge_line() -> None:
    # a line of 某 (a candidate at every position) is read a slice at a time: the peak is the
    # same for 2 and 8 million characters (read at once, 8 million peaked at 840 MB)
    import tracemalloc

    plan = TriggerPlan(_checker()._triggers)
    plan.windows("某" * 100_000)  # tables built before measuring
    peaks = []
    for n in (2_000_000, 8_000_000):
        text = "某" * n
        tracemalloc.start()
        windows = plan.windows(text)
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
        assert windows["某"].all == ((0, n),)
    assert peaks[1] < 1.2 * peaks[0] and peaks[1] < 100_000_000, peaks
