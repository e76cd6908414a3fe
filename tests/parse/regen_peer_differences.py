"""Rewrite tests/fixtures/parse/peer_differences.json from the funnel's current answers.

Run after a deliberate change of behaviour: ``.venv/bin/python tests/parse/regen_peer_differences.py``,
then read the diff: every entry is a peer case where our value differs, with the reason.
"""

from __future__ import annotations

import collections
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from genlint import parse_json
from genlint.parse import ParseResult
from genlint.parse.candidates import value_then_more
from parse.helpers import FIXTURES, PEER_CASES, load_jsonl, same_json

REASONS = {
    "valid": "the reply is already valid JSON: the strict step returns it as written",
    "bare": "json-repair returns nothing for a bare top-level value; with a schema admitting "
    "scalars we read the text as the scalar it spells (jsonrepair does the same)",
    "null": "a missing value becomes null (jsonrepair's choice), not json-repair's \"\"",
    "first": "several top-level values: the first acceptable one is the answer, not an array of "
    "all (nor the last)",
    "nobrackets": "values separated by commas or newlines without brackets are not wrapped into "
    "an array: a reply with no brackets is not read as a list",
    "size": "over the json-repair size limit only the linear closing repair runs, and trailing "
    "junk after a closed string defeats it",
    "rawbreak": "a raw line break inside a string is part of the string (json-repair drops one "
    "at the end of a string, and in keys); the result says the repair guessed",
    "cut": "a reply cut off: every complete element kept exactly, an escape or a key cut in half "
    "dropped, a cut string read as written; the result is marked truncated",
    "quote": "a quote inside a string is escaped where the strict parser shows it belongs, and "
    "every quote up to the one JSON syntax follows stays in the string; the result is guessed",
    "heuristic": "json-repair's and jsonrepair's repair heuristics differ here; we keep "
    "json-repair's reading",
}


def category(case: dict[str, Any], result: ParseResult) -> str:
    value, strategy = result.value, result.strategy
    expected, text = case["expected"], case["input"]
    if strategy == "direct":
        return "valid"
    if case["source"] == "json_repair" and expected is None:
        return "bare"
    if '""' in json.dumps(expected) and "null" in json.dumps(value):
        return "null"
    if isinstance(expected, list) and not any(c in text for c in "[{"):
        return "nobrackets"
    if isinstance(expected, list) and len(expected) > 1 and not isinstance(value, list):
        return "first"
    if value_then_more(text):
        return "first"
    if "\n" in text and json.dumps(value).count("\\n") > json.dumps(expected).count("\\n"):
        return "rawbreak"
    if result.truncated:
        return "cut"
    if any("is inside a string: escaped it" in note for note in result.repairs):
        return "quote"
    if len(text) > 12_000:
        return "size"
    return "heuristic"


def main() -> None:
    out: dict[str, dict[str, Any]] = {}
    for index, case in enumerate(load_jsonl(PEER_CASES)):
        if case.get("expect_error") or "schema" in (case.get("options") or {}):
            continue
        if case.get("kind") == "score_reason":
            continue
        result = parse_json(case["input"], schema={})
        if same_json(result.value, case["expected"]):
            continue
        kind = category(case, result)
        expected = case["expected"]
        out[str(index)] = {
            "source": case["source"],
            "category": kind,
            "reason": REASONS[kind],
            "input": case["input"][:200],
            "expected": expected if len(json.dumps(expected)) < 400 else "(long; see the corpus)",
            "got": result.value,
        }
    path = FIXTURES / "peer_differences.json"
    path.write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(len(out), dict(collections.Counter(v["category"] for v in out.values())))


if __name__ == "__main__":
    main()
