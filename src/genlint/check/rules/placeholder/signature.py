"""Lines left empty on purpose: a rule line after a bare ``Signature:``, ``By:`` or ``签字：`` is
where a person signs the printed page, not a value the writer forgot (SPEC §1, "Signature and
party blocks"). The blank rules keep their hits elsewhere, a named signer's line included.
"""

from __future__ import annotations

import copy
import re

from .... import _lazy_re as lazy_re
from .. import PatternRule, RuleContext

# a signature label standing alone before a rule line (Signature: ____, 签字：____); a named
# signer (乙方（签字）：____) asks for that party's signature, a blank the reviewer sends back
_SIGN_BEFORE = lazy_re.compile(
    r"(?i)(?:^|[ \t\u3000\xa0]{2}|\t)(?:signature|signed|sign here|initials?|by|签字|签名|签章|盖章)"
    r"[ \t\u3000\xa0]*[：:][ \t\u3000\xa0]*$"
)
_LOOK_BACK = 40  # a signature label stands just before its line


def signature_rule_line(text: str, start: int) -> bool:
    """Whether the blank at ``start`` follows a signature or seal label on its line."""
    lo = max(0, start - _LOOK_BACK)
    line_start = text.rfind("\n", lo, start) + 1
    if line_start == 0 and lo > 0:
        return False  # no line start within reach: the label is not a short one
    return _SIGN_BEFORE.search(text[line_start:start]) is not None


class _QuietOnSignatureLines(PatternRule):
    """A blank pattern rule whose matches after a signature or seal label are vetoed."""

    def accept(self, match: re.Match[str], text: str, ctx: RuleContext) -> bool:
        return not signature_rule_line(text, match.start())


def quiet_on_signature_lines(rule: PatternRule, good: tuple[str, ...] = ()) -> PatternRule:
    """``rule`` (loaded from rules.toml) as a copy that leaves signature rule lines alone, with
    ``good`` examples showing it."""
    quiet = copy.copy(rule)
    quiet.__class__ = _QuietOnSignatureLines  # same fields, one more veto: no second loader
    quiet.good = (*rule.good, *good)  # type: ignore[misc]
    return quiet


__all__ = ["quiet_on_signature_lines", "signature_rule_line"]
