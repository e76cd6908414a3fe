"""citation/unknown-id."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ....errors import SchemaError
from .. import Hit, Rule, RuleContext
from .found import markers_in

if TYPE_CHECKING:
    from ....cite.sources import SourceList


class UnknownId(Rule):
    """Citation naming no source of the ``--sources`` list (a hallucinated id).

    Anti-pattern: with sources 1–3, ``装机容量[7]。`` or ``<sources>[2, 7]</sources>``.
    Best practice: cite only ids of the source list; ``genlint cite`` drops the others.
    Needs ``genlint check --sources SOURCES.json``; without it the rule finds nothing.
    """

    id = "citation/unknown-id"
    description = "citation names no source of the source list"
    bad = ("装机容量[7]。",)
    good = ("装机容量[1]。",)
    skip_code = True

    def find(self, text: str, ctx: RuleContext) -> Iterable[Hit]:
        raw = ctx.options.get("sources")
        if raw is None:
            return
        sources = source_list(raw)
        for marker in markers_in(text):
            # a token that is no id at all ("web") names no source either
            unknown = [
                t for t in marker.tokens if isinstance(t, str) or sources.resolve(t) is None
            ]
            if unknown:
                names = ", ".join(str(i) for i in dict.fromkeys(unknown))
                what = f"id {names} names" if len(unknown) == 1 else f"ids {names} name"
                yield Hit(marker.start, marker.end, message=f"citation {what} no source")


_cache: dict[int, tuple[Any, SourceList]] = {}


def source_list(raw: Any) -> SourceList:
    """The validated ``--sources`` list."""
    from ....cite.sources import load_sources

    # The same list object is passed for every file of a run: validate it once.
    hit = _cache.get(id(raw))
    if hit is not None and hit[0] is raw:
        return hit[1]
    try:
        sources = load_sources(raw)
    except SchemaError as exc:
        raise SchemaError(f"--sources: {exc}") from exc
    _cache.clear()
    _cache[id(raw)] = (raw, sources)
    return sources
