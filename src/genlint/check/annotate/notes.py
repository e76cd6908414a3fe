"""What a review copy says about a finding: severity, message, rule id and the one-line fix, in
the reader's language (``reporters._lang``), with personal values masked unless the report shows
them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..reporters import _lang
from ..reporters._safe import xml_text

if TYPE_CHECKING:
    from ...findings import Finding
    from ..report import FileResult

AUTHOR = "genlint"
INITIALS = "GL"


@dataclass(frozen=True)
class Noted:
    """A finding where it is (``finding``, the value as found: it places the note) and what the
    note says (``note``, built from the masked copy)."""

    finding: Finding
    note: str
    headline: str


def note_text(shown: Finding, lang: str) -> tuple[str, str]:
    """(the whole note, its first line) for a finding as reports show it."""
    severity = _lang.severity(str(shown.severity), lang)
    colon = "：" if lang == "zh" else ": "
    headline = f"{severity}{colon}{_lang.message(shown, lang)} [{shown.rule}]"
    label = "修改建议" if lang == "zh" else "Fix"
    return xml_text(f"{headline}\n{label}{colon}{_lang.fix(shown, lang)}"), xml_text(headline)


def noted(file: FileResult, shown: FileResult, lang: str | None) -> tuple[list[Noted], str]:
    """Each finding of ``file`` with its note (from ``shown``, the masked copy of ``file``), and
    the language the notes are in."""
    language = _lang.for_findings(file.findings, lang)
    out = []
    for found, masked in zip(file.findings, shown.findings, strict=True):
        note, headline = note_text(masked, language)
        out.append(Noted(found, note, headline))
    return out, language


def hidden_summary(items: list[Noted], lang: str) -> str:
    """One note listing the findings in places a note cannot be anchored (document properties,
    headers, deletions, links…): where each is, and its note's first line."""
    from ..reporters._where import where

    title = (
        f"genlint：{len(items)} 处问题位于无法批注的位置"
        if lang == "zh"
        else f"genlint: {len(items)} finding{'s' if len(items) != 1 else ''} in places a "
        "comment cannot be attached to"
    )
    lines = [title]
    lines += [f"• {where(n.finding)}: {n.headline}" for n in items]
    return xml_text("\n".join(lines))
