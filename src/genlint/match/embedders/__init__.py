"""Embedders: anything with ``embed(texts) -> numpy array``, optionally a ``name`` that
identifies the model for the cache and a calibrated cosine ``threshold``.

    lexical            offline default, no download, Chinese and English (TF-IDF, hashed)
    openai:MODEL       an OpenAI-compatible /embeddings endpoint (DashScope text-embedding-v3…)
    st:PATH            a sentence-transformers model from a local folder (extra: match-st)

An embedder may also have ``fit(corpus)``: the index calls it with the criteria before embedding
them, with ``embed_documents`` when the embedder has it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from ...errors import InputError

if TYPE_CHECKING:
    import numpy as np


@runtime_checkable
class Embedder(Protocol):
    """``embed`` is all that is required. Optional: ``name`` (the cache key; default the class
    name), ``threshold`` (its calibrated cosine cut-off; default the spec's 0.5),
    ``threshold_for(text)`` (a cut-off that depends on the query),
    ``covered_threshold_for(text)`` (what the best candidate must reach for the clause to get
    any; default the candidate cut-off), ``fit(corpus)``, ``embed_documents(texts)`` (the
    indexed texts, when the embedder embeds them unlike queries; default ``embed``) and
    ``parts(text)`` with ``part_share`` (pieces of a clause the index also scores it by, each
    worth ``part_share`` of its cosine). Rows need not be normalised or be numpy: the index
    makes them unit rows."""

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...


#: The spec's cut-off, for an embedder that does not state its own calibrated ``threshold``.
SPEC_THRESHOLD = 0.5


def threshold_of(embedder: object, text: str | None = None) -> float:
    """The embedder's cut-off; for ``text``, its ``threshold_for(text)`` when it has one (the
    lexical embedder's cosines run higher on Chinese than on English)."""
    per_text = getattr(embedder, "threshold_for", None)
    if text is not None and callable(per_text):
        return float(per_text(text))
    value = getattr(embedder, "threshold", None)
    return float(value) if isinstance(value, (int, float)) else SPEC_THRESHOLD


def covered_threshold_of(embedder: object, text: str) -> float:
    """What a clause's best candidate must reach for the clause to get any: the embedder's
    ``covered_threshold_for(text)`` when it has one, else its candidate cut-off."""
    per_text = getattr(embedder, "covered_threshold_for", None)
    if callable(per_text):
        return float(per_text(text))
    return threshold_of(embedder, text)


def name_of(embedder: object) -> str:
    value = getattr(embedder, "name", None)
    return value if isinstance(value, str) and value else type(embedder).__qualname__


def make_embedder(
    spec: str,
    *,
    base_url: str | None = None,
    api_key_env: str = "OPENAI_API_KEY",
    threshold: float | None = None,
) -> Embedder:
    """Build an embedder from a command-line spec: ``lexical``, ``openai:MODEL``, ``st:PATH``."""
    kind, _, arg = spec.partition(":")
    if kind == "lexical" and not arg:
        from .lexical import LexicalEmbedder

        return LexicalEmbedder(threshold=threshold)
    if kind == "openai" and arg:
        from .openai_endpoint import OpenAIEmbedder

        return OpenAIEmbedder(arg, base_url=base_url, api_key_env=api_key_env, threshold=threshold)
    if kind == "st" and arg:
        from .sentence_transformers import SentenceTransformerEmbedder

        return SentenceTransformerEmbedder(arg, threshold=threshold)
    raise InputError(f"unknown embedder {spec!r}: use lexical, openai:MODEL or st:PATH")


__all__ = [
    "SPEC_THRESHOLD",
    "Embedder",
    "covered_threshold_of",
    "make_embedder",
    "name_of",
    "threshold_of",
]
