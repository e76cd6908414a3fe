"""The numeric (IEEE) entry of the common sources as one concatenation: ``ieee.raw_entry``'s
text, several times faster.

A reference list of 70,000 cited sources spent most of its time in ``raw_entry``'s general
machinery: the pieces of every group folded one by one with the seam rule, every number and
page range parsed again. Nearly every source is a web page, a journal article, a report or a
book whose fields neither start nor end with a space or one of ``.,;:!?``; for those the seam
rule never fires (a seam needs the same character on both sides, and every literal piece put
next to a field starts or ends with a space or punctuation the field does not have), so the
pieces are simply joined. Anything else returns None and goes through ``raw_entry``.
``tests/cite/test_shortcuts.py`` holds the two equal.
"""

from __future__ import annotations

from functools import lru_cache

from .csl import _CSL_TYPES as _TYPE_AS_WRITTEN
from .csl import _bare_doi, csl_type, format_pages
from .ieee import _NOCASE, _SEAM_OR_SPACE, _date_forms, _names, _page
from .sources import Source

_DOI_URL = "https://doi.org/"
_WEB = frozenset(("webpage", "post", "post-weblog"))


def _clean(value: str) -> bool:
    """Whether ``value`` meets no seam where a piece is put before or after it, and is no
    field ``raw_entry`` hands to citeproc-py (a leading space or ``.,;:!?``, a nocase span)."""
    return (
        value[0] not in _SEAM_OR_SPACE
        and value[-1] not in _SEAM_OR_SPACE
        and not value[0].isspace()
        and ("<" not in value or _NOCASE not in value.lower())
    )


@lru_cache(maxsize=4096)
def _pages(pages: str) -> tuple[str, str | None] | None:
    """The page field as ``raw_entry`` passes it and its ``pp. …`` text; None when either meets
    a seam. Page ranges repeat in a long list: kept by value."""
    page = format_pages(pages, None)
    if not page or not _clean(page):
        return None
    text = _page(page)
    if text is not None and text[-1] in _SEAM_OR_SPACE:
        return None
    return page, text


@lru_cache(maxsize=4096)
def _locators(volume: str | None, issue: str | None) -> str | None:
    """``vol. 5, no. 2`` for plain numbers (``ieee._locators`` of a type without edition);
    "" when there is neither, None for anything else."""
    parts = []
    for label, value in (("vol. ", volume), ("no. ", issue)):
        if value:
            if not (value.isascii() and value.isdigit()):
                return None
            parts.append(label + str(int(value)))
    return ", ".join(parts)


def _date(value: str | None, form: int) -> str | None:
    """A date in the form the type takes; "" when there is none, None when it meets a seam."""
    if not value:
        return ""
    forms = _date_forms(value)
    if forms is None:
        return None
    if not forms:
        return ""
    text = forms[form]
    return text if text and text[-1] not in _SEAM_OR_SPACE else None


def plain_raw_entry(source: Source) -> str | None:
    """``ieee.raw_entry(source)`` for a web page, journal article, report or book whose fields
    meet no seam; None for any other source (ask ``raw_entry``)."""
    kind = source.source_type
    # (a source_type spelled as a key of csl._CSL_TYPES is its own normal form)
    typ = _TYPE_AS_WRITTEN.get(kind) if kind else None
    if typ is None:
        typ = csl_type(source)
    title = source.title
    container = source.container
    url = source.url
    publisher = source.publisher
    place = source.place
    for value in (title, container, url, publisher, place, source.edition):
        # (not _clean(value), inline: a call per field costs more than the tests)
        if value and (
            value[0] in _SEAM_OR_SPACE
            or value[-1] in _SEAM_OR_SPACE
            or value[0].isspace()
            or ("<" in value and _NOCASE in value.lower())
        ):
            return None
    doi = source.doi
    if doi:
        doi = doi.strip()
        doi = doi[len(_DOI_URL) :] if doi.startswith(_DOI_URL) else _bare_doi(doi)
        if doi and not _clean(doi):
            return None
    accessed = _date(source.accessed, 3) if source.accessed else ""
    if accessed is None:
        return None
    author = _names(source.authors) if source.authors else None
    if author:
        if author[-1] in ", " or author[0] in _SEAM_OR_SPACE:
            return None
        head = author + ", "
    else:
        head = ""

    if typ == "article-journal":
        locators = _locators(source.volume, source.issue)
        issued = _date(source.year, 0)
        if locators is None or issued is None:
            return None
        page_text = None
        if source.pages:
            pages = _pages(source.pages)
            if pages is None:
                return None
            page_text = pages[1]
        text = head + f"“{title}”"
        for part in (container, locators, page_text, issued):
            if part:
                text += ", " + part
        text += "," if (url or doi) else "."
        if doi:
            return text + " doi: " + doi + "."
    elif typ in _WEB:
        if (
            (source.volume and not _clean(source.volume))
            or (source.issue and not _clean(source.issue))
            or (source.pages and _pages(source.pages) is None)
            or (source.year and _date_forms(source.year) is None)
        ):
            return None
        text = head + f"“{title}”" + (", " + container if container else "") + "."
        if not url:
            return text
        if accessed:
            return text + " Accessed: " + accessed + ". [Online]. Available: " + url
        return text + " [Online]. Available: " + url
    elif typ == "report" or typ == "book":
        if source.volume or source.issue or source.pages or container or source.edition:
            return None
        issued = _date(source.year, 0 if typ == "report" else 1)
        if issued is None:
            return None
        by: str | None = publisher or place
        if place and publisher:
            by = f"{place}: {publisher}" if typ == "book" else f"{publisher}, {place}"
        if typ == "report":
            text = head + f"“{title}”"
            for part in (by, issued):
                if part:
                    text += ", " + part
            text += "."
        else:
            if not (by or issued):
                return None  # the ". " that closes the title would meet the access part's " "
            text = head + title + ". " + ", ".join(p for p in (by, issued) if p) + "."
        if doi:
            return text + " doi: " + doi + "."
    else:
        return None
    if not url:
        return text
    if accessed:
        return text + " Accessed: " + accessed + ". [Online]. Available: " + url
    return text + " [Online]. Available: " + url
