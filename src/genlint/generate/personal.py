"""A reply that never came clean may still hold personal data: what ``generate`` writes or
shows of it is masked unless asked (docs/commands/check.md "Reports never copy personal data").

Under ``on_fail="best"`` the gate returns the attempt with the fewest findings, and that can be
a reply with a phone number in it. :func:`mask_personal_data` masks it in the ``keep-ends``
style of ``genlint mask`` (``138****5678``) and records how many values it masked in
``result.extra["personal_data_masked"]``, so the result says that its text is not the reply.
:func:`result_dict` is the JSON of a result with each ``sensitive`` finding's value masked, as
every report shows it (``genlint.check.redact``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from .result import GateResult

__all__ = ["MASKED_KEY", "mask_personal_data", "result_dict", "sensitive_selection"]

MASKED_KEY = "personal_data_masked"
_PACK = "sensitive"


def sensitive_selection(select: Iterable[Any]) -> list[str] | None:
    """The ``sensitive`` rules among a gate's checks: ``None`` for the whole pack, ``[]`` when
    the checks select none of it (a callable check counts as none)."""
    rules: list[str] = []
    for item in select:
        if not isinstance(item, str):
            continue
        for name in item.split(","):
            name = name.strip()
            if name == _PACK:
                return None
            if name.startswith(_PACK + "/"):
                rules.append(name)
    return rules


def _holds_personal_data(result: GateResult) -> bool:
    for attempt in result.attempts:
        if attempt.n == result.chosen:
            if any(f.rule.startswith(_PACK + "/") for f in attempt.findings):
                return True
            # the attempt keeps only the first findings; the rest may be personal data
            return attempt.finding_count > len(attempt.findings)
    return False


def mask_personal_data(result: GateResult, select: list[str] | None = None) -> GateResult:
    """``result`` with the personal data of its text masked (``select``: the ``sensitive``
    rules to mask, ``None`` for the pack). A clean result, one without text, or one whose
    returned reply had no ``sensitive`` finding comes back as it is."""
    if result.ok or result.text is None or select == [] or not _holds_personal_data(result):
        return result
    from ..mask import mask_text

    masked = mask_text(result.text, "keep-ends", select)
    if not masked.replacements:
        return result
    extra = {**result.extra, MASKED_KEY: len(masked.replacements)}
    return replace(result, text=masked.text, extra=extra)


def result_dict(result: GateResult, *, show_values: bool = False) -> dict[str, Any]:
    """``result.to_dict()`` with each ``sensitive`` finding's value masked in its ``text``
    (same length, span intact) unless ``show_values``."""
    out = result.to_dict()
    if MASKED_KEY in result.extra:
        out[MASKED_KEY] = result.extra[MASKED_KEY]
    if show_values:
        return out
    from ..check.redact import mask_finding

    out["findings"] = [mask_finding(f).to_dict() for f in result.findings]
    for shown, attempt in zip(out["attempts"], result.attempts, strict=True):
        shown["findings"] = [mask_finding(f).to_dict() for f in attempt.findings]
    return out
