"""The check engine: run selected rules over text and files, and turn hits into findings.

``check_text`` checks one string; ``check_paths`` reads files and folders (through
:mod:`genlint.readers`) and returns a :class:`CheckReport` that the reporters render.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import ConfigError, GenlintError, UnknownRuleError
from .findings import Finding, Severity
from .rules import (
    PACKS,
    Hit,
    Rule,
    RuleContext,
    pattern_rule_from_table,
    select_rules,
)

if TYPE_CHECKING:
    from .config import RawConfig
    from .readers import Document

__all__ = ["CheckConfig", "CheckReport", "Checker", "FileResult", "check_paths", "check_text"]

log = logging.getLogger(__name__)

# Windows around trigger matches (see _windows): how far back and past a trigger they reach.
_WINDOW_MARGIN = 200
_WINDOW_SPAN = 1024
_SHOWN_CONTEXT = 160
_JOIN_GAP = 256


@dataclass(frozen=True)
class CheckConfig:
    """The validated ``[check]`` section of the configuration file."""

    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    allowlist: tuple[str, ...] = ()
    severity: Mapping[str, Severity] = field(default_factory=dict)
    patterns: tuple[Rule, ...] = ()

    @classmethod
    def from_section(cls, section: Mapping[str, Any], where: str = "[check]") -> CheckConfig:
        """Validate a ``[check]`` table; any mistake raises ConfigError naming the key."""
        known = {"select", "ignore", "disable", "allowlist", "severity", "patterns"}
        unknown = set(section) - known
        if unknown:
            raise ConfigError(
                f"{where}: unknown key(s) {', '.join(sorted(unknown))} "
                f"(known: {', '.join(sorted(known))})"
            )

        def str_list(key: str) -> tuple[str, ...]:
            value = section.get(key, [])
            if isinstance(value, str):
                value = [value]
            if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
                raise ConfigError(f"{where}: '{key}' must be a list of non-empty strings")
            return tuple(value)

        severity_table = section.get("severity", {})
        if not isinstance(severity_table, dict):
            raise ConfigError(f"{where}: 'severity' must be a table of rule id = level")
        severity: dict[str, Severity] = {}
        for key, level in severity_table.items():
            try:
                severity[key] = Severity(level)
            except ValueError:
                raise ConfigError(
                    f"{where}.severity: {key!r} must be error, warning or info, not {level!r}"
                ) from None
            _check_rule_name(key, where + ".severity")

        raw_patterns = section.get("patterns", [])
        if not isinstance(raw_patterns, list) or not all(isinstance(t, dict) for t in raw_patterns):
            raise ConfigError(
                f"{where}: 'patterns' must be an array of tables ([[check.patterns]])"
            )
        patterns: list[Rule] = []
        for i, table in enumerate(raw_patterns):
            rule_id = table.get("id")
            here = f"{where}.patterns[{i}]"
            if not isinstance(rule_id, str) or "/" not in rule_id:
                raise ConfigError(f"{here}: 'id' must be 'PACK/NAME'")
            pack = rule_id.split("/", 1)[0]
            if pack not in PACKS:
                raise ConfigError(f"{here}: unknown pack {pack!r} (packs: {', '.join(PACKS)})")
            patterns.append(pattern_rule_from_table(pack, table, here))
        return cls(
            select=str_list("select"),
            ignore=str_list("ignore") + str_list("disable"),
            allowlist=str_list("allowlist"),
            severity=severity,
            patterns=tuple(patterns),
        )

    @classmethod
    def load(cls, path: str | os.PathLike[str] | None = None) -> CheckConfig:
        """The ``[check]`` section of the given or discovered configuration file."""
        from .config import load_config

        raw: RawConfig = load_config(None if path is None else Path(path))
        where = f"{raw.path}: [check]" if raw.path else "[check]"
        return cls.from_section(raw.section("check"), where)


def _check_rule_name(name: str, where: str) -> None:
    if name.split("/", 1)[0] not in PACKS:
        raise ConfigError(f"{where}: {name!r} names no pack or rule (packs: {', '.join(PACKS)})")


def _as_config(config: CheckConfig | Mapping[str, Any] | None) -> CheckConfig:
    if config is None:
        return CheckConfig()
    if isinstance(config, CheckConfig):
        return config
    return CheckConfig.from_section(config)


@dataclass
class FileResult:
    """The findings of one file, or why it could not be read."""

    path: str
    findings: list[Finding] = field(default_factory=list)
    error: str | None = None


@dataclass
class CheckReport:
    """Everything ``genlint check`` found; reporters render it."""

    files: list[FileResult] = field(default_factory=list)
    rules: list[Rule] = field(default_factory=list)

    @property
    def findings(self) -> list[Finding]:
        return [f for file in self.files for f in file.findings]

    @property
    def errors(self) -> list[FileResult]:
        return [file for file in self.files if file.error is not None]

    @property
    def exit_code(self) -> int:
        if self.errors:
            return 2
        return 1 if any(file.findings for file in self.files) else 0

    def by_rule(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for finding in self.findings:
            counts[finding.rule] = counts.get(finding.rule, 0) + 1
        return dict(sorted(counts.items()))


class Checker:
    """Selected rules plus configuration, ready to run over many texts."""

    def __init__(
        self,
        select: Iterable[str] | str | None = None,
        ignore: Iterable[str] | str | None = None,
        config: CheckConfig | Mapping[str, Any] | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> None:
        cfg = _as_config(config)
        chosen_select = select if select else (cfg.select or None)
        ignored = [*_as_list(ignore), *cfg.ignore]
        self.rules = select_rules(chosen_select, ignored, extra=cfg.patterns)
        known = {rule.id for rule in self.rules}
        for key in cfg.severity:
            if "/" in key and key not in known and not any(r.id == key for r in cfg.patterns):
                # a severity for a rule that exists but is not selected is fine; a typo is not
                from .rules import all_rules

                if key not in {r.id for r in all_rules()}:
                    raise ConfigError(f"[check].severity: unknown rule {key!r}")
        self.config = cfg
        self.options = dict(options or {})
        self._triggers: dict[str | tuple[str, ...], tuple[re.Pattern[str], ...]] = {}
        for rule in self.rules:
            trig = rule.trigger
            if trig is not None and trig not in self._triggers:
                self._triggers[trig] = tuple(
                    re.compile(t) for t in ((trig,) if isinstance(trig, str) else trig)
                )

    def severity_of(self, rule: Rule) -> Severity:
        sev = self.config.severity
        return sev.get(rule.id) or sev.get(rule.pack) or rule.severity

    def hits(self, text: str, ctx: RuleContext) -> list[tuple[Rule, Hit]]:
        """Every rule's hits on ``text`` after code skipping, overlap and allowlist filtering."""
        # each trigger pattern is scanned once even when several rules list it
        cache: dict[str, tuple[tuple[int, int], ...]] = {}
        windows = {t: _merged_windows(text, ps, cache) for t, ps in self._triggers.items()}
        out: list[tuple[Rule, Hit]] = []
        for rule in self.rules:
            if rule.trigger is not None:
                wins = windows[rule.trigger]
                if not wins:
                    continue
                rule_ctx = replace(ctx, windows=wins)
            else:
                rule_ctx = ctx
            for hit in rule.find(text, rule_ctx):
                if not (0 <= hit.start < hit.end <= len(text)):
                    log.debug("rule %s gave an invalid span %r; ignored", rule.id, hit)
                    continue
                if rule.skip_code and ctx.code_ranges and _inside(hit, ctx.code_ranges):
                    continue
                out.append((rule, hit))
        out = _drop_overlaps(out)
        if self.config.allowlist:
            out = [(r, h) for r, h in out if not _allowed(text, h, self.config.allowlist)]
        return out

    def check(
        self,
        text: str,
        ctx: RuleContext | None = None,
        *,
        page_starts: Sequence[int] | None = None,
        pointer: str | None = None,
        locate: Any = None,
    ) -> list[Finding]:
        """Findings on one text; ``locate(offset) -> (line, column)`` overrides the position
        (JSON strings report where they are in the file)."""
        ctx = ctx or RuleContext(options=self.options)
        pairs = sorted(self.hits(text, ctx), key=lambda rh: (rh[1].start, rh[1].end))
        findings: list[Finding] = []
        # per rule id, once per text: a dense file has tens of thousands of findings
        severities = {rule.id: self.severity_of(rule) for rule in self.rules}
        line, line_start, pos = 1, 0, 0
        for rule, hit in pairs:
            # walk forward counting line breaks: no line table, so memory stays flat
            breaks = text.count("\n", pos, hit.start)
            if breaks:
                line += breaks
                line_start = text.rfind("\n", pos, hit.start) + 1
            pos = hit.start
            matched = text[hit.start : hit.end]
            if locate is not None:
                at_line, at_col = locate(hit.start)
            else:
                at_line, at_col = line, hit.start - line_start + 1
            # the shown line is capped so one huge line does not get copied per finding
            shown_start = max(line_start, hit.start - _SHOWN_CONTEXT)
            line_end = text.find("\n", hit.start, hit.end + _SHOWN_CONTEXT)
            if line_end < 0:
                line_end = min(len(text), hit.end + _SHOWN_CONTEXT)
            source_line = text[shown_start:line_end]
            findings.append(
                Finding(
                    rule=rule.id,
                    message=hit.message or rule.message(matched),
                    text=matched,
                    start=hit.start,
                    end=hit.end,
                    line=at_line,
                    column=at_col,
                    severity=severities[rule.id],
                    page=_page_of(page_starts, hit.start) if page_starts is not None else None,
                    pointer=pointer,
                    fix=hit.fix,
                    extra={"source_line": source_line, "source_column": hit.start - shown_start},
                )
            )
        return findings

    def check_document(self, doc: Document) -> list[Finding]:
        findings: list[Finding] = []
        for seg in doc.segments:
            ctx = RuleContext(
                options=self.options,
                kind=doc.kind,
                path=doc.path,
                code_ranges=tuple(seg.code_ranges),
            )
            findings.extend(
                self.check(
                    seg.text,
                    ctx,
                    page_starts=doc.page_starts,
                    pointer=seg.pointer,
                    locate=seg.locate,
                )
            )
        return findings


