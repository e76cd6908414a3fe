"""LLM-like replies with their ground truth known by construction (scored by :mod:`parse.scoring`).

Each case is built from a value: the value is written as JSON, then the text is damaged the way
models damage it (prose around it, a cut, a raw quote, a missing comma in a 5,000-record array…).
Because the damage is applied to known text, the value the reply meant is known exactly, so a
parser's answer is scored without any reference parser: exact, the share of the meant keys and
values it kept, and whether a wrong answer came back as a clean success (a *silent loss*) or a
complete one was flagged ``lossy`` (a *false flag*).

Used by ``test_differential_fuzz.py`` (a fixed seed in CI, many under ``make fuzz``) and by
``benchmarks/bench_parse.py`` (rates beside json-repair on the same cases).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

_WORDS = ["alpha", "beta", "记录", "数据", "naïve", "café", "emoji 😀", "tab\there", "x/y"]
_PROSE_BEFORE = [
    "Here is the JSON you asked for:\n",
    "Sure! The result:\n\n",
    '<think>The user wants a list. Draft: {"id": 0}</think>\n',
    "<think>Maybe [1, 2] would do.</think>\nFinal answer:\n",
    "```json\n",
]
_PROSE_AFTER = [
    "",
    "\n\nLet me know if you need anything else.",
    "\nSee [1].",
    "\n\nNote: the scores are estimates [2, 3].",
    "\n(values are approximate)",
]


@dataclass
class Case:
    category: str
    text: str
    truth: Any
    # for a cut reply: the complete records before the cut (``truth`` is the whole document),
    # the key holding the record list ("" for a top-level array) and the record cut into
    cut: bool = False
    complete: list[Any] = field(default_factory=list)
    wrap: str = ""
    cut_record: Any = None


# ----------------------------------------------------------------------------- values


def _text(rng: random.Random) -> str:
    words = rng.choices(_WORDS, k=rng.randint(1, 4))
    if rng.random() < 0.2:
        words.append(rng.choice(["line\nbreak", 'a "quote"', "back\\slash", "，全角，"]))
    return " ".join(words)


def _record(rng: random.Random, i: int) -> dict[str, Any]:
    record: dict[str, Any] = {"id": i, "name": _text(rng)}
    roll = rng.random()
    if roll < 0.3:
        record["score"] = round(rng.uniform(-5, 5), 3)
    elif roll < 0.5:
        record["ok"] = rng.random() < 0.5
    elif roll < 0.6:
        record["big"] = rng.randint(10**19, 10**30)
    if rng.random() < 0.3:
        record["tags"] = [_text(rng) for _ in range(rng.randint(0, 3))]
    if rng.random() < 0.15:
        record["note"] = None
    return record


def _records(rng: random.Random, n: int) -> list[dict[str, Any]]:
    return [_record(rng, i) for i in range(n)]


def _dump(value: Any, rng: random.Random, *, ascii_escapes: bool | None = None) -> str:
    if ascii_escapes is None:
        ascii_escapes = rng.random() < 0.25
    indent = 2 if rng.random() < 0.3 else None
    return json.dumps(value, ensure_ascii=ascii_escapes, indent=indent)


# ----------------------------------------------------------------------------- categories


def _valid(rng: random.Random) -> Case:
    truth = _records(rng, rng.randint(1, 8))
    value: Any = truth if rng.random() < 0.5 else {"results": truth}
    return Case("valid", _dump(value, rng), value)


def _prose(rng: random.Random) -> Case:
    truth: Any = _records(rng, rng.randint(1, 5))
    if rng.random() < 0.5:
        truth = truth[0]
    before = rng.choice(_PROSE_BEFORE)
    after = rng.choice(_PROSE_AFTER)
    body = _dump(truth, rng)
    if before.startswith("```"):
        after = "\n```" + after
    return Case("prose", before + body + after, truth)


def _first_value_wins(rng: random.Random) -> Case:
    first = _records(rng, rng.randint(1, 3))
    second = _records(rng, rng.randint(1, 3))
    for record in second:
        record["id"] += 100
    glue = rng.choice(["\n", "\n\nAnother example:\n", "\nFor comparison: "])
    return Case("several values", _dump(first, rng) + glue + _dump(second, rng), first)


def _think_literal(rng: random.Random) -> Case:
    truth = _records(rng, rng.randint(1, 3))
    draft = json.dumps([{"id": -1, "name": "draft"}])
    start = rng.choice(["", "// final\n", "/* answer */ "])
    body = _dump(truth, rng)
    roll = rng.random()
    if roll < 0.3:  # Python literals first in the answer: [None, True, …]
        truth = [None, True, *truth]
        body = "[None, True, " + body[1:]
    elif roll < 0.5:  # a comment first inside the answer
        body = "[ // the records\n" + body[1:]
    return Case("think", f"<think>{draft}</think>\n{start}{body}", truth)


def _cut_position(text: str, start: int, end: int, rng: random.Random) -> int:
    """A cut inside ``text[start:end]``, favouring the classes that trip repairs."""
    span = text[start:end]
    roll = rng.random()
    targets: list[int] = []
    if roll < 0.3:
        targets = [i for i, ch in enumerate(span) if ch == "\\"]  # inside an escape
        targets += [i + 1 for i in targets]
        targets += [i + 3 for i, ch in enumerate(span) if ch == "\\" and span[i + 1 : i + 2] == "u"]
    elif roll < 0.5:
        targets = [i + 1 for i, ch in enumerate(span) if ch in ',:"']  # after syntax
    elif roll < 0.6:
        targets = [i for i, ch in enumerate(span) if ch.isdigit()]  # inside a number
    targets = [t for t in targets if 1 <= t < len(span)]
    offset = rng.choice(targets) if targets else rng.randint(1, len(span) - 1)
    return start + offset


def _truncated(rng: random.Random) -> Case:
    records = _records(rng, rng.randint(1, 8))
    wrap = "results" if rng.random() < 0.3 else ""
    ascii_escapes = rng.random() < 0.4
    pieces = [json.dumps(r, ensure_ascii=ascii_escapes) for r in records]
    head = '{"results": [' if wrap else "["
    k = rng.randrange(len(records))
    start = len(head) + sum(len(p) + 2 for p in pieces[:k])
    text = head + ", ".join(pieces) + ("]}" if wrap else "]")
    cut = _cut_position(text, start, start + len(pieces[k]), rng)
    truth = {"results": records} if wrap else records
    return Case(
        "truncated",
        text[:cut],
        truth,
        cut=True,
        complete=records[:k],
        wrap=wrap,
        cut_record=records[k],
    )


def _single_quotes(rng: random.Random) -> Case:
    truth = _records(rng, rng.randint(1, 4))
    for record in truth:
        record["name"] = record["name"].replace("'", "")
    text = _python_like(truth, quote="'")
    return Case("single quotes", text, truth)


def _python_literals(rng: random.Random) -> Case:
    truth = _records(rng, rng.randint(1, 4))
    text = _dump(truth, rng).replace("true", "True").replace("false", "False")
    text = text.replace("null", "None")  # no generated word holds these names
    return Case("python literals", text, truth)


def _comments(rng: random.Random) -> Case:
    truth = _records(rng, rng.randint(1, 4))
    body = _dump(truth, rng, ascii_escapes=rng.random() < 0.5)
    comment = rng.choice(["// the data\n", "/* generated */\n"])
    text = comment + body.replace("}, {", "}, // next\n {", 1)
    return Case("comments", text, truth)


def _raw_quotes(rng: random.Random) -> Case:
    truth = _records(rng, rng.randint(1, 4))
    target = rng.choice(truth)
    target["name"] = f'He said "{rng.choice(["yes", "好", "no way"])}" twice'
    body = json.dumps(truth, ensure_ascii=False)
    text = body.replace(json.dumps(target["name"], ensure_ascii=False), f'"{target["name"]}"', 1)
    return Case("raw quotes", text, truth)


def _raw_newlines(rng: random.Random) -> Case:
    truth = _records(rng, rng.randint(1, 4))
    target = rng.choice(truth)
    target["name"] = rng.choice(["first line\nsecond line", "ends with a break\n", "a\n\nb"])
    body = json.dumps(truth, ensure_ascii=False)
    text = body.replace(
        json.dumps(target["name"], ensure_ascii=False),
        json.dumps(target["name"], ensure_ascii=False).replace("\\n", "\n"),
        1,
    )
    return Case("raw newlines", text, truth)


def _fullwidth(rng: random.Random) -> Case:
    truth = {
        "score": rng.randint(1, 5),
        "reason": rng.choice(["好，但是：缺少日期", "回答正确", "引用“条款”"]),
    }
    text = "｛“score”：" + str(truth["score"]) + "，“reason”：“" + str(truth["reason"]) + "”｝"
    return Case("full-width", text, truth)


def _long_numbers(rng: random.Random) -> Case:
    truth = [
        {"id": rng.randint(10**18, 10**40), "n": -rng.randint(10**19, 10**25)} for _ in range(3)
    ]
    text = json.dumps(truth)
    damage = rng.choice(["trailing", "cut", "comma"])
    if damage == "trailing":
        text = text[:-1] + ",]"
    elif damage == "comma":
        text = text.replace("}, {", "} {", 1)
    else:
        text = text[: text.rfind("}, {") + 1]
        return Case("long numbers", text, truth, cut=True, complete=truth[:2], cut_record=truth[2])
    return Case("long numbers", text, truth)


_BIG_DEFECTS = (
    "missing comma",
    "missing colon",
    "missing opening quote",
    "missing closing quote",
    "doubled comma",
    "trailing comma",
    "raw newline",
    "raw quote",
    "missing opening quote, full-width comma",
    "single-quoted value",
    "cut",
)


def big_one_defect(rng: random.Random, sizes: tuple[int, ...] = (50, 400, 2000, 6000)) -> Case:
    n = rng.choice(sizes)
    top = 10**22 if rng.random() < 0.3 else 10**6  # integers beyond 64 bits must stay exact
    records = [{"id": i, "name": f"记录{i}", "v": rng.randint(0, top)} for i in range(n)]
    text = json.dumps(records, ensure_ascii=False)
    mid = rng.randrange(1, n)
    defect = rng.choice(_BIG_DEFECTS)
    name = f'"name": "记录{mid}"'
    swaps = {
        "missing comma": (f'}}, {{"id": {mid},', f'}} {{"id": {mid},'),
        "missing colon": (name, f'"name" "记录{mid}"'),
        "missing opening quote": (name, f'"name": 记录{mid}"'),
        "missing closing quote": (name, f'"name": "记录{mid}'),
        "doubled comma": (f'}}, {{"id": {mid},', f'}},, {{"id": {mid},'),
        "trailing comma": (f'"id": {mid}, "name"', f'"id": {mid},, "name"'),
        "raw newline": (name, f'"name": "记录\n{mid}"'),
        "raw quote": (name, f'"name": "记"录"{mid}"'),
        "missing opening quote, full-width comma": (name, f'"name": 记录，{mid}"'),
        "single-quoted value": (name, f"\"name\": '记录{mid}'"),
        "cut": (name, name),
    }
    old, new = swaps[defect]
    if defect == "trailing comma":
        old, new = text[-2:], "},]"
    if defect == "raw newline":
        records[mid]["name"] = f"记录\n{mid}"
    if defect == "raw quote":
        records[mid]["name"] = f'记"录"{mid}'
    if defect == "missing opening quote, full-width comma":
        records[mid]["name"] = f"记录，{mid}"
    if defect == "cut":
        cut = text.index(name) + len(name) - 2  # inside the name of record mid
        return Case(
            "big: cut",
            text[:cut],
            records,
            cut=True,
            complete=records[:mid],
            cut_record=records[mid],
        )
    text = text.replace(old, new, 1) if defect != "trailing comma" else text[:-2] + new
    if rng.random() < 0.3:
        text = "Here are the records:\n" + text
    return Case(f"big: {defect}", text, records)


def _deep(rng: random.Random) -> Case:
    depth = rng.choice([10, 100, 500, 900, 1000])
    leaf = rng.randint(0, 9)
    value: Any = [leaf]
    opens, closes = ["["], ["]"]
    for _ in range(depth - 1):
        if rng.random() < 0.5:
            value = [value]
            opens.append("[")
            closes.append("]")
        else:
            value = {"k": value}
            opens.append('{"k": ')
            closes.append("}")
    head = "".join(reversed(opens)) + str(leaf)
    if rng.random() < 0.5:
        return Case("deep", head + "".join(closes), value)
    return Case("deep", head, value, cut=True)  # cut right after the innermost value


def _example_after(rng: random.Random) -> Case:
    """A bare list that looks like a citation, then an example: the list is the answer."""
    truth = [rng.randint(1, 9) for _ in range(rng.randint(1, 3))]
    lead = rng.choice(["The primes are:\n", "", "Answer:\n"])
    text = f"{lead}{json.dumps(truth)}\n\nFor example: {json.dumps({'id': 1})}"
    return Case("citation-like answer", text, truth)


def _cut_after_prose(rng: random.Random) -> Case:
    case = _truncated(rng)
    case.text = rng.choice(_PROSE_BEFORE[:2]) + case.text
    case.category = "truncated after prose"
    return case


def _cut_single_quotes(rng: random.Random) -> Case:
    records = _records(rng, rng.randint(2, 6))
    for record in records:
        record["name"] = record["name"].replace("'", "")
    pieces = [_python_like(r, "'") for r in records]
    k = rng.randrange(1, len(records))
    start = 1 + sum(len(p) + 2 for p in pieces[:k])
    text = "[" + ", ".join(pieces) + "]"
    cut = _cut_position(text, start, start + len(pieces[k]), rng)
    return Case(
        "truncated single quotes",
        text[:cut],
        records,
        cut=True,
        complete=records[:k],
        cut_record=records[k],
    )


def _cut_nested(rng: random.Random) -> Case:
    """A cut in indented or compact JSON whose records hold nested objects, after a fence or
    prose or not."""
    records = _records(rng, rng.randint(1, 6))
    for record in records:
        if rng.random() < 0.5:
            record["meta"] = {"src": "x", "n": rng.randint(0, 99)}
    indent = rng.choice([2, 4, None])
    sep = ",\n" if indent else ", "
    pieces = [json.dumps(r, ensure_ascii=rng.random() < 0.4, indent=indent) for r in records]
    head = "[\n" if indent else "["
    k = rng.randrange(len(records))
    start = len(head) + sum(len(p) + len(sep) for p in pieces[:k])
    text = head + sep.join(pieces) + "\n]"
    cut = _cut_position(text, start, start + len(pieces[k]), rng)
    before = rng.choice(["", "```json\n", "Here:\n"])
    return Case(
        "truncated nested",
        before + text[:cut],
        records,
        cut=True,
        complete=records[:k],
        cut_record=records[k],
    )


def _raw_quote_variants(rng: random.Random) -> Case:
    """Unescaped quotes anywhere in a string (start, end, twice, an inch mark), indented or not,
    after prose or a fence or not."""
    truth = _records(rng, rng.randint(1, 4))
    target = rng.choice(truth)
    target["name"] = rng.choice(
        ['say "hi"', '"quoted" start', 'end "quoted"', 'a "b" c "d" e', '5" screen', '"x"']
    )
    body = json.dumps(truth, ensure_ascii=False, indent=rng.choice([None, 2]))
    quoted = json.dumps(target["name"], ensure_ascii=False)
    body = body.replace(quoted, '"' + target["name"] + '"', 1)
    return Case("raw quote variants", rng.choice(["", "Result:\n", "```json\n"]) + body, truth)


def _apostrophes(rng: random.Random) -> Case:
    """Single-quoted strings holding apostrophes between letters (don't, O'Brien's)."""
    truth = _records(rng, rng.randint(1, 3))
    rng.choice(truth)["name"] = rng.choice(["it's", "don't stop", "O'Brien's"])
    return Case("single quotes with apostrophes", _python_like(truth, "'"), truth)


def _cut_records(
    rng: random.Random, category: str, pieces: list[str], records: list[Any], head: str, sep: str
) -> Case:
    k = rng.randrange(len(records))
    start = len(head) + sum(len(p) + len(sep) for p in pieces[:k])
    text = head + sep.join(pieces) + "]"
    cut = _cut_position(text, start, start + len(pieces[k]), rng)
    return Case(
        category, text[:cut], records, cut=True, complete=records[:k], cut_record=records[k]
    )


def _cut_python(rng: random.Random) -> Case:
    """A cut in a reply written with Python literals (`"ok": Tru`)."""
    records = _records(rng, rng.randint(2, 6))
    pieces = [
        json.dumps(r, ensure_ascii=False)
        .replace("true", "True")
        .replace("false", "False")
        .replace("null", "None")
        for r in records
    ]
    return _cut_records(rng, "truncated python literals", pieces, records, "[", ", ")


def _cut_comments(rng: random.Random) -> Case:
    """A cut in a reply with comments between its records."""
    records = _records(rng, rng.randint(2, 6))
    pieces = [json.dumps(r, ensure_ascii=False) for r in records]
    return _cut_records(rng, "truncated comments", pieces, records, "// data\n[", ", // next\n")


def _broken_then_more(rng: random.Random) -> Case:
    """A first value with a defect, then another value: the first is the answer."""
    first = _records(rng, rng.randint(1, 3))
    body = json.dumps(first, ensure_ascii=False)[:-1] + ",]"
    return Case(
        "broken first value then more",
        body + "\n\nAlternatively:\n" + json.dumps(_records(rng, 2)),
        first,
    )


def _fence_then_sources(rng: random.Random) -> Case:
    """A fenced answer whose strings hold citation markers, then a line of sources."""
    truth = {
        "score": rng.randint(1, 5),
        "reason": "See [1] and [2, 3]. " + rng.choice(["ok", "好"]),
    }
    text = (
        "```json\n"
        + json.dumps(truth, ensure_ascii=False, indent=2)
        + "\n```\n\nSources: [1] a, [2] b."
    )
    return Case("fence then sources", text, truth)


GENERATORS: dict[str, Callable[[random.Random], Case]] = {
    "truncated python literals": _cut_python,
    "truncated comments": _cut_comments,
    "broken first value then more": _broken_then_more,
    "fence then sources": _fence_then_sources,
    "truncated nested": _cut_nested,
    "raw quote variants": _raw_quote_variants,
    "single quotes with apostrophes": _apostrophes,
    "citation-like answer": _example_after,
    "truncated after prose": _cut_after_prose,
    "truncated single quotes": _cut_single_quotes,
    "valid": _valid,
    "prose": _prose,
    "several values": _first_value_wins,
    "think": _think_literal,
    "truncated": _truncated,
    "single quotes": _single_quotes,
    "python literals": _python_literals,
    "comments": _comments,
    "raw quotes": _raw_quotes,
    "raw newlines": _raw_newlines,
    "full-width": _fullwidth,
    "long numbers": _long_numbers,
    "big one defect": big_one_defect,
    "deep": _deep,
}


def _python_like(value: Any, quote: str) -> str:
    """``value`` written with ``quote`` around strings (a model imitating Python)."""
    if isinstance(value, dict):
        return (
            "{"
            + ", ".join(
                f"{_python_like(k, quote)}: {_python_like(v, quote)}" for k, v in value.items()
            )
            + "}"
        )
    if isinstance(value, list):
        return "[" + ", ".join(_python_like(v, quote) for v in value) + "]"
    if isinstance(value, str):
        body = json.dumps(value, ensure_ascii=False)[1:-1].replace('\\"', '"')
        return quote + body + quote
    return json.dumps(value)


def make_cases(
    seed: int, per_category: int, *, big_sizes: tuple[int, ...] | None = None
) -> list[Case]:
    rng = random.Random(seed)
    cases = []
    for name, make in GENERATORS.items():
        for _ in range(per_category):
            if name == "big one defect" and big_sizes is not None:
                cases.append(big_one_defect(rng, big_sizes))
            else:
                cases.append(make(rng))
    return cases
