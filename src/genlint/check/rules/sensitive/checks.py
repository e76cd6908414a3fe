"""Check digits and validity tests for personal numbers."""

from __future__ import annotations

import datetime

_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_ID_CHECK = "10X98765432"
# first digit of a mainland province code (11 Beijing … 65 Xinjiang, 71 Taiwan, 81/82 HK/Macau)
_PROVINCES = frozenset(
    [
        "11",
        "12",
        "13",
        "14",
        "15",
        "21",
        "22",
        "23",
        "31",
        "32",
        "33",
        "34",
        "35",
        "36",
        "37",
        "41",
        "42",
        "43",
        "44",
        "45",
        "46",
        "50",
        "51",
        "52",
        "53",
        "54",
        "61",
        "62",
        "63",
        "64",
        "65",
        "71",
        "81",
        "82",
        "83",
        "91",
    ]
)


def id_check_char(first17: str) -> str:
    """The GB 11643-1999 check character (ISO 7064 MOD 11-2) of the first 17 digits."""
    total = sum(int(d) * w for d, w in zip(first17, _ID_WEIGHTS, strict=True))
    return _ID_CHECK[total % 11]


def id_shaped(number: str) -> bool:
    """18 characters with a province code and a real birth date: looks like an ID number."""
    if len(number) != 18 or not number[:17].isdigit() or number[:2] not in _PROVINCES:
        return False
    try:
        born = datetime.date(int(number[6:10]), int(number[10:12]), int(number[12:14]))
    except ValueError:
        return False
    return datetime.date(1900, 1, 1) <= born <= datetime.date.today()


def valid_resident_id(number: str) -> bool:
    """A mainland resident ID: ID-shaped and the check character matches."""
    return id_shaped(number) and id_check_char(number[:17]) == number[17].upper()


def luhn_ok(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = ord(ch) - 48
        if i % 2:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def valid_legacy_id(number: str) -> bool:
    """A first-generation (1984–1999) resident ID: 15 digits, a province code and a real date
    19YY-MM-DD; it has no check digit, so the date is all there is to test."""
    if len(number) != 15 or not number.isdigit() or number[:2] not in _PROVINCES:
        return False
    try:
        datetime.date(1900 + int(number[6:8]), int(number[8:10]), int(number[10:12]))
    except ValueError:
        return False
    return True


def card_prefix_ok(digits: str) -> bool:
    """An issuer prefix that bank cards use: 3 (Amex, JCB), 4 (Visa), 5 (Mastercard), 6
    (UnionPay, Discover), 9 (domestic debit), 2221–2720 (Mastercard 2-series). Order numbers
    and timestamps mostly start with 1 or 2 (a year), so this keeps them apart."""
    first = digits[0]
    return first in "34569" or (first == "2" and 2221 <= int(digits[:4]) <= 2720)
