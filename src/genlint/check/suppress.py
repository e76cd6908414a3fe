"""Ways to silence a finding that is fine, as ruff users expect (docs/configuration.md
"Silencing findings"):

- the allowlist: a phrase that occurs inside a hit, blanks normalised, silences it;
- ``[check] exclude``: globs of files never checked;
- ``[check.per-file-ignores]``: glob -> rules ignored in the files it matches;
- inline directives: ``genlint: ignore[RULE, …]`` on the flagged line and
  ``genlint: ignore-next-line[RULE, …]`` on the line before it, in the comment form each format
  allows (Markdown: inside ``<!-- … -->``; plain text: anywhere on the line; JSON has no
  comments, so anywhere on the raw line, usually in a string value next to the flagged one);
- in a DOCX, a Word comment starting ``genlint: ignore RULE …`` anchored on the flagged text.

A RULE is a rule id (``placeholder/empty-slot``) or a pack (``sensitive``).
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..findings import Finding
    from ..readers import Document
    from .config import CheckConfig

__all__ = [
    "allowed_text",
    "docx_ignores",
    "inline_ignores",
    "matches_rule",
    "normalise_blanks",
    "not_excluded",
    "path_matches",
    "suppress",
]

_BLANKS = re.compile(r"\s+")
# `genlint: ignore[a, b]` or `genlint: ignore-next-line[a]`; the brackets are required, so a
# sentence that merely mentions genlint silences nothing
_DIRECTIVE = re.compile(r"genlint:\s*ignore(-next-line)?\[([^\]\n]*)\]")
_HTML_COMMENT = re.compile(r"<!--(.*?)-->", re.DOTALL)
# a Word comment: `genlint: ignore placeholder/empty-slot, sensitive`
_DOCX_DIRECTIVE = re.compile(r"^\s*genlint:\s*ignore\s+(.+)", re.DOTALL)


def normalise_blanks(text: str) -> str:
    """Runs of blanks (spaces, tabs, line breaks, the ideographic space) as one space,
    trimmed: ``甲方（盖章）：\u3000 `` and ``甲方（盖章）：`` are one phrase."""
    return _BLANKS.sub(" ", text).strip()


def allowed_text(text: str, start: int, end: int, allowlist: Sequence[str]) -> bool:
    """Whether an allowlisted phrase silences the hit ``text[start:end]``: the phrase occurs
    inside the hit, or an occurrence of it covers the hit (both with blanks normalised)."""
    hit = normalise_blanks(text[start:end])
    for phrase in allowlist:
        wanted, pattern = _phrase(phrase)
        if not wanted:
            continue
        if wanted in hit:
            return True
        # the phrase may be longer than the hit (`某某大学` covers the hit `某某`): look in
        # the hit's neighbourhood, as wide as the phrase itself
        lo, hi = max(0, start - len(phrase)), min(len(text), end + len(phrase))
        for m in pattern.finditer(text, lo, hi):
            if m.start() <= start and end <= m.end():
                return True
    return False


@functools.lru_cache(maxsize=256)
def _phrase(phrase: str) -> tuple[str, re.Pattern[str]]:
    """An allowlisted phrase with blanks normalised, and a pattern finding it with any blanks:
    made once per phrase, not once per hit."""
    wanted = normalise_blanks(phrase)
    return wanted, re.compile(re.escape(wanted).replace(r"\ ", r"\s+"))


def matches_rule(rule_id: str, names: Iterable[str]) -> bool:
    """Whether ``rule_id`` is one of ``names`` (rule ids or packs)."""
    pack = rule_id.partition("/")[0]
    return any(name in (rule_id, pack) for name in names)


def _names(listed: str) -> tuple[str, ...]:
    return tuple(n for n in re.split(r"[\s,]+", listed.strip()) if n)


def inline_ignores(text: str, kind: str) -> dict[int, tuple[str, ...]]:
    """Line (1-based) -> the rules silenced on it by inline directives in ``text``, a txt,
    md or json file's whole text."""
    if "genlint:" not in text:
        return {}
    out: dict[int, tuple[str, ...]] = {}

    def add(line: int, names: tuple[str, ...]) -> None:
        out[line] = out.get(line, ()) + names

    if kind == "md":
        # only inside an HTML comment, which Markdown renders as nothing
        for comment in _HTML_COMMENT.finditer(text):
            for m in _DIRECTIVE.finditer(comment.group(1)):
                at = comment.start(1) + m.start()
                line = text.count("\n", 0, at) + 1
                if m.group(1):
                    line = text.count("\n", 0, comment.end()) + 2
                add(line, _names(m.group(2)))
        return out
    for m in _DIRECTIVE.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        add(line + 1 if m.group(1) else line, _names(m.group(2)))
    return out