def _as_list(value: Iterable[str] | str | None) -> list[str]:
    if value is None:
        return []
    return [value] if isinstance(value, str) else list(value)


def _windows(text: str, trigger: re.Pattern[str]) -> tuple[tuple[int, int], ...]:
    """Spans around the matches of ``trigger``: from the start of the line (at most
    ``_WINDOW_MARGIN`` back) to the first line break at least ``_WINDOW_SPAN`` further on.

    A window holds several lines, so a frequent trigger costs few Python steps; the rules scan
    the extra text in C. Every match of a rule contains a match of its trigger, so a window
    reaching a margin past its last trigger holds every match around it.
    """
    out: list[tuple[int, int]] = []
    n = len(text)
    literal = _literal(trigger.pattern)
    if literal is not None:
        # str.find beats re on a plain string (up to 5x when it is rare)
        find = text.find
        width = len(literal)

        def locate(pos: int) -> tuple[int, int] | None:
            i = find(literal, pos)
            return None if i < 0 else (i, i + width)

    else:
        search = trigger.search

        def locate(pos: int) -> tuple[int, int] | None:
            m = search(text, pos)
            return None if m is None else m.span()

    hit = locate(0)
    while hit is not None:
        p, hit_end = hit
        lo = max(0, p - _WINDOW_MARGIN)
        nl = text.rfind("\n", lo, p)
        start = nl + 1 if nl >= 0 else lo
        stop = max(hit_end, p + _WINDOW_SPAN)
        nl = text.find("\n", stop, stop + _WINDOW_MARGIN)
        end = nl if nl >= 0 else min(n, stop + _WINDOW_MARGIN)
        # windows a short gap apart are joined: scanning the gap costs less than another call
        if out and start <= out[-1][1] + _JOIN_GAP:
            out[-1] = (out[-1][0], max(end, out[-1][1]))
        else:
            out.append((start, end))
        if end >= n:
            break
        # a trigger in the last margin of the window may start a match that runs past its end:
        # search again from there, so such a trigger widens the window
        hit = locate(max(p + 1, end - _WINDOW_MARGIN))
    return tuple(out)


