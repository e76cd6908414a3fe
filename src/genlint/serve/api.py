"""``/v1/check``, ``/v1/parse``, ``/v1/mask``, ``/v1/unmask``: the commands' JSON over HTTP.

``/v1/check`` takes ``{"text": …}`` (checked as a ``.txt``, or as ``name``'s format when a
``name`` is given) or a file's raw bytes with ``?name=contract.docx``; the answer is the same
JSON document as ``genlint check --format json``. Uploaded bytes are written to a private
temporary folder (mode 0700) that is removed when the request ends.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path, PurePath
from typing import Any

from ..mask import Vault, mask_text
from .chat import ServeError


def _select(body: dict[str, Any]) -> Any:
    select = body.get("select")
    if select is not None and not isinstance(select, (str, list)):
        raise ServeError(400, "'select' must be a string or a list")
    return select


def check_json(
    body: Any, raw: bytes | None, name: str | None, select_default: Any
) -> dict[str, Any]:
    from ..check import CheckConfig, check_paths
    from ..check.reporters.json import as_dict

    if raw is not None:
        data, select = raw, select_default
    else:
        if not isinstance(body, dict) or not isinstance(body.get("text"), str):
            raise ServeError(400, 'send {"text": …} as JSON, or a file\'s bytes with ?name=FILE')
        data, select = body["text"].encode("utf-8"), _select(body) or select_default
        name = body.get("name") if isinstance(body.get("name"), str) else name
    safe = PurePath(name or "input.txt").name or "input.txt"
    from ..readers import READERS

    if Path(safe).suffix.lower() not in READERS:  # what check reads, by the same table
        raise ServeError(400, f"unsupported file type {Path(safe).suffix or '(none)'!r}")
    folder = tempfile.mkdtemp(prefix="genlint-serve-")
    try:
        os.chmod(folder, 0o700)
        path = Path(folder) / safe
        path.write_bytes(data)
        # the text sent is model output: a directive in it must not silence its own findings
        report = check_paths([str(path)], select=select, config=CheckConfig(inline_ignores=False))
        out = as_dict(report)
        for entry in out["files"]:
            entry["path"] = safe
            if "error" in entry:
                entry["error"] = entry["error"].replace(str(path), safe)
        return out
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def parse_json_body(body: Any) -> dict[str, Any]:
    from ..parse import parse_json

    if not isinstance(body, dict) or not isinstance(body.get("text"), str):
        raise ServeError(400, 'send {"text": …, "schema"?: {…}, "fields"?: […]}')
    schema = body.get("schema")
    fields = body.get("fields")
    if schema is not None and not isinstance(schema, dict):
        raise ServeError(400, "'schema' must be an object")
    if fields is not None and not (
        isinstance(fields, list) and all(isinstance(f, str) for f in fields)
    ):
        raise ServeError(400, "'fields' must be a list of names")
    result = parse_json(body["text"], schema=schema, fields=fields)
    out: dict[str, Any] = result.to_dict()
    return out


def mask_body(body: Any) -> dict[str, Any]:
    if not isinstance(body, dict) or not isinstance(body.get("text"), str):
        raise ServeError(400, 'send {"text": …, "style"?: …}')
    style = body.get("style", "keep-ends")
    if not isinstance(style, str):
        raise ServeError(400, "'style' must be a string")
    result = mask_text(body["text"], style=style, select=_select(body))
    out: dict[str, Any] = {
        "text": result.text,
        "replacements": [r.to_dict() for r in result.replacements],
    }
    if result.vault is not None:
        out["vault"] = dict(result.vault.tokens)  # the caller's own data, back to the caller
    return out


def unmask_body(body: Any) -> dict[str, Any]:
    if not isinstance(body, dict) or not isinstance(body.get("text"), str):
        raise ServeError(400, 'send {"text": …, "vault": {token: value}}')
    tokens = body.get("vault")
    if not isinstance(tokens, dict) or not all(isinstance(v, str) for v in tokens.values()):
        raise ServeError(400, "'vault' must map tokens to strings")
    vault = Vault(tokens)
    text, restored, unknown = vault.restore(body["text"])
    return {"text": text, "restored": restored, "unknown_tokens": sorted(set(unknown))}


__all__ = ["check_json", "mask_body", "parse_json_body", "unmask_body"]
