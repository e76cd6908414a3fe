"""Turning markers into citations: where each one goes, then the text with it there.

Planning and rendering are separate so that several chapters can be planned first and
numbered together (``--renumber`` numbers by first appearance across the whole document).

Placement (docs/commands/cite.md, and what a careful editor would do where the spec is silent):

* An inline marker is replaced where it stands; adjacent markers (only spaces between) are
  one citation, each id once. An inline marker that renders empty also takes the space before
  it when punctuation, a line end or the text end follows (``claim <sources>[]</sources>.`` →
  ``claim.``).
* A line holding only markers (a *marker line*) is removed with its line break, and its
  citation goes to the start of the next line (after a markdown list/quote prefix, so
  ``- item`` stays a list item). Consecutive marker lines go together.
* When a blank line, a heading or the end of the text follows a marker line but a paragraph
  line sits right above it, the citation closes that paragraph instead (the model put it
  after). Otherwise it goes to the next paragraph line; a heading never takes a citation.
* An empty marker line goes with its line break (and with one blank line when it stands
  between blank lines, so no gap widens).
* With no line to go to (only markers, or code follows), the citation stays on its own line.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import chain
from operator import itemgetter
from typing import NamedTuple, cast

from .. import _lazy_re as lazy_re
from ..readers.markdown import code_ranges
from .lines import Lines
from .markers import _PLAIN_BODY, Token, parse_body, scan_markers
from .sources import SourceList

_HSPACE = " \t\u3000"
_IDS = itemgetter(2)  # Edit.ids / Span.ids, read in C
_NEWLINE = lazy_re.compile("\n")
_MATCH_END = re.Match.end
# NamedTuples built in hot loops skip their Python-level __new__ (a third of the cost).
_new = tuple.__new__
_CLOSERS = frozenset(" \t\u3000\r\n,.;:!?)]}，。、；：！？）」』”’》")
_NON_SPACE = lazy_re.compile(r"\S")


class Edit(NamedTuple):
    """Replace ``text[start:end]`` by the citation of ``ids`` (kept source ids, in order);
    no ids: a removal. ``origin_*``: the marker's span in the input."""

    start: int
    end: int
    ids: tuple[int, ...] = ()
    origin_start: int = 0
    origin_end: int = 0


@dataclass(slots=True)
class Plan:
    text: str
    edits: list[Edit]
    invalid: list[Token] = field(default_factory=list)

    def id_order(self) -> list[int]:
        """Kept ids in order of first appearance in the output."""
        return list(dict.fromkeys(chain.from_iterable(map(_IDS, self.edits))))


class Span(NamedTuple):
    """A citation in the output text: ``text[start:end]`` shows ``ids`` (kept source ids)."""

    start: int
    end: int
    ids: tuple[int, ...]
    source_start: int
    source_end: int


@dataclass(slots=True)
class _Group:
    start: int
    end: int
    ids: tuple[int, ...]
    first_line: int = 0
    last_line: int = 0
    alone: bool = False


