"""Embeddings from an OpenAI-compatible ``/embeddings`` endpoint (OpenAI, DashScope
``text-embedding-v3``, vLLM, Ollama). The key is read from an environment variable only."""

from __future__ import annotations

import asyncio
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

    @property
    def name(self) -> str:
        return f"openai-{self.base_url or 'default'}-{self.model}"

    def __repr__(self) -> str:
        return f"OpenAIEmbedder(model={self.model!r}, base_url={self.base_url!r})"

    def _create(self, batch: list[str]) -> Any:
        """One embeddings call, bounded by ``timeout`` on the wall clock (a server trickling
        bytes defeats the SDK's per-read timeout; see OpenAICompatible.complete)."""
        from ...llm.openai_compat import run_sync

        async def once() -> Any:
            openai = require("openai", "llm")
            key = os.environ.get(self.api_key_env) or "genlint-no-key"
            client = openai.AsyncOpenAI(
                api_key=key, base_url=self.base_url, max_retries=0, timeout=self.timeout
            )
            try:
                call = client.embeddings.create(model=self.model, input=batch)
                return await asyncio.wait_for(call, self.timeout)
            finally:
                await client.close()

        return run_sync(once)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        import numpy as np

        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        rows: list[list[float]] = []
        for start in range(0, len(texts), self.batch_size):
            batch = [t or " " for t in texts[start : start + self.batch_size]]
            try:
                response = self._create(batch)
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
