"""How a parser's answer to a generated reply (:mod:`parse.replies`) compares with the value the
reply meant: exact, the share of the meant keys and values kept, a silent loss (a clean success
that is not the meant value and does not say so), a false flag (lossy with nothing missing)."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from parse.replies import Case


@dataclass
class Score:
    exact: bool
    kept: float  # share of the meant keys and values present in the answer
    silent_loss: bool  # a clean success (exit 0) that is not the meant value, unsaid
    false_flag: bool  # flagged lossy with nothing the text holds missing


def leaves(value: Any) -> Counter[tuple[str, str]]:
    """Multiset of (path without list indices, scalar as JSON) of a value, without recursion."""
    out: Counter[tuple[str, str]] = Counter()
    stack: list[tuple[str, Any]] = [("", value)]
    while stack:
        path, node = stack.pop()
        if isinstance(node, dict):
            if not node:
                out[(path, "{}")] += 1
            stack.extend((f"{path}.{k}", v) for k, v in node.items())
        elif isinstance(node, list):
            if not node:
                out[(path, "[]")] += 1
            stack.extend((f"{path}[]", v) for v in node)
        else:
            out[(path, type(node).__name__ + ":" + json.dumps(node))] += 1
    return out


def kept_share(truth: Any, value: Any) -> float:
    want = leaves(truth)
    total = sum(want.values())
    if not total:
        return 1.0
    got = leaves(value)
    return sum(min(n, got[key]) for key, n in want.items()) / total


def same(a: Any, b: Any) -> bool:
    """Exact equality as JSON (1 != 1.0 != True), without recursion (any depth)."""
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        if type(x) is not type(y):
            return False
        if isinstance(x, dict):
            if x.keys() != y.keys():
                return False
            stack.extend((x[k], y[k]) for k in x)
        elif isinstance(x, list):
            if len(x) != len(y):
                return False
            stack.extend(zip(x, y, strict=True))
        elif x != y:
            return False
    return True


def _records_of(case: Case, value: Any) -> Any:
    if case.wrap:
        return value.get(case.wrap) if isinstance(value, dict) else None
    return value


def _partial_ok(partial: Any, meant: Any) -> bool:
    """A record closed at a cut: every key it has is the meant one's, all values but the last
    exact, the last a cut-short version (a prefix of the string, null, or part of a list)."""
    if not isinstance(partial, dict) or not isinstance(meant, dict):
        return False
    keys = list(partial)
    if keys != list(meant)[: len(keys)]:
        return False
    for key in keys[:-1]:
        if not same(partial[key], meant[key]):
            return False
    if not keys:
        return True
    last, want = partial[keys[-1]], meant[keys[-1]]
    if same(last, want) or last is None:
        return True
    if isinstance(last, str) and isinstance(want, str):
        return want.startswith(last)
    if isinstance(last, list) and isinstance(want, list):
        return len(last) <= len(want)
    if isinstance(last, dict) and isinstance(want, dict):
        return _partial_ok(last, want)  # a nested object cut short
    # a number cut short reads as a shorter number
    return isinstance(last, int | float) and isinstance(want, int | float)


def score(
    case: Case, ok: bool, value: Any, *, lossy: bool, guessed: bool, truncated: bool
) -> Score:
    """How a parser's answer compares with the meant value. ``lossy``/``guessed``/``truncated``
    are the flags the parser raised (all False for a parser without them)."""
    if not case.cut:
        exact = ok and same(value, case.truth)
        kept = kept_share(case.truth, value) if ok else 0.0
        if case.category == "deep" and not exact and ok:
            kept = 0.0
        silent = ok and not lossy and not exact and not (guessed and kept == 1.0)
        return Score(exact, kept, silent, lossy and kept == 1.0 and exact)
    # a cut reply: the complete records must all be there, the cut one may be partial or absent
    records = _records_of(case, value) if ok else None
    complete = case.complete
    if case.category == "deep":
        exact = ok and truncated
        return Score(exact, 1.0 if exact else 0.0, ok and not truncated and not lossy, False)
    if not isinstance(records, list):
        kept = 0.0
        exact = False
    else:
        kept = kept_share(complete, records[: len(complete)]) if complete else 1.0
        head_ok = all(same(a, b) for a, b in zip(records, complete, strict=False))
        head_ok = head_ok and len(records) >= len(complete)
        extra = records[len(complete) :]
        exact = head_ok and (
            not extra
            or (
                len(extra) == 1
                and (same(extra[0], case.cut_record) or _partial_ok(extra[0], case.cut_record))
            )
        )
    said = truncated or lossy
    silent = ok and not lossy and (not exact or not said)
    return Score(exact and said, kept, silent, lossy and kept == 1.0 and exact)


@dataclass
class Tally:
    cases: int = 0
    exact: int = 0
    kept: float = 0.0
    silent_loss: int = 0
    false_flag: int = 0
    errors: int = 0
    slowest: float = 0.0
    examples: list[str] = field(default_factory=list)

    def add(self, result: Score, seconds: float, case: Case) -> None:
        self.cases += 1
        self.exact += result.exact
        self.kept += result.kept
        self.silent_loss += result.silent_loss
        self.false_flag += result.false_flag
        self.slowest = max(self.slowest, seconds)
        if (result.silent_loss or result.false_flag) and len(self.examples) < 3:
            self.examples.append(case.text[:200])

    def row(self) -> str:
        n = max(self.cases, 1)
        return (
            f"{self.cases:6d} {100 * self.exact / n:7.1f}% {self.kept / n:6.3f} "
            f"{100 * self.silent_loss / n:7.1f}% {100 * self.false_flag / n:7.1f}% "
            f"{self.errors:4d} {self.slowest * 1000:8.1f} ms"
        )
