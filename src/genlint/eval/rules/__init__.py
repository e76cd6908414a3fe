"""The rule registry of ``genlint eval``.

A rule looks at one claim (a :class:`~genlint.eval.context.ClaimContext`) and returns the
detail of its violation, or None. The five docs/commands/eval.md reasons are built in; third parties add
rules through the entry-point group ``genlint.eval_rules``, e.g. in their ``pyproject.toml``::

    [project.entry-points."genlint.eval_rules"]
    todo_marker = "mypkg.rules:TodoMarker"

The object named may be a rule instance or a class taking no arguments. ``counts_as`` says
which metric a violation lowers: ``"hallucination"`` (also unfaithful), ``"unfaithful"``,
``"redundant"`` or None (reported only).
"""

from __future__ import annotations

import logging
from functools import lru_cache
from typing import Protocol, runtime_checkable

from ...errors import ConfigError
from ..context import ClaimContext

log = logging.getLogger(__name__)

ENTRY_POINT_GROUP = "genlint.eval_rules"
COUNTS = ("hallucination", "unfaithful", "redundant", None)


@runtime_checkable
class EvalRule(Protocol):
    reason: str
    counts_as: str | None

    def check(self, ctx: ClaimContext) -> str | None:
        """The detail of this claim's violation (names the word or reference), or None."""
        ...


def builtin_rules() -> list[EvalRule]:
    from .builtin import BUILTIN

    return list(BUILTIN)


def _may_have_plugins() -> bool:
    """Does any installed distribution on sys.path declare the group at all?

    ``importlib.metadata`` costs tens of milliseconds to import and scan, a third of the CLI's
    start-up budget; reading the few ``entry_points.txt`` files costs about one.
    """
    import os
    import sys

    needle = f"[{ENTRY_POINT_GROUP}]"
    for folder in sys.path:
        try:
            names = os.listdir(folder or ".")
        except OSError:
            continue
        for name in names:
            if not name.endswith((".dist-info", ".egg-info")):
                continue
            try:
                with open(
                    os.path.join(folder or ".", name, "entry_points.txt"), encoding="utf-8"
                ) as fh:
                    if needle in fh.read():
                        return True
            except OSError:
                continue
    # zipped distributions are not pre-scanned: plugins are installed as ordinary folders
    return False


def plugin_rules() -> list[EvalRule]:
    """Rules installed by other distributions under the ``genlint.eval_rules`` group."""
    import sys

    # Scanning costs milliseconds; a program calling evaluate() in a loop pays it once per
    # sys.path (a changed path, e.g. a newly installed plugin folder, scans again).
    return list(_plugins_for(tuple(sys.path)))


@lru_cache(maxsize=4)
def _plugins_for(path: tuple[str, ...]) -> tuple[EvalRule, ...]:
    return tuple(_load_plugins())


def _load_plugins() -> list[EvalRule]:
    if not _may_have_plugins():
        return []
    from importlib.metadata import entry_points

    rules: list[EvalRule] = []
    for ep in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        try:
            obj = ep.load()
        except Exception as exc:  # a broken plugin must not hide the built-in results
            raise ConfigError(
                f"eval rule plugin {ep.name!r} ({ep.value}) failed to load: {exc}"
            ) from exc
        rule = obj() if isinstance(obj, type) else obj
        _validate(rule, ep.name)
        rules.append(rule)
        log.debug("loaded eval rule %s from %s", rule.reason, ep.value)
    return rules


def resolve_rules(disable: frozenset[str] = frozenset()) -> list[EvalRule]:
    """Built-in then plugin rules, minus those whose reason is disabled."""
    rules = builtin_rules() + plugin_rules()
    known = {r.reason for r in rules}
    unknown = sorted(disable - known)
    if unknown:
        from ...errors import UnknownRuleError

        raise UnknownRuleError(
            f"unknown eval rule {unknown[0]!r} (known: {', '.join(sorted(known))})"
        )
    return [r for r in rules if r.reason not in disable]


def _validate(rule: object, name: str) -> None:
    if not isinstance(getattr(rule, "reason", None), str) or not callable(
        getattr(rule, "check", None)
    ):
        raise ConfigError(
            f"eval rule plugin {name!r} needs a 'reason' string and a 'check(ctx)' method"
        )
    if getattr(rule, "counts_as", None) not in COUNTS:
        raise ConfigError(f"eval rule plugin {name!r}: counts_as must be one of {COUNTS}")
