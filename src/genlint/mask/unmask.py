"""``genlint unmask``: tokens back to their values in txt, md, JSON and DOCX files.

Every token-shaped string must be known to the vault (or recorded there as text the masked
input already held): otherwise the vault is not the one that masked this file, and the file is
refused rather than half restored.
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
    unplaced: list[str] = field(default_factory=list)


def unmask_bytes(path: str, data: bytes, vault: Vault) -> Unmasked:
    suffix = suffix_of(path)
    if suffix == ".pdf":
        raise InputError(f"{path}: a redacted PDF holds no tokens to restore (mask txt, md, json "
                         "or docx with --style token)")
    if suffix == ".docx":
        from .docx import unmask_docx

        return unmask_docx(path, data, vault)
    from ..readers.text import decode_text

    decoded = decode_text(data, path)
    text = decoded.text
    if text.encode(decoded.encoding) != data:
        raise InputError(f"{path}: cannot be written back byte for byte in {decoded.encoding}")
    if suffix == ".json":
        restored, count, unknown = _restore_json(text, vault)
    else:
        restored, count, unknown = vault.restore(text)
    check_known(path, unknown, vault)
    return Unmasked(restored.encode(decoded.encoding) if count else data, count)


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
