"""The rule registry: packs of rules that ``genlint check`` runs over extracted text.

A rule id is ``PACK/NAME`` (``placeholder/mou-entity``). A pack is a subpackage
``genlint.check.rules.<pack>`` named in :data:`PACKS` and imported only when selected, so the start of
``genlint check`` pays only for the packs it runs.

Writing a pack
--------------
The pack module defines ``rules() -> list[Rule]``. Rules come in two kinds:

* **Pattern rules are data**: a ``rules.toml`` beside the pack's ``__init__.py``, loaded with
  :func:`load_pattern_rules`. Each ``[[rule]]`` table has ``name``, ``description`` (one line,
  also the default message), ``pattern`` (Python ``re`` syntax, compiled with ``re.VERBOSE``
  off), ``bad`` and ``good`` (lists of example strings: every bad one must be flagged, every
  good one must be clean), and optionally ``trigger``, ``severity``, ``skip_code``,
  ``message`` (``{text}`` is replaced by the matched text) and ``group`` (which group of the
  pattern is the reported span, default the whole match). ``pattern`` may be a list, one per
  pattern of a tuple ``trigger`` (each match of pattern i holds a match of trigger pattern i):
  each then scans only where its own trigger occurs, and each can start with its literal.
* **Rules that need logic are code**: subclass :class:`Rule`, set the same class attributes and
  override :meth:`Rule.find` (or :meth:`PatternRule.accept` to veto single matches, e.g. for a
  check digit).
* **Opt-in rules** set ``default = False``: they run only when selected by their id
  (``--select sensitive/person-name``), not when their pack is selected or nothing is. Their
  ``bad`` examples are checked with the rule selected.

``Rule.find(text, ctx)`` yields :class:`Hit` objects (``start``/``end`` code-point offsets into
``text``, end exclusive; optional ``message`` and ``fix``). The engine (``genlint.check``) turns
hits into :class:`~genlint.findings.Finding` objects, adds line/column/page/pointer, applies the
allowlist, severity overrides and ``--ignore``; a rule only finds spans.

``trigger`` (a plain ``re`` pattern, a tuple of them, or ``None``) is a speed hint: every span a
rule flags must contain a match of one of its triggers (the 某 of 某公司, the ``@`` of an
address) or start at most 100 characters after one (the label of a labelled value: 账号, 护照),
and be shorter than 200 characters. The engine then gives the rule only the text
around trigger matches as ``ctx.windows`` (``(pos, endpos)`` pairs, each starting at a line start
and ending at a line break where the line is not huge); iterate them with
``ctx.finditer(pattern, text)``, which calls ``pattern.finditer(text, pos, endpos)`` per window
(lookbehinds still see the text before ``pos``). A rule with ``trigger = None`` gets one window,
the whole text. A property test checks that windows never change what the packs find.
A rule with one pattern per pattern of a tuple trigger, each starting with that trigger
pattern, passes its index (``ctx.finditer(pattern, text, part=i)``) and scans only the windows
of that trigger pattern (``ctx.part_windows``): a pattern for ``［`` then costs nothing in a
text that holds only ``【``.

Speed: start every trigger and every pattern with a literal character (``某``, ``1[3-9]``):
``re`` then skips to it at memchr speed, while a leading character class, alternation of
classes or lookbehind makes it test every position (ten times slower on Chinese text). Put a
lookbehind after the first character instead (``_(?<![A-Za-z0-9_]_)_+``).

The context
-----------
:class:`RuleContext` carries what a rule may need besides the text:

* ``options`` — values from the command line / API, e.g. ``options["sources"]``: the parsed
  content of ``genlint check --sources FILE`` (the JSON list of sources of docs/commands/cite.md), or ``None``
  when not given. A rule that needs an option and does not get one yields nothing.
* ``kind`` — the reader that produced the text: ``txt``, ``md``, ``json``, ``docx``, ``pdf``
  (``text`` for :func:`genlint.check.check_text`).
* ``code_ranges`` — ``(start, end)`` spans of Markdown code (fences and inline code). The engine
  drops hits inside them for rules with ``skip_code = True`` (placeholder and citation rules:
  ``{name}`` in a code fence is code, not a slot; sensitive data is flagged even in code).
* ``path`` — the file being checked, or ``None``.
* ``memo`` — a dict for one text that every rule sees: rules that would scan the text the same
  way share one scan through it (the ``sensitive`` number rules share their digit runs). Key
  entries by module and check that the cached value is for this ``text`` and these windows.

Default selection (no ``--select``): every pack in :data:`DEFAULT_PACKS`, without the rules
that set ``default = False`` (opt-in: selected only by their id). The ``citation`` pack
is in it; its rule about ids that name no source yields nothing unless ``sources`` is given.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, NamedTuple

from ... import _lazy_re as lazy_re
from ...errors import ConfigError, UnknownRuleError
from ...findings import Severity

__all__ = [
    "DEFAULT_PACKS",
    "PACKS",
    "Hit",
    "PatternRule",
    "Rule",
    "RuleContext",
    "all_rules",
    "load_pack",
    "load_pattern_rules",
    "select_rules",
]

# pack name -> module; a pack is imported only when one of its rules is selected
PACKS: dict[str, str] = {
    "placeholder": "genlint.check.rules.placeholder",
    "sensitive": "genlint.check.rules.sensitive",
    "citation": "genlint.check.rules.citation",
    "document": "genlint.check.rules.document",
    # not in DEFAULT_PACKS: a check of generated text asks for it (--select consistency)
    "consistency": "genlint.check.rules.consistency",
}

DEFAULT_PACKS: tuple[str, ...] = ("placeholder", "sensitive", "citation", "document")

Window = tuple[int, int]


class Hit(NamedTuple):
    """A span a rule flags: code-point offsets into the text, ``end`` exclusive.

    (A named tuple: rules create one per match, and tuples are the cheapest object to make.)
    """

    start: int
    end: int
    message: str | None = None
    fix: str | None = None
    # the other places the finding is about ((start, end) each): the figures an amount in words
    # contradicts, the date a weekday is wrong for (docs/commands/check.md "Related places")
    related: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class RuleContext:
    """What a rule may know besides the text (see the module docstring)."""

    options: Mapping[str, Any] = field(default_factory=dict)
    kind: str = "text"
    path: str | None = None
    code_ranges: tuple[Window, ...] = ()
    windows: tuple[Window, ...] | None = None
    # the windows of each pattern of a tuple trigger, in its order (None: not known)
    part_windows: tuple[tuple[Window, ...], ...] | None = None
    # where the reader put each part of the text ((offset, fields) sorted by offset: a DOCX
    # table cell's table/row/cell): the layout a rule may use to tell a table cell from a line
    places: tuple[tuple[int, Mapping[str, Any]], ...] = ()
    # colons ending a line whose label has its value elsewhere in the layout (the reader
    # measured a PDF page): not empty fields
    labels_with_values: frozenset[int] = frozenset()
    # scratch space for one text, shared by the rules that run on it (the copies the engine
    # makes per rule share it): rules of a pack that scan alike keep one scan here
    memo: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def finditer(
        self, pattern: re.Pattern[str], text: str, part: int | tuple[int, ...] | None = None
    ) -> Iterator[re.Match[str]]:
        """``pattern.finditer`` over this rule's windows (the whole text when none). With
        ``part``, only over the windows of that pattern (or those patterns) of the trigger's
        tuple: for a pattern whose every match holds a match of one of them."""
        windows = self.windows
        if part is not None and self.part_windows is not None:
            if isinstance(part, int):
                windows = self.part_windows[part]
            else:
                from ..windows import join_windows

                windows = join_windows(sorted(w for i in part for w in self.part_windows[i]))
        if windows is None:
            yield from pattern.finditer(text)
            return
        for pos, endpos in windows:
            yield from pattern.finditer(text, pos, endpos)


class Rule:
    """Base class of every rule; subclasses set the class attributes and override ``find``."""

    id: ClassVar[str] = ""
    description: ClassVar[str] = ""
    bad: ClassVar[tuple[str, ...]] = ()
    good: ClassVar[tuple[str, ...]] = ()
    severity: ClassVar[Severity] = Severity.ERROR
    trigger: ClassVar[str | tuple[str, ...] | None] = None
    skip_code: ClassVar[bool] = False
    # False: an opt-in rule, run only when selected by its id (see select_rules)
    default: ClassVar[bool] = True

    @property
    def pack(self) -> str:
        return self.id.split("/", 1)[0]

    def find(self, text: str, ctx: RuleContext) -> Iterable[Hit]:
        raise NotImplementedError

    def message(self, matched: str) -> str:
        return self.description

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.id}>"


class PatternRule(Rule):
    """A rule defined by a regular expression (from a pack's ``rules.toml`` or the config)."""

    def __init__(
        self,
        id: str,
        description: str,
        pattern: str | Sequence[str],
        *,
        bad: Sequence[str] = (),
        good: Sequence[str] = (),
        severity: Severity = Severity.ERROR,
        trigger: str | tuple[str, ...] | None = None,
        skip_code: bool = False,
        message: str | None = None,
        group: int | str = 0,
        flags: int = 0,
    ) -> None:
        # instance attributes shadow the ClassVar defaults on purpose: one class, many rules
        self.id = id  # type: ignore[misc]
        self.description = description  # type: ignore[misc]
        self.bad = tuple(bad)  # type: ignore[misc]
        self.good = tuple(good)  # type: ignore[misc]
        self.severity = severity  # type: ignore[misc]
        self.trigger = trigger  # type: ignore[misc]
        self.skip_code = skip_code  # type: ignore[misc]
        # compiled when the rule first runs: most rules never run on a small text (start-up)
        sources = (pattern,) if isinstance(pattern, str) else tuple(pattern)
        if len(sources) > 1 and (not isinstance(trigger, tuple) or len(trigger) != len(sources)):
            raise ConfigError(f"{id}: a list of patterns needs one trigger pattern for each")
        self.patterns = tuple(lazy_re.compile(p, flags) for p in sources)
        self.group = group
        self._message = message

    def accept(self, match: re.Match[str], text: str, ctx: RuleContext) -> bool:
        """Veto hook for subclasses (check digits, context); the plain rule keeps every match."""
        return True

    def find(self, text: str, ctx: RuleContext) -> Iterable[Hit]:
        group = self.group
        by_part = len(self.patterns) > 1
        for part, pattern in enumerate(self.patterns):
            for m in ctx.finditer(pattern, text, part if by_part else None):
                start, end = m.span(group)
                if start < 0 or start == end or not self.accept(m, text, ctx):
                    continue
                yield Hit(start, end)

    def message(self, matched: str) -> str:
        if self._message:
            return self._message.replace("{text}", matched)
        return self.description


_RULE_KEYS = {
    "name",
    "description",
    "pattern",
    "bad",
    "good",
    "severity",
    "trigger",
    "skip_code",
    "message",
    "group",
    "ignore_case",
}


class UserPatternRule(PatternRule):
    """A pattern from the user's configuration: compiled with the ``regex`` module and run under
    a time limit per text, so a pattern such as ``(a+)+$`` cannot hang a check; one that runs
    out of time is an error for that file, never a silent pass."""

    timeout_s: ClassVar[float] = 2.0

    def __init__(
        self, id: str, description: str, pattern: str | Sequence[str], **kwargs: Any
    ) -> None:
        if not isinstance(pattern, str):
            raise ConfigError(f"{id}: 'pattern' must be a string")
        super().__init__(id, description, "(?!)", **kwargs)  # self.patterns are not used
        import regex

        self.bounded: Any = regex.compile(pattern, kwargs.get("flags", 0) | regex.VERSION0)

    def find(self, text: str, ctx: RuleContext) -> Iterable[Hit]:
        import time

        from ...errors import InputError

        deadline = time.monotonic() + self.timeout_s
        group = self.group
        for pos, endpos in ctx.windows or ((0, len(text)),):
            try:
                left = max(deadline - time.monotonic(), 0.001)
                for m in self.bounded.finditer(text, pos, endpos, timeout=left):
                    start, end = m.span(group)
                    if start >= 0 and start != end:
                        yield Hit(start, end)
            except TimeoutError:
                raise InputError(
                    f"the pattern of {self.id} ran over {self.timeout_s:g} s "
                    "(catastrophic backtracking?); fix it in the configuration"
                ) from None


def pattern_rule_from_table(
    pack: str, table: Mapping[str, Any], where: str, *, user: bool = False
) -> PatternRule:
    """Build one pattern rule from a TOML table; ConfigError names ``where`` on any mistake.
    ``user`` rules (from the configuration) run under a time limit (:class:`UserPatternRule`)."""
    unknown = set(table) - _RULE_KEYS - {"id"}
    if unknown:
        raise ConfigError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
    name = table.get("name")
    if name is None and isinstance(table.get("id"), str):
        prefix, _, name = table["id"].partition("/")
        if prefix != pack or not name:
            raise ConfigError(f"{where}: id {table['id']!r} must be '{pack}/NAME'")
    if not isinstance(name, str) or not re.fullmatch(r"[a-z0-9][a-z0-9-]*", name):
        raise ConfigError(f"{where}: 'name' must be lowercase letters, digits and '-'")
    if not isinstance(table.get("description"), str) or not table["description"]:
        raise ConfigError(f"{where}: 'description' must be a non-empty string")
    pattern = table.get("pattern")
    listed = isinstance(pattern, list) and all(isinstance(p, str) and p for p in pattern)
    if listed and pattern and not user:  # a pack's rule, not the configuration's
        pattern = tuple(pattern)
    elif not isinstance(pattern, str) or not pattern:
        raise ConfigError(f"{where}: 'pattern' must be a non-empty string")
    examples: dict[str, tuple[str, ...]] = {}
    for key in ("bad", "good"):
        value = table.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{where}: '{key}' must be a list of strings")
        examples[key] = tuple(value)
    severity_name = table.get("severity", "error")
    try:
        severity = Severity(severity_name)
    except ValueError:
        raise ConfigError(
            f"{where}: severity must be error, warning or info, not {severity_name!r}"
        ) from None
    trigger = table.get("trigger")
    if isinstance(trigger, list) and all(isinstance(t, str) for t in trigger):
        trigger = tuple(trigger)
    elif trigger is not None and not isinstance(trigger, str):
        raise ConfigError(f"{where}: 'trigger' must be a string or a list of strings")
    flags = re.IGNORECASE if table.get("ignore_case") else 0
    try:
        for t in (trigger,) if isinstance(trigger, str) else trigger or ():
            re.compile(t)
        rule = (UserPatternRule if user else PatternRule)(
            f"{pack}/{name}",
            table["description"],
            pattern,
            bad=examples["bad"],
            good=examples["good"],
            severity=severity,
            trigger=trigger,
            skip_code=bool(table.get("skip_code", False)),
            message=table.get("message"),
            group=table.get("group", 0),
            flags=flags,
        )
    except Exception as exc:  # re.error, or regex.error for a user pattern
        if not type(exc).__name__ == "error":
            raise
        raise ConfigError(f"{where}: invalid regular expression: {exc}") from None
    return rule


def load_pattern_rules(pack: str, path: str | Path) -> list[PatternRule]:
    """The ``[[rule]]`` tables of a pack's ``rules.toml`` as pattern rules."""
    from ...config import read_toml

    p = Path(path)
    data = read_toml(p)
    return [
        pattern_rule_from_table(pack, table, f"{p.name} rule {i + 1}")
        for i, table in enumerate(data.get("rule", []))
    ]


_loaded: dict[str, list[Rule]] = {}


def load_pack(pack: str) -> list[Rule]:
    """The rules of one pack, imported on first use and cached."""
    if pack not in _loaded:
        if pack not in PACKS:
            raise UnknownRuleError(f"unknown rule pack {pack!r} (known: {', '.join(PACKS)})")
        module = importlib.import_module(PACKS[pack])
        _loaded[pack] = list(module.rules())
    return _loaded[pack]


def all_rules() -> list[Rule]:
    """Every rule of every pack (imports all packs)."""
    return [rule for pack in PACKS for rule in load_pack(pack)]


def _split(items: Iterable[str] | str | None) -> list[str]:
    if items is None:
        return []
    if isinstance(items, str):
        items = [items]
    return [part.strip() for item in items for part in item.split(",") if part.strip()]


def did_you_mean(name: str, known: list[str], otherwise: str) -> str:
    """``did you mean placeholder/mou-name?`` for a pack or rule id mistyped or given without its
    pack, else ``otherwise`` (where the list is)."""
    import difflib

    wanted = name.lower()
    by_name = [rule_id for rule_id in known if rule_id.partition("/")[2] == wanted]
    close = by_name or difflib.get_close_matches(wanted, known, n=2, cutoff=0.75)
    if not close:
        names = {rule_id.partition("/")[2]: rule_id for rule_id in known if "/" in rule_id}
        close = [names[n] for n in difflib.get_close_matches(wanted, list(names), n=2, cutoff=0.75)]
    if close:
        return "did you mean " + " or ".join(close) + "?"
    return otherwise


def select_rules(
    select: Iterable[str] | str | None = None,
    ignore: Iterable[str] | str | None = None,
    extra: Sequence[Rule] = (),
) -> list[Rule]:
    """Rules chosen by ``--select``/``--ignore`` (pack names or rule ids, comma-separated).

    ``extra`` are rules from the configuration; they belong to their pack and follow its
    selection. A rule with ``default = False`` (opt-in: a name after 姓名 is personal data in a
    form but not in a judgment) runs only when its id is selected, never with its whole pack.
    An unknown pack or rule id raises UnknownRuleError.
    """
    selected = _split(select) or list(DEFAULT_PACKS)
    ignored = _split(ignore)
    packs = {item.split("/", 1)[0] for item in (*selected, *ignored)}
    for item in (*selected, *ignored):
        pack = item.split("/", 1)[0]
        if pack not in PACKS:
            hint = did_you_mean(
                item, [*PACKS, *(r.id for r in all_rules())], "packs: " + ", ".join(PACKS)
            )
            raise UnknownRuleError(f"unknown rule pack or rule {item!r} ({hint})")
    pool: dict[str, Rule] = {}
    for pack in sorted(packs, key=list(PACKS).index):
        for rule in load_pack(pack):
            pool[rule.id] = rule
    for rule in extra:
        pool.setdefault(rule.id, rule)
    for item in (*selected, *ignored):
        if "/" in item and item not in pool:
            hint = did_you_mean(item, list(pool), "see 'genlint rule' for the list")
            raise UnknownRuleError(f"unknown rule {item!r} ({hint})")
    chosen = [
        rule
        for rule in pool.values()
        if rule.id in selected or (rule.pack in selected and rule.default)
    ]
    kept = [rule for rule in chosen if rule.id not in ignored and rule.pack not in ignored]
    if not kept:
        # a gate that runs no rule would pass everything: that is a mistake, not a clean run
        raise UnknownRuleError(
            f"the selection leaves no rule to run (--select {','.join(selected)}"
            + (f" --ignore {','.join(ignored)})" if ignored else ")")
        )
    return kept
