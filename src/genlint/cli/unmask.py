"""``genlint unmask``: the command lives with ``mask`` (:mod:`genlint.cli.mask`)."""

from __future__ import annotations

from .mask import unmask_command as command

__all__ = ["command"]
