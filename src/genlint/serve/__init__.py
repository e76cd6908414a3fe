"""``genlint serve``: the gate as an HTTP service (docs/commands/serve.md).

An OpenAI-compatible ``/v1/chat/completions`` in front of an upstream model (personal data
masked with tokens on the way out, the reply checked and re-asked within the gate's budgets,
tokens restored on the way back), Dify's API-based moderation extension, and ``/v1/check``,
``/v1/parse``, ``/v1/mask``, ``/v1/unmask`` for pipelines in any language. Needs the ``serve``
extra (FastAPI and uvicorn); nothing here is imported by the rest of genlint.
"""

from __future__ import annotations

from typing import Any

from .settings import ServeSettings

__all__ = ["ServeSettings", "app_from_environment", "create_app"]


def create_app(settings: ServeSettings) -> Any:
    """The ASGI application (FastAPI) for ``settings``."""
    from .app import build_app

    return build_app(settings)


def app_from_environment() -> Any:
    """The application of one worker process of ``genlint serve --workers N`` (uvicorn's
    factory): the settings the command wrote to the environment, and its access log."""
    from .logs import configure_logging
    from .settings import settings_from_env

    configure_logging()
    return create_app(settings_from_env())
