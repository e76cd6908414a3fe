"""Masking a text: the ``sensitive`` findings of ``check``, replaced in place.

What is masked is exactly what the check finds (the same :class:`~genlint.check.Checker`, the
same rules, whatever the pack holds), never a second set of patterns. After replacing, the
output is checked again: a value whose kept ends still read as personal data (a rule added
later may know forms this module does not) is starred (first keeping its separators, so
``keep-ends`` still keeps length and grouping; then completely), so the invariant
"``check --select sensitive`` finds nothing in masked output" holds for every rule.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import GenlintError, InputError
from ..findings import Finding
from .styles import STYLES, keep_ends, kind_of, label, stars
from .vault import Vault

if TYPE_CHECKING:
    from ..check.config import CheckConfig
    from ..check.rules import RuleContext

__all__ = ["MaskResult", "Masker", "Replacement", "mask_text"]

PACK = "sensitive"
# re-check rounds before giving up (each round only stars more)
_ROUNDS = 6
_FULL = 2


@dataclass(slots=True)
class Replacement:
    """One masked value: where it was, what it became, and how long it was (never the value).

    ``start``/``end`` are offsets into the input text; ``line``, ``column``, ``page``,
    ``pointer`` and ``location`` are the finding's (docs/commands/check.md "Locations")."""

    rule: str
    start: int
    end: int
    replacement: str
    original_length: int
    line: int = 1
    column: int = 1
    page: int | None = None
    pointer: str | None = None
    location: Mapping[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "rule": self.rule,
            "start": self.start,
            "end": self.end,
            "line": self.line,
            "column": self.column,
        }
        if self.page is not None:
            out["page"] = self.page
        if self.pointer is not None:
            out["pointer"] = self.pointer
        if self.location:
            out.update(self.location)
        out["original_length"] = self.original_length
        out["replacement"] = self.replacement
        return out


@dataclass(slots=True)
class MaskResult:
    """``text`` with every selected finding masked; ``vault`` holds the tokens (``token``
    style only, else ``None``)."""

    text: str
    replacements: list[Replacement] = field(default_factory=list)
    vault: Vault | None = None

    @property
    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for r in self.replacements:
            out[r.rule] = out.get(r.rule, 0) + 1
        return dict(sorted(out.items()))


class Masker:
    """A style, the selected ``sensitive`` rules and (for tokens) a vault, ready for many texts."""

    def __init__(
        self,
        style: str = "keep-ends",
        select: Iterable[str] | str | None = None,
        config: CheckConfig | Mapping[str, Any] | None = None,
        *,
        vault: Vault | None = None,
        strict: bool = False,
    ) -> None:
        from ..check import Checker

        # refuse a file holding images that could not be read (no OCR, EMF): mask --strict
        self.strict = strict
        if style not in STYLES:
            raise InputError(f"unknown mask style {style!r} (choose {', '.join(STYLES)})")
        self.style = style
        chosen = select if select else PACK
        self.checker = Checker(chosen, config=config)
        others = sorted(r.id for r in self.checker.rules if r.pack != PACK)
        if others:
            raise InputError(f"mask masks personal data (the sensitive pack), not {others[0]}")
        self.vault = (vault if vault is not None else Vault()) if style == "token" else None

    def with_vault(self, vault: Vault) -> Masker:
        """The same style and rules writing to another vault (a service masks each request into
        its own, without choosing the rules again)."""
        if self.style != "token":
            raise InputError("only the token style keeps a vault")
        other = copy.copy(self)
        other.vault = vault
        return other

    def find(self, text: str, ctx: RuleContext | None = None, **where: Any) -> list[Finding]:
        return [f for f in self.checker.check(text, ctx, **where) if f.pack == PACK]

    def mask(self, text: str, ctx: RuleContext | None = None, **where: Any) -> MaskResult:
        """Find and mask in one text (``where``: Checker.check's ``page_starts``, ``pointer``,
        ``locate``, ``places``, so replacements carry the findings' locations)."""
        findings = self.find(text, ctx, **where)
        return self.apply(text, findings, lambda out: self.find(out, ctx))

    def apply(
        self, text: str, findings: list[Finding], recheck: Callable[[str], list[Finding]] | None
    ) -> MaskResult:
        """Replace the spans of ``findings``; with ``recheck`` (findings on a candidate output),
        star whatever still reads as personal data until nothing does."""
        if self.vault is not None:
            self.vault.note_literals(text)
        spans = [_Span.of(f) for f in sorted(findings, key=lambda f: (f.start, f.end))]
        spans = _disjoint(spans)
        if not spans:
            return MaskResult(text, [], self.vault)
        for _ in range(_ROUNDS):
            out, placed = self._render(text, spans)
            if recheck is None:
                break
            left = recheck(out)
            if not left:
                break
            # a label or token holds nothing to star: what it touches joins it instead
            spans = _escalate(text, spans, placed, left, self.style == "keep-ends")
        else:
            raise GenlintError("masking did not converge: masked output still holds personal data")
        return MaskResult(out, [s.replacement(text) for s in spans], self.vault)

    def _render(self, text: str, spans: list[_Span]) -> tuple[str, list[tuple[int, int]]]:
        pieces: list[str] = []
        placed: list[tuple[int, int]] = []
        pos = out_len = 0
        for s in spans:
            pieces.append(text[pos : s.start])
            out_len += s.start - pos
            s.new = self._replace(text, s)
            pieces.append(s.new)
            placed.append((out_len, out_len + len(s.new)))
            out_len += len(s.new)
            pos = s.end
        pieces.append(text[pos:])
        return "".join(pieces), placed

    def _replace(self, text: str, s: _Span) -> str:
        value = text[s.start : s.end]
        if self.style == "stars" or (self.style == "keep-ends" and s.level >= _FULL):
            return stars(value)
        if self.style == "keep-ends":
            if s.level:
                return "".join(ch if not ch.isalnum() else "*" for ch in value)
            return keep_ends(s.rule, value)
        if self.style == "label":
            return label(s.rule, text, s.start, s.end)
        assert self.vault is not None
        # apply() noted the token-shaped strings of ``text`` as literals, so a new token is
        # checked against that set, not searched for in the whole text once per value (which
        # made masking quadratic: docs/commands/serve.md, "Bounded work")
        return self.vault.token_for(value, kind_of(s.rule).token)


