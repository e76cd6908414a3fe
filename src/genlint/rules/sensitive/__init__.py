"""``sensitive``sensitive pack (in progress)."""

from __future__ import annotations

from .. import Rule


def rules() -> list[Rule]:
    return []
