"""The token vault: ``<PHONE_1>`` ↔ the value it stands for, and the way back.

A token is stable per distinct value (the same number gets the same token in every file masked
with one vault) and is never a string the masked text already held, so restoring replaces only
what masking wrote: ``unmask_text(mask_text(x, style="token").text, vault) == x`` for any text.

A vault *file* (``genlint mask --vault``) cannot lie about whose data it holds:

- it has a random id, and its tokens carry it (``<PHONE_1_kqzvtb>``), so the tokens of two
  vaults never collide: a document masked with another vault holds tokens this one does not know;
- it records the SHA-256 of every document it produced, so ``unmask`` can refuse a document the
  vault did not write (unless forced) instead of restoring another person's values into it;
- it is written atomically, mode 0600 (it holds the personal data), under an exclusive lock on a
  sidecar ``FILE.lock``: concurrent runs re-read, merge and write in turn, and never lose a token.

Version 1 files (no id, no documents) are still read; they are upgraded when written again.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import re
import secrets
import time
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from ..errors import InputError

__all__ = ["TOKEN", "Vault", "document_hash", "unmask_text", "vault_lock"]

#: what a token looks like: ``<PHONE_1>``, ``<ID_12>``, ``<BANK_ACCOUNT_3>``, and with a file
#: vault's id ``<PHONE_1_kqzvtb>`` (six lowercase letters: never read as part of the number)
TOKEN = re.compile(r"<([A-Z][A-Z0-9_]*?)_([1-9][0-9]*)(?:_([a-z]{6}))?>")
_ID = re.compile(r"[a-z]{6}")
_LETTERS = "abcdefghijklmnopqrstuvwxyz"
#: how long a run waits for another run's lock on the same vault before giving up
LOCK_WAIT_SECONDS = 600.0


def document_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class Vault:
    """Token → value, and value → token, with a counter per token prefix.

    ``vault_id`` (file vaults) is appended to every new token; ``documents`` maps the SHA-256 of
    each document written with this vault to what it holds (``{"path": …, "tokens": […]}``)."""

    def __init__(
        self,
        tokens: Mapping[str, str] | None = None,
        literals: Iterable[str] = (),
        *,
        vault_id: str | None = None,
        documents: Mapping[str, Mapping[str, Any]] | None = None,
    ) -> None:
        if vault_id is not None and not _ID.fullmatch(vault_id):
            raise InputError(f"vault: id {vault_id!r} is not six lowercase letters")
        self.id = vault_id
        self.tokens: dict[str, str] = {}
        # token-shaped text that masked inputs already held: not ours, left alone by unmask
        self.literals: set[str] = set(literals)
        self.documents: dict[str, dict[str, Any]] = {k: dict(v) for k, v in (documents or {}).items()}
        self._by_value: dict[str, str] = {}
        # DOCX: a token whose value was split over runs -> how many characters each run held
        # (each layout once), so unmask gives every run its own part and formatting back
        self.runs: dict[str, list[list[int]]] = {}
        self._next: dict[str, int] = {}
        # the vault file as this object last read or wrote it: save() merges only when another
        # writer has replaced it since (a run saves after every file, under one lock)
        self._on_disk: tuple[int, ...] | None = None
        for token, value in (tokens or {}).items():
            self._add(token, value)

    @classmethod
    def new_file_vault(cls) -> Vault:
        """An empty vault with a fresh random id (what ``mask --vault`` creates)."""
        return cls(vault_id="".join(secrets.choice(_LETTERS) for _ in range(6)))

    @property
    def _suffix(self) -> str:
        return f"_{self.id}" if self.id else ""

    def _add(self, token: str, value: str) -> None:
        m = TOKEN.fullmatch(token)
        if m is None or not isinstance(value, str):
            raise InputError(f"vault: {token!r} is not a token mapped to a string")
        if self.id is not None and m.group(3) not in (None, self.id):
            raise InputError(f"vault: {token} carries another vault's id (this one is {self.id})")
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
        suffix = self._suffix
        while (t := f"<{prefix}_{n}{suffix}>") in avoid or t in self.tokens or t in self.literals:
            n += 1
        token = f"<{prefix}_{n}{suffix}>"
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

    # -- the documents it produced ------------------------------------------------------------
    def record_document(self, data: bytes, path: str, tokens: Iterable[str]) -> None:
        """Remember that this vault wrote ``data`` (to ``path``), holding ``tokens``."""
        self.documents[document_hash(data)] = {
            "path": str(path), "tokens": sorted(set(t for t in tokens if t in self.tokens)),
        }

    @property
    def keeps_records(self) -> bool:
        """A file vault of version 2 (an id): it can show which documents it produced. An
        in-memory vault (``mask_text``, a gate, a service request) and a version 1 file cannot."""
        return self.id is not None or bool(self.documents)

    def document(self, data: bytes) -> dict[str, Any] | None:
        """What this vault recorded about ``data``, or None when it did not produce it."""
        return self.documents.get(document_hash(data))

    def verify_document(self, path: str, data: bytes, *, force: bool) -> dict[str, Any] | None:
        """The record of ``data``; InputError naming the mismatch when this vault keeps records
        and did not produce it (``force``: None, and the caller restores what it can)."""
        record = self.document(data)
        if record is not None or force or not self.keeps_records:
            return record
        digest = document_hash(data)[:12]
        raise InputError(
            f"{path}: was not produced with this vault (SHA-256 {digest}… is none of the "
            f"{len(self.documents)} document(s) it masked: another vault's file, or edited since "
            "masking); --force restores the tokens of this vault anyway"
        )

    # -- files ------------------------------------------------------------------------------
    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Vault:
        from .._io import loads_json, read_text

        seen = _signature(path)  # before reading: a file replaced meanwhile is merged on save
        if seen is None:
            raise InputError(f"{path}: no such vault file")
        raw = read_text(path)
        try:
            data = loads_json(raw)
        except json.JSONDecodeError as exc:
            raise InputError(f"{path}: not a genlint vault (invalid JSON: {exc.msg})") from None
        except RecursionError:
            raise InputError(f"{path}: not a genlint vault (JSON nested too deeply)") from None
        except InputError as exc:
            raise InputError(f"{path}: not a genlint vault ({exc})") from None
        if not isinstance(data, dict) or not isinstance(data.get("tokens"), dict):
            raise InputError(f"{path}: not a genlint vault (no \"tokens\" object)")
        literals = data.get("literals", [])
        documents = data.get("documents", {})
        vault_id = data.get("id")
        if not isinstance(literals, list):
            raise InputError(f"{path}: not a genlint vault (\"literals\" is not a list)")
        if not isinstance(documents, dict) or not all(isinstance(v, dict) for v in documents.values()):
            raise InputError(f"{path}: not a genlint vault (\"documents\" is not an object of objects)")
        if vault_id is not None and not isinstance(vault_id, str):
            raise InputError(f"{path}: not a genlint vault (\"id\" is not a string)")
        try:
            vault = cls(data["tokens"], [str(x) for x in literals], vault_id=vault_id,
                       documents=documents)
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
        vault._on_disk = seen
        return vault

    @classmethod
    def load_or_new(cls, path: str | os.PathLike[str]) -> Vault:
        return cls.load(path) if os.path.exists(path) else cls.new_file_vault()

    def to_json(self) -> str:
        from .._io import to_json

        out: dict[str, object] = {"version": 2 if self.id else 1}
        if self.id:
            out["id"] = self.id
        out["tokens"] = self.tokens
        if self.literals:
            out["literals"] = sorted(self.literals)
        if self.documents:
            out["documents"] = dict(sorted(self.documents.items()))
        if self.runs:
            out["runs"] = self.runs
        return to_json(out)

    def merge(self, other: Vault, where: str) -> None:
        """Take in what ``other`` (the file as another run left it) holds and this one lacks;
        InputError if the two disagree on a token (they are not the same vault)."""
        if other.id != self.id:
            raise InputError(f"{where}: the vault was replaced by another one (id {other.id}, "
                             f"this run's {self.id}); nothing written to it")
        for token, value in other.tokens.items():
            mine = self.tokens.get(token)
            if mine is None:
                self._add(token, value)
            elif mine != value:
                raise InputError(f"{where}: {token} stands for two values in concurrent runs; "
                                 "nothing written to the vault")
        self.literals.update(t for t in other.literals if t not in self.tokens)
        for digest, record in other.documents.items():
            self.documents.setdefault(digest, record)
        for token, layouts in other.runs.items():
            for layout in layouts:
                self.note_runs(token, layout)

    def save(self, path: str | os.PathLike[str], *, inputs: tuple[str, ...] = ()) -> None:
        """Under the vault's lock, merge what is on disk now, then write atomically, mode 0600
        (also when the file existed with a wider mode)."""
        from .._io import atomic_write

        with vault_lock(path):
            now = _signature(path)
            if now is not None and now != self._on_disk:
                self.merge(Vault.load(path), str(path))
            atomic_write(Path(path), self.to_json(), inputs=inputs, mode=0o600)
            self._on_disk = _signature(path)


def _signature(path: str | os.PathLike[str]) -> tuple[int, ...] | None:
    """Which file is at ``path`` and when it was written (a save replaces it: a new inode)."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    return (st.st_dev, st.st_ino, st.st_mtime_ns, st.st_size)


