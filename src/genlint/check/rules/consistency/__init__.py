"""``consistency`` pack: statements a document contradicts or that cannot be true
(docs/rules.md, the consistency rules).

    consistency/amount-words     an amount in words differs from its figures beside it
    consistency/date             a date that does not exist, a wrong weekday, a reversed period
    consistency/statute          an article beyond a law's last, a repealed law cited as in force
    consistency/cross-reference  a clause or annex of this document that it does not have
    consistency/id-facts         an ID's birth date or sex against what the block states
    consistency/party            a party defined by name, then named otherwise in its role
    consistency/case-number      a case number that does not have the form

Found without a model: numerals (:mod:`.numerals`), dates (:mod:`.dates`) and the table of
laws (``laws.toml``, read on first use) are shared by the rules. Each finding names the other
place it contradicts in ``related``. Not in the default selection: ``--select consistency``.
"""

from __future__ import annotations

from .. import Rule


def rules() -> list[Rule]:
    from .amounts import AmountWords
    from .case_number import CaseNumber
    from .date_rule import DateRule
    from .id_facts import IdFacts
    from .party import Party
    from .statute import Statute
    from .xref import CrossReference

    return [
        AmountWords(),
        DateRule(),
        IdFacts(),
        Statute(),
        CrossReference(),
        Party(),
        CaseNumber(),
    ]
