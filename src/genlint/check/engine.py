"""The check engine: run selected rules over text and files, and turn hits into findings.

``check_text`` checks one string; ``check_paths`` reads files and folders (through
:mod:`genlint.readers`) and returns a :class:`CheckReport` that the reporters render.
"""

from __future__ import annotations

import functools
import logging
import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..errors import ConfigError, GenlintError, UnknownRuleError, failure_line
from ..findings import Finding, Severity
from ..written import fold
from .config import PROFILES, CheckConfig, as_config
from .report import CheckReport, FileResult
from .rules import Hit, Rule, RuleContext, select_rules
from .windows import TriggerWindows, merged_windows

if TYPE_CHECKING:
    from ..readers import Document, Segment
    from .prefilter import TriggerPlan

__all__ = ["Checker", "check_file", "check_paths", "check_text"]

log = logging.getLogger(__name__)

# How much of a long line a finding quotes around its span.
_SHOWN_CONTEXT = 160
# Texts up to this many characters are scanned whole by every rule whose trigger occurs in them
# (windows only pay off on long texts).
_SHORT_TEXT = 2048
# Texts from this many characters find their trigger windows with numpy (check/prefilter.py):
# it has a fixed cost of about a millisecond, and repays it from about 40,000 characters on
# (measured: a whole check of 50,000 characters 8.3 ms against 9.5 ms; of 20,000, 5.3 ms
# against 4.4 ms).
_VECTOR_TEXT = 40_000
# Short texts checked before the search for any trigger at once is compiled (its 6 ms are repaid
# after about 850 texts, at 7 us saved each: a run of a few files never pays them).
_COMBINE_AFTER = 200


