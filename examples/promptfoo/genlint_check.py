"""promptfoo loads assertions from files; this one runs ``genlint check`` on the reply."""

from genlint.integrations.promptfoo_gates import check_assert as get_assert

__all__ = ["get_assert"]
