"""Which words of a claim mention a fact entry.

A fact entry (``AuthService.checkPermission``) is mentioned by its identifier, by one of its
words (``permission``), or by a natural word the glossary maps one of its words to (权限,
権限). The built-in glossary (``lexicons/glossary.toml``) is extended by ``[eval.glossary]``.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..errors import ConfigError
from .identifiers import STOP_WORDS, split_identifier, stem
from .lexicon import tokenize

# package data sits next to the code; importlib.resources would pull in zipfile at start-up
_HERE = Path(__file__).parent

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

_CJK_RUN = re.compile(r"[^\x00-\x7F\s\W]{2,}")

Span = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Profile:
    """What counts as mentioning one fact entry: English stems and CJK substrings."""

    stems: frozenset[str]
    cjk: tuple[str, ...]
    chars: frozenset[str] = frozenset()  # every character of ``cjk``, for a quick reject
    #: stems of the entry's own words: a code name in a claim mentions the entry only when one
    #: word set holds the other (HogosyaService ⊂ HogosyaService.update), not when they merely
    #: share a word (HogosyaRepository.save is not HogosyaEntity)
    own: frozenset[str] = frozenset()
    #: first characters of ``cjk``: a claim holding none of them mentions no CJK word
    #: (None: not known, look for every word)
    firsts: frozenset[str] | None = None


class Glossary:
    def __init__(self, extra: Mapping[str, Iterable[str]] | None = None) -> None:
        raw = (_HERE / "lexicons" / "glossary.toml").read_text("utf-8")
        table: dict[str, list[str]] = {
            k: list(v) for k, v in tomllib.loads(raw).get("glossary", {}).items()
        }
        for word, natural in (extra or {}).items():
            if isinstance(natural, str) or not all(isinstance(n, str) for n in natural):
                raise ConfigError(f"[eval.glossary]: {word} must be a list of strings")
            table.setdefault(word.lower(), []).extend(natural)
        # keyed by stem so ``checks`` and ``checked`` find the entry for ``check``
        self._by_stem: dict[str, list[str]] = {}
        for word, natural in table.items():
            self._by_stem.setdefault(stem(word), []).extend(natural)
        self._profiles: dict[str, Profile] = {}

    def profile(self, entry: str) -> Profile:
        """How a claim may mention ``entry``; cached, as pages share fact entries."""
        cached = self._profiles.get(entry)
        if cached is not None:
            return cached
        stems: set[str] = set()
        own: set[str] = set()
        cjk: set[str] = set(_CJK_RUN.findall(entry))
        for word in split_identifier(entry):
            if word in STOP_WORDS or len(word) < 2:
                continue
            s = stem(word)
            stems.add(s)
            own.add(s)
            for natural in self._by_stem.get(s, ()):
                if any(ord(c) > 0x7F for c in natural):
                    cjk.add(natural)
                else:
                    stems.update(stem(w) for w in natural.lower().split() if w not in STOP_WORDS)
        profile = Profile(
            frozenset(stems),
            tuple(sorted(cjk, key=len, reverse=True)),
            frozenset("".join(cjk)),
            frozenset(own),
            frozenset(term[0] for term in cjk if term),
        )
        self._profiles[entry] = profile
        return profile


TokenStems = list[tuple[int, int, frozenset[str], bool]]


def token_stems(text: str) -> TokenStems:
    """Each ASCII token of a claim with the stems of its words, computed once per claim."""
    return [
        (tok.start, tok.end, _token_stems(tok.text, tok.identifier), tok.identifier)
        for tok in tokenize(text)
    ]


@lru_cache(maxsize=16384)
def _token_stems(token: str, identifier: bool) -> frozenset[str]:
    # claims repeat their words and code names far more often than their texts
    words = split_identifier(token) if identifier else (token.lower(),)
    return frozenset(stem(w) for w in words if w not in STOP_WORDS and len(w) > 1)


def mentions(text: str, profile: Profile, stems: TokenStems | None = None) -> list[Span]:
    """Spans of ``text`` that mention the entry: whole tokens sharing a word, CJK substrings."""
    spans: list[Span] = []
    if profile.stems:
        wanted, own = profile.stems, profile.own
        for start, end, tok_stems, identifier in token_stems(text) if stems is None else stems:
            if identifier:
                if tok_stems and own and (tok_stems <= own or own <= tok_stems):
                    spans.append((start, end))
            elif not wanted.isdisjoint(tok_stems):
                spans.append((start, end))
    cjk, firsts = profile.cjk, profile.firsts
    # most entries of a fact share no first character with a given claim: one C-level
    # set test instead of a find per word
    if cjk and (firsts is None or not firsts.isdisjoint(text)):
        find = text.find
        for term in cjk:
            start = find(term)
            while start != -1:
                spans.append((start, start + len(term)))
                start = find(term, start + 1)
    return spans
