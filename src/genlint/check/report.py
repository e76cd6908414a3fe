"""What ``genlint check`` found, file by file: the object every reporter renders."""

from __future__ import annotations

import functools
import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..findings import Finding
from .rules import Rule

__all__ = ["CheckReport", "FileResult", "display_path"]


@dataclass
class FileResult:
    """The findings of one file, or why it could not be read."""

    path: str
    findings: list[Finding] = field(default_factory=list)
    error: str | None = None
    encoding: str | None = None  # how a text file was decoded
    warnings: list[str] = field(default_factory=list)  # what the reader had to repair
    images_not_read: list[str] = field(default_factory=list)  # no OCR: names of unread images
    # findings a directive or [check.per-file-ignores] silenced, and why (suppressed_by[i]):
    # reported apart, never dropped unseen (docs/configuration.md "Silencing findings")
    suppressed: list[Finding] = field(default_factory=list)
    suppressed_by: list[str] = field(default_factory=list)


@dataclass
class CheckReport:
    """Everything ``genlint check`` found; reporters render it."""

    files: list[FileResult] = field(default_factory=list)
    rules: list[Rule] = field(default_factory=list)
    # reporters show personal values as found only when this says so (--show-values); by
    # default every reporter masks them (genlint.check.redact)
    show_values: bool = False
    # the configuration file the run read (None: the defaults), named by the reports
    configuration: str | None = None
    # entries of a walked folder not read (a link out of it, a FIFO), one line each
    skipped: list[str] = field(default_factory=list)

    @property
    def findings(self) -> list[Finding]:
        return [f for file in self.files for f in file.findings]

    @property
    def suppressed(self) -> int:
        return sum(len(file.suppressed) for file in self.files)

    @property
    def errors(self) -> list[FileResult]:
        return [file for file in self.files if file.error is not None]

    @property
    def exit_code(self) -> int:
        if self.errors:
            return 2
        return 1 if any(file.findings for file in self.files) else 0

    def statistics(self) -> list[dict[str, Any]]:
        """Counts per rule and, within a rule, per distinct text (``--statistics``), most
        frequent first: what a user reads before deciding to ignore a rule or fix a template."""
        per_rule: dict[str, Counter[str]] = {}
        severity: dict[str, str] = {}
        for finding in self.findings:
            per_rule.setdefault(finding.rule, Counter())[finding.text] += 1
            severity.setdefault(finding.rule, str(finding.severity))
        ordered = sorted(per_rule.items(), key=lambda item: (-item[1].total(), item[0]))
        return [
            {
                "rule": rule,
                "severity": severity[rule],
                "count": texts.total(),
                "texts": [{"text": t, "count": n} for t, n in texts.most_common()],
            }
            for rule, texts in ordered
        ]

    def by_rule(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for finding in self.findings:
            counts[finding.rule] = counts.get(finding.rule, 0) + 1
        return dict(sorted(counts.items()))


def display_path(path: str) -> str:
    """A path as reports show it: relative to the working directory when below it."""
    if path == "-":
        return path
    if os.name == "posix":
        # the same answer as the pathlib spelling below, without building six Path objects
        # per file: a report of 2,000 files spent a third of a second here
        try:
            cwd = os.getcwd()
            real, base = _realpath(path, cwd), _real_cwd(cwd)
        except ValueError:  # a lone surrogate cannot name a file: shown as given
            return Path(path).as_posix()
        if real == base:
            return "."
        if real.startswith(base.rstrip("/") + "/"):
            return real[len(base.rstrip("/")) + 1 :]
        return Path(path).as_posix()
    try:
        return Path(path).resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return Path(path).as_posix()


@functools.lru_cache(maxsize=4)
def _real_cwd(cwd: str) -> str:
    return os.path.realpath(cwd)


def _realpath(path: str, cwd: str) -> str:
    """``os.path.realpath(path)`` (``cwd``: the working directory) with its folder resolved
    once: the files of a folder share it, and resolving each path whole cost 28 us a file (an
    lstat per part). The folder is cached by its absolute spelling, so a relative one is not
    taken for another after a chdir."""
    folder, name = os.path.split(path)
    if not folder or name in ("", ".", "..") or os.path.islink(path):
        return os.path.realpath(path)
    return os.path.join(_real_folder(os.path.join(cwd, folder)), name)


@functools.lru_cache(maxsize=256)
def _real_folder(folder: str) -> str:
    return os.path.realpath(folder)
