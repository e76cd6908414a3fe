"""What a report format can carry. A finding's text comes from the checked document and may hold
anything: half an emoji (a lone surrogate, which is no UTF-8), control characters (which XML
forbids and a terminal obeys). One bad character must never cost the report, so each reporter
passes document text through one of these."""

from __future__ import annotations

from ... import _lazy_re as lazy_re

# lone surrogates, and C0/C1 controls other than tab and line breaks
_NOT_PRINTABLE = lazy_re.compile("[\ud800-\udfff\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
# what XML 1.0 does not allow in a document at all
_NOT_XML = lazy_re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")

REPLACEMENT = "\ufffd"


def printable(text: str) -> str:
    """``text`` for a terminal or a UTF-8 stream: each unsafe character becomes U+FFFD (one for
    one, so columns stay where they were)."""
    return _NOT_PRINTABLE.sub(REPLACEMENT, text)


def xml_text(text: str) -> str:
    """``text`` as XML 1.0 can hold it: each forbidden character becomes U+FFFD."""
    return _NOT_XML.sub(REPLACEMENT, text)
