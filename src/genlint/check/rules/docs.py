"""Rule documentation: one place that turns rule metadata into what a user reads.

A rule carries its summary (``description``) and its ``bad``/``good`` examples; why it matters
lives in ``rule_docs.toml`` beside this module (per rule, or per pack as a fallback). Everything a
user reads about rules — ``genlint rule ID``, ``genlint check --list-rules`` and the README rule
table — is rendered here from that metadata, so the three cannot disagree (a test regenerates
the README table and fails when it drifts).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from . import Rule

__all__ = [
    "RuleDoc",
    "document",
    "readme_table",
    "render_text",
    "replace_readme_table",
    "rules_page",
]

README_START = "<!-- rule-table:start (generated from rule metadata: genlint.check.rules.docs) -->"
README_END = "<!-- rule-table:end -->"


@dataclass(frozen=True)
class RuleDoc:
    id: str
    pack: str
    severity: str
    summary: str
    why: str
    bad: tuple[str, ...]
    good: tuple[str, ...]

    @property
    def silence_ways(self) -> tuple[tuple[str, str], ...]:
        """(where, what to write) for each way to turn the rule off, most local first
        (docs/configuration.md "Silencing findings"). The ``document`` pack flags a whole
        file, not a phrase on a line, so only the file-wide ways apply to it."""
        ways: list[tuple[str, str]] = []
        if self.pack != "document":
            ways += [
                ("at the end of the flagged line (txt)", f"# genlint: ignore[{self.id}]"),
                ("a line of its own before it (txt)", f"# genlint: ignore-next-line[{self.id}]"),
                ("on the flagged line (md)", f"<!-- genlint: ignore[{self.id}] -->"),
                ("a Word comment on the flagged text (docx)", f"genlint: ignore {self.id}"),
                ("a phrase that is fine, in genlint.toml", '[check] allowlist = ["<the phrase>"]'),
            ]
        ways += [
            ("some files, in genlint.toml", f'[check.per-file-ignores] "GLOB" = ["{self.id}"]'),
            ("accept today's findings", "genlint check --write-baseline .genlint-baseline.json"),
            ("then report only new ones", "genlint check --baseline .genlint-baseline.json"),
            ("for one run", f"genlint check --ignore {self.id} …"),
            ("for a project, in genlint.toml", f'[check] ignore = ["{self.id}"]'),
        ]
        return tuple(ways)

    @property
    def silence(self) -> tuple[str, ...]:
        """The ways to turn the rule off, as ``genlint rule ID`` prints them."""
        return tuple(f"{where}: {what}" for where, what in self.silence_ways)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "pack": self.pack,
            "severity": self.severity,
            "summary": self.summary,
            "why": self.why,
            "bad": list(self.bad),
            "good": list(self.good),
            "silence": list(self.silence),
        }


@lru_cache(maxsize=1)
def _why_table() -> tuple[dict[str, str], dict[str, str]]:
    from ...config import read_toml

    data = read_toml(Path(__file__).with_name("rule_docs.toml"))
    packs = {name: str(t.get("why", "")) for name, t in data.get("pack", {}).items()}
    rules = {name: str(t.get("why", "")) for name, t in data.get("rule", {}).items()}
    return packs, rules


def document(rule: Rule, severity: str | None = None) -> RuleDoc:
    """The documentation of one rule (``severity``: the configured one, if it differs)."""
    packs, rules = _why_table()
    why = getattr(rule, "why", "") or rules.get(rule.id) or packs.get(rule.pack, "")
    return RuleDoc(
        id=rule.id,
        pack=rule.pack,
        severity=severity or str(rule.severity),
        summary=rule.description,
        why=" ".join(why.split()),
        bad=tuple(rule.bad),
        good=tuple(rule.good),
    )


def render_text(doc: RuleDoc) -> str:
    """A rule's page as ``genlint rule ID`` prints it."""
    lines = [f"{doc.id} ({doc.severity})", "", doc.summary, ""]
    if doc.why:
        lines += ["Why it matters:", f"  {doc.why}", ""]
    if doc.bad:
        lines.append("Flagged:")
        lines += [f"  {example}" for example in doc.bad]
        lines.append("")
    if doc.good:
        lines.append("Not flagged:")
        lines += [f"  {example}" for example in doc.good]
        lines.append("")
    lines.append("How to silence it:")
    lines += [f"  {way}" for way in doc.silence]
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def readme_table(docs: Iterable[RuleDoc]) -> str:
    """The README's rule table (Markdown), between its start and end markers."""
    rows = [
        README_START,
        "| rule | severity | flags | e.g. flagged | e.g. not flagged |",
        "| --- | --- | --- | --- | --- |",
    ]
    for doc in docs:
        bad = _cell(doc.bad[0]) if doc.bad else ""
        good = _cell(doc.good[0]) if doc.good else ""
        rows.append(f"| `{doc.id}` | {doc.severity} | {_cell(doc.summary)} | {bad} | {good} |")
    rows.append(README_END)
    return "\n".join(rows)


def rules_page(docs: Iterable[RuleDoc]) -> str:
    """``docs/rules.md``: every rule's page, as ``genlint rule ID`` prints it, in Markdown."""
    out = [
        "# Rule reference",
        "",
        "<!-- generated from rule metadata by `python -m genlint.check.rules.docs`; do not edit -->",
        "",
        "Every rule of `genlint check`, with why it matters, what it flags and what it leaves",
        "alone (each example is kept true by a test), and how to silence it. The same text is",
        "printed by `genlint rule ID`.",
    ]
    for doc in docs:
        out += ["", f"## {doc.id}", "", f"*{doc.severity}* — {doc.summary}", ""]
        if doc.why:
            out += [doc.why, ""]
        out += ["Flagged:", ""] + [f"- {_code(e)}" for e in doc.bad]
        out += ["", "Not flagged:", ""] + [f"- {_code(e)}" for e in doc.good]
        # as code: `<the phrase>` written bare was read as an HTML tag and vanished
        out += ["", "Silence it:", ""] + [
            f"- {where}: `{what}`" for where, what in doc.silence_ways
        ]
    return "\n".join(out) + "\n"


def _code(text: str) -> str:
    """``text`` as inline code, whatever it holds: a fence longer than its longest run of
    backticks (an example with a backtick rendered as prose, and `<x>` in prose as a tag)."""
    import re

    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if longest else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def replace_readme_table(readme: str, table: str) -> str:
    """``readme`` with the text between the markers replaced by ``table``."""
    head, sep, rest = readme.partition(README_START)
    _, sep2, tail = rest.partition(README_END)
    if not sep or not sep2:
        raise ValueError("README has no rule-table markers")
    return head + table + tail


def all_docs() -> list[RuleDoc]:
    from . import all_rules

    return [document(rule) for rule in all_rules()]


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m genlint.check.rules.docs [ROOT]``: regenerate the README rule table and
    ``docs/rules.md`` of the repository at ROOT (default: the working directory)."""
    args = list(sys.argv[1:] if argv is None else argv)
    root = Path(args[0] if args else ".")
    docs = all_docs()
    readme = root / "README.md"
    text = readme.read_text(encoding="utf-8")
    readme.write_text(replace_readme_table(text, readme_table(docs)), encoding="utf-8")
    (root / "docs" / "rules.md").write_text(rules_page(docs), encoding="utf-8")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
