"""Every rule's trigger windows in a long text from one vectorised pass (numpy).

The windows of :mod:`genlint.check.windows` cost one ``re`` scan per trigger, a dozen scans of
the whole text for the default packs, and ``re`` tests every position of a pattern led by a
character class (the ``sensitive`` digit runs). Most triggers are short sequences of
character sets (``某``, ``年[ _＿]``, ten characters of a digit run), so here they are matched
together: the text becomes an array of code points, one table lookup marks every position
where some trigger could start, and each trigger's later characters are tested only at those
positions. The windows then follow from the match positions in array operations, with the
rules of ``windows._windows`` but a tighter reach past each match (:data:`_SPAN`), so the rules
find the same spans on less text (a property test compares them with unwindowed rules). Each
pattern of a tuple trigger also gets its own windows (``TriggerWindows.parts``).

A trigger that is no such sequence (an open repeat, a class such as ``\\d``) keeps its ``re``
scan. Memory stays flat in the text's length: it is read in slices (:data:`_SLICE`). The
engine imports this module (and numpy) only for texts long enough to repay it
(``engine._VECTOR_TEXT``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .windows import (
    _JOIN_GAP,
    _WINDOW_MARGIN,
    TriggerWindows,
    join_windows,
    merged_windows,
)

__all__ = ["TriggerPlan"]

# How far past a trigger match its window reaches at least (then on to a line break at most
# _WINDOW_MARGIN further). A rule's span starts at most 100 characters after its trigger and is
# shorter than 200 (the trigger contract in genlint/check/rules/__init__.py). The re windows
# reach 1,024 to save Python steps per match; here a match costs no Python step, and a tighter
# window is less text for the rules to scan.
_SPAN = 320
# A long text is converted a slice of this many characters at a time: a 50 MB line would take
# 200 MB as code points at once, and as much again as positions. Each slice also reads what
# the windows of its matches reach around it.
_SLICE = 1 << 19
# see _windows_at: _DENSE plus a sequence's length stays well below _SPAN
_DENSE = 64
# a trigger that expands to more sequences than this is left to re
_MAX_SEQUENCES = 64
_BMP = 0x10000

Key = Any  # a rule's ``trigger`` value: a pattern or a tuple of them
Windows = tuple[tuple[int, int], ...]


class _NotSequence(Exception):
    """The pattern is not a fixed sequence of character sets."""


CharSet = frozenset[int]
# a set larger than this (a whole script) is left to re: the tables are built per code point
_MAX_SET = 4096


def _sequences(pattern: str) -> list[tuple[CharSet, ...]]:
    """``pattern`` as the sequences of character sets it matches. A lookbehind or lookahead of
    fixed width narrows the sets it overlaps, or adds positions before or after the match (a
    sequence may then start before the pattern's match: its window still covers the match).
    Raises :class:`_NotSequence` for anything else."""
    from re import _constants as c  # type: ignore[attr-defined]
    from re import _parser  # type: ignore[attr-defined]

    try:
        parsed = _parser.parse(pattern, 0)
    except re.error as exc:
        raise _NotSequence(str(exc)) from None
    if parsed.state.flags & ~(c.SRE_FLAG_UNICODE):
        raise _NotSequence("flags")

    def char_set(op: Any, av: Any) -> CharSet:
        if op is c.LITERAL:
            return frozenset({av})
        if op is c.IN:
            chars: set[int] = set()
            for item_op, item_av in av:
                if item_op is c.LITERAL:
                    chars.add(item_av)
                elif item_op is c.RANGE and item_av[1] - item_av[0] < _MAX_SET:
                    chars.update(range(item_av[0], item_av[1] + 1))
                else:  # a negation, \d, \w, a script: left to re
                    raise _NotSequence(str(item_op))
            return frozenset(chars)
        raise _NotSequence(str(op))

    def expand(items: Any) -> list[_Partial]:
        parts: list[_Partial] = [((), 0, 0)]
        for op, av in items:
            if op in (c.ASSERT_NOT, c.AT):
                continue  # a negative lookaround or an anchor only narrows: windows stay a superset
            if op is c.ASSERT:
                direction, sub = av
                grown: list[_Partial] = []
                for part in parts:
                    for look in expand(sub):
                        if look[1] != 0 or look[2] != len(look[0]):
                            raise _NotSequence("nested lookaround")
                        at = part[2] if direction > 0 else part[2] - len(look[0])
                        placed = _place(part, at, look[0])
                        if placed is not None:
                            grown.append(placed)
                parts = grown
                continue
            if op is c.SUBPATTERN:
                if av[1] or av[2]:
                    raise _NotSequence("inline flags")
                tails = expand(av[3])
            elif op is c.BRANCH:
                tails = [t for branch in av[1] for t in expand(branch)]
            elif op in (c.MAX_REPEAT, c.MIN_REPEAT):
                low, high, sub = av
                inner = expand(sub)
                if low == high:
                    tails = [((), 0, 0)]
                    for _ in range(low):
                        tails = [j for a in tails for b in inner if (j := _join(a, b))]
                elif (low, high) == (0, 1):
                    tails = [((), 0, 0), *inner]
                else:
                    raise _NotSequence("open repeat")
            else:
                tails = [((char_set(op, av),), 0, 1)]
            parts = [j for a in parts for b in tails if (j := _join(a, b))]
            if len(parts) > _MAX_SEQUENCES:
                raise _NotSequence("too many sequences")
        return parts

    out: list[tuple[CharSet, ...]] = []
    for sets, _lead, _cursor in expand(parsed):
        if not sets or None in sets:
            raise _NotSequence("matches the empty string or any character")
        if any(ch >= _BMP - 1 or ch == 0 for s in sets for ch in s):  # type: ignore[union-attr]
            # astral code points share the last slot; NUL marks "one character" sets
            raise _NotSequence("NUL or beyond the BMP")
        out.append(sets)  # type: ignore[arg-type]
    return out


# A partial sequence: (sets, lead, cursor). The pattern's match starts at sets[lead] and the
# next character it consumes goes to sets[cursor]; a lookaround may have added sets before the
# lead or past the cursor. None is "any character" until something narrows it.
_Partial = tuple[tuple[CharSet | None, ...], int, int]


def _place(part: _Partial, at: int, seq: Sequence[CharSet | None]) -> _Partial | None:
    """``seq`` must also match from position ``at`` of ``part`` (negative: before its start);
    None when that is impossible (the sets do not meet)."""
    sets, lead, cursor = list(part[0]), part[1], part[2]
    if at < 0:
        sets[:0] = [None] * -at
        lead, cursor, at = lead - at, cursor - at, 0
    sets.extend([None] * (at + len(seq) - len(sets)))
    for i, s in enumerate(seq, at):
        if s is None:
            continue
        have = sets[i]
        narrowed = s if have is None else have & s
        if not narrowed:
            return None
        sets[i] = narrowed
    return tuple(sets), lead, cursor


def _join(a: _Partial, b: _Partial) -> _Partial | None:
    """``b`` consumed after ``a``."""
    placed = _place(a, a[2] - b[1], b[0])
    if placed is None:
        return None
    # _place may have shifted a's positions to make room before its start
    shift = placed[1] - a[1]
    return placed[0], placed[1], a[2] + shift + (b[2] - b[1])


class TriggerPlan:
    """The triggers of one checker, compiled for :meth:`windows` (build once, reuse)."""

    def __init__(self, triggers: Mapping[Key, Sequence[re.Pattern[str]]]) -> None:
        self._fallback: dict[Key, Sequence[re.Pattern[str]]] = {}
        # per trigger key: (length, set index per position) of each sequence
        self._plans: dict[Key, list[tuple[int, int, tuple[int, ...]]]] = {}
        self._parts: dict[Key, int] = {}
        index: dict[CharSet, int] = {}
        for key, patterns in triggers.items():
            try:
                per_part = [_sequences(p.pattern) for p in patterns]
            except _NotSequence:
                self._fallback[key] = patterns
                continue
            self._plans[key] = [
                (part, len(seq), tuple(index.setdefault(s, len(index)) for s in seq))
                for part, seqs in enumerate(per_part)
                for seq in seqs
            ]
            self._parts[key] = len(patterns)
        self._tables = np.zeros((max(1, len(index)), _BMP), dtype=bool)
        for chars, i in index.items():
            self._tables[i, sorted(chars)] = True
        # the character of a set that holds one (0 otherwise): compared, not looked up
        self._single = [0] * len(index)
        for chars, i in index.items():
            if len(chars) == 1:
                self._single[i] = next(iter(chars))
        # Each character that starts some sequence gets the id of the group of first sets it is
        # in (its signature); a line break gets one too (windows end at line breaks). One
        # lookup over the text and one radix sort of the ids then give each first set its
        # positions, with no pass over all candidates per set.
        first = sorted({seq[0] for plan in self._plans.values() for _, _, seq in plan})
        members: dict[int, list[int]] = {10: []}
        for i in first:
            for ch in np.flatnonzero(self._tables[i]).tolist():
                members.setdefault(ch, []).append(i)
        signatures: dict[tuple[int, ...], int] = {}
        # 16 bits: as many groups as there could be first sets, and numpy still sorts them by radix
        self._signature = np.zeros(_BMP, dtype=np.uint16)
        for ch, sets in members.items():
            sig = (-1,) if ch == 10 else tuple(sets)
            self._signature[ch] = signatures.setdefault(sig, len(signatures) + 1)
        self._break_id = signatures[(-1,)]
        self._ids = len(signatures) + 1  # 0: no trigger starts with the character
        # per first set, the signature ids that hold it
        self._ids_of: dict[int, list[int]] = {
            i: [sid for sig, sid in signatures.items() if i in sig] for i in first
        }

    def _member(self, index: int, codes: np.ndarray) -> np.ndarray:
        """Which of ``codes`` are in set ``index`` (one comparison for a single character)."""
        single = self._single[index]
        if single:
            return codes == single
        return np.take(self._tables[index], codes, mode="clip")

    def windows(self, text: str) -> dict[Key, TriggerWindows]:
        """Each trigger's windows over ``text``: all of them (see
        :func:`windows.merged_windows`) and those of each of its patterns."""
        out: dict[Key, TriggerWindows] = {}
        cache: dict[str, Windows] = {}
        for key, patterns in self._fallback.items():
            whole = merged_windows(text, patterns, cache)
            out[key] = TriggerWindows(whole, tuple(cache[p.pattern] for p in patterns))
        if not self._plans:
            return out
        n = len(text)
        if n <= _SLICE:
            out.update(self._slice_windows(text, 0, n))
            return out
        # the windows of all, then of each pattern, per trigger, from every slice
        found: dict[Key, list[list[tuple[int, int]]]] = {
            key: [[] for _ in range(parts + 1)] for key, parts in self._parts.items()
        }
        for lo in range(0, n, _SLICE):
            for key, got in self._slice_windows(text, lo, min(n, lo + _SLICE)).items():
                for kept, windows in zip(found[key], (got.all, *(got.parts or ())), strict=True):
                    kept.extend(windows)
        for key, (every, *parts) in found.items():
            # slices overlap: windows of neighbouring slices may meet
            out[key] = TriggerWindows(
                join_windows(sorted(every)), tuple(join_windows(sorted(w)) for w in parts)
            )
        return out

    def _slice_windows(self, text: str, lo: int, hi: int) -> dict[Key, TriggerWindows]:
        """The windows, per trigger and pattern, of the matches that start in ``[lo, hi)``."""
        n = len(text)
        # the slice read reaches as far around them as their windows do
        first, last = max(0, lo - _WINDOW_MARGIN), min(n, hi + _SPAN + 2 * _WINDOW_MARGIN)
        piece = text if (first, last) == (0, n) else text[first:last]
        codes = np.frombuffer(piece.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
        # an astral code point reads as U+FFFF, which no set holds (see _sequences)
        ids = np.take(self._signature, codes, mode="clip")
        cand = np.flatnonzero(ids)
        cand_ids = ids[cand]
        order = np.argsort(cand_ids, kind="stable")  # radix: positions stay ascending per id
        bounds = np.concatenate(([0], np.cumsum(np.bincount(cand_ids, minlength=self._ids))))
        by_id = [cand[order[bounds[i] : bounds[i + 1]]] for i in range(self._ids)]
        starts_of: dict[int, np.ndarray] = {}
        breaks = by_id[self._break_id] + first
        own_lo, own_hi = lo - first, hi - first  # the matches this slice answers for
        out: dict[Key, TriggerWindows] = {}
        for key, plan in self._plans.items():
            parts = self._parts[key]
            starts: list[list[np.ndarray]] = [[] for _ in range(parts)]
            ends: list[list[np.ndarray]] = [[] for _ in range(parts)]
            for part, length, sets in plan:
                pos = starts_of.get(sets[0])
                if pos is None:
                    got = [by_id[i] for i in self._ids_of[sets[0]]]
                    pos = got[0] if len(got) == 1 else np.sort(np.concatenate(got))
                    pos = pos[(pos >= own_lo) & (pos < own_hi)]
                    starts_of[sets[0]] = pos
                # the far positions first: they are the least like the first one (a digit
                # follows a digit more often than ten characters on), so they sift most
                for offset in range(length - 1, 0, -1):
                    if not len(pos):
                        break
                    # past the end reads the last character again: at worst a window too many
                    ahead = np.take(codes, pos + offset, mode="clip")
                    pos = pos[self._member(sets[offset], ahead)]
                if len(pos):
                    starts[part].append(pos + first)
                    ends[part].append(pos + first + length)
            per_part = tuple(
                _windows_at(np.concatenate(s), np.concatenate(e), breaks, n) if s else ()
                for s, e in zip(starts, ends, strict=True)
            )
            if parts == 1:
                out[key] = TriggerWindows(per_part[0], per_part)
                continue
            # all of the trigger's windows from all its matches at once (in numpy, not by
            # joining the parts' windows in Python)
            every_start = [a for got in starts for a in got]
            every_end = [a for got in ends for a in got]
            out[key] = TriggerWindows(
                _windows_at(np.concatenate(every_start), np.concatenate(every_end), breaks, n)
                if every_start
                else (),
                per_part,
            )
        return out


def _windows_at(starts: np.ndarray, ends: np.ndarray, breaks: np.ndarray, n: int) -> Windows:
    """The merged windows around matches ``[starts, ends)`` (``windows._windows``'s rules)."""
    order = np.argsort(starts, kind="stable")
    p, hit_end = starts[order], ends[order]
    if len(p) > 2:
        # Of the matches in each stretch of _DENSE characters only the first and the last
        # count: a match between them lies less than _DENSE from both, whose windows meet
        # and cover its own. (A line of 某某某… is a million matches, and each would cost a
        # dozen arrays below.)
        bucket = p // _DENSE
        keep = np.ones(len(p), dtype=bool)
        keep[1:-1] = (bucket[1:-1] != bucket[:-2]) | (bucket[1:-1] != bucket[2:])
        p, hit_end = p[keep], hit_end[keep]
    lo = np.maximum(0, p - _WINDOW_MARGIN)
    # the last line break in [lo, p): the window starts on the line after it
    k = np.searchsorted(breaks, p, side="left") - 1
    prev = np.where(k >= 0, breaks[np.maximum(k, 0)], -1) if len(breaks) else np.full_like(p, -1)
    w_start = np.where(prev >= lo, prev + 1, lo)
    # the first line break in [stop, stop + margin): the window ends there
    stop = np.maximum(hit_end, p + _SPAN)
    k = np.searchsorted(breaks, stop, side="left")
    if len(breaks):
        nxt = breaks[np.minimum(k, len(breaks) - 1)]
        found = (k < len(breaks)) & (nxt < stop + _WINDOW_MARGIN) & (nxt <= n)
    else:
        nxt, found = stop, np.zeros(len(stop), dtype=bool)
    w_end = np.where(found, nxt, np.minimum(n, stop + _WINDOW_MARGIN))
    reach = np.maximum.accumulate(w_end)
    # a window starting within the join gap of everything before it joins that window
    new = np.flatnonzero(w_start[1:] > reach[:-1] + _JOIN_GAP) + 1
    first = np.concatenate(([0], new))
    last = np.concatenate((new - 1, [len(p) - 1]))
    return tuple(zip(w_start[first].tolist(), reach[last].tolist(), strict=True))
