"""``genlint unmask`` on a PDF: tokens back into the hidden places mask wrote them to.

Page text is redacted as pixels whatever the style (nothing there to restore); the places
``mask`` rewrites as text (Info entries, annotation contents and titles, link URIs, form values,
bookmark titles, attachment names, other string objects: :mod:`genlint.readers.pdf_places`)
carry the tokens of ``--style token``, and get their values back here. A token in a place this
module does not write (an attachment's content, a removed stream) is reported as unplaced.
"""

from __future__ import annotations

import io

from ..errors import InputError
from .vault import TOKEN, Vault


def unmask_pdf(path: str, data: bytes, vault: Vault) -> tuple[bytes, int, list[str], list[str]]:
    """(restored bytes, tokens restored, tokens left unplaced, token-shaped text not from the
    vault)."""
    from pypdf import PdfReader, PdfWriter

    from ..readers.pdf_places import places
    from .pdf_places import write_slot

    try:
        writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
        slots = list(places(writer))
    except Exception as exc:
        raise InputError(f"{path}: corrupt PDF ({type(exc).__name__})") from None
    restored = 0
    unplaced: set[str] = set()
    foreign: set[str] = set()
    for slot in slots:
        tokens = [m.group() for m in TOKEN.finditer(slot.text)]
        if not tokens:
            continue
        ours = [t for t in tokens if t in vault.tokens]
        foreign.update(t for t in tokens if t not in vault.tokens and t not in vault.literals)
        if not ours:
            continue
        text, count, _unknown = vault.restore(slot.text)
        if not write_slot(writer, slot, text):
            unplaced.update(ours)
            continue
        restored += count
    if not restored:
        return data, 0, sorted(unplaced), sorted(foreign)
    out = io.BytesIO()
    try:
        writer.write(out)
    except Exception as exc:
        raise InputError(
            f"{path}: the restored PDF cannot be written ({type(exc).__name__})"
        ) from None
    return out.getvalue(), restored, sorted(unplaced), sorted(foreign)
