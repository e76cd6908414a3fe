"""Personal numbers recognised by their format: resident IDs, mobiles, bank cards, landlines.

A number is only flagged when it is a whole number: not glued to letters, digits or a mask on
either side (138****5678 and user_13812345678 stay clean), not the fraction of a decimal, not
an amount (followed by 元, after ¥) and not after a label that names another kind of number
(订单号, 案号, Invoice No.). Full-width digits count as digits.

IDs, cards and mobiles may be grouped with spaces, dashes or dots in any grouping
(110 105 1949 1231 002X, 139.0000.0070); a run with dots counts as one number only when it is
written as a grouping (dots alone, three groups or more, each of three characters or more, or
every digit dotted), so that decimals and dates stay what they are. Groups shorter than three
digits count when one separator joins them all (13-91-23-45-678).
They are found as *runs*: digits joined by single separators, at least ten characters long
(so dates and amounts are rejected in C, not in Python), at most :data:`_MAX_RUN`. One scan
finds the runs for every rule that reads them (:func:`digit_runs`).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator
from typing import NamedTuple

from .... import _lazy_re as lazy_re
from .. import Hit, Rule, RuleContext
from .checks import card_prefix_ok, id_shaped, luhn_ok, valid_legacy_id, valid_resident_id
from .context import (
    DIGIT_PARTS,
    DIGITS,
    TRIGGER,
    account_label_before,
    amount_after,
    ascii_form,
    free_left,
    free_right,
    has_trigger,
    organisation_before,
    other_kind_before,
    run_free,
    wide,
)

_D = "[0-9０-９]"
_SEP = "[ \\-　－.．]"
# Ten characters or more of digits and separators, scanned in C; a plain class repetition is
# twice as fast as one that checks the separators, and it never backtracks (a million digits
# are one pass). The whole runs inside (single separators between digits, an X check
# character glued to the end) are then cut out of each match in Python: matches are rare.
_SPAN = lazy_re.compile("[0-9０-９][0-9０-９ \\-　－.．]{9,}[XxＸｘ]?")
# the X check character may stand after a separator too, when every digit is spaced
_RUN = lazy_re.compile(f"{_D}(?:{_D}|{_SEP}(?={_D}))*(?:{_SEP}?[XxＸｘ])?")
# the same for a text without full-width digits: the same runs, found faster
_SPAN_ASCII = lazy_re.compile("[0-9][0-9 \\-　－.．]{9,}[Xx]?")
_RUN_ASCII = lazy_re.compile(f"[0-9](?:[0-9]|{_SEP}(?=[0-9]))*(?:{_SEP}?[Xx])?")
# Longer runs (a million digits, a long row of numbers) are skipped whole, which keeps the
# work per run small. Below 200 characters, so that a run holding a trigger match starts
# inside the engine's window around it: windowed and whole-text scans see the same runs.
_MAX_RUN = 150


class _Group(NamedTuple):
    value: str
    start: int
    end: int


class Run(NamedTuple):
    """A whole run of digits in the text: its span, its ASCII form (same length) and its
    digit groups."""

    start: int
    end: int
    raw: str
    groups: list[_Group]


def digit_runs(text: str, ctx: RuleContext) -> list[Run]:
    """The whole runs of the windows; computed once per text and windows, shared by the rules
    that read numbers (ctx.memo)."""
    cached = ctx.memo.get(__name__)
    if cached is not None and cached[0] is text and cached[1] is ctx.windows:
        return cached[2]
    span_re, run_re = (_SPAN, _RUN) if wide(text, ctx) else (_SPAN_ASCII, _RUN_ASCII)
    runs = []
    for span in ctx.finditer(span_re, text, DIGIT_PARTS):
        for m in run_re.finditer(text, span.start(), span.end()):
            start, end = m.span()
            if 10 <= end - start <= _MAX_RUN and run_free(text, start, end):
                raw = ascii_form(m.group())
                groups = [
                    _Group(g.group(), start + g.start(), start + g.end())
                    for g in _GROUP.finditer(raw)
                ]
                runs.append(Run(start, end, raw, groups))
    ctx.memo[__name__] = (text, ctx.windows, runs)
    return runs


_GROUP = lazy_re.compile("[0-9Xx]+")


def _pieces(text: str, ctx: RuleContext) -> Iterator[list[_Group]]:
    """Each run as a list of digit groups; a run that mixes spaces and dashes is split at its
    spaces (``110105-19491231-002X 2023`` is a dashed ID followed by another number)."""
    for run in digit_runs(text, ctx):
        if "." in run.raw:
            yield from _dotted(run)
            continue
        groups = run.groups
        if not (" " in run.raw and "-" in run.raw):
            yield groups
            continue
        piece = [groups[0]]
        for prev, group in itertools.pairwise(groups):
            if run.raw[prev.end - run.start] == " ":
                yield piece
                piece = []
            piece.append(group)
        yield piece


def _dotted(run: Run) -> Iterator[list[_Group]]:
    """A run with dots: one number when written as a grouping (139.0000.0070); otherwise the
    groups between its dots, less those a dot touches (the parts of a decimal or a date:
    ``13812345678.00``, ``2023.05.01 110105194912310021`` keeps only the ID)."""
    groups, raw = run.groups, run.raw
    # a country code in front (+86 139.0000.0070) is no group of the number
    body = groups[1:] if groups[0].value == "86" and raw[2] in " -" else groups
    seps = {raw[prev.end - run.start] for prev, _ in itertools.pairwise(body)}
    sizes = {len(g.value) for g in body}
    # every digit dotted (1.3.9.1.2.3.4.5.6.7.8) is no decimal or date either
    if seps == {"."} and len(body) >= 3 and (min(sizes) >= 3 or sizes == {1}):
        yield groups
        return
    piece: list[_Group] = []
    for group in groups:
        before = raw[group.start - run.start - 1] if group.start > run.start else ""
        after = raw[group.end - run.start] if group.end < run.end else ""
        if "." in (before, after):
            if piece:
                yield piece
            piece = []
            continue
        piece.append(group)
    if piece:
        yield piece


def _one_separator(text: str, groups: list[_Group]) -> bool:
    """The groups are joined by one and the same separator: a written grouping of any sizes
    (13-91-23-45-678, every digit spaced), unlike a row of numbers that mixes them."""
    return len({text[a.end] for a, _ in itertools.pairwise(groups)}) == 1


def _plain(text: str, start: int, end: int) -> bool:
    """Not an amount, an order or case number: the context lets the value be personal."""
    return not (
        amount_after(text, end)
        or other_kind_before(text, start)
        or organisation_before(text, start)
    )


class ResidentId(Rule):
    id = "sensitive/resident-id"
    description = (
        "an unmasked mainland resident ID number (18 characters with a valid date and check "
        "digit, or a legacy 15-digit one with a valid date; any grouping)"
    )
    bad = (
        "身份证号：11010519491231002X",
        "身份证110101199003074573。",
        "110105 19491231 002X",
        "110 105 1949 1231 002X",
        "身份证号：１１０１０５１９４９１２３１００２Ｘ",
        "旧身份证号码110105491231002。",
    )
    good = (
        "110101********1234",
        "身份证号：110105194912310021",
        "110101199013074573",
        "订单号11010519491231002X9",
        "编号110105491231002",
        "110105491231002元",
    )
    trigger = TRIGGER

    def find(self, text: str, ctx: RuleContext) -> Iterable[Hit]:
        for groups in _pieces(text, ctx):
            yield from self._in_piece(text, groups)

    def _in_piece(self, text: str, groups: list[_Group]) -> Iterator[Hit]:
        last = -1
        # every stretch of whole groups with 18 characters (X only as the very last one)
        for i in range(len(groups)):
            size = 0
            for j in range(i, len(groups)):
                size += len(groups[j].value)
                if size >= 18:
                    break
            else:
                break
            if size != 18 or groups[i].start < last:
                continue
            number = "".join(g.value for g in groups[i : j + 1])
            if not valid_resident_id(number):
                continue
            start, end = groups[i].start, groups[j].end
            if has_trigger(text, start, end):
                last = end
                yield Hit(start, end, message="unmasked resident ID number")
        # a legacy ID has no check digit: only a number of its own, in a plain context
        if last < 0:
            for g in groups:
                if (
                    len(g.value) == 15
                    and (len(groups) == 1 or text[groups[0].end] in " 　")
                    and valid_legacy_id(g.value)
                    and _plain(text, g.start, g.end)
                    # after 账号 a 15-digit number is an account (sensitive/bank-account)
                    and not account_label_before(text, g.start)
                    and has_trigger(text, g.start, g.end)
                ):
                    yield Hit(g.start, g.end, message="unmasked resident ID number (15 digits)")


class BankCard(Rule):
    id = "sensitive/bank-card"
    description = (
        "an unmasked bank card number (16–19 digits, valid Luhn check, a card issuer's "
        "prefix; any grouping)"
    )
    bad = (
        "卡号6222021234567890128",
        "6225 8801 2345 6783",
        "4111111111111111",
        "622202 1234567890128",
        "6222-0212-3456-7890-128",
        "卡号：６２２５８８０１２３４５６７８３",
    )
    good = (
        "6222021234567890123",
        "6222 **** **** 0128",
        "110105194912310021",
        "订单号：6222021234567890128",
        "2023050112345678",
        "金额6222021234567890128元",
    )
    trigger = TRIGGER

    def find(self, text: str, ctx: RuleContext) -> Iterable[Hit]:
        for groups in _pieces(text, ctx):
            hit = self._whole(text, groups)
            if hit is not None:
                yield hit
                continue
            # one contiguous card among other numbers (6225880123456783 2023年)
            for g in groups:
                if len(groups) > 1 and self._card(text, [g]):
                    yield Hit(g.start, g.end, message="unmasked bank card number")

    def _whole(self, text: str, groups: list[_Group]) -> Hit | None:
        sizes = [len(g.value) for g in groups]
        # written groups: every group but the last has 3 digits or more, and a row of round
        # amounts (50000 30000 20000 1000) is not a card
        if len(groups) > 1 and (
            (min(sizes[:-1]) < 3 and not _one_separator(text, groups))
            or sum(g.value.endswith("00") for g in groups) > 1
        ):
            return None
        if not self._card(text, groups):
            return None
        return Hit(groups[0].start, groups[-1].end, message="unmasked bank card number")

    @staticmethod
    def _card(text: str, groups: list[_Group]) -> bool:
        digits = "".join(g.value for g in groups)
        if not (16 <= len(digits) <= 19 and digits.isdigit() and card_prefix_ok(digits)):
            return False
        if not luhn_ok(digits) or (len(digits) == 18 and id_shaped(digits)):
            # an ID-shaped number is an ID (valid or with a wrong check digit), never a card
            return False
        start, end = groups[0].start, groups[-1].end
        return _plain(text, start, end) and has_trigger(text, start, end)


_PHONE_LABEL = lazy_re.compile(
    r"(?:手机|电话|联系方式|[Mm]obile|MOBILE|[Tt]el|TEL|[Pp]hone|PHONE)(?:号码|号)?\.?[ \t　]*"
    r"(?:[:：]|为|是)?[ \t　]*(?:\+|＋)?(?:86[ \-]?)?\Z"
)


class Mobile(Rule):
    id = "sensitive/mobile"
    description = "an unmasked mainland mobile number (11 digits 1[3-9]…, optional +86)"
    bad = (
        "电话13812345678",
        "手机：+86 139-1234-5678",
        "Tel: +8615912345678",
        "138 1234 5678",
        "手机号１３８１２３４５６７８",
        "139.0000.0070",
        "1390 000 0070",
        "手机：13-91-23-45-678",
    )
    good = (
        "138****5678",
        "订单号2013812345678",
        "电话12812345678",
        "user_13812345678",
        "订单号：13812345678",
        "13812345678.00元",
        "公司电话：13812345678",
        "1 3 9 1 2 3 4 5 6 7 8",
    )
    trigger = TRIGGER

    # ASCII and full-width each literal-first: re skips to the 1 at memchr speed
    _numbers = (
        lazy_re.compile(r"1[3-9][0-9](?:[0-9]{8}|([ \t-])[0-9]{4}\1[0-9]{4})(?![0-9A-Za-z_*])"),
        lazy_re.compile(
            "１[３-９][０-９](?:[０-９]{8}|([ 　\t－-])[０-９]{4}\\1[０-９]{4})(?![０-９])"
        ),
    )
    _prefix = lazy_re.compile(r"(?:\+|＋|00)?86[ \t-]?$")
    _grouped = lazy_re.compile(r"1[3-9][0-9]{9}")

    def find(self, text: str, ctx: RuleContext) -> Iterable[Hit]:
        ascii_only, wide_only = self._numbers
        ends: set[int] = set()
        for hit in self._found(text, ctx.finditer(ascii_only, text, DIGIT_PARTS)):
            ends.add(hit.end)
            yield hit
        if wide(text, ctx):
            for hit in self._found(text, ctx.finditer(wide_only, text, DIGIT_PARTS)):
                ends.add(hit.end)
                yield hit
        # any other grouping (1390 000 0070, 139.0000.0070): a whole run of eleven digits;
        # a run mixing blanks and dashes (139-1234 5678) also as a whole
        mixed = (
            r.groups
            for r in digit_runs(text, ctx)
            if " " in r.raw and "-" in r.raw and "." not in r.raw
        )
        for groups in itertools.chain(_pieces(text, ctx), mixed):
            if len(groups) < 2 or groups[-1].end in ends:
                continue
            if groups[0].value == "86" and text[groups[0].start - 1 : groups[0].start] in "+＋":
                lead, groups = groups[0], groups[1:]
            else:
                lead = None
            # written groups of three digits or more; shorter ones (13-91-23-45-678, every
            # digit spaced) only with one separator throughout and after a phone label: a
            # mobile has no check digit, and a row of small numbers is no phone without one
            short = min(len(g.value) for g in groups) < 3
            if (
                short
                and not (
                    _one_separator(text, groups)
                    and _PHONE_LABEL.search(text, max(0, groups[0].start - 12), groups[0].start)
                )
            ) or not self._grouped.fullmatch("".join(g.value for g in groups)):
                continue
            start, end = groups[0].start, groups[-1].end
            if lead is not None:
                start = lead.start - 1
            if _plain(text, start, end) and has_trigger(text, start, end):
                ends.add(end)
                yield Hit(start, end, message="unmasked mobile number")

    def _found(self, text: str, matches: Iterable[re.Match[str]]) -> Iterator[Hit]:
        for m in matches:
            start, end = m.span()
            if not free_right(text, end) or not has_trigger(text, start, end):
                continue
            # an optional country code in front; then nothing number-like may touch it
            lo = max(0, start - 5)
            p = self._prefix.search(ascii_form(text[lo:start]))
            if p is not None and free_left(text, lo + p.start(), "+"):
                start = lo + p.start()
            elif not free_left(text, start):
                continue
            if _plain(text, start, end):
                yield Hit(start, end, message="unmasked mobile number")


_Z, _AREA_CORE = "[0０]", f"(?:[1１][0０]|[2２]{_D}|[3-9３-９]{_D}{{2}})"
_LANDLINE_LABEL = lazy_re.compile(
    r"(?:电话|座机|固话|传真|联系方式|[Tt]el|TEL|[Pp]hone|PHONE|[Ff]ax|FAX)(?:号码|号)?\.?\s*"
    r"(?:[:：]|为|是)?"
    r"\s*\Z"
)


class Landline(Rule):
    id = "sensitive/landline"
    description = (
        "an unmasked landline number with its area code (010-12345678, (0755) 1234 5678, or "
        "after 电话/座机/Tel)"
    )
    bad = (
        "座机：010-12345678",
        "联系电话（0755）1234 5678",
        "(0755) 1234 5678",
        "Tel: 0571 8888 6666",
        "办公电话：02188886666",
        "+86 10 6512 3456",
    )
    good = (
        "010-****5678",
        "0755 12345678",
        "邮编100010，编号02188886666",
        "电话：12345678",
        "订单号：010-12345678",
        "(2023)京01民初123号",
    )
    # the digit-run triggers allow a closing bracket, for (0755) 1234 5678
    trigger = TRIGGER

    _local = r"(?P<local>[1-9][0-9]{6,7}|[1-9][0-9]{2,3}[ \-][0-9]{4})"
    _area = r"(?:10|2[0-9]|[3-9][0-9]{2})"
    # on a run's ASCII form: 0755-12345678, 021 8888 6666, or 86 10 6512 3456 after a +
    _dialled = lazy_re.compile(f"0{_area}(?P<sep>[ \\-]?){_local}")
    _plus = lazy_re.compile(f"86[ \\-]?(?P<area>{_area})[ \\-]{_local}")
    # a bracketed area code ends the run before it: found on its own, bracket first
    _bracketed = (
        lazy_re.compile(f"\\([0０]{_AREA_CORE}[)）][ \\-]?"),
        lazy_re.compile(f"（[0０]{_AREA_CORE}[)）][ \\-]?"),
    )
    _bracket_local = lazy_re.compile(
        f"[1-9１-９]{_D}{{6,7}}(?!{_D})|[1-9１-９]{_D}{{2,3}}[ \\-－]{_D}{{4}}(?!{_D})"
    )

    def find(self, text: str, ctx: RuleContext) -> Iterable[Hit]:
        for run in digit_runs(text, ctx):
            hit = self._in_run(text, run)
            if hit is not None:
                yield hit
        for pattern in self._bracketed:
            for m in ctx.finditer(pattern, text, DIGIT_PARTS):
                local = self._bracket_local.match(text, m.end())
                if local is None:
                    continue
                area = ascii_form(m.group())[1:].strip(")） -")
                if self._accept(text, m.start(), local.end(), area, local.group(), True):
                    yield Hit(m.start(), local.end(), message="unmasked landline number")

    def _in_run(self, text: str, run: Run) -> Hit | None:
        raw = run.raw
        if raw.startswith("0"):
            m, start = self._dialled.match(raw), run.start
            if m is None:
                return None
            area, certain = raw[: m.start("sep")], m.group("sep") == "-"
        elif raw.startswith("86") and run.start and text[run.start - 1] in "+＋":
            m, start = self._plus.match(raw), run.start - 1
            if m is None:
                return None
            area, certain = "0" + m.group("area"), True
        else:
            return None
        end = run.start + m.end()
        if self._accept(text, start, end, area, m.group("local"), certain):
            return Hit(start, end, message="unmasked landline number")
        return None

    @staticmethod
    def _accept(text: str, start: int, end: int, area: str, local: str, certain: bool) -> bool:
        if area.startswith(("010", "02")) and sum(ch in DIGITS for ch in local) != 8:
            return False  # Beijing, Shanghai … have eight-digit local numbers
        if not free_left(text, start, "-－") or not has_trigger(text, start, end):
            return False
        labelled = _LANDLINE_LABEL.search(text, max(0, start - 12), start) is not None
        # after a label, 010-12345678-801 has an extension; without one it may be a longer code
        if not free_right(text, end, "" if labelled else "-－"):
            return False
        # only the label or the written form makes the kind certain: 02188886666 alone
        # could be anything, (021) 8888 6666 and 021-88886666 are phone numbers
        return (labelled or certain) and _plain(text, start, end)


__all__ = ["BankCard", "Landline", "Mobile", "ResidentId"]
