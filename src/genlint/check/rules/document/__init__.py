"""``document`` pack: what a delivered document must not carry.

    document/tracked-changes  a DOCX that still holds tracked changes (revisions)
    document/comments         a DOCX that still holds review comments

These rules look at what the reader counted in the file (``Document.leftovers``), not at the
text: one finding per file, with the count, placed at the first change or comment so a person
can find it. On plain text they never fire. The comments' own text is read as part of the
document (``part: comment``), so the other packs check it too.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from ....findings import Severity
from .. import Hit, Rule, RuleContext


class DocumentRule(Rule):
    """A rule about the file as a whole, fed by the reader's count of ``leftover``."""

    leftover: ClassVar[str] = ""
    noun: ClassVar[tuple[str, str]] = ("", "")
    severity = Severity.WARNING

    def find(self, text: str, ctx: RuleContext) -> Iterable[Hit]:
        return ()  # nothing to see in text alone: the engine calls ``finding_for``

    def message_for(self, count: int) -> str:
        singular, plural = self.noun
        return f"{count} {singular if count == 1 else plural} left in the document; " + (
            "accept or reject them before it goes out"
            if self.leftover == "tracked-changes"
            else "resolve and delete them before it goes out"
        )


class TrackedChanges(DocumentRule):
    id = "document/tracked-changes"
    description = "a DOCX that still carries tracked changes (revisions)"
    bad = ("合同草稿.docx with 3 tracked insertions and deletions",)
    good = ("合同终稿.docx with every change accepted",)
    leftover = "tracked-changes"
    noun = ("tracked change", "tracked changes")


class Comments(DocumentRule):
    id = "document/comments"
    description = "a DOCX that still carries review comments"
    bad = ("起诉状.docx with a reviewer's comment '金额待核实'",)
    good = ("起诉状.docx with the comments resolved and deleted",)
    leftover = "comments"
    noun = ("review comment", "review comments")


def rules() -> list[Rule]:
    return [TrackedChanges(), Comments()]