def plan(text: str, sources: SourceList) -> Plan:
    """Where every citation goes. One pass over the markers: adjacent ones are grouped, and a
    group that is clearly inline (text right before or after it) becomes its edit at once;
    only the few that may stand alone on their line wait for the line rules."""
    regions = code_ranges(text)
    result = Plan(text, [], [])
    edits = result.edits
    append = edits.append
    invalid = result.invalid
    seen_invalid: set[Token] = set()
    # Marker bodies repeat a lot ("[1, 2]" over and over): each is parsed and resolved once.
    cache: dict[str, tuple[tuple[int, ...], tuple[Token, ...]]] = {}
    plain_body = lazy_re.compiled(_PLAIN_BODY).fullmatch  # parse_plain reads these
    all_kept = not sources.aliases  # every known id is a kept one
    is_kept = sources.known.__contains__
    maybe_alone: list[_Group] = []
    n = len(text)
    g_start = g_end = -1
    g_ids: tuple[int, ...] = ()
    # The ids of a group of several markers, as an ordered set (a run of thousands of adjacent
    # markers must not rescan the ids gathered so far for each one).
    g_more: dict[int, None] | None = None
    for kind, start, end, body in scan_markers(text, regions):
        if kind == "plain":
            kept = sources.resolve(int(body))
            if kept is not None:
                append(_new(Edit, (start, end, (kept,), start, end)))
            continue
        resolved = cache.get(body)
        if resolved is None:
            # (plan's own cache keeps bodies: parse_body's would only churn on unique ones)
            if plain_body(body):
                tokens: tuple[Token, ...] = tuple(map(int, body[1:-1].replace(",", " ").split()))
                # _resolve inline for ids that all name a source and no merge (most bodies)
                if all_kept and all(map(is_kept, tokens)):
                    kept_ids = cast("tuple[int, ...]", tokens)
                    resolved = (
                        kept_ids if len(kept_ids) < 2 else tuple(dict.fromkeys(kept_ids)),
                        (),
                    )
                else:
                    resolved = _resolve(tokens, sources)
            else:
                resolved = _resolve(parse_body(body), sources)
            cache[body] = resolved
        ids, bad = resolved
        if bad:
            for token in bad:
                if token not in seen_invalid:
                    seen_invalid.add(token)
                    invalid.append(token)
        if g_start >= 0:
            if start == g_end or (start - g_end < 8 and not text[g_end:start].strip(_HSPACE)):
                g_end = end
                if ids:
                    if g_more is None:
                        g_more = dict.fromkeys(g_ids)
                    g_more.update(dict.fromkeys(ids))
                continue
            if g_more is not None:
                g_ids, g_more = tuple(g_more), None
            # The group before is complete. Clearly inline: its edit now (inlined: the hot path).
            if (g_start and not text[g_start - 1].isspace()) or (
                g_end < n and not text[g_end].isspace()
            ):
                if g_ids:
                    append(_new(Edit, (g_start, g_end, g_ids, g_start, g_end)))
                else:
                    append(_empty_edit(text, g_start, g_end))
            else:
                maybe_alone.append(_Group(g_start, g_end, g_ids))
        g_start, g_end, g_ids = start, end, ids
    if g_more is not None:
        g_ids = tuple(g_more)
    if g_start >= 0:
        if (g_start and not text[g_start - 1].isspace()) or (
            g_end < n and not text[g_end].isspace()
        ):
            append(
                _new(Edit, (g_start, g_end, g_ids, g_start, g_end))
                if g_ids
                else _empty_edit(text, g_start, g_end)
            )
        else:
            maybe_alone.append(_Group(g_start, g_end, g_ids))
    if maybe_alone:
        line_starts = [0, *map(_MATCH_END, _NEWLINE.finditer(text))]
        _place(text, maybe_alone, line_starts, regions, edits)
    edits.sort(key=itemgetter(0, 1))
    return result


def render(plan: Plan, labels: dict[int, int]) -> tuple[str, list[Span]]:
    """The output text and where each citation landed. ``labels``: kept id -> number shown."""
    text = plan.text
    pieces: list[str] = []
    spans: list[Span] = []
    cursor = 0
    out_len = 0
    memo: dict[tuple[int, ...], str] = {}
    append = pieces.append
    for start, end, ids, origin_start, origin_end in plan.edits:
        if start < cursor:
            # Overlaps happen where two removals share a line break; the part already consumed
            # is not taken twice. A replacement wholly consumed is dropped, but a citation
            # moved into removed text lands where the removal ends: it is never lost.
            if start == end:
                start = end = cursor
            elif end <= cursor:
                continue
            else:
                start = cursor
        append(text[cursor:start])
        out_len += start - cursor
        rendered = memo.get(ids)
        if rendered is None:
            # (labels covers a whole document: no table of it is built per chapter)
            rendered = memo[ids] = (
                "[" + "][".join(map(str, map(labels.__getitem__, ids))) + "]" if ids else ""
            )
        if rendered:
            new_len = out_len + len(rendered)
            spans.append(_new(Span, (out_len, new_len, ids, origin_start, origin_end)))
            append(rendered)
            out_len = new_len
        cursor = end
    pieces.append(text[cursor:])
    return "".join(pieces), spans


