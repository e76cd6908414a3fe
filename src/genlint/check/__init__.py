"""``genlint check``: lint documents for unfilled placeholders, unmasked personal data and
citation markers that point nowhere (docs/commands/check.md).

    engine.py     Checker, check_text, check_paths: rules over text, hits into findings
    config.py     CheckConfig: the validated [check] table
    report.py     FileResult, CheckReport: what the reporters render
    windows.py    where the rules look: text around trigger matches
    rules/        the rule registry and its packs (placeholder/, sensitive/, citation/)
    reporters/    text, json, sarif, junit

Documents are read by :mod:`genlint.readers`, shared with every command that reads files.
"""

from __future__ import annotations

from .config import CheckConfig
from .engine import Checker, check_paths, check_text
from .report import CheckReport, FileResult, display_path

__all__ = [
    "CheckConfig",
    "CheckReport",
    "Checker",
    "FileResult",
    "check_paths",
    "check_text",
    "display_path",
]
