"""Properties over any text: spans slice to their text, positions agree, nothing raises."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from genlint import check_text
from genlint.check import check_paths

# text built from the characters the rules care about, plus anything else
_ALPHABET = st.sampled_from(
    [
        *list(
            "某某公司张李于X x×○〇【】（）()[]{}<>_＿□年月日 \t\n\r\u30000123456789+-@.*:：第条元"
        ),
        "TBD",
        "TODO",
        "John Doe",
        "lorem ipsum",
        "13812345678",
        "11010519491231002X",
        "6222021234567890128",
        "a@b.cn",
        "宝马X5",
        "{{name}}",
        "${v}",
        "[姓名]",
        "    年  月  日",
    ]
)
texts = st.one_of(st.lists(_ALPHABET, max_size=60).map("".join), st.text(max_size=200))


def _line_col(text: str, offset: int) -> tuple[int, int]:
    before = text[:offset]
    return before.count("\n") + 1, offset - (before.rfind("\n") + 1) + 1


@settings(max_examples=400, deadline=None)
@given(texts)
def test_spans_and_positions_agree(text: str) -> None:
    findings = check_text(text)
    for f in findings:
        assert 0 <= f.start < f.end <= len(text)
        assert text[f.start : f.end] == f.text
        assert (f.line, f.column) == _line_col(text, f.start)
        assert f.rule.split("/")[0] in ("placeholder", "sensitive", "citation")
    # one problem is one finding: spans of one pack never overlap
    by_pack: dict[str, list[tuple[int, int]]] = {}
    for f in findings:
        by_pack.setdefault(f.pack, []).append((f.start, f.end))
    for spans in by_pack.values():
        spans.sort()
        assert all(a[1] <= b[0] for a, b in itertools.pairwise(spans))


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.dictionaries(st.text(max_size=8), st.lists(texts, max_size=3), max_size=4))
def test_json_strings_map_back_to_the_file(tmp_path: Path, value: dict) -> None:
    path = tmp_path / "v.json"
    raw = json.dumps(value, ensure_ascii=bool(len(value) % 2))
    path.write_text(raw, "utf-8")
    lines = raw.split("\n")
    for f in check_paths([str(path)]).findings:
        assert f.pointer is not None and f.pointer.startswith("/")
        assert 1 <= f.line <= len(lines) and 1 <= f.column <= len(lines[f.line - 1]) + 1


_FAST = None
_SLOW = None


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.one_of(_ALPHABET, st.just("正文" * 150), st.just("\n")), max_size=40).map("".join)
)
def test_trigger_windows_never_change_findings(text: str) -> None:
    """Windows are only a speed hint: the same findings as running every rule on all text."""
    from genlint.check import Checker
    from support.checkers import unwindowed_checker

    global _FAST, _SLOW
    if _FAST is None:
        _FAST, _SLOW = Checker(), unwindowed_checker()
    fast = [f.to_dict() for f in _FAST.check(text)]  # type: ignore[attr-defined]
    slow = [f.to_dict() for f in _SLOW.check(text)]  # type: ignore[attr-defined]
    assert fast == slow


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.sampled_from([".txt", ".md", ".json", ".docx", ".pdf"]),
    st.one_of(
        st.binary(max_size=300),
        st.text(max_size=200).map(lambda s: s.encode("utf-8")),
        st.text(max_size=100).map(lambda s: s.encode("gb18030")),
        st.just(b"%PDF-1.7\n").map(lambda head: head + bytes(range(256))),
        st.just(b"PK\x03\x04").map(lambda head: head + b"\x00" * 40),
    ),
)
def test_any_file_is_read_or_refused_cleanly(tmp_path: Path, suffix: str, data: bytes) -> None:
    """Whatever the bytes, a file is checked or reported as unreadable; nothing else escapes."""
    path = tmp_path / f"f{suffix}"
    path.write_bytes(data)
    report = check_paths([str(path)])
    (file,) = report.files
    assert (file.error is None) or (file.findings == [] and file.error.strip())
    assert path.read_bytes() == data