_METACHARS = frozenset(".^$*+?{}[]|()\\")


def _literal(pattern: str) -> str | None:
    """The plain string a pattern matches (``\\[`` is ``[``), or None if it is a real regex."""
    out: list[str] = []
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            nxt = pattern[i + 1 : i + 2]
            if not nxt or nxt.isalnum():
                return None  # \d, \w, \1…: a class or a reference, not a character
            out.append(nxt)
            i += 2
            continue
        if ch in _METACHARS:
            return None
        out.append(ch)
        i += 1
    return "".join(out) or None


def _merged_windows(
    text: str,
    triggers: Sequence[re.Pattern[str]],
    cache: dict[str, tuple[tuple[int, int], ...]] | None = None,
) -> tuple[tuple[int, int], ...]:
    """The union of the windows of several triggers (each scanned on its own: a literal-first
    pattern is found at memchr speed, an alternation of them is not)."""
    cache = {} if cache is None else cache
    for t in triggers:
        if t.pattern not in cache:
            cache[t.pattern] = _windows(text, t)
    if len(triggers) == 1:
        return cache[triggers[0].pattern]
    spans = sorted(w for t in triggers for w in cache[t.pattern])
    out: list[tuple[int, int]] = []
    for start, end in spans:
        if out and start <= out[-1][1] + _JOIN_GAP:
            if end > out[-1][1]:
                out[-1] = (out[-1][0], end)
        else:
            out.append((start, end))
    return tuple(out)


def _inside(hit: Hit, ranges: Sequence[tuple[int, int]]) -> bool:
    """Whether the hit lies in one of the sorted, non-overlapping ``ranges`` (bisect: a
    Markdown file can hold thousands of code spans)."""
    import bisect

    i = bisect.bisect_right(ranges, (hit.start, float("inf"))) - 1
    return i >= 0 and ranges[i][0] <= hit.start and hit.end <= ranges[i][1]


