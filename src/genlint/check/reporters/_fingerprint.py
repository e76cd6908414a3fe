"""Fingerprints of findings that hold personal data (SARIF ``partialFingerprints``).

A fingerprint lets code scanning follow one alert from run to run, so it must be stable; for
a ``sensitive`` finding it must also not give the value away. A plain hash does: there are
only about 10^10 mainland mobile numbers and a few 10^11 valid resident ID numbers, and a
laptop hashes every one of them in seconds to minutes, so ``sha256(value)`` is the value.
The fingerprint is therefore an HMAC-SHA256, keyed by a secret that is not in the report,
of the rule, the masked value (``138****5678``) and the location.

The key (docs/commands/check.md, "Reports never copy personal data"):
``GENLINT_FINGERPRINT_KEY`` when set (CI: a repository secret, so every runner gives the same
fingerprints); otherwise 32 random bytes in the user's cache folder (``fingerprint.key``,
created once with mode 0600 in a 0700 folder), stable for that user on that machine.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import secrets

__all__ = ["KEY_ENV", "fingerprint", "fingerprint_key"]

KEY_ENV = "GENLINT_FINGERPRINT_KEY"
KEY_FILE = "fingerprint.key"
_KEY_BYTES = 32

log = logging.getLogger(__name__)
_cached: dict[str, bytes] = {}


def _key_file() -> str:
    from platformdirs import user_cache_dir

    return os.path.join(user_cache_dir("genlint", appauthor=False), KEY_FILE)


def _read_or_create(path: str) -> bytes:
    try:
        with open(path, "rb") as fh:
            key = fh.read(4096)
        if len(key) >= 16:
            return key
        raise OSError(f"{path} holds fewer than 16 bytes")
    except FileNotFoundError:
        pass
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    key = secrets.token_bytes(_KEY_BYTES)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags, 0o600)
    except FileExistsError:  # another genlint made it meanwhile: use theirs
        return _read_or_create(path)
    with os.fdopen(fd, "wb") as fh:
        fh.write(key)
    return key


def fingerprint_key() -> bytes:
    """The HMAC key: ``GENLINT_FINGERPRINT_KEY``, else the user's key file (made on first
    use). When neither can be had, a key for this process only: fingerprints then change
    between runs (logged as a warning), which costs alert tracking, never the value."""
    env = os.environ.get(KEY_ENV)
    if env:
        return env.encode("utf-8", "surrogatepass")
    path = _key_file()
    key = _cached.get(path)
    if key is None:
        try:
            key = _read_or_create(path)
        except OSError as exc:
            log.warning(
                "no fingerprint key (%s); set %s for stable fingerprints",
                exc.strerror or exc,
                KEY_ENV,
            )
            key = secrets.token_bytes(_KEY_BYTES)
        _cached[path] = key
    return key


def fingerprint(*parts: str | int | None) -> str:
    """HMAC-SHA256 (hex) of ``parts``, joined unambiguously."""
    message = "\x1f".join("" if p is None else str(p) for p in parts)
    digest = hmac.new(fingerprint_key(), message.encode("utf-8", "surrogatepass"), hashlib.sha256)
    return digest.hexdigest()
