"""The offline default embedder: stemmed English words, rjieba words and character bigrams for
Chinese, plus legal concept groups, weighted by TF-IDF and hashed into a dense vector.

Why this and not a neural model: no package ships a Chinese sentence-embedding model that loads
offline. Measured on the CUAD clauses (benchmarks/bench_match.py), Snowball-stemmed word TF-IDF
with the concept groups ranks the right criterion in the top 3 (0.65) as often as
all-MiniLM-L6-v2 (0.64), and more often than character n-grams, BM25 or wordllama. IDF comes from ``fit`` (the criteria being indexed); before ``fit`` every feature
weighs the same. Feature hashing (signed, so collisions cancel on average) keeps the output a
fixed-size dense array, which the index needs.
"""

from __future__ import annotations

import hashlib
import logging
import math
import sys
import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING

import regex

if TYPE_CHECKING:
    import numpy as np

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

logger = logging.getLogger(__name__)

_STOPWORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "to",
        "in",
        "for",
        "on",
        "by",
        "with",
        "and",
        "or",
        "if",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "as",
        "at",
        "from",
        "that",
        "this",
        "these",
        "those",
        "which",
        "who",
        "whom",
        "whose",
        "such",
        "any",
        "all",
        "its",
        "it",
        "itself",
        "their",
        "there",
        "than",
        "then",
        "so",
        "not",
        "no",
        "nor",
        "may",
        "shall",
        "will",
        "would",
        "should",
        "can",
        "could",
        "must",
        "has",
        "have",
        "had",
        "do",
        "does",
        "did",
        "per",
        "upon",
        "into",
        "onto",
        "under",
        "over",
        "between",
        "within",
        "without",
        "other",
        "others",
        "each",
        "either",
        "both",
        "also",
        "only",
        "own",
        "same",
        "very",
        "hereby",
        "herein",
        "hereof",
        "hereto",
        "hereunder",
        "thereof",
        "therein",
        "whether",
        "including",
        "includes",
        "include",
        "incl",
        "etc",
        "i",
        "ii",
        "iii",
        "iv",
        "v",
    ]
)
# Words every contract uses about itself and its parties: they tell no clause from another.
_ZH_STOPWORDS = frozenset(
    [
        "本合同",
        "合同",
        "本协议",
        "协议",
        "双方",
        "甲方",
        "乙方",
        "一方",
        "对方",
        "各方",
        "任何",
        "应当",
        "应",
        "的",
        "及",
        "或",
        "和",
        "与",
        "等",
        "其",
        "该",
        "本条",
        "本款",
        "约定",
        "规定",
        "按照",
        "根据",
        "进行",
    ]
)
_SUFFIXES = ("ations", "ation", "ating", "ated", "ates", "ate", "ings", "ing", "ities", "ity", "ments", "ment", "ness", "ies",
             "ied", "ives", "ive", "ers", "er", "ed", "es", "s", "ly", "al")  # fmt: skip
_LATIN_WORD = regex.compile(r"[a-z0-9]+")
_HAN_RUN = regex.compile(r"\p{Han}+")
_CONCEPT_WEIGHT = 2  # a concept counts as two mentions: it is the cross-wording signal


def light_stem(word: str) -> str:
    """A suffix stripper, used only when snowballstemmer is not installed."""
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


