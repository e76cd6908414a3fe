"""citation/leftover-marker."""

from __future__ import annotations

from collections.abc import Iterable

from .. import Hit, Rule, RuleContext
from .found import markers_in
from .unknown_id import source_list


class LeftoverMarker(Rule):
    """Citation marker left in the text instead of a numbered citation.

    Anti-pattern: ``水电站装机 2250 万千瓦<sources>[1, 2]</sources>。`` or ``… high [Source 1].``
    Best practice: ``水电站装机 2250 万千瓦[1][2]。`` (``genlint cite`` does it).
    """

    id = "citation/leftover-marker"
    description = "citation marker left in the text instead of a numbered citation"
    bad = ("水电站装机 2250 万千瓦<sources>[1, 2]</sources>。", "The dam is high [Source 1].")
    good = ("水电站装机 2250 万千瓦[1][2]。", "See [Sources](https://example.com).")
    skip_code = True

    def find(self, text: str, ctx: RuleContext) -> Iterable[Hit]:
        raw = ctx.options.get("sources")
        sources = source_list(raw) if raw is not None else None
        for marker in markers_in(text, tags_only=True):
            if marker.kind not in ("tag", "inline"):
                continue
            if any(isinstance(t, str) for t in marker.tokens):
                continue  # not an id list: citation/malformed-marker says so
            if sources is not None and any(sources.resolve(int(t)) is None for t in marker.tokens):
                continue  # a hallucinated id is the bigger problem: citation/unknown-id
            ids = list(dict.fromkeys(marker.tokens))
            fix = "".join(f"[{i}]" for i in ids)
            if fix:
                message = f"citation marker left in the text; write {fix}"
            else:
                message = "empty citation marker left in the text; remove it"
            yield Hit(marker.start, marker.end, message=message, fix=fix)
