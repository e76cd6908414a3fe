"""The fuzz suite (hypothesis; a fixed seed in CI, many more examples with ``make fuzz``):
invariants the parse funnel, citations and the check keep for any input."""

from __future__ import annotations

import json
import time
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from genlint import check_text, parse_json, process_citations

_TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=12)
_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**12), 10**12),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    _TEXT,
)
_JSON = st.recursive(
    _SCALARS,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(_TEXT, children, max_size=4),
    max_leaves=20,
)


@given(_JSON, st.booleans(), st.booleans())
def test_valid_json_round_trips_exactly(value: Any, ascii_only: bool, indent: bool) -> None:
    text = json.dumps(value, ensure_ascii=ascii_only, indent=2 if indent else None)
    result = parse_json(text)
    assert result.ok and result.strategy == "direct"
    assert json.dumps(result.value, sort_keys=True) == json.dumps(value, sort_keys=True)


@given(
    st.lists(st.one_of(st.integers(-999, 999), _TEXT), min_size=1, max_size=30),
    st.floats(0.05, 0.999),
)
def test_a_truncated_array_keeps_every_complete_element(items: list[Any], fraction: float) -> None:
    text = json.dumps(items, ensure_ascii=False)
    cut = max(2, int(len(text) * fraction))
    prefix = text[:cut]
    # elements whose text (and the comma after it) is complete before the cut
    complete, pos = [], 1
    for item in items:
        piece = json.dumps(item, ensure_ascii=False)
        if pos + len(piece) + 1 > cut:
            break
        complete.append(item)
        pos += len(piece) + 2
    result = parse_json(prefix)
    assert result.ok, result.errors
    assert isinstance(result.value, list)
    assert result.value[: len(complete)] == complete


_WARM = parse_json('{"a": [1,]}')  # imports json-repair and compiles patterns before timing
_DOC = json.dumps(
    {"title": "租赁合同", "parties": [{"name": "甲方", "id": 1}, {"name": "乙方", "id": 2}],
     "terms": ["第一条", "第二条\n说明"], "amount": 3600000.5, "ok": True, "note": None},
    ensure_ascii=False,
)


@settings(max_examples=300)
@given(st.integers(0, len(_DOC) - 1), st.sampled_from(["", ",", '"', "}", "]", "{", ":", "x", "\\"]))
def test_one_character_edits_never_raise_and_stay_fast(at: int, replacement: str) -> None:
    text = _DOC[:at] + replacement + _DOC[at + 1 :]
    took = []
    for _ in range(2):  # the better of two: one pause of a loaded CI machine is not the parser
        start = time.perf_counter()
        parse_json(text)
        took.append(time.perf_counter() - start)
    # 50 ms per KB is the bound; the document is well under a KB (generous for a loaded CI)
    assert min(took) < 0.2, took


_SOURCES = [{"id": i, "title": f"来源{i}", "url": f"https://example.com/{i}"} for i in range(1, 6)]


@given(
    st.lists(
        st.one_of(
            st.sampled_from(["水电站", "装机容量。", "\n", "见文献"]),
            st.lists(st.integers(1, 7), min_size=1, max_size=3).map(
                lambda ids: f"<sources>[{', '.join(map(str, ids))}]</sources>"
            ),
            st.integers(1, 7).map(lambda i: f"[{i}]"),
        ),
        max_size=12,
    ).map("".join)
)
def test_citations_without_renumbering_are_idempotent(text: str) -> None:
    once = process_citations(text, _SOURCES, renumber=False).text
    twice = process_citations(once, _SOURCES, renumber=False).text
    assert twice == once


@given(st.text(alphabet="某某公司张X年月日【】_13812345678 \n@a.b（）[]{}", max_size=80))
def test_every_check_span_slices_to_its_text(text: str) -> None:
    for finding in check_text(text):
        assert text[finding.start : finding.end] == finding.text
