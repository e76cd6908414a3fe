"""``genlint unmask``: tokens back to their values in txt, md, JSON, DOCX and PDF files (a PDF's
hidden places: its page values are redacted pixels).

A vault restores only documents it produced: the SHA-256 of each masked output is recorded in
the vault, and any other document is refused (naming the mismatch) unless forced, so a vault
never puts one person's data into another person's file. What cannot be restored is reported,
never passed over: tokens of this vault left in the output (``unplaced``) and token-shaped text
that did not come from this vault (``foreign``); the command exits 1 when any remain.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from ..errors import InputError
from .files import suffix_of
from .vault import TOKEN, Vault

__all__ = ["Unmasked", "unmask_bytes"]


@dataclass
class Unmasked:
    """Restored bytes, how many tokens were restored, and the vault tokens the file still holds
    where they could not be put back (the CLI names them and exits 1)."""

    data: bytes
    restored: int
    #: tokens of this vault still in the output (a place the restorer could not write)
    unplaced: list[str] = field(default_factory=list)
    #: token-shaped text this vault never wrote (another vault's tokens, an edit)
    foreign: list[str] = field(default_factory=list)
    #: the vault did not vouch for this document: not among those it recorded (``--force``), or a
    #: vault that records none (in memory, version 1)
    forced: bool = False


def unmask_bytes(path: str, data: bytes, vault: Vault, *, force: bool = False) -> Unmasked:
    suffix = suffix_of(path)
    record = vault.verify_document(path, data, force=force)
    if suffix == ".pdf":
        from .pdf_unmask import unmask_pdf

        # page values are pixels; the tokens are in the places mask rewrote as text
        out, count, unplaced, foreign = unmask_pdf(path, data, vault)
        result = Unmasked(out, count, unplaced=unplaced, foreign=foreign)
    elif suffix == ".docx":
        result = _unmask_docx(path, data, vault, force)
    else:
        result = _unmask_text(path, data, vault, suffix)
    result.forced = record is None
    return result


def _unmask_text(path: str, data: bytes, vault: Vault, suffix: str) -> Unmasked:
    from ..readers.text import decode_text

    decoded = decode_text(data, path)
    text = decoded.text
    if text.encode(decoded.encoding) != data:
        raise InputError(f"{path}: cannot be written back byte for byte in {decoded.encoding}")
    if suffix == ".json":
        restored, count, unknown = _restore_json(text, vault)
    else:
        restored, count, unknown = vault.restore(text)
    out = restored.encode(decoded.encoding) if count else data
    return Unmasked(out, count, foreign=sorted(set(unknown)))


def _unmask_docx(path: str, data: bytes, vault: Vault, force: bool) -> Unmasked:
    """The DOCX restorer (:mod:`.docx`) refuses a package with tokens it does not know; forced,
    those are reported instead. Whatever token of this vault the output still holds, in any
    place the checker reads, could not be placed."""
    from ..readers import read_data
    from .docx import unmask_docx

    foreign: list[str] = []
    doc = None
    if force:
        doc = read_data(path, data)
        foreign = sorted({m.group() for s in doc.segments for m in TOKEN.finditer(s.text)
                          if m.group() not in vault.tokens and m.group() not in vault.literals})
        # the restorer refuses unknown tokens: let it treat them as text the input held
        widened = Vault(vault.tokens, [*vault.literals, *foreign], vault_id=vault.id)
        widened.runs = vault.runs  # how split values go back into their runs
        vault = widened
    result: Unmasked = unmask_docx(path, data, vault)
    # the input is read (and its images OCR'd) once: again only when restoring changed it
    if result.restored or doc is None:
        doc = read_data(path, result.data)
    unplaced = {m.group() for s in doc.segments for m in TOKEN.finditer(s.text)
                if m.group() in vault.tokens}
    # the restorer also names the tokens it found in places it cannot write
    unplaced.update(result.unplaced)
    return Unmasked(result.data, result.restored, unplaced=sorted(unplaced), foreign=foreign)


def check_known(path: str, unknown: list[str], vault: Vault) -> None:
    if unknown:
        raise InputError(
            f"{path}: the vault does not match the tokens ({unknown[0]} is not in it, "
            f"{len(unknown)} unknown, {len(vault)} in the vault)"
        )


def _restore_json(raw: str, vault: Vault) -> tuple[str, int, list[str]]:
    """Inside JSON text a value is written as a JSON string body (quotes, backslashes and
    control characters escaped)."""
    unknown: list[str] = []
    count = 0

    def sub(m: object) -> str:
        nonlocal count
        token = m.group()  # type: ignore[attr-defined]
        value = vault.tokens.get(token)
        if value is None:
            if token not in vault.literals:
                unknown.append(token)
            return str(token)
        count += 1
        return json.dumps(value, ensure_ascii=False)[1:-1]

    return TOKEN.sub(sub, raw), count, unknown
