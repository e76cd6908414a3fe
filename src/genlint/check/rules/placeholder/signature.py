"""Lines left empty on purpose: a rule line after a bare ``Signature:``, ``By:`` or ``签字：`` is
where a person signs the printed page, not a value the writer forgot (docs/commands/check.md,
"Signature and party blocks"). The blank rules keep their hits elsewhere.
"""

from __future__ import annotations

import copy
import re

from .... import _lazy_re as lazy_re
from .. import PatternRule, RuleContext
from .blanks import BLANK_CHARS as BLANK_CLASS_CHARS
from .blanks import BLANK_CLASS

# a signature label standing alone before a rule line (Signature: ____, 签字：____); a named
# signer's line (乙方（签字）：____) is one too (_signature_label_line)
_SIGN_BEFORE = lazy_re.compile(
    rf"(?i)(?:^|[{BLANK_CLASS}]{{2}}|\t)(?:signature|signed|sign here|initials?|by|签字|签名|签章|盖章)"
    rf"[{BLANK_CLASS}]*[：:][{BLANK_CLASS}]*$"
)
_LOOK_BACK = 40  # a signature label stands just before its line


def signature_rule_line(text: str, start: int) -> bool:
    """Whether the blank at ``start`` follows a signature or seal label on its line, or is a
    signature line of its own in a signature block (:func:`_block_rule_line`)."""
    lo = max(0, start - _LOOK_BACK)
    line_start = text.rfind("\n", lo, start) + 1
    if line_start == 0 and lo > 0:
        return False  # no line start within reach: the label is not a short one
    before = text[line_start:start]
    if _SIGN_BEFORE.search(before) is not None or _signature_label_line(before):
        return True
    return _block_rule_line(text, line_start)


def _signature_label_line(line: str) -> bool:
    """法定代表人（签字或盖章）： with nothing else before the colon that ends the line."""
    stripped = line.rstrip(BLANK_CLASS_CHARS + "\r")
    if not stripped.endswith(("：", ":")):
        return False
    core = "".join(stripped[:-1].split()).replace("*", "")
    return 0 < len(core) <= 30 and signature_label(core)


# a line of nothing but rule runs, one per signer (____   ____)
_RULES_ONLY = lazy_re.compile(rf"[{BLANK_CLASS}]*(?:[_＿]{{3,}}[{BLANK_CLASS}]*)+\r?$")
# Signed:, Signature:, 签字： alone on the line above; Date:, Name:, Title:, Its:, 日期： after
_SIGN_LABEL_LINE = lazy_re.compile(
    rf"(?i)[{BLANK_CLASS}]*(?:signed|signature|signatures|sign here|签字|签名|签章|盖章)"
    rf"[{BLANK_CLASS}]*[：:][{BLANK_CLASS}]*\r?$"
)
_UNDER_SIGNATURE = lazy_re.compile(
    rf"(?i)[{BLANK_CLASS}]*(?:date|dated|name|print name|printed name|title|its|日期|签署日期|姓名)"
    rf"[{BLANK_CLASS}]*[：:]"
)
_REACH_LINES = 400  # characters looked at above and below a rule line


def _block_rule_line(text: str, line_start: int) -> bool:
    """``____   ____`` alone on its line in a signature block is where the signers sign: the
    line above is a bare signature label (Signed:), or the next line names what is printed
    under each signature (Date:, Name:, Title:). A rule line under a field label (Name:) is
    that field's blank, not a signature."""
    line_end = text.find("\n", line_start, line_start + _REACH_LINES)
    line_end = len(text) if line_end < 0 else line_end
    if _RULES_ONLY.match(text, line_start, line_end) is None:
        return False
    above = _neighbour_line(text, line_start, up=True)
    if above is not None and (_SIGN_LABEL_LINE.fullmatch(above) or _signature_label_line(above)):
        return True
    if above is not None and above.rstrip().endswith((":", "：")):
        return False  # Name:\n______: the field's own blank
    below = _neighbour_line(text, line_end, up=False)
    return below is not None and _UNDER_SIGNATURE.match(below) is not None


def _neighbour_line(text: str, at: int, *, up: bool) -> str | None:
    """The nearest non-empty line above ``at`` (a line start) or below it (a line end),
    skipping at most two empty lines; None when there is none within reach."""
    pos = at
    for _ in range(3):
        if up:
            if pos <= 0:
                return None
            end = pos - 1
            start = text.rfind("\n", max(0, end - _REACH_LINES), end) + 1
            line, pos = text[start:end], start
        else:
            if pos >= len(text):
                return None
            start = pos + 1
            end = text.find("\n", start, start + _REACH_LINES)
            end = len(text) if end < 0 else end
            line, pos = text[start:end], end
        if line.strip():
            return line
    return None


class _QuietOnSignatureLines(PatternRule):
    """A blank pattern rule whose matches after a signature or seal label are vetoed."""

    def accept(self, match: re.Match[str], text: str, ctx: RuleContext) -> bool:
        return not signature_rule_line(text, match.start())


def quiet_on_signature_lines(rule: PatternRule) -> PatternRule:
    """``rule`` (loaded from rules.toml, whose good examples show the veto) as a copy that
    leaves signature rule lines alone."""
    quiet = copy.copy(rule)
    quiet.__class__ = _QuietOnSignatureLines  # same fields, one more veto: no second loader
    return quiet


# a place to sign, meant to stay empty on the page: Signature:, 签字： alone, or after a signer
# (具状人（签字）：, signature_label); a party's seal line above its block
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


# A label whose last word asks for a signature or a seal (本人签名, 乙方签字, 甲方（签名/盖章）,
# 法定代表人（签字或盖章）, Authorized Signature) is a place to sign by hand or stamp: it stays
# empty on the page and is never an empty field (docs/commands/check.md, "Signature and party
# blocks"). The words are data: SIGN_ENDINGS, _SEAL_QUALIFIER.
SIGN_ENDINGS = (*sorted(_SIGN_WORDS, key=len, reverse=True), "捺印", "指印", "手印")
_EN_SIGN_ENDINGS = ("signature", "signatures", "signed by", "sign here", "initials")
_SEAL_AT_END = lazy_re.compile(
    r"[（(](?:签字|签名|签章|盖章|公章|捺印|指印|手印)"
    r"(?:[/／、]|或|及|和|并)?(?:签字|签名|签章|盖章|公章|章|捺印|指印|手印)?[）)]\Z"
)


def signature_label(core: str) -> bool:
    """Whether a label (``core``: no blanks) asks for a signature or seal (see above)."""
    if bare_signature_label(core) or core.endswith(SIGN_ENDINGS):
        return True
    return _SEAL_AT_END.search(core) is not None or core.lower().endswith(_EN_SIGN_ENDINGS)


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
