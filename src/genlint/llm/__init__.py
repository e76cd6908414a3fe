"""LLM access: one protocol, one OpenAI-compatible adapter, and a scripted local test server.

Provider knowledge lives in the adapter only; the gate, the match filter and everything else
talk to the ``ChatModel`` protocol in :mod:`genlint.llm.base`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = ["ChatModel", "Completion", "LLMError", "OpenAICompatible", "Usage"]


def __getattr__(name: str) -> Any:
    if name in ("ChatModel", "Completion", "Usage"):
        from . import base

        return getattr(base, name)
    if name == "LLMError":
        from .errors import LLMError

        return LLMError
    if name == "OpenAICompatible":
        from .openai_compat import OpenAICompatible

        return OpenAICompatible
    raise AttributeError(f"module 'genlint.llm' has no attribute {name!r}")


if TYPE_CHECKING:  # pragma: no cover
    from .base import ChatModel, Completion, Usage
    from .errors import LLMError
    from .openai_compat import OpenAICompatible
