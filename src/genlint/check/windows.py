"""Where rules look: the text around matches of their triggers (see ``Rule.trigger`` in
:mod:`genlint.check.rules`). A window costs one Python step and covers many lines, so a frequent
trigger stays cheap; the rules then scan the windows in C."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import NamedTuple

__all__ = ["TriggerWindows", "join_windows", "merged_windows"]

Windows = tuple[tuple[int, int], ...]


class TriggerWindows(NamedTuple):
    """Where a trigger occurs: windows around all its matches, and around the matches of each
    of its patterns (``parts``, in the order of the trigger's tuple; see
    ``RuleContext.part_windows``)."""

    all: Windows
    parts: tuple[Windows, ...]

# How far back and past a trigger match a window reaches, and how close two windows must be to
# be joined into one.
_WINDOW_MARGIN = 200
_WINDOW_SPAN = 1024
_JOIN_GAP = 256


def _windows(text: str, trigger: re.Pattern[str]) -> tuple[tuple[int, int], ...]:
    """Spans around the matches of ``trigger``: from the start of the line (at most
    ``_WINDOW_MARGIN`` back) to the first line break at least ``_WINDOW_SPAN`` further on.

    A window holds several lines, so a frequent trigger costs few Python steps; the rules scan
    the extra text in C. Every match of a rule contains a match of its trigger, so a window
    reaching a margin past its last trigger holds every match around it.
    """
    out: list[tuple[int, int]] = []
    n = len(text)
    literal = _literal(trigger.pattern)
    if literal is not None:
        # str.find beats re on a plain string (up to 5x when it is rare)
        find = text.find
        width = len(literal)

        def locate(pos: int) -> tuple[int, int] | None:
            i = find(literal, pos)
            return None if i < 0 else (i, i + width)

    else:
        search = trigger.search

        def locate(pos: int) -> tuple[int, int] | None:
            m = search(text, pos)
            return None if m is None else m.span()

    hit = locate(0)
    while hit is not None:
        p, hit_end = hit
        lo = max(0, p - _WINDOW_MARGIN)
        nl = text.rfind("\n", lo, p)
        start = nl + 1 if nl >= 0 else lo
        stop = max(hit_end, p + _WINDOW_SPAN)
        nl = text.find("\n", stop, stop + _WINDOW_MARGIN)
        end = nl if nl >= 0 else min(n, stop + _WINDOW_MARGIN)
        # windows a short gap apart are joined: scanning the gap costs less than another call
        if out and start <= out[-1][1] + _JOIN_GAP:
            out[-1] = (out[-1][0], max(end, out[-1][1]))
        else:
            out.append((start, end))
        if end >= n:
            break
        # a trigger in the last margin of the window may start a match that runs past its end:
        # search again from there, so such a trigger widens the window
        hit = locate(max(p + 1, end - _WINDOW_MARGIN))
    return tuple(out)


_METACHARS = frozenset(".^$*+?{}[]|()\\")


def _literal(pattern: str) -> str | None:
    """The plain string a pattern matches (``\\[`` is ``[``), or None if it is a real regex."""
    out: list[str] = []
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            nxt = pattern[i + 1 : i + 2]
            if not nxt or nxt.isalnum():
                return None  # \d, \w, \1…: a class or a reference, not a character
            out.append(nxt)
            i += 2
            continue
        if ch in _METACHARS:
            return None
        out.append(ch)
        i += 1
    return "".join(out) or None


def merged_windows(
    text: str,
    triggers: Sequence[re.Pattern[str]],
    cache: dict[str, tuple[tuple[int, int], ...]] | None = None,
) -> tuple[tuple[int, int], ...]:
    """The union of the windows of several triggers (each scanned on its own: a literal-first
    pattern is found at memchr speed, an alternation of them is not)."""
    cache = {} if cache is None else cache
    for t in triggers:
        if t.pattern not in cache:
            cache[t.pattern] = _windows(text, t)
    if len(triggers) == 1:
        return cache[triggers[0].pattern]
    return join_windows(sorted(w for t in triggers for w in cache[t.pattern]))


def join_windows(spans: Sequence[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """Sorted windows with those less than ``_JOIN_GAP`` apart joined into one."""
    out: list[tuple[int, int]] = []
    for start, end in spans:
        if out and start <= out[-1][1] + _JOIN_GAP:
            if end > out[-1][1]:
                out[-1] = (out[-1][0], end)
        else:
            out.append((start, end))
    return tuple(out)


def anchor_windows(
    text: str,
    anchor: re.Pattern[str],
    before: int,
    after: int,
    pos: int = 0,
    endpos: int | None = None,
) -> Iterator[tuple[int, int]]:
    """Windows from ``before`` characters ahead of each ``anchor`` match in
    ``text[pos:endpos]`` to ``after`` characters past it, overlapping ones merged: where a rule
    looks for what stands near a word (a 元 near capital numerals, a date near 年)."""
    endpos = len(text) if endpos is None else endpos
    start = end = -1
    for m in anchor.finditer(text, pos, endpos):
        lo, hi = max(pos, m.start() - before), min(endpos, m.end() + after)
        if lo > end:
            if end >= 0:
                yield start, end
            start = lo
        end = max(end, hi)
    if end >= 0:
        yield start, end
