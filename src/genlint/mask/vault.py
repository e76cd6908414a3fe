"""The token vault: ``<PHONE_1>`` ↔ the value it stands for, and the way back.

A token is stable per distinct value (the same number gets the same token in every file masked
with one vault) and is never a string the masked text already held, so restoring replaces only
what masking wrote: ``unmask_text(mask_text(x, style="token").text, vault) == x`` for any text.
A vault file is JSON (``{"version": 1, "tokens": {"<PHONE_1>": "13812345678"}}``), written
atomically and readable by its owner only (mode 0600): it holds the personal data.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from ..errors import InputError

__all__ = ["TOKEN", "Vault", "unmask_text"]

#: what a token looks like: ``<PHONE_1>``, ``<ID_12>``, ``<BANK_ACCOUNT_3>``
TOKEN = re.compile(r"<([A-Z][A-Z0-9_]*?)_([1-9][0-9]*)>")


class Vault:
    """Token → value, and value → token, with a counter per token prefix."""

    def __init__(
        self, tokens: Mapping[str, str] | None = None, literals: Iterable[str] = ()
    ) -> None:
        self.tokens: dict[str, str] = {}
        # token-shaped text that masked inputs already held: not ours, left alone by unmask
        self.literals: set[str] = set(literals)
        self._by_value: dict[str, str] = {}
        # DOCX: a token whose value was split over runs -> how many characters each run held
        # (each layout once), so unmask gives every run its own part and formatting back
        self.runs: dict[str, list[list[int]]] = {}
        self._next: dict[str, int] = {}
        for token, value in (tokens or {}).items():
            self._add(token, value)

    def _add(self, token: str, value: str) -> None:
        m = TOKEN.fullmatch(token)
        if m is None or not isinstance(value, str):
            raise InputError(f"vault: {token!r} is not a token mapped to a string")
        self.tokens[token] = value
        self._by_value.setdefault(value, token)
        prefix, number = m.group(1), int(m.group(2))
        self._next[prefix] = max(self._next.get(prefix, 1), number + 1)

    def __len__(self) -> int:
        return len(self.tokens)

    def __contains__(self, token: object) -> bool:
        return token in self.tokens

    def token_for(self, value: str, prefix: str, avoid: str = "") -> str:
        """The token of ``value`` (a new one the first time), never one that occurs in
        ``avoid`` (the text being masked) unless it already stands for this value."""
        known = self._by_value.get(value)
        if known is not None:
            return known
        n = self._next.get(prefix, 1)
        while (t := f"<{prefix}_{n}>") in avoid or t in self.tokens or t in self.literals:
            n += 1
        token = f"<{prefix}_{n}>"
        self._next[prefix] = n + 1
        self.tokens[token] = value
        self._by_value[value] = token
        return token

    def note_runs(self, token: str, layout: list[int]) -> None:
        if token in self.tokens and layout not in self.runs.setdefault(token, []):
            self.runs[token].append(list(layout))

    def note_literals(self, text: str) -> None:
        """Remember token-shaped strings of an input (``<PHONE_9>`` written by hand), so that
        restoring knows they were never tokens of this vault."""
        if "<" in text:
            self.literals.update(m.group() for m in TOKEN.finditer(text) if m.group() not in self.tokens)

    def restore(self, text: str) -> tuple[str, int, list[str]]:
        """``text`` with every vault token replaced by its value; how many were replaced, and
        the token-shaped strings the vault does not know."""
        unknown: list[str] = []
        count = 0

        def sub(m: re.Match[str]) -> str:
            nonlocal count
            value = self.tokens.get(m.group())
            if value is None:
                if m.group() not in self.literals:
                    unknown.append(m.group())
                return m.group()
            count += 1
            return value

        return TOKEN.sub(sub, text), count, unknown

    # -- files ------------------------------------------------------------------------------
    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Vault:
        from .._io import read_text

        if not os.path.exists(path):
            raise InputError(f"{path}: no such vault file")
        raw = read_text(path)
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise InputError(f"{path}: not a genlint vault (invalid JSON: {exc.msg})") from None
        if not isinstance(data, dict) or not isinstance(data.get("tokens"), dict):
            raise InputError(f"{path}: not a genlint vault (no \"tokens\" object)")
        literals = data.get("literals", [])
        if not isinstance(literals, list):
            raise InputError(f"{path}: not a genlint vault (\"literals\" is not a list)")
        try:
            vault = cls(data["tokens"], [str(x) for x in literals])
        except InputError as exc:
            raise InputError(f"{path}: {exc}") from None
        runs = data.get("runs", {})
        if not isinstance(runs, dict) or not all(
            isinstance(v, list) and all(isinstance(x, list) and all(type(n) is int and n >= 0
                                                                   for n in x) for x in v)
            for v in runs.values()
        ):
            raise InputError(f"{path}: not a genlint vault (\"runs\" is not token -> layouts)")
        vault.runs = {str(k): [list(x) for x in v] for k, v in runs.items() if k in vault.tokens}
        return vault

    @classmethod
    def load_or_new(cls, path: str | os.PathLike[str]) -> Vault:
        return cls.load(path) if os.path.exists(path) else cls()

    def to_json(self) -> str:
        from .._io import to_json

        out: dict[str, object] = {"version": 1, "tokens": self.tokens}
        if self.literals:
            out["literals"] = sorted(self.literals)
        if self.runs:
            out["runs"] = self.runs
        return to_json(out)

    def save(self, path: str | os.PathLike[str], *, inputs: tuple[str, ...] = ()) -> None:
        """Write atomically, mode 0600 (also when the file existed with a wider mode)."""
        from .._io import atomic_write

        atomic_write(Path(path), self.to_json(), inputs=inputs, mode=0o600)


def unmask_text(text: str, vault: Vault | Mapping[str, str]) -> str:
    """``text`` with every token of ``vault`` restored to its value; other token-shaped text is
    left as it is (exactly what ``mask_text(…, style="token")`` wrote comes back)."""
    v = vault if isinstance(vault, Vault) else Vault(vault)
    return v.restore(text)[0]
