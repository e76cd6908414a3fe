"""``citation`` pack: citation markers that point nowhere (written by the cite engineer).

Planned rules: leftover ``<sources>`` tags, malformed markers, and ids that name no source when
``genlint check --sources FILE`` is given (``ctx.options["sources"]``). See
:mod:`genlint.rules` for the rule interface.
"""

from __future__ import annotations

from .. import Rule


def rules() -> list[Rule]:
    return []
