"""``citation`` pack: citation markers that point nowhere.

    citation/leftover-marker  a ``<sources>[…]</sources>`` or ``[Source n]`` marker never
                              turned into ``[n]`` (the fix is the citation it stands for)
    citation/malformed-marker a tag not closed, a stray tag, or a marker holding no id
    citation/unknown-id       with ``--sources FILE``: a citation naming no source

Markers are found by :mod:`genlint.cite.markers`, the same code ``genlint cite`` uses, so the
check and the command never disagree about what a marker is.
"""

from __future__ import annotations

from .. import Rule


def rules() -> list[Rule]:
    from .leftover import LeftoverMarker
    from .malformed import MalformedMarker
    from .unknown_id import UnknownId

    return [LeftoverMarker(), MalformedMarker(), UnknownId()]
