"""JSON keys and numbers hold personal data too (SPEC "every place a file keeps text"): the
sensitive pack reads them, with the JSON pointer of the member or number, and mask masks them.
A number holding a phone becomes a string holding the masked number (a number cannot hold a
mask); the placeholder pack keeps reading only string values."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from genlint.readers.json_strings import string_values

DOC = {
    "13900000070": {"备注": "正文", "电话": 13912345678},
    "某某公司的说明": "已填写",
    "ids": [6222021234567890128, 12.5, 20231201],
    "联系邮箱zhang.san@example.com": 1,
}


def _write(tmp_path: Path, doc: Any = DOC) -> Path:
    path = tmp_path / "data.json"
    path.write_text(json.dumps(doc, ensure_ascii=False), "utf-8")
    return path


def test_check_reads_keys_and_numbers_for_personal_data(run_cli: Any, tmp_path: Path) -> None:
    path = _write(tmp_path)
    result = run_cli("check", str(path), "--format", "json", "--show-values")
    found = {
        (f["rule"], f["text"], f["pointer"]) for f in json.loads(result.out)["files"][0]["findings"]
    }
    assert found == {
        ("sensitive/mobile", "13900000070", "/13900000070"),
        ("sensitive/mobile", "13912345678", "/13900000070/电话"),
        ("sensitive/bank-card", "6222021234567890128", "/ids/0"),
        ("sensitive/email", "zhang.san@example.com", "/联系邮箱zhang.san@example.com"),
    }, "keys and numbers are read; the key 某某公司的说明 is no placeholder (a key is not prose)"
    # the location is the token in the file
    raw = path.read_text("utf-8")
    rows = json.loads(result.out)["files"][0]["findings"]
    number = next(f for f in rows if f["pointer"] == "/ids/0")
    assert number["line"] == 1 and raw[number["column"] - 1 :].startswith("6222021234567890128")


def test_without_show_values_a_pointer_through_a_personal_key_is_masked(
    run_cli: Any, tmp_path: Path
) -> None:
    out = run_cli("check", str(_write(tmp_path)), "--format", "json").out
    assert "13900000070" not in out and "13912345678" not in out
    pointers = {f["pointer"] for f in json.loads(out)["files"][0]["findings"]}
    assert "/139****0070/电话" in pointers


def test_only_the_sensitive_pack_reads_keys_and_numbers(run_cli: Any, tmp_path: Path) -> None:
    out = run_cli("check", str(_write(tmp_path)), "--select", "placeholder", "--format", "json").out
    assert json.loads(out)["summary"]["findings"] == 0


def test_mask_masks_keys_and_turns_personal_numbers_into_masked_strings(
    run_cli: Any, tmp_path: Path
) -> None:
    path = _write(tmp_path)
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    result = run_cli("mask", str(path), "--out", str(out_dir), "--format", "json")
    assert result.code == 0, result.err
    masked = json.loads((out_dir / "data.json").read_text("utf-8"))
    assert masked == {
        "139****0070": {"备注": "正文", "电话": "139****5678"},
        "某某公司的说明": "已填写",
        "ids": ["6222***********0128", 12.5, 20231201],
        "联系邮箱z****.***@example.com": 1,
    }
    report = json.loads(result.out)["files"][0]
    assert {m["pointer"] for m in report["masked"]} == {
        "/139****0070",
        "/139****0070/电话",
        "/ids/0",
        "/联系邮箱z****.***@example.com",
    }, "the report names masked keys masked"
    again = run_cli("check", str(out_dir / "data.json"), "--select", "sensitive")
    assert again.code == 0, again.out


_KEY = st.text(alphabet=st.sampled_from(list('ab某"\\/~ 1@')), max_size=12)
_DOC = st.recursive(
    st.none()
    | st.integers()
    | st.integers(10**9, 10**19)
    | st.floats(allow_nan=False, allow_infinity=False)
    | _KEY,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_KEY, inner, max_size=4),
    max_leaves=20,
)


def _numbers(value: Any) -> list[int]:
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [value]
    if isinstance(value, list):
        return [n for v in value for n in _numbers(v)]
    if isinstance(value, dict):
        return [n for v in value.values() for n in _numbers(v)]
    return []


@settings(max_examples=200, deadline=None)
@given(_DOC)
def test_hidden_keys_and_numbers_point_at_their_tokens(doc: Any) -> None:
    raw = json.dumps(doc, ensure_ascii=False)
    hidden: list[tuple[str, str, int, int]] = []
    values = list(string_values(raw, hidden))
    assert values == list(string_values(raw)), "the string values are the same either way"
    expected_numbers = sum(
        1
        for n in _numbers(doc)
        if n >= 0
        and (
            (len(str(n)) == 11 and str(n)[0] == "1" and str(n)[1] in "3456789")
            or 15 <= len(str(n)) <= 19
        )
    )
    assert sum(raw[start - 1] != '"' for _, _, start, _ in hidden) == expected_numbers
    for pointer, text, start, end in hidden:
        if raw[start - 1] == '"':  # a key: its body, decoded
            assert json.loads(raw[start - 1 : end + 1]) == text
            assert "@" in text or sum(ch.isdigit() for ch in text) >= 7
        else:  # a number: its token as written, as long as a phone, an ID or a card
            assert raw[start:end] == text and text.isdigit() and 11 <= len(text) <= 19
        assert pointer.startswith("/") or pointer == ""
