"""Line geometry for the line rules of rewrite.py: which lines are blank, code, headings or
marker lines, and where a citation moved off a marker line goes."""

from __future__ import annotations

from bisect import bisect_right

from .. import _lazy_re as lazy_re
from .markers import in_regions

_BLOCK_PREFIX = lazy_re.compile(r"[ \t]*(?:#{1,6}[ \t]+|>[ \t]*|[-*+][ \t]+|\d{1,9}[.)][ \t]+)*")
_HEADING = lazy_re.compile(r"[ \t]*#{1,6}(?=[ \t\r\n]|$)")
_FENCE_LINE = lazy_re.compile(r"[ ]{0,3}(?:`{3,}|~{3,})")


class Lines:
    """Line geometry of a text: starts, ends, which lines are blank, code or marker lines."""

    def __init__(self, text: str, starts: list[int], regions: list[tuple[int, int]]) -> None:
        self.text = text
        self.starts = starts
        self.regions = regions
        self.region_starts = [r[0] for r in regions]
        self.marker_lines: set[int] = set()
        # the compiled patterns' methods, not their lazy stand-ins' (a call less per line)
        self._fence = lazy_re.compiled(_FENCE_LINE).match
        self._heading = lazy_re.compiled(_HEADING).match
        self._prefix = lazy_re.compiled(_BLOCK_PREFIX).match

    def __len__(self) -> int:
        return len(self.starts)

    def of(self, pos: int) -> int:
        return bisect_right(self.starts, pos) - 1

    def end(self, i: int) -> int:
        return self.starts[i + 1] - 1 if i + 1 < len(self.starts) else len(self.text)

    def blank(self, i: int) -> bool:
        return not self.text[self.starts[i] : self.end(i)].strip()

    def content(self, i: int) -> bool:
        """A line a citation may attach to: text, not markers, not code, not a fence."""
        if i in self.marker_lines or self.blank(i):
            return False
        start = self.starts[i]
        if self.regions and in_regions(start, self.regions, self.region_starts):
            return False
        return not self._fence(self.text, start)

    def removal(self, first: int, last: int) -> tuple[int, int]:
        """The span of lines ``first..last`` with one line break."""
        start, end = self.starts[first], self.end(last)
        if end < len(self.text):
            return start, end + 1
        if start > 0:
            return start - 1, end
        return start, end

    def heading(self, i: int) -> bool:
        return bool(self._heading(self.text, self.starts[i]))

    def target(self, first: int, last: int) -> tuple[int, int] | None:
        """Where the citation of marker lines ``first..last`` goes, and the last line to
        remove with them; None: nowhere. A heading never takes a citation."""
        nxt = last + 1
        n = len(self.starts)
        if nxt < n and self.content(nxt) and not self.heading(nxt):
            return self.after_prefix(self.starts[nxt]), last
        prev = first - 1
        if (
            (nxt >= n or self.blank(nxt) or self.heading(nxt))
            and prev >= 0
            and self.content(prev)
            and not self.heading(prev)
        ):
            line = self.text[self.starts[prev] : self.end(prev)]
            return self.starts[prev] + len(line.rstrip()), last
        j = nxt
        while j < n and (self.blank(j) or (self.content(j) and self.heading(j))):
            j += 1
        if j < n and self.content(j):
            # Blank lines skipped on the way go too, unless text sits right above the
            # marker lines (then they still separate it from what follows).
            glued = prev >= 0 and not self.blank(prev)
            only_blank = all(self.blank(k) for k in range(nxt, j))
            return self.after_prefix(self.starts[j]), (j - 1 if only_blank and not glued else last)
        return None

    def after_prefix(self, start: int) -> int:
        m = self._prefix(self.text, start)
        end = m.end() if m else start
        nl = self.text.find("\n", start)
        return start if nl != -1 and end > nl else end
