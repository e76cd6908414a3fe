"""``sensitive`` pack: unmasked personal data (docs/commands/check.md "What is sensitive").

Every rule needs logic (check digits, dates, digit boundaries, labels), so all are code:

* :mod:`.numbers` — numbers known by their format: resident IDs (18 characters, or the legacy
  15 digits), mobiles, bank cards, landlines with their area code;
* :mod:`.labelled` — values a label makes certain: bank accounts, passports and travel
  permits; names and addresses (off by default: ``--select sensitive/person-name``);
* :mod:`.formats` — e-mail addresses and licence plates.

Masked forms never match: the mask breaks the digit run (138****5678, 110101********1234), and
a number glued to letters, digits or a mask is part of something longer (user_13812345678).
Full-width digits and ＠ count as their ASCII forms.
"""

from __future__ import annotations

from .. import Rule
from .formats import Email, Plate
from .labelled import Address, BankAccount, Passport, PersonName
from .numbers import BankCard, Landline, Mobile, ResidentId


def rules() -> list[Rule]:
    # order settles a tie: when two rules flag the same span (卡号 + a valid card number),
    # the engine keeps the first, so the rules that know the format come before the labels
    return [
        ResidentId(),
        Mobile(),
        BankCard(),
        Email(),
        Landline(),
        BankAccount(),
        Passport(),
        Plate(),
        PersonName(),
        Address(),
    ]


__all__ = [
    "Address",
    "BankAccount",
    "BankCard",
    "Email",
    "Landline",
    "Mobile",
    "Passport",
    "PersonName",
    "Plate",
    "ResidentId",
    "rules",
]