class Checker:
    """Selected rules plus configuration, ready to run over many texts."""

    def __init__(
        self,
        select: Iterable[str] | str | None = None,
        ignore: Iterable[str] | str | None = None,
        config: CheckConfig | Mapping[str, Any] | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> None:
        cfg = as_config(config)
        chosen_select = select if select else (cfg.select or None)
        ignored = [*_as_list(ignore), *cfg.ignore]
        self.rules = select_rules(chosen_select, ignored, extra=cfg.patterns)
        self._sensitive = [r for r in self.rules if r.pack == "sensitive"]
        known = {rule.id for rule in self.rules}
        for key in cfg.severity:
            if "/" in key and key not in known and not any(r.id == key for r in cfg.patterns):
                # a severity for a rule that exists but is not selected is fine; a typo is not
                from .rules import all_rules

                if key not in {r.id for r in all_rules()}:
                    raise ConfigError(f"[check].severity: unknown rule {key!r}")
        self.config = cfg
        self.options = dict(options or {})
        # the document profile reaches rules as an option; the command line beats the file
        profile = self.options.get("profile") or cfg.profile
        if profile not in PROFILES:
            raise ConfigError(f"unknown profile {profile!r} (profiles: {', '.join(PROFILES)})")
        self.options["profile"] = profile
        self._triggers: dict[str | tuple[str, ...], tuple[re.Pattern[str], ...]] = {}
        for rule in self.rules:
            trig = rule.trigger
            if trig is not None and trig not in self._triggers:
                self._triggers[trig] = tuple(
                    re.compile(t) for t in ((trig,) if isinstance(trig, str) else trig)
                )
        self._plan: TriggerPlan | None = None
        # short texts seen, and then one pattern for "any trigger at all" (see _short_triggers)
        self._short_texts = 0
        self._any_trigger: re.Pattern[str] | None = None
        # per rule id, once per checker: a JSON file is thousands of short texts
        self._severities = {rule.id: self.severity_of(rule) for rule in self.rules}

    def severity_of(self, rule: Rule) -> Severity:
        sev = self.config.severity
        return sev.get(rule.id) or sev.get(rule.pack) or rule.severity

    def _windows(self, text: str) -> dict[Any, TriggerWindows]:
        """Each trigger's windows over a text longer than ``_SHORT_TEXT``."""
        if len(text) >= _VECTOR_TEXT:
            # all triggers in one vectorised pass (numpy, imported only now)
            if self._plan is None:
                from .prefilter import TriggerPlan

                self._plan = TriggerPlan(self._triggers)
            return self._plan.windows(text)
        # each trigger pattern is scanned once even when several rules list it
        cache: dict[str, tuple[tuple[int, int], ...]] = {}
        out = {}
        for t, ps in self._triggers.items():
            whole = merged_windows(text, ps, cache)
            out[t] = TriggerWindows(whole, tuple(cache[p.pattern] for p in ps))
        return out

    def _short_triggers(self, text: str) -> dict[Any, bool]:
        """Which triggers occur in a short text. Most short texts (the strings of a JSON file)
        hold none, which one search of all trigger patterns at once tells in half the
        time of a search per pattern; that pattern takes 6 ms to compile, so it is built only
        once a run has shown it checks many short texts."""
        if self._any_trigger is None:
            self._short_texts += 1
            if self._short_texts == _COMBINE_AFTER:
                self._any_trigger = _any_of([p for ps in self._triggers.values() for p in ps])
        elif self._any_trigger.search(text) is None:
            return dict.fromkeys(self._triggers, False)
        return {t: any(p.search(text) for p in ps) for t, ps in self._triggers.items()}

    def hits(self, text: str, ctx: RuleContext) -> list[tuple[Rule, Hit]]:
        """Every rule's hits on ``text`` after code skipping, overlap and allowlist filtering."""
        folded = fold(text) if self._sensitive else None
        if folded is None:
            out = self._found(self.rules, text, ctx)
        else:
            # the sensitive rules read the text with its written variants made one (zero-width
            # characters out, odd blanks as spaces: genlint/written.py); their spans are mapped
            # back, so a finding covers the value as written
            others = [r for r in self.rules if r.pack != "sensitive"]
            out = self._found(others, text, ctx)
            sub = replace(ctx, code_ranges=())
            for rule, hit in self._found(self._sensitive, folded.text, sub):
                start, end = folded.span(hit.start, hit.end)
                if (
                    rule.skip_code
                    and ctx.code_ranges
                    and _inside(hit._replace(start=start, end=end), ctx.code_ranges)
                ):
                    continue
                out.append((rule, hit._replace(start=start, end=end)))
        out = _drop_overlaps(out)
        if self.config.allowlist:
            from .suppress import allowed_text

            allow = self.config.allowlist
            out = [(r, h) for r, h in out if not allowed_text(text, h.start, h.end, allow)]
        return out

    def _found(self, rules: Sequence[Rule], text: str, ctx: RuleContext) -> list[tuple[Rule, Hit]]:
        short = len(text) <= _SHORT_TEXT
        if short:
            # a short text (a JSON string value, a reply) is cheaper to scan whole than to cut
            # into windows: a rule runs on all of it when its trigger occurs at all
            found = self._short_triggers(text)
        else:
            windows = self._windows(text)
        out: list[tuple[Rule, Hit]] = []
        for rule in rules:
            if rule.trigger is None:
                rule_ctx = ctx
            elif short:
                if not found[rule.trigger]:
                    continue
                rule_ctx = ctx
            else:
                wins = windows[rule.trigger]
                if not wins.all:
                    continue
                rule_ctx = replace(ctx, windows=wins.all, part_windows=wins.parts)
            for hit in rule.find(text, rule_ctx):
                if not (0 <= hit.start < hit.end <= len(text)):
                    log.debug("rule %s gave an invalid span %r; ignored", rule.id, hit)
                    continue
                if rule.skip_code and ctx.code_ranges and _inside(hit, ctx.code_ranges):
                    continue
                out.append((rule, hit))
        return out

    def check(
        self,
        text: str,
        ctx: RuleContext | None = None,
        *,
        page_starts: Sequence[int] | None = None,
        pointer: str | None = None,
        locate: Any = None,
        places: Sequence[tuple[int, dict[str, Any]]] = (),
    ) -> list[Finding]:
        """Findings on one text; ``locate(offset) -> (line, column)`` overrides the position
        (JSON strings report where they are in the file). With ``page_starts`` a finding's
        line counts from the top of its page; ``places`` give each finding the location of the
        text it falls in (see :mod:`genlint.readers`)."""
        ctx = ctx or RuleContext(options=self.options)
        pairs = sorted(self.hits(text, ctx), key=lambda rh: (rh[1].start, rh[1].end))
        findings: list[Finding] = []
        append = findings.append
        severities = self._severities
        # one string per distinct (rule, text): an anonymised judgment repeats 李某 900 times,
        # and each finding then holds references, not copies (docs/benchmarks.md)
        shared: dict[tuple[str, str], tuple[str, str]] = {}
        line, line_start, pos = 1, 0, 0
        shown_key: tuple[int, int] = (-1, -1)
        shown = ""
        pages = _Pages(text, page_starts) if page_starts else None
        place_at = _Places(places) if places else None
        line_starts: list[int] = []  # built on the first finding that names a related place
        for rule, hit in pairs:
            start, end = hit.start, hit.end
            # walk forward counting line breaks: no line table, so memory stays flat
            breaks = text.count("\n", pos, start)
            if breaks:
                line += breaks
                line_start = text.rfind("\n", pos, start) + 1
            pos = start
            key = (rule.id, text[start:end])
            cached = shared.get(key)
            if cached is None:
                cached = shared[key] = (key[1], rule.message(key[1]))
            matched, message = cached
            page = None
            if locate is not None:
                at_line, at_col = locate(start)
            else:
                at_line, at_col = line, start - line_start + 1
                if pages is not None:
                    page, at_line = pages.locate(start, line)
            # the shown part of a long line is a window in steps of _SHOWN_CONTEXT, so the
            # findings of one stretch share one string and none copies the whole line
            shown_start = line_start + max(0, (start - line_start) // _SHOWN_CONTEXT - 1) * (
                _SHOWN_CONTEXT
            )
            limit = max(shown_start + 3 * _SHOWN_CONTEXT, end + _SHOWN_CONTEXT)
            line_end = text.find("\n", start, limit)
            if line_end < 0:
                line_end = min(len(text), limit)
            if (shown_start, line_end) != shown_key:
                shown_key = (shown_start, line_end)
                shown = text[shown_start:line_end]
            append(
                Finding(
                    rule.id,
                    hit.message or message,
                    matched,
                    start,
                    end,
                    at_line,
                    at_col,
                    severities[rule.id],
                    page,
                    pointer,
                    hit.fix,
                    place_at(start) if place_at is not None else None,
                    source_line=shown,
                    source_column=start - shown_start,
                    related=_related(text, hit, locate, pages, place_at, line_starts)
                    if hit.related
                    else (),
                )
            )
        return findings

    def check_document(self, doc: Document) -> list[Finding]:
        findings: list[Finding] = []
        for index, seg in enumerate(doc.segments):
            if seg.packs is not None and not any(r.pack in seg.packs for r in self.rules):
                continue
            ctx = RuleContext(
                options=self.options,
                kind=doc.kind,
                path=doc.path,
                code_ranges=tuple(seg.code_ranges),
                places=tuple(seg.places),
                labels_with_values=seg.labels_with_values,
            )
            found = self.check(
                seg.text,
                ctx,
                page_starts=doc.page_starts if seg.page is None and seg.packs is None else None,
                pointer=seg.pointer,
                locate=seg.locate,
                places=seg.places,
            )
            if seg.packs is not None:
                found = [f for f in found if f.pack in seg.packs]
            if seg.page is not None:
                for f in found:
                    f.page = seg.page
            findings.extend(found)
            if index == 0 and doc.leftovers:
                # in document order: at the first change or comment, among the text's findings
                findings = sorted(
                    self._document_findings(doc, seg) + findings, key=lambda f: f.start
                )
        return findings

    def _document_findings(self, doc: Document, seg: Segment) -> list[Finding]:
        """``document`` pack findings from what the reader counted: one per rule and file,
        at the first place the leftover occurs (a zero-width span)."""
        from .rules.document import DocumentRule

        out: list[Finding] = []
        for rule in self.rules:
            if not isinstance(rule, DocumentRule) or rule.leftover not in doc.leftovers:
                continue
            count, offset = doc.leftovers[rule.leftover]
            offset = min(max(offset, 0), len(seg.text))
            line = seg.text.count("\n", 0, offset) + 1
            line_start = seg.text.rfind("\n", 0, offset) + 1
            column = offset - line_start + 1
            # the changed or commented paragraph, so a person sees which one (Word has no
            # "go to paragraph 7")
            line_end = seg.text.find("\n", offset)
            snippet = seg.text[line_start : line_end if line_end >= 0 else len(seg.text)]
            out.append(
                Finding(
                    rule=rule.id,
                    message=rule.message_for(count),
                    text="",
                    start=offset,
                    end=offset,
                    line=line,
                    column=column,
                    severity=self.severity_of(rule),
                    location=_Places(seg.places)(offset) if seg.places else None,
                    extra={"count": count},
                    source_line=snippet[: column - 1 + _SHOWN_CONTEXT],
                    source_column=column - 1,
                )
            )
        return out


def _related(
    text: str, hit: Hit, locate: Any, pages: Any, place_at: Any, line_starts: list[int]
) -> tuple[dict[str, Any], ...]:
    """The places a hit names besides its own span, each located as a finding is. The line
    table (``line_starts``, filled here) is built only for a text with such findings."""
    import bisect

    out: list[dict[str, Any]] = []
    for start, end in hit.related:
        if not (0 <= start < end <= len(text)):
            continue
        if locate is not None:
            line, column = locate(start)
        else:
            if not line_starts:
                line_starts.append(0)
                line_starts.extend(m.end() for m in re.finditer("\n", text))
            line = bisect.bisect_right(line_starts, start)
            column = start - line_starts[line - 1] + 1
        entry: dict[str, Any] = {
            "text": text[start:end], "start": start, "end": end, "line": line, "column": column
        }
        if locate is None and pages is not None:
            entry["page"], entry["line"] = pages.locate(start, line)
        if place_at is not None:
            entry.update(place_at(start) or {})
        out.append(entry)
    return tuple(out)


def _any_of(patterns: Sequence[re.Pattern[str]]) -> re.Pattern[str] | None:
    """One pattern that matches where any of ``patterns`` does (None when they cannot be
    joined: a group could be referred to by number, a flag is set, or the join fails)."""
    if not patterns or any(p.groups or p.flags != re.UNICODE for p in patterns):
        return None
    try:
        return re.compile("|".join(f"(?:{p.pattern})" for p in patterns))
    except re.error:  # e.g. a global inline flag, allowed only at the start
        return None


def _as_list(value: Iterable[str] | str | None) -> list[str]:
    if value is None:
        return []
    return [value] if isinstance(value, str) else list(value)


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


class _Pages:
    """Page of an offset, and a line counted from the top of that page (a person reads the
    page number printed beside the line, not a count from the start of the file)."""

    def __init__(self, text: str, starts: Sequence[int]) -> None:
        self.starts = list(starts)
        self.first_lines: list[int] = []
        line, pos = 1, 0
        for start in self.starts:
            line += text.count("\n", pos, start)
            pos = start
            self.first_lines.append(line)

    def locate(self, offset: int, line: int) -> tuple[int, int]:
        import bisect

        page = max(1, bisect.bisect_right(self.starts, offset))
        return page, line - self.first_lines[page - 1] + 1


class _Places:
    """The place (DOCX part and paragraph or cell, OCR box) of an offset."""

    def __init__(self, places: Sequence[tuple[int, dict[str, Any]]]) -> None:
        self.starts = [start for start, _ in places]
        self.fields = [fields for _, fields in places]

    def __call__(self, offset: int) -> dict[str, Any] | None:
        import bisect

        i = bisect.bisect_right(self.starts, offset) - 1
        return (self.fields[i] or None) if i >= 0 else None  # shared, read-only


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
    from ..readers.markdown import code_ranges

    ctx = RuleContext(options=checker.options, kind="md", code_ranges=tuple(code_ranges(text)))
    return checker.check(text, ctx)


def check_paths(
    paths: Sequence[str | os.PathLike[str]],
    select: Iterable[str] | str | None = None,
    config: CheckConfig | Mapping[str, Any] | None = None,
    *,
    ignore: Iterable[str] | str | None = None,
    options: Mapping[str, Any] | None = None,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> CheckReport:
    """Read and check files and folders (recursively); ``-`` is standard input.

    A file that cannot be read (corrupt, encrypted, binary) is reported in its
    :class:`FileResult` and the others are still checked. A missing path is such a file too; a folder with no
    supported file raises InputError; an unknown rule raises UnknownRuleError.

    ``jobs`` > 1 checks the files in that many worker processes (:mod:`genlint.check.parallel`)
    with the same report in the same order; ``progress(n)`` is called as files finish.
    """
    from ..readers import expand_paths

    # built here even with workers: an unknown rule fails once, before any process starts
    checker = Checker(select, ignore, config, options)
    skipped: list[str] = []
    files = expand_paths([str(p) for p in paths], skipped)
    if checker.config.exclude:
        from .suppress import not_excluded

        files = not_excluded(files, checker.config)
    report = CheckReport(
        rules=checker.rules, configuration=checker.config.source, skipped=skipped
    )
    if jobs > 1 and len(files) > 2:
        from .parallel import check_files_parallel

        settings = (select, ignore, config, options)
        report.files.extend(
            check_files_parallel(
                files,
                settings,
                jobs,
                setup=worker_check,
                check_here=functools.partial(check_file, checker),
                progress=progress,
            )
        )
        return report
    # one or two files: starting a worker costs more than checking them here
    from ..readers.ocr import page_jobs

    with page_jobs(jobs):  # … but a scan's pages may be read by OCR in workers
        for path in files:
            report.files.append(check_file(checker, path))
            if progress is not None:
                progress(1)
    return report


def worker_check(settings: tuple[Any, Any, Any, Any]) -> Callable[[str], FileResult]:
    """A worker's check of one path, its Checker built once (the pool's ``Job.setup``; sent to
    the workers by name). ``check_file`` is looked up at call time, so a test can replace it."""
    return functools.partial(check_file, Checker(*settings))


def check_file(checker: Checker, path: str, data: bytes | None = None) -> FileResult:
    """One file's result: its findings, or why it could not be read (``data``: its bytes
    when they are already in memory, as in a Ray batch)."""
    from .._io import read_bytes
    from ..readers import read_data, sensitive_places

    try:
        if data is None:
            data = read_bytes(path)
        with sensitive_places(any(rule.pack == "sensitive" for rule in checker.rules)):
            doc = read_data(path, data)
        # read once: a DOCX file's Word comments (genlint: ignore) are found in its bytes
        raw = data if doc.kind == "docx" else None
        del data
        findings = checker.check_document(doc)
        findings, silenced = _silenced(checker, doc, findings, raw)
        if findings or silenced:
            for finding in findings:
                finding.path = path  # the Python API's findings say where they are
            for finding, _ in silenced:
                finding.path = path
        result = FileResult(path, findings, None, doc.encoding, doc.warnings, doc.images_not_read)
        result.suppressed = [f for f, _ in silenced]
        result.suppressed_by = [why for _, why in silenced]
        return result
    except (UnknownRuleError, ConfigError):
        raise  # about the run, not this file
    except GenlintError as exc:  # unreadable, corrupt, encrypted, binary: this file only
        return FileResult(path, error=str(exc))
    except Exception as exc:  # a bug or a resource limit met by this file: it costs only this file
        return FileResult(path, error=failure_line(path, exc))


def _silenced(
    checker: Checker, doc: Document, findings: list[Finding], data: bytes | None
) -> tuple[list[Finding], list[tuple[Finding, str]]]:
    """(kept, (silenced, why)): what ``[check.per-file-ignores]`` and inline directives
    silence is kept aside for the report, which counts and lists it."""
    from .suppress import ignored_for, matches_rule, split_suppressed

    cfg = checker.config
    silenced: list[tuple[Finding, str]] = []
    if cfg.per_file_ignores and findings:
        names = ignored_for(doc.path, cfg.per_file_ignores, cfg.root)
        if names:
            kept = []
            for f in findings:
                if matches_rule(f.rule, names):
                    silenced.append((f, "[check.per-file-ignores]"))
                else:
                    kept.append(f)
            findings = kept
    if not cfg.inline_ignores:
        return findings, silenced
    ran = [rule.id for rule in checker.rules]
    findings, inline = split_suppressed(doc, findings, data, ran)
    return findings, silenced + inline