@dataclass(slots=True)
class _Span:
    start: int
    end: int
    rule: str
    finding: Finding | None
    level: int = 0  # 1: starred keeping separators, 2 (_FULL): every character starred
    new: str = ""

    @classmethod
    def of(cls, f: Finding) -> _Span:
        return cls(f.start, f.end, f.rule, f)

    def replacement(self, text: str) -> Replacement:
        f = self.finding
        if f is None:
            line = text.count("\n", 0, self.start) + 1
            column = self.start - (text.rfind("\n", 0, self.start) + 1) + 1
            return Replacement(
                self.rule, self.start, self.end, self.new, self.end - self.start, line, column
            )
        return Replacement(
            self.rule,
            self.start,
            self.end,
            self.new,
            self.end - self.start,
            f.line,
            f.column,
            f.page,
            f.pointer,
            f.location,
        )


def _disjoint(spans: list[_Span]) -> list[_Span]:
    """Sorted spans without overlaps (a later overlapping span widens the earlier one)."""
    out: list[_Span] = []
    for s in spans:
        if s.end <= s.start:
            continue
        if out and s.start < out[-1].end:
            last = out[-1]
            last.end = max(last.end, s.end)
            last.level = max(last.level, s.level)
            continue
        out.append(s)
    return out


def _escalate(
    text: str,
    spans: list[_Span],
    placed: list[tuple[int, int]],
    left: list[Finding],
    stars_help: bool = True,
) -> list[_Span]:
    """Star the spans that findings on the output still touch; a finding outside every span
    becomes a span of its own (mapped back to input offsets)."""
    changed = False
    extra: list[_Span] = []
    for f in left:
        touched = [i for i, (a, b) in enumerate(placed) if a < f.end and f.start < b]
        for i in touched:
            if stars_help and spans[i].level < _FULL:
                spans[i].level += 1
                changed = True
        if (
            touched
            and (all(spans[i].level >= _FULL for i in touched) or not stars_help)
            and not changed
        ):
            lo = min(_to_input(f.start, spans, placed), spans[touched[0]].start)
            hi = max(_to_input(f.end, spans, placed), spans[touched[-1]].end)
            extra.append(_Span(lo, hi, f.rule, None, level=_FULL))
            changed = True
        elif not touched:
            lo, hi = _to_input(f.start, spans, placed), _to_input(f.end, spans, placed)
            extra.append(_Span(lo, hi, f.rule, None, level=_FULL))
            changed = True
    if not changed:
        raise GenlintError("masking did not converge: masked output still holds personal data")
    return _disjoint(sorted([*spans, *extra], key=lambda s: (s.start, -s.end)))


def _to_input(offset: int, spans: list[_Span], placed: list[tuple[int, int]]) -> int:
    """An output offset mapped to the input (inside a replacement: that span's edge)."""
    shift = 0
    for s, (a, b) in zip(spans, placed, strict=True):
        if offset < a:
            break
        if offset <= b:
            return s.start if offset - a < (b - a) / 2 else s.end
        shift = s.end - b
    return offset + shift


def mask_text(
    text: str,
    style: str = "keep-ends",
    select: Iterable[str] | str | None = None,
    config: CheckConfig | Mapping[str, Any] | None = None,
    *,
    vault: Vault | Mapping[str, str] | None = None,
) -> MaskResult:
    """``text`` with every ``sensitive`` finding masked (``select``: rules of that pack; default
    the whole pack as ``check`` runs it). ``style``: ``keep-ends`` (default), ``stars``,
    ``label`` or ``token``; with ``token``, pass a ``vault`` to share tokens across texts
    (``result.vault`` is it, or a new one), and restore with :func:`unmask_text`."""
    v = vault if isinstance(vault, Vault) or vault is None else Vault(vault)
    return Masker(style, select, config, vault=v).mask(text)