def _drop_overlaps(pairs: list[tuple[Rule, Hit]]) -> list[tuple[Rule, Hit]]:
    """Within a pack, overlapping hits name one problem: keep the longest (then earliest)."""
    by_pack: dict[str, list[tuple[Rule, Hit]]] = {}
    for pair in pairs:
        by_pack.setdefault(pair[0].id.partition("/")[0], []).append(pair)
    kept: list[tuple[Rule, Hit]] = []
    for group in by_pack.values():
        group.sort(key=lambda rh: (rh[1].start, -rh[1].end))
        # sweep clusters of mutually overlapping hits; clusters are tiny, so greedy is cheap
        cluster: list[tuple[Rule, Hit]] = []
        reach = -1
        for pair in group:
            if cluster and pair[1].start >= reach:
                kept.extend(_longest_first(cluster))
                cluster = []
            cluster.append(pair)
            reach = max(reach, pair[1].end) if len(cluster) > 1 else pair[1].end
        if cluster:
            kept.extend(_longest_first(cluster))
    return kept


def _longest_first(cluster: list[tuple[Rule, Hit]]) -> list[tuple[Rule, Hit]]:
    if len(cluster) == 1:
        return cluster
    ordered = sorted(cluster, key=lambda rh: (-(rh[1].end - rh[1].start), rh[1].start))
    taken: list[tuple[Rule, Hit]] = []
    for rule, hit in ordered:
        if all(hit.end <= h.start or h.end <= hit.start for _, h in taken):
            taken.append((rule, hit))
    return taken


def _allowed(text: str, hit: Hit, allowlist: Sequence[str]) -> bool:
    """Whether an occurrence of an allowlisted phrase covers the hit."""
    for phrase in allowlist:
        n = len(phrase)
        lo = max(0, hit.end - n)
        i = text.find(phrase, lo, hit.start + n)
        while i != -1 and i <= hit.start:
            if i + n >= hit.end:
                return True
            i = text.find(phrase, i + 1, hit.start + n)
    return False


def _page_of(page_starts: Sequence[int], offset: int) -> int:
    import bisect

    return bisect.bisect_right(page_starts, offset)


def check_text(
    text: str,
    select: Iterable[str] | str | None = None,
    config: CheckConfig | Mapping[str, Any] | None = None,
    *,
    ignore: Iterable[str] | str | None = None,
    options: Mapping[str, Any] | None = None,
    markdown: bool = False,
) -> list[Finding]:
    """Findings of the selected rules (default: every default pack) on one text.

    ``select``/``ignore`` take pack names or rule ids; ``config`` is a :class:`CheckConfig` or
    a ``[check]`` table as a dict; ``options`` reach rules as ``ctx.options`` (e.g.
    ``{"sources": [...]}`` for the citation pack). ``markdown=True`` reads the text as
    Markdown: placeholder and citation rules then skip code fences and inline code (an LLM
    reply with a code sample).
    """
    checker = Checker(select, ignore, config, options)
    if not markdown:
        return checker.check(text)
    from .readers.markdown import code_ranges

    ctx = RuleContext(options=checker.options, kind="md", code_ranges=tuple(code_ranges(text)))
    return checker.check(text, ctx)


def check_paths(
    paths: Sequence[str | os.PathLike[str]],
    select: Iterable[str] | str | None = None,
    config: CheckConfig | Mapping[str, Any] | None = None,
    *,
    ignore: Iterable[str] | str | None = None,
    options: Mapping[str, Any] | None = None,
) -> CheckReport:
    """Read and check files and folders (recursively); ``-`` is standard input.

    A file that cannot be read (corrupt, encrypted, binary) is reported in its
    :class:`FileResult` and the others are still checked. A missing path or a folder with no
    supported file raises InputError; an unknown rule raises UnknownRuleError.
    """
    from .readers import expand_paths, read_document

    checker = Checker(select, ignore, config, options)
    files = expand_paths([str(p) for p in paths])
    report = CheckReport(rules=checker.rules)
    for path in files:
        try:
            doc = read_document(path)
            report.files.append(FileResult(path, checker.check_document(doc)))
        except (UnknownRuleError, ConfigError):
            raise  # about the run, not this file
        except GenlintError as exc:  # unreadable, corrupt, encrypted, binary: this file only
            report.files.append(FileResult(path, error=str(exc)))
    return report


def display_path(path: str) -> str:
    """A path as reports show it: relative to the working directory when below it."""
    if path == "-":
        return path
    try:
        return Path(path).resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return Path(path).as_posix()
