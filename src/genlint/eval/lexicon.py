"""Wording lexicons (``lexicons/<lang>.toml``) and a matcher that finds their words in a claim.

CJK entries are matched as substrings (there are no word boundaries), indexed by their first
character so one pass over the claim finds them all. ASCII entries are matched against the
claim's plain English words in any inflection; identifiers (``HogosyaService.update``) are never
wording, so a verb inside a code name does not count.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import NamedTuple

from ..errors import ConfigError
from .identifiers import stem

# package data sits next to the code; importlib.resources would pull in zipfile at start-up
_HERE = Path(__file__).parent

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

LANGUAGES: tuple[str, ...] = ("zh", "en", "ja")
VERB_CATEGORIES: tuple[str, ...] = (
    "call", "read", "write", "delete", "declare", "compute", "send", "log",
)  # fmt: skip
WORD_CATEGORIES: tuple[str, ...] = (
    "condition",
    "over_inference",
    "boilerplate",
    "modal",
    "modal_after",
    # ordinary nouns holding a purpose word (保证金 = deposit): as the longer match they hide it
    "plain",
)
CATEGORIES: tuple[str, ...] = VERB_CATEGORIES + WORD_CATEGORIES

_ASCII_LETTER = re.compile(r"[A-Za-z]")
_TOKEN = re.compile(r"@?[A-Za-z_$][A-Za-z0-9_$]*(?:[.#][A-Za-z_$][A-Za-z0-9_$]*)*")
# after its first character, any of these makes a token a code name (see is_identifier)
_IDENTIFIER_TAIL = re.compile(r"[._$0-9A-Z]")


class LexiconHit(NamedTuple):
    start: int
    end: int
    term: str
    category: str


_new_tuple = tuple.__new__


class Token(NamedTuple):
    start: int
    end: int
    text: str
    identifier: bool


@lru_cache(maxsize=4096)
def tokenize(text: str) -> tuple[Token, ...]:
    """ASCII word and identifier tokens of a claim with their offsets."""
    out = []
    for m in _TOKEN.finditer(text):
        word = m.group()
        # is_identifier for a token of _TOKEN (ASCII, no leading dot or digit), in C
        ident = word[0] in "@_$" or _IDENTIFIER_TAIL.search(word, 1) is not None
        out.append(_new_tuple(Token, (*m.span(), word, ident)))
    return tuple(out)


@lru_cache(maxsize=4096)
def _words(text: str) -> list[Token]:
    """The plain-word tokens (not identifiers) of a text: only these can be wording."""
    return [t for t in tokenize(text) if not t.identifier]


def _is_cjk_term(term: str) -> bool:
    return any(ord(c) > 0x7F for c in term)


@dataclass
class Lexicon:
    """All languages' words by category; ``extra`` words come from the user's config."""

    words: dict[str, set[str]]
    #: category → regular expressions of constructions (lexicons' ``[constructions]`` tables)
    constructions: dict[str, list[str]] = field(default_factory=dict)

    @classmethod
    def load(cls, extra: Mapping[str, Iterable[str]] | None = None) -> Lexicon:
        words: dict[str, set[str]] = {c: set() for c in CATEGORIES}
        for lang in LANGUAGES:
            for category, terms in _builtin(lang).items():
                words[category].update(terms)
        for category, added in (extra or {}).items():
            if category not in words:
                raise ConfigError(
                    f"[eval.lexicon]: unknown category {category!r} (known: {', '.join(CATEGORIES)})"
                )
            words[category].update(t for t in added if t.strip())
        constructions: dict[str, list[str]] = {}
        for lang in LANGUAGES:
            for category, patterns in _constructions(lang).items():
                constructions.setdefault(category, []).extend(patterns)
        return cls(words, constructions)

    def matcher(self) -> LexiconMatcher:
        return LexiconMatcher(self.words, self.constructions)


@cache
def _data(lang: str) -> dict:
    return tomllib.loads((_HERE / "lexicons" / f"{lang}.toml").read_text("utf-8"))


@cache
def _constructions(lang: str) -> dict[str, tuple[str, ...]]:
    """A language's construction patterns by category (each entry carries its ``why``)."""
    out: dict[str, tuple[str, ...]] = {}
    for category, entries in _data(lang).get("constructions", {}).items():
        out[category] = tuple(entry["re"] for entry in entries)
    return out


@cache
def _builtin(lang: str) -> dict[str, tuple[str, ...]]:
    data = _data(lang)
    out: dict[str, tuple[str, ...]] = {}
    for table in ("verbs", "words"):
        for category, terms in data.get(table, {}).items():
            out[category] = tuple(terms)
    return out


def _inflections(word: str) -> set[str]:
    """Regular English forms of a lexicon word (spurious extra forms are harmless)."""
    forms = {word, word + "s", word + "es", word + "ed", word + "d", word + "ing"}
    if word.endswith("e"):
        forms |= {word[:-1] + "ing"}
    if word.endswith("y"):
        forms |= {word[:-1] + "ies", word[:-1] + "ied"}
    if (
        len(word) >= 3
        and word[-1] not in "aeiouwy"
        and word[-2] in "aeiou"
        and word[-3] not in "aeiou"
    ):
        forms |= {word + word[-1] + "ed", word + word[-1] + "ing"}
    return forms


