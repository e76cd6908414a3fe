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


# a place to sign, meant to stay empty on the page: Signature:, 签字： alone. A named signer
# (具状人（签字）：) is a field the reviewer sends back; a party's seal line above its block
# (甲方（盖章）：\n法定代表人：…) heads the block
_SIGN_WORDS = frozenset(["签字", "签名", "签章", "盖章", "签字盖章", "签字或盖章", "签署"])
_SEAL_QUALIFIER = lazy_re.compile(
    r"[（(](?:签字|签名|签章|盖章|公章|签字盖章|签字或盖章|盖章或签字|章)[）)]"
)
_PARTY_ROLES = frozenset(
    [
        "甲方",
        "乙方",
        "丙方",
        "丁方",
        "买方",
        "卖方",
        "出租方",
        "承租方",
        "出租人",
        "承租人",
        "委托方",
        "受托方",
        "发包方",
        "承包方",
        "供方",
        "需方",
        "出卖人",
        "买受人",
    ]
)
# BUYER:, THE COMPANY: — an all-caps party name heading its Name:/Title: lines
_CAPS_NAME = lazy_re.compile(r"[A-Z][A-Z .,&'’()-]{1,40}")


def bare_signature_label(core: str) -> bool:
    """Signature:, 签字：: a label with no signer, where a person signs (``core``: no blanks)."""
    return core in _SIGN_WORDS or core.lower() in ("signature", "signed", "sign", "initials")


def party_seal_heading(core: str) -> bool:
    """甲方（盖章）: a party role with its seal or signature, heading the party's lines."""
    # 乙方1（盖章）: one of several parties of a role, numbered
    return (
        _SEAL_QUALIFIER.search(core) is not None
        and _SEAL_QUALIFIER.sub("", core).rstrip("0123456789") in _PARTY_ROLES
    )


# field names a form may print in capitals (NAME:, DATE:): fields, not a party heading
_CAPS_FIELDS = frozenset(
    [
        "NAME",
        "DATE",
        "TITLE",
        "ADDRESS",
        "EMAIL",
        "E-MAIL",
        "PHONE",
        "TEL",
        "FAX",
        "SIGNATURE",
        "BY",
        "ITS",
        "DATED",
        "ATTN",
        "NO",
        "ID",
        "AMOUNT",
        "TOTAL",
        "CITY",
        "STATE",
        "ZIP",
        "COUNTRY",
        "POSITION",
    ]
)


def caps_party_name(label: str) -> bool:
    """BUYER, THE COMPANY: a party named in capitals (NAME, DATE are fields)."""
    word = label.replace("**", "").strip()
    return _CAPS_NAME.fullmatch(word) is not None and word.rstrip(".") not in _CAPS_FIELDS


def next_line(text: str, line_end: int, blanks: str) -> tuple[int, int] | None:
    """(start, end) of the next line with text after ``line_end``, within a few lines."""
    n = len(text)
    r = line_end
    for _ in range(4):
        if r >= n:
            return None
        start = r + 1
        stop = text.find("\n", start, min(n, start + 400))
        stop = min(n, start + 400) if stop < 0 else stop
        if text[start:stop].strip(blanks + "\r"):
            return start, stop
        r = stop
    return None


__all__ = [
    "bare_signature_label",
    "caps_party_name",
    "next_line",
    "party_seal_heading",
    "quiet_on_signature_lines",
    "signature_rule_line",
]
