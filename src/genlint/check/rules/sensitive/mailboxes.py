"""An organisation's role mailbox (``info@``, ``support@``, ``buchhaltung@``, ``kefu@``) where
the document names that organisation: the address names a function of the organisation its
domain belongs to, not a person, and the context names the organisation, so it is the
organisation's own contact data (docs/commands/check.md, "What is sensitive"). ``buchhaltung@qualityhosting.de``
on an invoice of QualityHosting AG is the company's; ``service@abc-law.cn`` alone in a sentence
names no organisation and stays personal data, as does any address at a free-mail domain
(``sales@163.com`` is someone's own choice of name)."""

from __future__ import annotations

import re

# Functions, not people: English, German, French, Dutch, Spanish, Japanese and Chinese (pinyin)
# mailbox names. A local part counts when every word of it is one of these (digits dropped:
# info2024, service-cn).
ROLE_WORDS = frozenset(
    ["info", "information", "contact", "contacts", "hello", "hi", "office", "mail", "team", "general", "enquiries", "enquiry", "inquiries", "inquiry", "sales", "sale", "support", "service", "services", "help", "helpdesk", "care", "customer", "customers", "customerservice", "customercare", "client", "clients", "feedback", "billing", "bills", "accounts", "account", "accounting", "accountspayable", "payable", "receivable", "ap", "ar", "finance", "invoice", "invoices", "invoicing", "payment", "payments", "orders", "order", "shop", "store", "booking", "bookings", "reservations", "reservation", "admin", "administration", "hr", "jobs", "job", "careers", "career", "recruiting", "recruitment", "talent", "press", "media", "pr", "news", "newsletter", "marketing", "legal", "privacy", "dpo", "gdpr", "compliance", "security", "abuse", "noreply", "no", "reply", "donotreply", "do", "not", "webmaster", "postmaster", "hostmaster", "notifications", "notification", "alerts", "reception", "frontdesk", "front", "desk", "ops", "operations", "it", "tech", "technical", "partners", "partner", "procurement", "purchasing", "purchase", "export", "import", "cn", "en", "de", "fr", "jp", "us", "uk", "eu", "global", "intl", "hq", "buchhaltung", "rechnung", "rechnungen", "kontakt", "vertrieb", "verkauf", "kundenservice", "kundendienst", "zentrale", "bestellung", "bestellungen", "personal", "anfrage", "anfragen", "compta", "comptabilite", "facturation", "accueil", "commercial", "ventes", "rh", "serviceclient", "client", "klantenservice", "administratie", "facturen", "verkoop", "ventas", "contabilidad", "facturacion", "atencion", "soumu", "jinji", "eigyo", "otoiawase", "uketsuke", "kefu", "fuwu", "xiaoshou", "caiwu", "bangong", "zhaopin", "shichang", "renshi", "hezuo", "tousu", "jubao"]
)

# Domains anyone may take an address at: the local part is a person's choice there.
FREE_MAIL = frozenset(
    ["163.com", "126.com", "yeah.net", "qq.com", "foxmail.com", "sina.com", "sina.cn", "sohu.com", "139.com", "189.cn", "aliyun.com", "gmail.com", "googlemail.com", "outlook.com", "hotmail.com", "live.com", "msn.com", "yahoo.com", "yahoo.co.jp", "icloud.com", "me.com", "mac.com", "aol.com", "gmx.de", "gmx.net", "web.de", "proton.me", "protonmail.com", "mail.ru", "yandex.ru", "naver.com", "hanmail.net", "free.fr", "orange.fr", "laposte.net", "example.com", "example.org", "example.net"]
)

_WORDS = re.compile(r"[a-z]+")
_NOT_NAME = re.compile(r"[^0-9a-z]+")
_NEAR = 5_000  # characters either side searched for the organisation's name (an invoice's head)
_MIN_NAME = 4  # a shorter domain name (ab.cn) would be found in any text


def role_mailbox(text: str, start: int, end: int) -> bool:
    """Whether the address ``text[start:end]`` is the role mailbox of an organisation the text
    names near it (its domain's name, ``qualityhosting`` for QualityHosting AG, outside the
    address)."""
    local, _, domain = text[start:end].replace("＠", "@").rpartition("@")
    domain = domain.lower()
    if not local or domain in FREE_MAIL:
        return False
    words = _WORDS.findall(local.lower())
    if not words or not all(w in ROLE_WORDS for w in words):
        return False
    labels = domain.split(".")
    # the registrable name: abc-law.com.cn -> abclaw, mail.acme.de -> acme
    name = labels[-3] if len(labels) >= 3 and labels[-2] in ("com", "co", "net", "org", "gov", "edu", "ac") else labels[-2] if len(labels) >= 2 else ""  # fmt: skip
    name = _NOT_NAME.sub("", name)
    if len(name) < _MIN_NAME:
        return False
    around = text[max(0, start - _NEAR) : start] + " " + text[end : end + _NEAR]
    return name in _NOT_NAME.sub("", around.casefold())