# locks this process holds, so that save() inside a locked run does not wait for itself
# (flock locks belong to an open file description: a second open() would block)
_held: set[str] = set()


@contextlib.contextmanager
def vault_lock(path: str | os.PathLike[str], wait: float | None = None) -> Iterator[None]:
    """Hold the exclusive lock of the vault at ``path`` (``FILE.lock`` beside it, mode 0600).

    A run that loads, extends and saves a vault holds it from load to the last save, so two
    runs never hand out the same token for different values."""
    lock_path = os.path.realpath(os.fspath(path)) + ".lock"
    if lock_path in _held:  # the outermost holder releases it
        yield
        return
    try:
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
    except OSError as exc:
        raise InputError(f"{path}: cannot lock the vault ({exc.strerror or exc})") from None
    try:
        deadline = time.monotonic() + (LOCK_WAIT_SECONDS if wait is None else wait)
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise InputError(
                        f"{path}: the vault is locked by another genlint run ({lock_path}); "
                        "nothing written"
                    ) from None
                time.sleep(0.02)
        _held.add(lock_path)
        try:
            yield
        finally:
            _held.discard(lock_path)
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def unmask_text(text: str, vault: Vault | Mapping[str, str]) -> str:
    """``text`` with every token of ``vault`` restored to its value; other token-shaped text is
    left as it is (exactly what ``mask_text(…, style="token")`` wrote comes back)."""
    v = vault if isinstance(vault, Vault) else Vault(vault)
    return v.restore(text)[0]
