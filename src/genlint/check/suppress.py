"""Ways to silence a finding that is fine, as ruff users expect (docs/configuration.md
"Silencing findings"):

- the allowlist: a phrase that occurs inside a hit, blanks normalised, silences it;
- ``[check] exclude``: globs of files never checked;
- ``[check.per-file-ignores]``: glob -> rules ignored in the files it matches;
- inline directives in the document's own comment syntax (genlint.check.directives): txt
  ``# genlint: ignore[RULE]``, Markdown ``<!-- genlint: ignore[RULE] -->``; none in JSON;
- in a DOCX, a Word comment starting ``genlint: ignore RULE …`` anchored on the flagged text.

A RULE is a rule id (``placeholder/empty-slot``) or a pack (``sensitive``).
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .directives import matches_rule, names_of

if TYPE_CHECKING:
    from ..findings import Finding
    from ..readers import Document
    from .config import CheckConfig
    from .directives import Directive

__all__ = [
    "allowed_text",
    "docx_ignores",
    "inline_ignores",
    "matches_rule",
    "normalise_blanks",
    "not_excluded",
    "path_matches",
    "split_suppressed",
    "suppress",
]

_BLANKS = re.compile(r"\s+")
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


def inline_ignores(text: str, kind: str) -> dict[int, tuple[str, ...]]:
    """Line (1-based) -> the rules silenced on it by inline directives in ``text``, a txt or
    md file's whole text (genlint.check.directives)."""
    from .directives import directives

    out: dict[int, tuple[str, ...]] = {}
    for d in directives(text, kind):
        out[d.target] = out.get(d.target, ()) + d.names
    return out


def docx_ignores(data: bytes) -> list[tuple[str, tuple[str, ...], frozenset[Any]]]:
    """(anchored text with blanks normalised, rules, paragraph numbers) of each Word comment
    of a DOCX that starts ``genlint: ignore``. The anchored text is what lies between the
    comment's range start and end in the main document; the places are those the range
    touches: paragraph numbers in reading order from 1, as findings' ``paragraph`` is, and
    (table, row, cell) of a body table."""
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
            names = names_of(m.group(1).splitlines()[0])
            if names:
                wanted[comment.get(f"{w}id", "")] = names
    if not wanted:
        return []
    # walk the body in order, collecting text while a wanted comment's range is open, and
    # which paragraphs (numbered as the reader numbers them) the range touches: a comment
    # silences the text it is anchored on, not the same value elsewhere in the file
    open_ids: set[str] = set()
    anchored: dict[str, list[str]] = {cid: [] for cid in wanted}
    where: dict[str, set[Any]] = {cid: set() for cid in wanted}
    count = tables = 0
    # the place findings name: a paragraph number, or (table, row, cell) of an outer table
    here: list[Any] = [0]

    def touch() -> None:
        for cid in open_ids:
            where[cid].add(here[-1])

    def walk(el: ET.Element, in_paragraph: bool) -> None:
        nonlocal count, tables
        for child in el:
            tag = child.tag
            if tag == f"{w}p" and not in_paragraph:
                count += 1
                if len(here) == 1:
                    here[0] = count
                touch()
                walk(child, True)
                for cid in open_ids:
                    anchored[cid].append(" ")
                continue
            if tag == f"{w}tbl" and len(here) == 1 and not in_paragraph:
                tables += 1
                rows = [r for r in child if r.tag == f"{w}tr"]
                for row, tr in enumerate(rows, start=1):
                    cells = [c for c in tr if c.tag == f"{w}tc"]
                    for cell, tc in enumerate(cells, start=1):
                        here.append((tables, row, cell))
                        walk(tc, False)
                        here.pop()
                continue
            if tag == f"{w}commentRangeStart" and child.get(f"{w}id") in wanted:
                open_ids.add(child.get(f"{w}id", ""))
                touch()
            elif tag == f"{w}commentRangeEnd":
                open_ids.discard(child.get(f"{w}id", ""))
            elif tag == f"{w}t" and open_ids:
                for cid in open_ids:
                    anchored[cid].append(child.text or "")
            walk(child, in_paragraph)

    walk(body, False)
    return [
        (normalise_blanks("".join(anchored[cid])), wanted[cid], frozenset(where[cid]))
        for cid in wanted
    ]


def suppress(
    doc: Document,
    findings: list[Finding],
    data: bytes | None = None,
) -> list[Finding]:
    """``findings`` less those an inline directive (txt, md) or a DOCX comment silences; ``data``: the file's bytes when they are in memory."""
    return split_suppressed(doc, findings, data)[0]


def split_suppressed(
    doc: Document,
    findings: list[Finding],
    data: bytes | None = None,
    rules: Sequence[str] = (),
) -> tuple[list[Finding], list[tuple[Finding, str]]]:
    """(kept findings, (silenced finding, why)) for the inline directives (txt, md) and DOCX
    comments of ``doc``: every silenced finding is reported, never dropped unseen
    (docs/configuration.md "Silencing findings"). ``rules``: the ids that ran; a directive
    naming no rule, or one of these that silenced nothing, adds a warning to ``doc``."""
    kept: list[Finding] = []
    silenced: list[tuple[Finding, str]] = []
    if doc.kind in ("txt", "md"):
        from .directives import directive_warnings, directives

        text = doc.segments[0].text if doc.segments else ""
        found = directives(text, doc.kind)
        if not found:
            return findings, silenced
        by_line: dict[int, list[Directive]] = {}
        for d in found:
            by_line.setdefault(d.target, []).append(d)
        spans = [d.span for d in found]
        for f in findings:
            if not f.rule.startswith("sensitive/") and _within(f, spans):
                continue  # the directive's own `[placeholder/x]` is no unfilled slot
            hit = [d for d in by_line.get(f.line, ()) if matches_rule(f.rule, d.names)]
            if hit:
                for d in hit:
                    d.used.add(f.rule)
                silenced.append((f, f"inline directive on line {hit[0].line}: {hit[0].text}"))
            else:
                kept.append(f)
        doc.warnings.extend(directive_warnings(found, rules))
        return kept, silenced
    if doc.kind == "docx" and findings:
        raw = _raw(doc.path, data)
        anchors = docx_ignores(raw) if raw is not None else []
        if not anchors:
            return findings, silenced
        for f in findings:
            if any(
                matches_rule(f.rule, names)
                and f.text
                and normalise_blanks(f.text) in anchor
                and _docx_place(f) in paragraphs
                for anchor, names, paragraphs in anchors
            ):
                silenced.append((f, "Word comment genlint: ignore anchored on it"))
            else:
                kept.append(f)
        return kept, silenced
    return findings, silenced


def _within(f: Finding, spans: Sequence[tuple[int, int]]) -> bool:
    """Whether the finding lies inside one of the (sorted) spans: a bisection, so a file of a
    million directives is not scanned once per finding."""
    import bisect

    i = bisect.bisect_right(spans, (f.start, 1 << 62)) - 1
    return i >= 0 and spans[i][0] <= f.start and f.end <= spans[i][1]


def _docx_place(f: Finding) -> Any:
    """The body paragraph or table cell a DOCX finding is in (None: a header, note or text
    box, which no body comment is anchored on)."""
    location = f.location or {}
    if location.get("part", "body") != "body":
        return None
    if "table" in location:
        return (location.get("table"), location.get("row"), location.get("cell"))
    return location.get("paragraph")


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
