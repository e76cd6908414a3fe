"""The shortcuts taken for the common spellings give what the general paths give."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from genlint.cite import load_sources
from genlint.cite.bibliography import (
    _QUOTE_PUNCT,
    _american_punctuation,
    _american_punctuation_list,
)
from genlint.cite.ieee import raw_entry
from genlint.cite.ieee_plain import plain_raw_entry
from genlint.cite.markers import parse_any_body, parse_body
from genlint.cite.sources import _OPTIONAL_STR_FIELDS, _checked_fields, _plain_fields
from genlint.cite.urls import _normalise_url_general, normalise_url

_host = st.lists(
    st.sampled_from(["www", "x", "Example", "org", "", "a-b", "9"]), min_size=1, max_size=4
)
_segment = st.sampled_from(["", "a", "B", "index.html", "index.php", "x.y", "~u", "-", "_"])
_pair = st.tuples(
    st.sampled_from(["a", "B", "utm_source", "fbclid", "", "id", "PK_campaign", "si"]),
    st.sampled_from(["", "=", "1", "x=y", "Z"]),
)
_fragment = st.sampled_from(["", "#", "#top", "#a?b=1", "#/x/"])


@st.composite
def _simple_urls(draw: st.DrawFn) -> str:
    url = draw(st.sampled_from(["http://", "https://", "HTTPS://", "hTTp://"]))
    url += ".".join(draw(_host)) + draw(st.sampled_from(["", ".", "..."]))
    if draw(st.booleans()):
        url += "/" + "/".join(draw(st.lists(_segment, max_size=4)))
    pairs = draw(st.lists(_pair, max_size=4))
    if pairs or draw(st.booleans()):
        url += "?" + "&".join(
            k + ("" if v == "" and draw(st.booleans()) else "=" + v) for k, v in pairs
        )
    return url + draw(_fragment)


@settings(max_examples=500, deadline=None)
@given(_simple_urls(), st.sampled_from(["", " ", "\t"]))
def test_plain_url_key_is_the_general_key(url: str, pad: str) -> None:
    assert normalise_url(pad + url + pad) == _normalise_url_general(url)


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="0123456789, ", max_size=30))
def test_plain_marker_body_parses_as_any_body(inner: str) -> None:
    body = f"[{inner}]"
    assert parse_body(body) == parse_any_body(body)


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="”“.,a 李。", max_size=12))
def test_american_punctuation_by_hand_is_the_pattern(text: str) -> None:
    assert _american_punctuation(text) == _QUOTE_PUNCT.sub(r"\1”", text)


@settings(max_examples=1000, deadline=None)
@given(st.text(alphabet="”“.,a 李。\n", max_size=16))
def test_american_punctuation_of_a_list_is_the_pattern(text: str) -> None:
    assert _american_punctuation_list(text) == _QUOTE_PUNCT.sub(r"\1”", text)


@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from([*_OPTIONAL_STR_FIELDS, "title", "content", "id"]),
        st.one_of(st.none(), st.text(alphabet=" a1\t", max_size=4)),
    )
)
def test_string_fields_read_off_the_entry_are_the_checked_ones(entry: dict[str, object]) -> None:
    assert _plain_fields(entry) == _checked_fields("[0]", entry)


_field = st.text(alphabet="ab Z李-–,.:;!?&()<>”“/0123456789 \t", min_size=1, max_size=10)
_numeric_source = st.fixed_dictionaries(
    {"id": st.just(1), "title": _field.filter(str.strip)},
    optional={
        "authors": st.lists(st.one_of(_field, st.sampled_from(["John Smith", "World Bank"])), max_size=8),
        "year": st.one_of(_field, st.integers(-5, 3000), st.sampled_from(["2020-06-15", "n.d."])),
        "accessed": st.one_of(_field, st.sampled_from(["2024-05-01", "2024"])),
        "source_type": st.sampled_from(
            ["webpage", "journal", "book", "report", "post", "blog", "Journal", "standard", "x"]
        ),
        **{
            name: st.one_of(_field, st.sampled_from(["12", "3-7", "e101–e110, 7", "https://doi.org/10.1/x"]))
            for name in (
                "container", "volume", "issue", "pages", "doi", "url", "publisher", "place", "edition"
            )
        },
    },
)  # fmt: skip


@settings(max_examples=1500, deadline=None)
@given(_numeric_source)
def test_plain_numeric_entry_is_raw_entry(entry: dict[str, object]) -> None:
    (source,) = load_sources([entry]).sources
    plain = plain_raw_entry(source)
    assert plain is None or plain == raw_entry(source)


_value = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 2030),
    st.floats(allow_nan=False, allow_infinity=False, width=16),
    st.text(alphabet="ab 李\t.", max_size=5),
    st.lists(st.one_of(st.text(alphabet="ab 李,", max_size=6), st.integers(0, 3)), max_size=3),
)
_entry = st.dictionaries(
    st.sampled_from(
        ["id", "title", "year", "date", "authors", "author", *_OPTIONAL_STR_FIELDS, "content"]
    ),
    _value,
).map(lambda d: {"id": 1, "title": "T", **d})


@settings(max_examples=1500, deadline=None)
@given(_entry)
def test_the_usual_shape_parses_as_the_checked_path_does(entry: dict[str, object]) -> None:
    """_parse_plain builds a Source's fields itself (no __init__): it must give the same
    Source as _parse_checked, with every field set, or hand the entry over (None)."""
    from dataclasses import fields

    from genlint.cite.sources import Source, _parse_checked, _parse_plain
    from genlint.errors import SchemaError

    plain = _parse_plain(entry)
    try:
        checked = _parse_checked(0, entry)
    except SchemaError:
        assert plain is None
        return
    if plain is not None:
        assert plain == checked
        assert set(vars(plain)) == {f.name for f in fields(Source)}