@lru_cache(maxsize=1)
def _stemmer() -> tuple[str, Callable[[str], str]]:
    # Snowball (Porter 2) joins license/licensed/licensing and terminate/termination, which
    # the light stripper does not: on CUAD top-3 went from 0.61 to 0.65 with it.
    try:
        import snowballstemmer
    except ImportError:
        logger.info("snowballstemmer not installed; using the light stemmer")
        return "light", light_stem
    english = snowballstemmer.stemmer("english")
    return "snowball", english.stemWord


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The stem of a lower-case English word."""
    return _stemmer()[1](word)


@lru_cache(maxsize=1)
def _concepts() -> tuple[dict[str, tuple[str, ...]], tuple[tuple[str, str], ...]]:
    raw = resources.files(__package__).joinpath("legal_concepts.toml").read_bytes()
    data = tomllib.loads(raw.decode("utf-8"))
    english: dict[str, list[str]] = {}
    for group, words in data.get("en", {}).items():
        for word in words:
            english.setdefault(stem(word.lower()), []).append(group)
    chinese = tuple((term, group) for group, terms in data.get("zh", {}).items() for term in terms)
    return {k: tuple(v) for k, v in english.items()}, chinese


@lru_cache(maxsize=1)
def _rjieba_cut() -> Callable[[str], list[str]] | None:
    try:
        import rjieba
    except ImportError:  # character bigrams alone still work, only less precisely
        return None
    cut: Callable[[str], list[str]] = rjieba.cut
    return cut


def features(text: str, concept_weight: int = _CONCEPT_WEIGHT) -> Counter[str]:
    """Feature counts of one text (the unit that TF-IDF weighs)."""
    lowered = text.casefold()
    counts: Counter[str] = Counter()
    english, chinese = _concepts()
    concepts: set[str] = set()
    for word in _LATIN_WORD.findall(lowered):
        if len(word) < 2 or word in _STOPWORDS:
            continue
        stemmed = stem(word)
        counts["w:" + stemmed] += 1
        concepts.update(english.get(stemmed, ()))
    runs = _HAN_RUN.findall(lowered)
    if runs:
        cut = _rjieba_cut()
        for run in runs:
            if cut is not None:
                counts.update(
                    "z:" + tok for tok in cut(run) if len(tok) > 1 and tok not in _ZH_STOPWORDS
                )
            bigrams = (run[i : i + 2] for i in range(len(run) - 1))
            counts.update("c:" + b for b in bigrams if b not in _ZH_STOPWORDS)
            if len(run) == 1:
                counts["c:" + run] += 1
        concepts.update(group for term, group in chinese if term in lowered)
    if concept_weight > 0:
        for group in concepts:
            counts["g:" + group] += concept_weight
    return counts


def _bucket(feature: str, dims: int) -> tuple[int, float]:
    h = zlib.crc32(feature.encode("utf-8"))
    return h % dims, (1.0 if (h >> 31) & 1 else -1.0)


class LexicalEmbedder:
    """TF-IDF over words, Chinese tokens and concept groups, hashed into ``dims`` dimensions."""

    # Calibrated on the CUAD Yes/No clauses (benchmarks/bench_match.py): cosines of a long clause
    # against a short criterion are low, so the spec's 0.5 would keep almost nothing.
    default_threshold = 0.08

    def __init__(
        self,
        dims: int = 1024,
        threshold: float | None = None,
        concept_weight: int = _CONCEPT_WEIGHT,
    ) -> None:
        if dims < 16:
            raise ValueError("dims must be at least 16")
        self.dims = dims
        self.concept_weight = concept_weight
        self.threshold = self.default_threshold if threshold is None else threshold
        self._idf: dict[str, float] = {}
        self._unseen_idf = 1.0
        self._fingerprint = "unfitted"

    @property
    def name(self) -> str:
        stemmer = _stemmer()[0]
        return f"lexical-v1-{stemmer}-{self.dims}-{self.concept_weight}-{self._fingerprint}"

    def fit(self, corpus: Iterable[str]) -> LexicalEmbedder:
        """Learn IDF from the texts to be indexed (smoothed, as scikit-learn does)."""
        df: Counter[str] = Counter()
        n = 0
        for text in corpus:
            df.update(features(text, self.concept_weight).keys())
            n += 1
        self._idf = {f: math.log((1 + n) / (1 + c)) + 1.0 for f, c in df.items()}
        self._unseen_idf = math.log(1 + n) + 1.0
        digest = hashlib.sha256(repr(sorted(df.items())).encode("utf-8")).hexdigest()
        self._fingerprint = f"{n}-{digest[:12]}"
        return self

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        import numpy as np

        out = np.zeros((len(texts), self.dims), dtype=np.float32)
        for row, text in enumerate(texts):
            for feature, count in features(text, self.concept_weight).items():
                weight = (1.0 + math.log(count)) * self._idf.get(feature, self._unseen_idf)
                col, sign = _bucket(feature, self.dims)
                out[row, col] += sign * weight
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        np.divide(out, norms, out=out, where=norms > 0)
        return out
