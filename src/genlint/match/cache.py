"""On-disk cache of embeddings, keyed by model name and text hash.

One file per model (``<folder>/<model-hash>.npz``: the text hashes and their vectors), rewritten
atomically when new texts arrive, so a crash never leaves a half-written cache and an edited
criterion only costs its own embedding.
"""

from __future__ import annotations

import hashlib
import io
import logging
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from .._io import atomic_write
from .embedders import name_of, threshold_of

if TYPE_CHECKING:
    import numpy as np

    from .embedders import Embedder

logger = logging.getLogger(__name__)


def default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "genlint" / "embeddings"


def text_key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class CachedEmbedder:
    """Wraps an embedder; ``embed`` reads known texts from disk and embeds only the others."""

    def __init__(self, inner: Embedder, folder: str | Path | None = None) -> None:
        self.inner = inner
        self.folder = Path(folder) if folder is not None else default_cache_dir()
        self.hits = 0
        self.misses = 0

    @property
    def name(self) -> str:
        return name_of(self.inner)

    @property
    def threshold(self) -> float:
        return threshold_of(self.inner)

    def _path(self, role: str = "") -> Path:
        key = self.name + (f"/{role}" if role else "")
        return self.folder / (hashlib.sha256(key.encode()).hexdigest()[:24] + ".npz")

    def _load(self, path: Path) -> dict[str, np.ndarray]:
        import numpy as np

        if not path.is_file():
            return {}
        try:
            with np.load(path, allow_pickle=False) as data:
                keys, vectors = data["keys"], data["vectors"]
        except (OSError, ValueError, KeyError) as exc:
            logger.warning("ignoring unreadable embedding cache %s: %s", path, exc)
            return {}
        return {str(k): vectors[i] for i, k in enumerate(keys)}

    def _save(self, entries: dict[str, np.ndarray], path: Path) -> None:
        import numpy as np

        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            buffer = io.BytesIO()
            keys = np.array(list(entries), dtype="U64")
            np.savez(buffer, keys=keys, vectors=np.stack(list(entries.values())))
            atomic_write(path, buffer.getvalue())
        except OSError as exc:  # a cache that cannot be written only costs time
            logger.warning("cannot write embedding cache in %s: %s", self.folder, exc)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return self._cached(texts, self.inner.embed, self._path())

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """The inner embedder's ``embed_documents`` when it has one (kept in a file of its
        own: the same text embeds differently as a document), else ``embed``."""
        inner = getattr(self.inner, "embed_documents", None)
        if not callable(inner):
            return self.embed(texts)
        return self._cached(texts, inner, self._path("documents"))

    def _cached(
        self, texts: Sequence[str], embed: Callable[[Sequence[str]], object], path: Path
    ) -> np.ndarray:
        import numpy as np

        keys = [text_key(t) for t in texts]
        entries = self._load(path)
        missing = list(dict.fromkeys(k for k in keys if k not in entries))
        self.hits += len(keys) - sum(1 for k in keys if k in missing)
        self.misses += len(missing)
        if missing:
            by_key = dict(zip(keys, texts, strict=True))
            fresh = np.asarray(embed([by_key[k] for k in missing]), dtype=np.float32)
            shapes = {v.shape for v in entries.values()}
            if shapes and shapes != {fresh.shape[1:]}:
                entries = {}  # the model changed its dimension: start over
            entries.update(zip(missing, fresh, strict=True))
            self._save(entries, path)
        if not keys:
            return np.zeros((0, 0), dtype=np.float32)
        return np.stack([entries[k] for k in keys]).astype(np.float32, copy=False)
