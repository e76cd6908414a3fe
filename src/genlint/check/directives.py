"""Inline directives, in the comment syntax of the document's own format only
(docs/configuration.md "Silencing findings"):

- plain text: ``# genlint: ignore[RULE, …]`` at the end of the flagged line, or
  ``# genlint: ignore-next-line[RULE, …]`` as a line of its own before it;
- Markdown: an HTML comment holding only the directive, ``<!-- genlint: ignore[RULE] -->`` on
  the flagged line, ``<!-- genlint: ignore-next-line[RULE] -->`` on the line before;
- JSON has no comments: a directive there is data (a string the model wrote), so it silences
  nothing; ``[check.per-file-ignores]`` silences a JSON file's findings.

The text checked is often written by a model: a directive in prose, or inside a string value,
must not let the text silence its own findings. Every directive is parsed in one pass with line
numbers counted as it goes, so a file repeating one a million times costs linear time.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

__all__ = ["DIRECTIVE", "Directive", "directive_warnings", "directives", "names_of"]

# `genlint: ignore[a, b]` or `genlint: ignore-next-line[a]`; the brackets are required, so a
# sentence that merely mentions genlint silences nothing
DIRECTIVE = re.compile(r"genlint:\s*ignore(-next-line)?\[([^\]\n]*)\]")
# plain text: the directive ends its line behind `#` (after blanks, or starting the line)
_TXT = re.compile(
    r"(?:^|(?<=[ \t\u3000]))#[ \t]*genlint:[ \t]*ignore(-next-line)?\[([^\]\n]*)\][ \t]*$",
    re.MULTILINE,
)
_TXT_OWN_LINE = re.compile(r"[ \t\u3000]*#")
# Markdown: an HTML comment that holds the directive and nothing else
_MD = re.compile(r"<!--\s*genlint:\s*ignore(-next-line)?\[([^\]\n]*)\]\s*-->")


@dataclass
class Directive:
    """One directive: the line it stands on, the line it silences, the rules it names, and
    how many findings it silenced (for the warning about directives that silence nothing)."""

    line: int
    target: int
    names: tuple[str, ...]
    text: str
    span: tuple[int, int] = (0, 0)  # where the directive's own text is in the file's text
    used: set[str] = field(default_factory=set)


def matches_rule(rule_id: str, names: Iterable[str]) -> bool:
    """Whether ``rule_id`` is one of ``names`` (rule ids or packs)."""
    pack = rule_id.partition("/")[0]
    return any(name in (rule_id, pack) for name in names)


def names_of(listed: str) -> tuple[str, ...]:
    return tuple(n for n in re.split(r"[\s,]+", listed.strip()) if n)


def directives(text: str, kind: str) -> list[Directive]:
    """The directives of a txt or md file's whole text, in order (none for other kinds)."""
    if "genlint:" not in text:
        return []
    if kind == "md":
        pattern = _MD
    elif kind == "txt":
        pattern = _TXT
    else:
        return []
    out: list[Directive] = []
    line, at = 1, 0
    for m in pattern.finditer(text):
        line += text.count("\n", at, m.start())
        at = m.start()
        here = line
        if kind == "txt":
            start = text.rfind("\n", 0, m.start()) + 1
            own_line = _TXT_OWN_LINE.fullmatch(text, start, m.start() + 1) is not None
            if m.group(1) and not own_line:
                continue  # ignore-next-line behind text: ambiguous, so it counts as prose
            target = here + 1 if m.group(1) else here
        else:
            end_line = here + text.count("\n", m.start(), m.end())
            target = end_line + 1 if m.group(1) else here
        out.append(Directive(here, target, names_of(m.group(2)), m.group(0), m.span()))
    return out


_RULE_NAME = re.compile(r"[a-z][a-z0-9_-]{0,40}(?:/[a-z0-9][a-z0-9_.-]{0,60})?")


def directive_warnings(found: Sequence[Directive], rules: Sequence[str]) -> list[str]:
    """A warning per directive naming no rule (with a suggestion), and per directive whose
    rules ran but silenced nothing (like ruff's unused-noqa); at most one per name and line."""
    from .rules import PACKS, did_you_mean, load_pack

    out: list[str] = []
    known: dict[str, bool] = {}
    ran = set(rules)
    for d in found:
        for name in d.names:
            ok = known.get(name)
            if ok is None:
                pack = name.partition("/")[0]
                ok = name in PACKS or name in ran
                if not ok and pack in PACKS and "/" in name:
                    ok = any(rule.id == name for rule in load_pack(pack))
                known[name] = ok
            if ok:
                continue
            if _RULE_NAME.fullmatch(name):
                ids = [*PACKS, *sorted(ran)]
                hint = did_you_mean(name, ids, "packs: " + ", ".join(PACKS))
                out.append(f"line {d.line}: genlint: ignore names no rule {name!r} ({hint})")
            else:  # not shown: a name a model wrote may hold a value
                out.append(f"line {d.line}: genlint: ignore names something that is no rule")
        if not d.used and any(matches_rule(rule, d.names) for rule in ran):
            out.append(f"line {d.line}: {d.text} silenced nothing (unused directive)")
        if len(out) > 100:
            out.append("more directive warnings not shown")
            break
    return out