def _resolve(
    tokens: Sequence[Token], sources: SourceList
) -> tuple[tuple[int, ...], tuple[Token, ...]]:
    """Kept ids a marker names (each once) and its tokens that name no source."""
    # dicts as ordered sets: a range body ("1-100, 101-200, …") names thousands of ids
    aliases = sources.aliases
    known = sources.known
    if not aliases and all(map(known.__contains__, tokens)):
        # every token is a kept id (a str token never is: the ids are int)
        kept_ids = cast("Sequence[int]", tokens)
        return tuple(dict.fromkeys(kept_ids)) if len(kept_ids) > 1 else tuple(kept_ids), ()
    ids: dict[int, None] = {}
    invalid: dict[Token, None] = {}
    for token in tokens:
        if isinstance(token, int):
            kept = aliases.get(token, token)
            if kept in known:
                ids[kept] = None
                continue
        invalid[token] = None
    return tuple(ids), tuple(invalid)


def _empty_edit(text: str, start: int, end: int) -> Edit:
    """The removal of an inline group that names no source (with the space it leaves)."""
    s, e = _absorb_space(text, start, end)
    return _new(Edit, (s, e, (), start, end))


def _place(
    text: str,
    groups: list[_Group],
    line_starts: list[int],
    regions: list[tuple[int, int]],
    edits: list[Edit],
) -> None:
    lines = Lines(text, line_starts, regions)
    marker_lines = lines.marker_lines
    non_space = lazy_re.compiled(_NON_SPACE).search
    n_lines, n = len(line_starts), len(text)
    for g in groups:
        first = g.first_line = bisect_right(line_starts, g.start) - 1
        last = g.last_line = bisect_right(line_starts, g.end) - 1
        line_end = line_starts[last + 1] - 1 if last + 1 < n_lines else n
        # (no slices of the line: thousands of groups can share one long line)
        g.alone = _space_before(text, line_starts[first], g.start) and not non_space(
            text, g.end, line_end
        )
        if g.alone:
            marker_lines.update(range(first, last + 1))
    alone = [g for g in groups if g.alone]
    targets: list[int] = []
    i = 0
    while i < len(alone):
        run_start = i
        head = tail = alone[i]
        ids = dict.fromkeys(head.ids)  # an ordered set: consecutive marker lines can be many
        while i + 1 < len(alone) and alone[i + 1].first_line == tail.last_line + 1:
            i += 1
            tail = alone[i]
            ids.update(dict.fromkeys(tail.ids))
        i += 1
        first, last = head.first_line, tail.last_line
        if not ids:
            # Between blank lines (or at the top), one blank line goes too: no gap widens.
            above_blank = first == 0 or lines.blank(first - 1)
            below_blank = last + 1 < n_lines and lines.blank(last + 1)
            removal = lines.removal(first, last + (above_blank and below_blank))
            edits.append(_new(Edit, (*removal, (), 0, 0)))
            continue
        found = lines.target(first, last)
        if found is None:
            # Nowhere to attach: the citation stays on its own line.
            edits.extend(
                Edit(g.start, g.end, tuple(g.ids), g.start, g.end) for g in alone[run_start:i]
            )
            continue
        target, remove_to = found
        targets.append(target)
        edits.append(_new(Edit, (*lines.removal(first, remove_to), (), 0, 0)))
        edits.append(_new(Edit, (target, target, tuple(ids), head.start, tail.end)))
    targets.sort()
    for g in groups:
        if not g.alone:
            start, end = g.start, g.end
            if not g.ids:
                start, end = _absorb_space(text, start, end)
                t = bisect_left(targets, start)
                if t < len(targets) and targets[t] <= g.start:
                    # a citation moved here from the line above: the space before it stays
                    start = g.start
            edits.append(_new(Edit, (start, end, tuple(g.ids), g.start, g.end)))


def _absorb_space(text: str, start: int, end: int) -> tuple[int, int]:
    """Take the space before an empty marker with it when nothing but punctuation or a line
    end follows, and the space after it when it starts the line."""
    after = text[end] if end < len(text) else "\n"
    s = start
    # Spaces never cross a line break, so the line start is where they run out after one (no
    # search back for it: thousands of markers can share one long line).
    while s > 0 and text[s - 1] in _HSPACE:
        s -= 1
    if s == 0 or text[s - 1] == "\n":
        e = end
        while e < len(text) and text[e] in _HSPACE:
            e += 1
        return start, e
    if s < start and after in _CLOSERS:
        return s, end
    return start, end


def _space_before(text: str, line_start: int, pos: int) -> bool:
    """``not text[line_start:pos].strip()``, reading back from ``pos`` only as far as needed."""
    while pos > line_start and text[pos - 1].isspace():
        pos -= 1
    return pos == line_start
