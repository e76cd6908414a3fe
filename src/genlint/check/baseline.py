"""A baseline of accepted findings: ``--write-baseline FILE`` records every finding of a run,
``--baseline FILE`` then reports only findings not in it (docs/configuration.md "Baseline").

An entry is the keyed fingerprint of the SARIF reporter (:mod:`.reporters._fingerprint`, an
HMAC under ``GENLINT_FINGERPRINT_KEY`` or the user's key) of the rule, the file and the
finding's text, with a count: no personal value, and no line number, so an edit above a
finding does not bring it back. Rule and file are written in clear, for a reviewer. The file is
named relative to the baseline's own folder, not to the working directory: the same baseline
matches whether the check runs from the repository's root, a subfolder or another checkout.

The file also holds a check of the key (the HMAC of a fixed string): a baseline written under
another key would match nothing and report every accepted finding again, so loading it fails
with a message saying which key to set.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ..errors import InputError

if TYPE_CHECKING:
    from ..findings import Finding
    from .report import CheckReport

__all__ = ["Baseline", "apply_baseline", "baseline_json", "load_baseline"]

VERSION = 1
_KEY_CHECK = "genlint-baseline-key-check"


def _finding_print(f: Finding, path: str) -> str:
    from .reporters._fingerprint import fingerprint

    return fingerprint("baseline", f.rule, path, f.pointer, f.text)


def _key_check() -> str:
    from .reporters._fingerprint import fingerprint

    return fingerprint(_KEY_CHECK)


@dataclass(frozen=True)
class Baseline:
    """Fingerprint -> how many findings with it were accepted."""

    counts: Counter[str]
    #: the folder the files are named relative to (the baseline file's)
    base_dir: str = "."


def _relative(path: str, base_dir: str) -> str:
    """``path`` as the baseline names it: relative to ``base_dir``, with ``/`` separators."""
    if path == "-":
        return path
    try:
        rel = os.path.relpath(os.path.realpath(path), os.path.realpath(base_dir))
    except ValueError:  # another drive (Windows): no relative path exists
        rel = os.path.realpath(path)
    return rel.replace(os.sep, "/")


def baseline_json(report: CheckReport, base_dir: str = ".") -> str:
    """The baseline of every finding in ``report``, as the file holds it; files are named
    relative to ``base_dir`` (the folder the baseline is written to)."""
    entries: Counter[tuple[str, str, str]] = Counter()
    for file in report.files:
        path = _relative(file.path, base_dir)
        for f in file.findings:
            entries[(f.rule, path, _finding_print(f, path))] += 1
    rows = [
        {"rule": rule, "path": path, "fingerprint": fp, "count": n}
        for (rule, path, fp), n in sorted(entries.items())
    ]
    data = {"version": VERSION, "key_check": _key_check(), "findings": rows}
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def load_baseline(path: str) -> Baseline:
    """The baseline in ``path``; InputError for a file that is not one, or was written under
    another fingerprint key."""
    from .._io import read_json

    data: Any = read_json(path)
    if not isinstance(data, dict) or "version" not in data:
        raise InputError(f"{path}: not a genlint baseline (write one with --write-baseline)")
    version = data["version"]
    if type(version) is not int or version != VERSION:
        raise InputError(
            f"{path}: baseline version {json.dumps(version)[:20]}, this genlint reads version "
            f"{VERSION}; write it again with --write-baseline"
        )
    rows = data.get("findings")
    if not isinstance(rows, list):
        raise InputError(f"{path}: 'findings' must be a list")
    key_check = data.get("key_check")
    if not isinstance(key_check, str):
        raise InputError(f"{path}: no 'key_check' (edited by hand?); write it with --write-baseline")
    if key_check != _key_check():
        raise InputError(
            f"{path}: written under another fingerprint key; set GENLINT_FINGERPRINT_KEY to "
            "the key it was written with (CI: a repository secret), or write it again"
        )
    counts: Counter[str] = Counter()
    for i, row in enumerate(rows):
        fp = row.get("fingerprint") if isinstance(row, dict) else None
        n = row.get("count", 1) if isinstance(row, dict) else None
        if not isinstance(fp, str) or not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise InputError(f"{path}: findings[{i}] needs a 'fingerprint' and a 'count' ≥ 1")
        counts[fp] += n
    return Baseline(counts, os.path.dirname(os.path.abspath(path)))


def apply_baseline(report: CheckReport, baseline: Baseline) -> tuple[CheckReport, int]:
    """``report`` without the findings the baseline accepts, and how many were left out."""
    left = Counter(baseline.counts)
    dropped = 0
    files = []
    for file in report.files:
        path = _relative(file.path, baseline.base_dir)
        kept: list[Finding] = []
        for f in file.findings:
            fp = _finding_print(f, path)
            if left[fp] > 0:
                left[fp] -= 1
                dropped += 1
            else:
                kept.append(f)
        files.append(replace(file, findings=kept) if len(kept) != len(file.findings) else file)
    return replace(report, files=files), dropped
