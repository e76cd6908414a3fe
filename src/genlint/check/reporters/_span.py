"""What a review shows of a finding's span: the same span in every human format (text, HTML,
review copies).

An empty form field's span is its label and colon (docs/commands/check.md "What a placeholder is"): the blank
after the colon is where the value goes, so it is shown but neither quoted nor underlined. A rule
whose match still carries the blank is trimmed here, once for every reporter.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...findings import Finding

EMPTY_FIELD = "placeholder/empty-field"
# docs/commands/check.md "What a placeholder is": a blank is any run of blank characters
_BLANKS = " \t\u00a0\u3000\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a_＿—－"


def shown_length(finding: Finding) -> int:
    """How many code points of the span a review underlines (the label and colon of an empty
    field; the whole span otherwise)."""
    length = finding.end - finding.start
    if finding.rule == EMPTY_FIELD:
        trimmed = finding.text.rstrip(_BLANKS)
        if trimmed:
            return min(length, len(trimmed))
    return length


def shown_text(finding: Finding) -> str:
    """The span's text as a review quotes it."""
    return finding.text[: shown_length(finding)] if finding.rule == EMPTY_FIELD else finding.text


def shown_message(finding: Finding) -> str:
    """The finding's message, quoting :func:`shown_text` where it quoted the whole span."""
    text = shown_text(finding)
    if text != finding.text and finding.text:
        return finding.message.replace(f"'{finding.text}'", f"'{text}'")
    return finding.message
