"""Reference checkers that tests compare the fast engine against."""

from __future__ import annotations

from genlint.check import Checker


def unwindowed_checker(base: Checker | None = None) -> Checker:
    """A Checker whose rules scan the whole text: trigger windows off, the reference that the
    windowed (fast) engine must agree with. ``base``: the checker to copy (default rules if
    None)."""
    import copy

    checker = copy.copy(base) if base is not None else Checker()
    clones = []
    for rule in checker.rules:
        clone = copy.copy(rule)
        clone.trigger = None  # type: ignore[misc]
        clones.append(clone)
    checker.rules = clones
    return checker
