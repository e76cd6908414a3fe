"""Top-k cosine search over the criteria: embed once, then one matrix-vector product and
``numpy.argpartition`` per clause (O(n) instead of a full sort)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from .cache import CachedEmbedder
from .embedders import threshold_of

if TYPE_CHECKING:
    import numpy as np

    from .embedders import Embedder


def top_k(scores: np.ndarray, k: int) -> np.ndarray:
    """Indices of the ``k`` largest scores, best first; ties keep the lower index first."""
    import numpy as np

    n = scores.shape[0]
    if k <= 0 or n == 0:
        return np.zeros(0, dtype=np.intp)
    if k < n:
        part = np.argpartition(-scores, k - 1)[:k]
        # argpartition picks arbitrarily among scores tied at the boundary; take the lowest
        # indices there, so the same input always gives the same candidates.
        kth = scores[part].min()
        above = np.flatnonzero(scores > kth)
        part = np.concatenate([above, np.flatnonzero(scores == kth)[: k - len(above)]])
    else:
        part = np.arange(n)
    order = np.lexsort((part, -scores[part]))
    return part[order]


def _parts_of(embedder: object, text: str) -> list[str]:
    """The parts an embedder scores a clause by besides the whole (``parts(text)``, optional)."""
    parts = getattr(embedder, "parts", None)
    return list(parts(text)) if callable(parts) else []


def _unit_rows(vectors: object, n: int) -> np.ndarray:
    """Embeddings as float32 rows of length 1 (zero rows stay zero), whatever the embedder
    returned: a dot product is then the cosine the thresholds are calibrated for."""
    import numpy as np

    matrix = np.asarray(vectors, dtype=np.float32)
    if matrix.ndim != 2 or matrix.shape[0] != n:
        matrix = matrix.reshape(n, -1)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    if not np.allclose(norms[norms > 0], 1.0, atol=1e-3):
        matrix = np.divide(matrix, norms, out=np.zeros_like(matrix), where=norms > 0)
    return matrix


# Below this share of non-zero entries the index keeps postings lists (an inverted index).
_SPARSE_DENSITY = 0.1


class VectorIndex:
    """Row-normalised vectors of the indexed texts and a search by cosine."""

    def __init__(
        self,
        embedder: Embedder,
        texts: Sequence[str],
        *,
        cache_dir: str | Path | None = None,
    ) -> None:
        """Embed ``texts`` (fitting the embedder on them first when it learns from its corpus);
        with ``cache_dir``, the indexed texts' vectors are read from and kept in that folder.
        Queries are never cached: each clause is seen once."""
        import numpy as np

        self.embedder = embedder
        fit = getattr(embedder, "fit", None)
        if callable(fit):
            fit(texts)
        source: Embedder | CachedEmbedder = (
            embedder if cache_dir is None else CachedEmbedder(embedder, cache_dir)
        )
        # An embedder that embeds indexed texts unlike queries says so with embed_documents.
        embed_documents = getattr(source, "embed_documents", None)
        embed = embed_documents if callable(embed_documents) else source.embed
        matrix = _unit_rows(embed(list(texts)), len(texts))
        self.by_dim = np.ascontiguousarray(matrix.T)
        self._postings: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        if matrix.size and np.count_nonzero(matrix) < _SPARSE_DENSITY * matrix.size:
            # Hashed TF-IDF rows hold ~30 of 1,024 dimensions: an inverted index (for each
            # dimension, the texts using it) scores a clause by touching only those postings,
            # about 1/30 of the work of a dense product over the whole matrix.
            dims, rows = np.nonzero(self.by_dim)  # sorted by dimension
            starts = np.searchsorted(dims, np.arange(self.by_dim.shape[0] + 1))
            self._postings = (starts, rows.astype(np.intp), self.by_dim[dims, rows])

    @property
    def matrix(self) -> np.ndarray:
        """The indexed vectors, one row per text."""
        return self.by_dim.T

    def __len__(self) -> int:
        return int(self.by_dim.shape[1])

    def scores_for_vector(self, query: np.ndarray) -> np.ndarray:
        """Cosine of a unit query vector with every indexed text."""
        import numpy as np

        if query.shape[0] != self.by_dim.shape[0]:
            raise ValueError("query and index embeddings differ in dimension")
        if self._postings is None:
            result: np.ndarray = query @ self.by_dim
            return result
        starts, rows, values = self._postings
        used = np.flatnonzero(query)
        begin, length = starts[used], starts[used + 1] - starts[used]
        # Positions of the postings of every used dimension, without a Python loop.
        ends = np.cumsum(length)
        positions = np.repeat(begin - ends + length, length) + np.arange(
            ends[-1] if len(ends) else 0
        )
        weights = values[positions] * np.repeat(query[used], length)
        return np.bincount(rows[positions], weights=weights, minlength=len(self)).astype(np.float32)

    def scores(self, text: str) -> np.ndarray:
        """A clause's score against every indexed text (see ``_combined``)."""
        import numpy as np

        if len(self) == 0:
            return np.zeros(0, dtype=np.float32)
        group = [text, *_parts_of(self.embedder, text)]
        vectors = _unit_rows(self.embedder.embed(group), len(group))
        return self._combined([self.scores_for_vector(v) for v in vectors])

    def _combined(self, rows: Sequence[np.ndarray]) -> np.ndarray:
        """The whole clause's cosines (``rows[0]``), each raised to ``part_share`` of its best
        part's (``rows[1:]``, the sentences the embedder's ``parts`` split it into): a criterion
        that one sentence of a long article is about is not drowned by the others."""
        import numpy as np

        scores = rows[0]
        if len(rows) > 1:
            share = float(getattr(self.embedder, "part_share", 0.5))
            best = np.max(np.stack(rows[1:]), axis=0)
            scores = np.maximum(scores, share * best).astype(np.float32, copy=False)
        return scores

    def search(
        self, text: str, k: int = 5, threshold: float | None = None
    ) -> list[tuple[int, float]]:
        """Up to ``k`` (row, cosine) pairs at or above ``threshold``, best first."""
        scores = self.scores(text)
        cut = threshold_of(self.embedder, text) if threshold is None else threshold
        return [(int(i), float(scores[i])) for i in top_k(scores, k) if scores[i] >= cut]

    def search_many(
        self,
        texts: Sequence[str],
        k: int = 5,
        threshold: float | None = None,
        batch: int = 256,
    ) -> list[list[tuple[int, float]]]:
        """``search`` for many texts: one embedding call; for dense vectors the scores of
        ``batch`` queries at a time as one matrix product."""

        if not texts:
            return []
        cuts = [threshold_of(self.embedder, t) if threshold is None else threshold for t in texts]
        if len(self) == 0:
            return [[] for _ in texts]
        groups = [[t, *_parts_of(self.embedder, t)] for t in texts]
        flat = [member for group in groups for member in group]
        queries = _unit_rows(self.embedder.embed(flat), len(flat))
        if queries.shape[1] != self.by_dim.shape[0]:
            raise ValueError("query and index embeddings differ in dimension")
        if self._postings is not None:
            # Sparse: per query through the postings, the same arithmetic as ``search``.
            rows_iter: Iterator[np.ndarray] = (self.scores_for_vector(q) for q in queries)
        else:
            rows_iter = (
                row
                for start in range(0, len(flat), batch)
                for row in queries[start : start + batch] @ self.by_dim
            )
        results: list[list[tuple[int, float]]] = []
        for group, cut in zip(groups, cuts, strict=True):
            row = self._combined([next(rows_iter) for _ in group])
            results.append([(int(i), float(row[i])) for i in top_k(row, k) if row[i] >= cut])
        return results