class LexiconMatcher:
    """Finds lexicon words in claim text; built once per evaluation."""

    def __init__(
        self,
        words: Mapping[str, Iterable[str]],
        constructions: Mapping[str, Iterable[str]] | None = None,
    ) -> None:
        # Constructions: one alternation per category, each alternative in its own group so the
        # hit's text is the construction's own span.
        self._constructions: list[tuple[re.Pattern[str], str]] = []
        for category, patterns in (constructions or {}).items():
            joined = "|".join(f"(?:{p})" for p in patterns)
            if joined:
                self._constructions.append((re.compile(joined, re.IGNORECASE), category))
        # CJK: first character → [(term, category)], longest first so 提升性能 beats 提升.
        self._cjk: dict[str, list[tuple[str, str]]] = {}
        # English: first word (inflected) → [(rest words, term, category)]
        self._en: dict[str, list[tuple[tuple[str, ...], str, str]]] = {}
        for category, terms in words.items():
            for term in terms:
                if _is_cjk_term(term):
                    self._cjk.setdefault(term[0], []).append((term, category))
                else:
                    parts = term.lower().split()
                    if not parts:
                        continue
                    for form in _inflections(parts[0]):
                        self._en.setdefault(form, []).append((tuple(parts[1:]), term, category))
        for entries in self._cjk.values():
            entries.sort(key=lambda e: -len(e[0]))
        # One C-level regex alternation, longest term first, finds the CJK words; a term
        # listed in several categories yields one hit per category.
        self._cjk_categories: dict[str, list[str]] = {}
        for entries in self._cjk.values():
            for term, category in entries:
                self._cjk_categories.setdefault(term, []).append(category)
        terms = sorted(self._cjk_categories, key=len, reverse=True)
        self._cjk_re = re.compile("|".join(re.escape(t) for t in terms)) if terms else None

    def find(self, text: str) -> list[LexiconHit]:
        """Every lexicon word and construction in ``text``."""
        hits = self._find_words(text)
        if self._constructions:
            extra = self._find_constructions(text, hits)
            if extra:
                # kept beside the words they contain: a word inside a construction is still
                # reported on its own (提升用户体验 keeps 体验)
                hits = sorted(hits + extra, key=lambda h: h.start)
        return hits

    def _find_constructions(self, text: str, hits: list[LexiconHit]) -> list[LexiconHit]:
        plain = [(h.start, h.end) for h in hits if h.category == "plain"]
        out: list[LexiconHit] = []
        for pattern, category in self._constructions:
            for m in pattern.finditer(text):
                start, end = m.span()
                # an ordinary noun that holds the construction (状態のため) states no purpose
                if any(s < end and start < e for s, e in plain):
                    continue
                # an empty term marks a construction: a shape, not a word a fact can state
                out.append(LexiconHit(start, end, "", category))
        return out

    def _find_words(self, text: str) -> list[LexiconHit]:
        """Every lexicon word in ``text``; overlapping hits of one category keep the longest."""
        hits: list[LexiconHit] = []
        if self._cjk_re is not None:
            categories = self._cjk_categories
            for m in self._cjk_re.finditer(text):
                term = m.group()
                start, end = m.span()
                for category in categories[term]:
                    # tuple.__new__ is LexiconHit(...) without NamedTuple's Python-level __new__
                    hits.append(_new_tuple(LexiconHit, (start, end, term, category)))
        if self._en and _ASCII_LETTER.search(text) is not None:
            n_cjk = len(hits)
            tokens = _words(text)
            for k, tok in enumerate(tokens):
                entries_en = self._en.get(tok.text.lower())
                if not entries_en:
                    continue
                for rest, term, category in entries_en:
                    found = _match_phrase(text, tokens, k, rest) if rest else tok.end
                    if found is not None:
                        hits.append(LexiconHit(tok.start, found, term, category))
            if len(hits) > n_cjk:
                return _longest(hits)
        # The alternation's matches never overlap and come in text order, a term's categories
        # each once: already what _longest would return.
        return hits


def _match_phrase(text: str, tokens: list[Token], k: int, rest: tuple[str, ...]) -> int | None:
    end = tokens[k].end
    for offset, word in enumerate(rest, start=1):
        if k + offset >= len(tokens):
            return None
        nxt = tokens[k + offset]
        if text[end : nxt.start].strip() or stem(nxt.text) != stem(word):
            return None
        end = nxt.end
    return end


def _longest(hits: list[LexiconHit]) -> list[LexiconHit]:
    """Drop a hit contained in a longer hit of the same category (确保 inside 以确保…)."""
    if len(hits) < 2:
        return hits
    hits.sort(key=lambda h: (h.start, -(h.end - h.start)))
    kept: list[LexiconHit] = []
    for h in hits:
        if any(k.category == h.category and k.start <= h.start and h.end <= k.end for k in kept):
            continue
        kept.append(h)
    return kept
