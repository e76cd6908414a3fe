"""promptfoo loads assertions from files; this one is genlint's (``get_assert``)."""

from genlint.integrations.promptfoo import get_assert

__all__ = ["get_assert"]