def docx_ignores(data: bytes) -> list[tuple[str, tuple[str, ...]]]:
    """(anchored text with blanks normalised, rules) of each Word comment of a DOCX that
    starts ``genlint: ignore``. The anchored text is what lies between the comment's range
    start and end in the main document."""
    import io
    import zipfile
    from xml.etree import ElementTree as ET

    w = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            members = set(zf.namelist())
            if "word/comments.xml" not in members or "word/document.xml" not in members:
                return []
            comments_xml = zf.read("word/comments.xml")
            if b"genlint" not in comments_xml:
                return []
            document_xml = zf.read("word/document.xml")
    except (zipfile.BadZipFile, KeyError, OSError):
        return []  # the reader reports an unreadable file; nothing to silence here
    try:
        comments = ET.fromstring(comments_xml)
        body = ET.fromstring(document_xml)
    except ET.ParseError:
        return []
    wanted: dict[str, tuple[str, ...]] = {}
    for comment in comments.iter(f"{w}comment"):
        paragraphs = ["".join(t.text or "" for t in p.iter(f"{w}t")) for p in comment.iter(f"{w}p")]
        m = _DOCX_DIRECTIVE.match("\n".join(paragraphs))
        if m:
            names = _names(m.group(1).splitlines()[0])
            if names:
                wanted[comment.get(f"{w}id", "")] = names
    if not wanted:
        return []
    # walk the body in order, collecting text while a wanted comment's range is open
    open_ids: set[str] = set()
    anchored: dict[str, list[str]] = {cid: [] for cid in wanted}
    for el in body.iter():
        if el.tag == f"{w}commentRangeStart" and el.get(f"{w}id") in wanted:
            open_ids.add(el.get(f"{w}id", ""))
        elif el.tag == f"{w}commentRangeEnd":
            open_ids.discard(el.get(f"{w}id", ""))
        elif el.tag == f"{w}t" and open_ids:
            for cid in open_ids:
                anchored[cid].append(el.text or "")
        elif el.tag == f"{w}p" and open_ids:
            for cid in open_ids:
                anchored[cid].append(" ")
    return [(normalise_blanks("".join(anchored[cid])), wanted[cid]) for cid in wanted]


def suppress(
    doc: Document,
    findings: list[Finding],
    data: bytes | None = None,
) -> list[Finding]:
    """``findings`` less those an inline directive (txt, md, json) or a DOCX comment
    silences; ``data``: the file's bytes when they are in memory."""
    if not findings:
        return findings
    if doc.kind in ("txt", "md"):
        text = doc.segments[0].text if doc.segments else ""
        lines = inline_ignores(text, doc.kind)
        if not lines:
            return findings
        # the directive's own `[placeholder/x]` must not read as an unfilled slot
        spans = [m.span() for m in _DIRECTIVE.finditer(text)]
        return [
            f
            for f in findings
            if not matches_rule(f.rule, lines.get(f.line, ()))
            and not any(lo <= f.start and f.end <= hi for lo, hi in spans)
        ]
    if doc.kind == "json":
        raw = _raw(doc.path, data)
        if raw is None or b"genlint:" not in raw:
            return findings
        raw_text = raw.decode("utf-8", "replace")
        lines = inline_ignores(raw_text, "json")
        directives = _directives_by_line(raw_text)
        return [
            f
            for f in findings
            if not matches_rule(f.rule, lines.get(f.line, ()))
            and not any(f.text and f.text in d for d in directives.get(f.line, ()))
        ]
    if doc.kind == "docx":
        raw = _raw(doc.path, data)
        anchors = docx_ignores(raw) if raw is not None else []
        if not anchors:
            return findings
        return [
            f
            for f in findings
            if not any(
                matches_rule(f.rule, names) and f.text and normalise_blanks(f.text) in anchor
                for anchor, names in anchors
            )
        ]
    return findings


def _directives_by_line(text: str) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    for m in _DIRECTIVE.finditer(text):
        out.setdefault(text.count("\n", 0, m.start()) + 1, []).append(m.group(0))
    return out


def _raw(path: str, data: bytes | None) -> bytes | None:
    if data is not None:
        return data
    if path == "-":
        return None
    from .._io import read_bytes

    try:
        return read_bytes(path)
    except Exception:  # read once already: a file gone since costs only its directives
        return None


# --- globs: [check] exclude and [check.per-file-ignores] ---


@functools.lru_cache(maxsize=256)
def _glob_regex(pattern: str) -> re.Pattern[str]:
    """A glob as a regex over a ``/``-separated path: ``*`` and ``?`` stay within one
    folder, ``**`` crosses folders, ``[...]`` is a character class."""
    out = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
            continue
        if pattern.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            close = pattern.find("]", i + 1)
            if close < 0:
                out.append(re.escape(c))
            else:
                body = pattern[i + 1 : close]
                if body.startswith("!"):
                    body = "^" + body[1:]
                out.append(f"[{body}]")
                i = close
        else:
            out.append(re.escape(c))
        i += 1
    return re.compile("".join(out))


def relative_path(path: str, root: str | None) -> str:
    """``path`` relative to ``root`` (the configuration file's folder; else the working
    directory), ``/``-separated, for matching globs."""
    base = os.path.abspath(root or os.getcwd())
    full = os.path.abspath(path)
    try:
        rel = os.path.relpath(full, base)
    except ValueError:  # another drive on Windows
        rel = full
    if rel.startswith(".."):
        rel = full
    return rel.replace(os.sep, "/")


def path_matches(path: str, patterns: Sequence[str], root: str | None = None) -> bool:
    """Whether one of the globs matches ``path`` as gitignore does: a glob without ``/``
    matches a file or folder name at any depth, one with ``/`` the path from ``root``; a
    matched folder takes everything below it."""
    if not patterns or path == "-":
        return False
    rel = relative_path(path, root)
    parts = rel.strip("/").split("/")
    prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    for pattern in patterns:
        glob = pattern.strip().removeprefix("./").rstrip("/")
        rx = _glob_regex(glob.lstrip("/"))
        if "/" in glob:
            if any(rx.fullmatch(prefix) for prefix in prefixes):
                return True
        elif any(rx.fullmatch(part) for part in parts):
            return True
    return False


def not_excluded(files: Sequence[str], config: CheckConfig) -> list[str]:
    """The files ``[check] exclude`` leaves to check, in their order."""
    return [f for f in files if not path_matches(f, config.exclude, config.root)]


def ignored_for(path: str, per_file: Mapping[str, Sequence[str]], root: str | None) -> set[str]:
    """The rules ``[check.per-file-ignores]`` ignores in ``path``."""
    out: set[str] = set()
    for glob, rules in per_file.items():
        if path_matches(path, [glob], root):
            out.update(rules)
    return out
