"""Issue 24, item by item: every guess said, every cut said, big documents repaired whole, the
first value wins, values kept exact, depth and time bounded."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from genlint import parse_json


def _records(n: int, big: bool = False) -> list[dict[str, Any]]:
    return [{"id": i, "name": f"记录{i}", "v": (10**22 + i) if big else i * 7} for i in range(n)]


# ----------------------------------------------------------------------------- guesses


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('[{"n": "He said "yes" twice", "a": 1}]', [{"n": 'He said "yes" twice', "a": 1}]),
        ("[{'n': 'it', 'a': 'b\\n\\u00e9'}]", [{"n": "it", "a": "b\né"}]),
        ('[{"n": "first\nsecond", "a": 1}]', [{"n": "first\nsecond", "a": 1}]),
        ('[{"n": "ends with a break\n", "a": 1}]', [{"n": "ends with a break\n", "a": 1}]),
    ],
)
def test_a_string_boundary_guess_is_said_with_its_position(text: str, expected: Any) -> None:
    result = parse_json(text)
    assert result.ok and result.value == expected
    assert result.guessed and not result.lossy and not result.truncated
    assert any(n.startswith("guessed") and "char" in n for n in result.repairs), result.repairs
    assert result.to_dict()["guessed"] is True


def test_plain_repairs_are_not_guesses() -> None:
    for text in ('{"a": 1, "b": [1, 2,],}', '{"a": 1 "b": 2}', "{a: 1}"):
        result = parse_json(text)
        assert result.ok and not result.guessed, (text, result.repairs)
        assert "guessed" not in result.to_dict()


@pytest.mark.parametrize(
    ("old", "new", "guessed"),
    [
        ('"name": "记录{m}"', '"name": "记录{m}', True),  # missing closing quote
        ('}}, {{"id": {m},', '}},, {{"id": {m},', False),  # doubled comma
        ('"name": "记录{m}"', '"name": 记录{m}"', True),  # missing opening quote
        ('"name": "记录{m}"', "\"name\": '记录{m}'", True),  # single-quoted value
        ('}}, {{"id": {m},', '}} {{"id": {m},', False),  # missing comma
    ],
)
@pytest.mark.parametrize("prose", ["", "Here are the records:\n"])
@pytest.mark.parametrize("n", [400, 6000])
def test_one_defect_in_a_big_document_keeps_every_record(
    old: str, new: str, guessed: bool, prose: str, n: int
) -> None:
    records = _records(n, big=True)
    text = json.dumps(records, ensure_ascii=False)
    m = n // 2
    old, new = old.replace("{m}", str(m)), new.replace("{m}", str(m))
    broken = prose + text.replace(
        old.replace("{{", "{").replace("}}", "}"), new.replace("{{", "{").replace("}}", "}"), 1
    )
    assert broken != prose + text
    result = parse_json(broken)
    assert result.ok and result.value == records, result.repairs  # integers beyond 64 bits too
    assert type(result.value[0]["v"]) is int
    assert result.guessed is guessed and not result.lossy and not result.truncated


def test_a_full_width_comma_inside_a_value_stays() -> None:
    records = _records(50)
    records[20]["name"] = "记录，20"
    text = json.dumps(records, ensure_ascii=False).replace(
        '"name": "记录，20"', '"name": 记录，20"'
    )
    result = parse_json(text)
    assert result.ok and result.value == records


# ----------------------------------------------------------------------------- several values


@pytest.mark.parametrize(
    ("text", "expected", "guessed"),
    [
        ("[1, 2]\nSee [1].", [1, 2], False),
        ('[{"id":1}]\n[{"id":2}]', [{"id": 1}], True),
        ('The primes:\n[3, 5, 7]\n\nFor example: {"id": 1}', [3, 5, 7], True),
        ('{"ok": false}\n\nNote: I used {key: value}.', {"ok": False}, False),
    ],
)
def test_the_first_complete_value_is_the_answer(text: str, expected: Any, guessed: bool) -> None:
    result = parse_json(text)
    assert result.ok and result.value == expected, result.repairs
    assert result.guessed is guessed, result.repairs
    assert not result.lossy


def test_a_schema_can_choose_a_later_value() -> None:
    schema = {"type": "object", "required": ["id"]}
    result = parse_json('[1, 2]\n{"id": 3}', schema=schema)
    assert result.ok and result.value == {"id": 3}


@pytest.mark.parametrize("answer", ["[None, True, 1]", "[ // the list\n1, 2]", '{ /* c */ "a": 1}'])
def test_the_answer_after_a_reasoning_block_wins_over_the_draft(answer: str) -> None:
    result = parse_json(f'<think>draft [{{"id": -1}}]</think>\n{answer}')
    assert result.ok and result.value != [{"id": -1}], result.value


def test_a_draft_taken_while_text_follows_the_reasoning_is_a_guess() -> None:
    result = parse_json('<think>draft [{"id": -1}]</think>\nNone')
    assert result.ok and result.guessed


# ----------------------------------------------------------------------------- cuts


@pytest.mark.parametrize(
    ("text", "expected", "lost_key"),
    [
        ('{"a": 1, "b": "x\\u00', {"a": 1, "b": "x"}, "b"),
        ('[{"id": 1}, {"id": 2, "ok": t', [{"id": 1}, {"id": 2}], "ok"),
        ('{"a": 1, "b": "emoji \\ud83d', {"a": 1, "b": "emoji "}, "b"),
        ("[{'id': 1}, {'id': 2, 'name': 'ab", [{"id": 1}, {"id": 2, "name": "ab"}], "name"),
        ('{"big": 123456789012345678901234567890, "n": [1, 2', None, "big"),
    ],
)
def test_a_cut_is_said_and_loses_nothing_complete(text: str, expected: Any, lost_key: str) -> None:
    result = parse_json(text)
    assert result.ok and result.truncated and not result.lossy, result.repairs
    if expected is not None:
        assert result.value == expected
    else:
        assert result.value == {"big": 123456789012345678901234567890, "n": [1, 2]}
    cut = next(n for n in result.repairs if n.startswith("the reply is cut off"))
    assert f"at char {len(text)}" in cut


def test_digits_and_escapes_of_a_cut_string_are_not_lost_values() -> None:
    # a cut through json-repair's path (single quotes elsewhere), inside an escape of a string
    # full of digits: nothing the text holds is missing
    text = "[{'a': 'x'}, {\"b\": \"1 2 3 4 5 6 7 8 9 \\u4e2d\\u6"
    result = parse_json(text)
    assert result.ok and result.truncated and not result.lossy, result.repairs


def test_the_cli_says_a_cut_and_a_guess_on_stderr(
    run_cli: Callable[..., Any], tmp_path: Any
) -> None:
    path = tmp_path / "reply.txt"
    path.write_text('[{"id": 1, "name": "a"}, {"id": 2, "name": "b', "utf-8")
    result = run_cli("parse", str(path))
    assert result.code == 0
    assert "genlint: parse: the reply is cut off at char" in result.err
    assert "'name'" in result.err and '"b' not in result.err  # the key, never the value
    as_json = run_cli("parse", str(path), "--format", "json")
    assert json.loads(as_json.out)["truncated"] is True
    assert "cut off" not in as_json.err  # the JSON result carries the flag
    path.write_text('[{"n": "He said "yes" twice"}]', "utf-8")
    guessed = run_cli("parse", str(path))
    assert guessed.code == 0 and "genlint: parse: guessed" in guessed.err


# ----------------------------------------------------------------------------- depth and time


@pytest.mark.parametrize("depth", [990, 1000, 1024])
def test_valid_json_nested_to_the_limit_goes_through_the_cli(
    depth: int, run_cli: Callable[..., Any], tmp_path: Any
) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * depth + "1" + "]" * depth, "utf-8")
    for fmt in ("text", "json"):
        result = run_cli("parse", str(path), "--format", fmt)
        assert result.code == 0, result.err
        assert "internal error" not in result.err


def test_beyond_the_limit_is_one_clean_refusal(run_cli: Callable[..., Any], tmp_path: Any) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 1025 + "1" + "]" * 1025, "utf-8")
    result = run_cli("parse", str(path), "--format", "json")
    assert result.code == 1
    document = json.loads(result.out)
    assert document["ok"] is False and "deeper than 1024" in document["errors"][-1]


@pytest.mark.parametrize("depth", [600, 1000])
def test_a_deep_cut_reply_is_closed_quickly(depth: int) -> None:
    start = time.thread_time()
    result = parse_json("[" * depth + "1")
    assert time.thread_time() - start < 0.5
    assert result.ok and result.truncated


@pytest.mark.parametrize("unit", ["[1] ", '{"a": [1, "x"]} ', "[[]", '{"k": v', "<think>"])
def test_900_kb_of_garbage_answers_within_the_budget(unit: str) -> None:
    text = (unit * (900_000 // len(unit) + 1))[:900_000]
    start = time.thread_time()
    parse_json(text)
    # CPU time: the budget is the parser's own work, whatever else the machine runs
    assert time.thread_time() - start < 0.5


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('// c\n{"a": "x\\u00e9\\n", "b": 1,}', {"a": "xé\n", "b": 1}),
        ('{/* c */ "a": "\\t\\u4e2d", // x\n "b": "q\\"",}', {"a": "\t中", "b": 'q"'}),
        ("{'a': 'x\\'y', 'b': '\\u00e9\\n'}", {"a": "x'y", "b": "é\n"}),
        ("[{'name': 'don't stop', 'n': 'O'Brien's'}]", [{"name": "don't stop", "n": "O'Brien's"}]),
    ],
)
def test_one_decoder_for_every_quoting_and_position(text: str, expected: Any) -> None:
    result = parse_json(text)
    assert result.ok and result.value == expected, result.repairs


# A reply cut inside a reasoning block holds no answer (docs/commands/parse.md "Reasoning blocks").
@pytest.mark.parametrize("fields", [None, ["score"], ["score", "reason"]])
@pytest.mark.parametrize(
    "reply",
    [
        '<think>Draft: {"score": 2, "reason": "x"} but let me check',
        "<reasoning>score: 2\nreason: draft",
        "Sure.<think>maybe [1, 2]",
    ],
)
def test_no_answer_from_reasoning_cut_off(reply: str, fields: list[str] | None) -> None:
    result = parse_json(reply, fields=fields)
    assert not result.ok and result.value is None
    assert result.errors


def test_final_answer_after_reasoning_beats_the_draft_with_fields() -> None:
    reply = '<think>{"score": 2}</think>\n评分：3 理由：覆盖了要点'
    result = parse_json(reply, fields=["score"])
    assert result.ok and result.value == {"score": 3}
    assert result.guessed


# Numbers stay numbers (docs/commands/parse.md "Numbers").
@given(st.integers(min_value=1_000, max_value=10**12))
def test_thousands_separators_are_one_number(n: int) -> None:
    result = parse_json('{"amount": ' + f"{n:,}" + ', "ok": true}')
    assert result.ok and result.value == {"amount": n, "ok": True}
    assert result.guessed


def test_non_finite_numbers_are_floats_with_their_sign() -> None:
    result = parse_json('{"a": NaN, "b": -Infinity, "c": Infinity, "d": "NaN"}')
    assert result.ok
    a, b, c = (result.value[k] for k in "abc")
    assert isinstance(a, float) and a != a
    assert b == float("-inf") and c == float("inf")
    assert result.value["d"] == "NaN"
    assert any("NaN/Infinity" in note for note in result.repairs)


def test_an_array_of_small_numbers_is_not_read_as_one() -> None:
    assert parse_json("[674,107]").value == [674, 107]


# A negative or signed exponent is an exponent with digits, in every repair (it was cut to its
# mantissa when the reply had any other defect).
@given(st.floats(allow_nan=False, allow_infinity=False).filter(lambda f: "e" in repr(f)))
def test_exponent_with_sign_is_kept_through_repairs(x: float) -> None:
    result = parse_json('{"a": ' + repr(x) + ', "b": None,}')
    assert result.ok and result.value == {"a": x, "b": None}
    assert not result.guessed


def test_an_escape_json_lacks_is_a_guess() -> None:
    result = parse_json('{"a\\_b": 1, "c": 2,}')
    assert result.ok and result.guessed
