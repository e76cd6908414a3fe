"""Embeddings from an OpenAI-compatible ``/embeddings`` endpoint (OpenAI, DashScope
``text-embedding-v3``, vLLM, Ollama). The key is read from an environment variable only."""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ...errors import InputError, require

if TYPE_CHECKING:
    import numpy as np

logger = logging.getLogger(__name__)


class OpenAIEmbedder:
    # Neural sentence embeddings put related legal text around 0.3–0.6 cosine; 0.3 keeps the
    # right criterion for most clauses (MiniLM's median for the right one is 0.39 on CUAD).
    # Calibrate per model: benchmarks/bench_match.py prints the best cut-off for any embedder.
    default_threshold = 0.3

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key_env: str = "OPENAI_API_KEY",
        threshold: float | None = None,
        batch_size: int = 10,  # DashScope's text-embedding-v3 takes at most 10 inputs a call
        timeout: float = 60.0,
    ) -> None:
        if not model:
            raise InputError("an embedding model name is required")
        self.model = model
        self.base_url = base_url
        self.api_key_env = api_key_env
        self.threshold = self.default_threshold if threshold is None else threshold
        self.batch_size = max(1, batch_size)
        self.timeout = timeout
        self._client: Any = None

    @property
    def name(self) -> str:
        return f"openai-{self.base_url or 'default'}-{self.model}"

    def __repr__(self) -> str:
        return f"OpenAIEmbedder(model={self.model!r}, base_url={self.base_url!r})"

    def _get_client(self) -> Any:
        if self._client is None:
            openai = require("openai", "llm")
            key = os.environ.get(self.api_key_env) or "genlint-no-key"
            self._client = openai.OpenAI(
                api_key=key, base_url=self.base_url, max_retries=0, timeout=self.timeout
            )
        return self._client

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        import numpy as np

        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        client = self._get_client()
        rows: list[list[float]] = []
        for start in range(0, len(texts), self.batch_size):
            batch = [t or " " for t in texts[start : start + self.batch_size]]
            try:
                response = client.embeddings.create(model=self.model, input=batch)
            except Exception as exc:
                # The SDK's message can echo request details; the key is never part of it.
                raise InputError(
                    f"embedding endpoint {self.base_url or 'OpenAI'} failed: {type(exc).__name__}"
                ) from exc
            data = sorted(response.data, key=lambda d: d.index)
            rows.extend(list(d.embedding) for d in data)
        out = np.asarray(rows, dtype=np.float32)
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        np.divide(out, norms, out=out, where=norms > 0)
        return out
