"""promptfoo loads assertions from files; this one runs ``genlint parse`` on the reply."""

from genlint.integrations.promptfoo_gates import parse_assert as get_assert

__all__ = ["get_assert"]
