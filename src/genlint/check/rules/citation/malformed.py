"""citation/malformed-marker."""

from __future__ import annotations

from collections.abc import Iterable

from .. import Hit, Rule, RuleContext
from .found import markers_in


class MalformedMarker(Rule):
    """Citation marker that is broken: a tag never closed, a stray tag, or no source id inside.

    Anti-pattern: ``装机容量<sources>[1, 2]。``, ``</sources>``, ``<sources>[web]</sources>``.
    Best practice: ``装机容量<sources>[1, 2]</sources>。`` with numeric ids from the source list.
    """

    id = "citation/malformed-marker"
    description = "broken citation marker: unclosed tag, stray tag, or no source id inside"
    bad = ("装机容量<sources>[1, 2]。", "结论成立。</sources>", "见<sources>[web]</sources>。")
    good = ("装机容量[1][2]。", "a <b>bold</b> claim", "结论成立[2]。")
    skip_code = True

    def find(self, text: str, ctx: RuleContext) -> Iterable[Hit]:
        for marker in markers_in(text, tags_only=True):
            if marker.kind == "open":
                yield Hit(marker.start, marker.end, message="citation tag <sources> not closed")
            elif marker.kind == "stray":
                tag = text[marker.start : marker.end]
                yield Hit(marker.start, marker.end, message=f"stray citation tag {tag}")
            elif marker.kind in ("tag", "inline"):
                junk = [t for t in marker.tokens if isinstance(t, str)]
                if junk:
                    yield Hit(
                        marker.start,
                        marker.end,
                        message=f"citation marker holds {junk[0]!r}, which is no source id",
                    )
