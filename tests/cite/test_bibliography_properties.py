"""Any source metadata renders in every style without raising."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from genlint.cite import load_sources
from genlint.cite.bibliography import STYLES, render_bibliography

_text = st.text(alphabet="ab Zé李世民-–,.:;&()[]/0123456789 ", min_size=1, max_size=12)
_source = st.fixed_dictionaries(
    {"id": st.just(1), "title": _text.filter(str.strip)},
    optional={
        "authors": st.lists(
            st.one_of(_text, st.fixed_dictionaries({"family": _text, "given": _text})),
            max_size=4,
        ),
        "year": st.one_of(_text, st.integers(-5, 3000)),
        "container": _text,
        "volume": _text,
        "issue": _text,
        "pages": _text,
        "doi": _text,
        "url": _text,
        "accessed": _text,
        "publisher": _text,
        "place": _text,
        "source_type": st.sampled_from(
            ["webpage", "journal", "book", "report", "thesis", "conference", "news", "x"]
        ),
    },
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_source, st.sampled_from(sorted(STYLES)))
def test_any_metadata_renders(entry: dict, style: str) -> None:  # type: ignore[type-arg]
    (source,) = load_sources([entry]).sources
    out = render_bibliography([(1, source)], style)
    assert out.startswith("[1] ") and "\n" not in out
