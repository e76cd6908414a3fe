"""Where JSON may hide in a chatty reply: code fences, bracketed spans, reasoning blocks.

One linear pass pairs every opening bracket with its closer; strings are only recognised
inside brackets, so an apostrophe or a stray quote in the prose around the JSON does not
derail the pairing. A bracket left open (a truncated reply) runs to the end of the text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .budget import Deadline

_FENCE = re.compile(r"```[ \t]*([\w+.-]*)[^\n`]*\n(.*?)(?:```|\Z)", re.DOTALL)
_THINK_TAG = re.compile(r"<(/?)(think|thinking|reasoning|reflection)>", re.IGNORECASE)
_THINK_CLOSE_ONLY = ("think", "thinking", "reasoning")
_OPENERS = re.compile(r"[{\[｛［]")
_INSIDE = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\Z)|[{}\[\]｛｝［］]', re.DOTALL)
_OPEN = {"{": "}", "[": "]", "｛": "｝", "［": "］"}
_CLOSE = {v: k for k, v in _OPEN.items()}
# "[1]", "[2, 3]": citation markers, not an answer.
_CITATION = re.compile(r"\[\s*\d+(?:\s*,\s*\d+)*\s*\]\Z")

MAX_CANDIDATES = 400
MAX_DEPTH = 2048


@dataclass(frozen=True, slots=True)
class Candidate:
    start: int
    end: int
    source: str  # "fence" or "brackets"
    # 0 in the answer, 1 a citation-like "[1]", 2 inside a reasoning block, 3 both.
    tier: int = 0

    def text_of(self, text: str) -> str:
        return text[self.start : self.end]


def reasoning_spans(text: str) -> list[tuple[int, int]]:
    """Spans of reasoning blocks; a draft inside one is not the answer.

    A tag inside a JSON string (``{"note": "</think>"}``) is text, not the end of a block: tags
    are only taken outside the strings of bracketed spans."""
    tags = [m for m in _THINK_TAG.finditer(text)]
    if not tags:
        return []
    strings = _string_spans(text)
    if strings:
        starts = [a for a, _ in strings]
        tags = [m for m in tags if not _within(strings, starts, m.start())]
    spans: list[tuple[int, int]] = []
    open_tag: re.Match[str] | None = None
    for tag in tags:
        closing, name = tag.group(1) == "/", tag.group(2).lower()
        if open_tag is None and not closing:
            open_tag = tag
        elif open_tag is not None and closing and name == open_tag.group(2).lower():
            spans.append((open_tag.start(), tag.end()))
            open_tag = None
    if open_tag is not None:
        spans.append((open_tag.start(), len(text)))  # a block cut off by the token limit
    if not spans:
        # Some models omit the opening tag and only close the block.
        close = next(
            (t for t in tags if t.group(1) == "/" and t.group(2).lower() in _THINK_CLOSE_ONLY),
            None,
        )
        if close is not None:
            spans.append((0, close.end()))
    return spans


def cut_in_reasoning(text: str) -> int | None:
    """Where a reasoning block opens that the reply never closes (a reply cut off while the model
    was still reasoning), or None: a draft inside such a block is not an answer
    (docs/commands/parse.md "Reasoning blocks")."""
    spans = reasoning_spans(text)
    if not spans:
        return None
    start, end = spans[-1]
    if end < len(text) or re.search(r"</\w+>\Z", text[start:end]):
        return None
    return start


def _within(spans: list[tuple[int, int]], starts: list[int], pos: int) -> bool:
    import bisect

    i = bisect.bisect_right(starts, pos) - 1
    return i >= 0 and spans[i][0] < pos < spans[i][1]


def find_candidates(text: str, deadline: Deadline | None = None) -> list[Candidate]:
    """Every plausible JSON fragment, best first: answers before reasoning drafts, then by position."""
    thinking = reasoning_spans(text)
    found: dict[tuple[int, int], Candidate] = {}
    for match in _FENCE.finditer(text):
        body_start, body_end = match.span(2)
        while body_end > body_start and text[body_end - 1].isspace():
            body_end -= 1
        if body_end > body_start:
            found.setdefault((body_start, body_end), Candidate(body_start, body_end, "fence"))
    spans = _bracket_spans(text, deadline, limit=4 * MAX_CANDIDATES)
    for start, end in spans:
        found.setdefault((start, end), Candidate(start, end, "brackets"))
        if len(found) >= MAX_CANDIDATES:
            break
    # A quote the model did not escape can flip the pairing of strings, and with it the spans:
    # the document then looks like several fragments. The first bracket of the answer up to
    # the last closer of the text is one more candidate (the longest, so tried first).
    first = next((a for a, _ in spans if not any(x <= a < y for x, y in thinking)), None)
    last = max(text.rfind("}"), text.rfind("]")) + 1
    if first is not None and last > first and not any(x <= last - 1 < y for x, y in thinking):
        found.setdefault((first, last), Candidate(first, last, "brackets"))

    def tiered(c: Candidate) -> Candidate:
        in_thinking = any(a <= c.start < b for a, b in thinking)
        citation = c.source == "brackets" and _in_prose(text, c.start, c.end)
        return Candidate(c.start, c.end, c.source, int(in_thinking) * 2 + int(citation))

    return sorted((tiered(c) for c in found.values()), key=lambda c: (c.tier, c.start, -c.end))


def _string_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of the JSON strings inside bracketed spans, in order."""
    strings: list[tuple[int, int]] = []
    _bracket_spans(text, None, strings)
    return strings


