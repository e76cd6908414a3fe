"""Parse faults found by fuzzing (issue 13): no success that lost data, strings exactly as
RFC 8259 says through every strategy, reasoning tags only outside strings, bytes decoded by BOM
and zero-byte pattern, deep nesting refused fast."""

from __future__ import annotations

import json
import time

import pytest

from genlint import parse_json


def _records(n: int) -> list[dict[str, object]]:
    return [{"id": i, "name": f"记录{i}", "note": "正常\n第二行"} for i in range(n)]


def _without(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


@pytest.mark.parametrize("n", [20, 600, 5000])
@pytest.mark.parametrize(
    ("defect", "old", "new"),
    [
        ("missing comma", '}, {"id": {mid}', '} {"id": {mid}'),
        ("missing opening quote", '"name": "记录{mid}"', '"name": 记录{mid}"'),
        ("missing colon", '"name": "记录{mid}"', '"name" "记录{mid}"'),
        ("trailing comma", '"note": "正常\\n第二行"}]', '"note": "正常\\n第二行"},]'),
        ("raw newline in a string", '"name": "记录{mid}"', '"name": "记录\n{mid}"'),
    ],
)
def test_one_defect_in_a_large_array_keeps_every_record(
    n: int, defect: str, old: str, new: str
) -> None:
    mid = n // 2
    good = json.dumps(_records(n), ensure_ascii=False)
    broken = _without(good, old.replace("{mid}", str(mid)), new.replace("{mid}", str(mid)))
    result = parse_json(broken)
    assert result.ok and result.strategy == "repaired", result.errors
    assert isinstance(result.value, list) and len(result.value) == n, defect
    # every string is exact, escapes included
    assert result.value[0] == _records(1)[0]
    assert not result.lossy


def test_a_fragment_of_a_document_is_never_a_silent_success(run_cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    # broken everywhere: no repair gets the whole array back, extraction finds one record
    text = json.dumps(_records(300), ensure_ascii=False)
    text = text.replace('}, {"id": 1', '} garbage ][ {"id": 1')
    text = text.replace('}, {"id": 2', '} "oops" :: {"id": 2')
    result = parse_json(text)
    assert result.ok and len(result.value) < 300  # json-repair stops at the garbage
    assert result.lossy, result.repairs
    assert any(note.startswith("lost data: the value keeps") for note in result.repairs)
    path = tmp_path / "reply.txt"
    path.write_text(text, "utf-8")
    cli = run_cli("parse", str(path))
    assert cli.code == (0 if result.ok and not result.lossy else 1)
    if result.lossy:
        assert "genlint: parse: lost data" in cli.err


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"a": "x\\n", "b": [1, 2,],}', {"a": "x\n", "b": [1, 2]}),
        ('{"a": "\\f\\/\\b\\t\\r\\"", }', {"a": '\f/\b\t\r"'}),
        ('{"a": "\\\\\\u0041",}', {"a": "\\A"}),
        ('{"a": "\\ud83d\\ude00",}', {"a": "😀"}),
        ('{"a": "\\ud800 lone",}', {"a": "\ud800 lone"}),
        ('{"\\u4e2d\\u6587": "\\u4e2d",}', {"中文": "中"}),
        ("{'a': 'plain', 'b': \"\\u00e9\\n\"}", {"a": "plain", "b": "é\n"}),
    ],
)
def test_strings_are_decoded_as_rfc_8259_says_after_repair(text: str, expected: object) -> None:
    result = parse_json(text)
    assert result.ok and result.strategy == "repaired"
    assert result.value == expected


def test_the_cli_prints_a_value_with_a_lone_surrogate(run_cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "reply.json"
    path.write_text('{"a": "\\ud83d\\ude00", "b": "\\udc00",}', "utf-8")
    result = run_cli("parse", str(path), "--format", "json")
    assert result.code == 0, result.err
    assert json.loads(result.out)["value"] == {"a": "😀", "b": "\udc00"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"note": "</think> {\\"b\\": 1}", "a": 2', {"note": '</think> {"b": 1}', "a": 2}),
        ('{"a": "<think>", "b": [1, 2', {"a": "<think>", "b": [1, 2]}),
        ('<think>draft {"a": 0}</think> answer: {"a": 1}', {"a": 1}),
        ('draft {"a": 0}</think>{"a": 1}', {"a": 1}),
    ],
)
def test_reasoning_tags_count_only_outside_strings(text: str, expected: object) -> None:
    assert parse_json(text).value == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [("[[1,2],[[]", [[1, 2], [[]]]), ('{"a": {}, "b": [', {"a": {}, "b": []}), ("[{}, {", [{}, {}])],
)
def test_empty_containers_before_a_cut_are_kept(text: str, expected: object) -> None:
    assert parse_json(text).value == expected


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"])
@pytest.mark.parametrize("bom", [False, True])
def test_utf16_and_utf32_are_decoded_with_or_without_a_bom(codec: str, bom: bool) -> None:
    data = '{"名": "值", "n": [1, 2]}'.encode(codec)
    if bom:
        data = "\ufeff".encode(codec) + data
    result = parse_json(data)
    assert result.ok and result.strategy == "direct"
    assert result.value == {"名": "值", "n": [1, 2]}


@pytest.mark.parametrize("text", ["[" * 100_000, '{"a":' * 100_000, "[{" * 50_000 + "1"])
def test_deep_nesting_is_refused_fast(text: str) -> None:
    start = time.perf_counter()
    result = parse_json(text)
    assert time.perf_counter() - start < 0.05
    assert not result.ok and "nest deeper than" in result.errors[-1]
