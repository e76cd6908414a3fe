"""The markers of a text, found once per text for the three rules of the ``citation`` pack
(their own module, so the rules do not import the pack's registry back: docs/architecture.md)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ....cite.markers import Marker

# Only these can start a marker; most documents hold none of a tag or a [Source n].
_TAG_OR_INLINE = re.compile(r"<|[\[［]\s*(?:sources?|src|ref)", re.IGNORECASE)
_last: tuple[str, list[Marker]] | None = None


def markers_in(text: str, *, tags_only: bool = False) -> list[Marker]:
    """The markers of ``text``, found once per text for all three rules of the pack.

    ``tags_only`` callers (leftover and malformed markers) skip texts that cannot hold a tag or an
    inline ``[Source n]``, which is most of them: the full marker scan then never runs."""
    global _last
    if _last is not None and _last[0] is text:
        return _last[1]
    if tags_only and not _TAG_OR_INLINE.search(text):
        return []
    if "[" not in text and "［" not in text and "<" not in text:
        return []
    from ....cite.markers import find_markers

    found = list(find_markers(text))
    _last = (text, found)
    return found