def _bracket_spans(
    text: str,
    deadline: Deadline | None,
    strings: list[tuple[int, int]] | None = None,
    limit: int = 0,
) -> list[tuple[int, int]]:
    """(start, end) of every bracketed span, ordered by start; unclosed ones run to the end.

    Outside brackets only openers matter, so the regex jumps from one to the next; inside,
    a whole string is one token. Either way the loop runs once per bracket, not per character.
    """
    spans: list[tuple[int, int]] = []
    stack: list[tuple[str, int]] = []
    pos = 0
    steps = 0
    while True:
        match = (_INSIDE if stack else _OPENERS).search(text, pos)
        if match is None:
            break
        pos = match.end()
        char = match.group()[0]
        if char == '"':
            if strings is not None:
                strings.append(match.span())
            continue
        if char in _OPEN:
            stack.append((char, match.start()))
            if len(stack) > MAX_DEPTH:
                break  # no parser reads JSON nested this deep; the rest is not an answer
        else:
            depth = _find_opener(stack, _CLOSE[char])
            if depth >= 0:
                # Openers above the match were never closed: they end where their parent does.
                while len(stack) > depth:
                    _, start = stack.pop()
                    spans.append((start, pos) if len(stack) == depth else (start, pos - 1))
        steps += 1
        if steps % 1024 == 0:
            if deadline is not None and deadline.expired():
                break
            if limit and not stack and len(spans) >= limit:
                break  # enough complete fragments; the rest of a long reply is not read
    spans.extend((start, len(text)) for _, start in stack)
    spans.sort()
    return spans


def _find_opener(stack: list[tuple[str, int]], opener: str) -> int:
    for index in range(len(stack) - 1, -1, -1):
        if stack[index][0] == opener:
            return index
    return -1


def _in_prose(text: str, start: int, end: int) -> bool:
    """A citation-like ``[1]`` with other words on its line: a marker, not a value. Only the
    neighbourhood is read, so a long line of markers costs no more than a short one."""
    if _CITATION.match(text, start, end) is None:
        return False
    before = text[max(0, start - _NEAR) : start]
    before = before[before.rfind("\n") + 1 :]
    after = text[end : end + _NEAR]
    newline = after.find("\n")
    after = after if newline < 0 else after[:newline]
    return bool(before.strip() or after.strip())


_NEAR = 200


def value_then_more(text: str, deadline: Deadline | None = None) -> bool:
    """Whether ``text`` starts with a complete bracketed value and brackets follow it (another
    value, or a citation in a note): json-repair would glue them into one array."""
    start = len(text) - len(text.lstrip())
    if start >= len(text) or text[start] not in _OPEN:
        return False
    first = next((span for span in _bracket_spans(text, deadline) if span[0] == start), None)
    if first is None or text[first[1] - 1] not in _CLOSE:
        return False
    return _OPENERS.search(text, first[1]) is not None
