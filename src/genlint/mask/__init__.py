"""``genlint mask`` / ``genlint unmask``: desensitise documents and prompts, reversibly.

:mod:`.core` masks a text (what ``check --select sensitive`` finds, nothing else), :mod:`.styles`
says what a value becomes, :mod:`.vault` keeps tokens for ``unmask``, :mod:`.files` writes txt,
md and JSON back byte for byte outside the masked spans, :mod:`.docx` masks in the runs of a Word
package and :mod:`.pdf` redacts PDF pages.
"""

from __future__ import annotations

from .core import Masker, MaskResult, Replacement, mask_text
from .styles import STYLES
from .vault import Vault, unmask_text

__all__ = ["STYLES", "MaskResult", "Masker", "Replacement", "Vault", "mask_text", "unmask_text"]
