"""unmask on a PDF masked with tokens: the hidden places get their values back (issue 22 item
5); page values stay redacted pixels."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest

from support.pdf_build import build_audit_pdf

pytest.importorskip("pypdfium2")
pytest.importorskip("reportlab")


def _info_and_outline(data: bytes) -> tuple[dict[str, str], list[str]]:
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(data))
    info = {k: str(v) for k, v in (reader.metadata or {}).items()}
    return info, [str(item.title) for item in reader.outline if not isinstance(item, list)]


def _annotations(data: bytes) -> list[Any]:
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(data))
    return [a.get_object() for page in reader.pages for a in page.get("/Annots") or []]


def test_tokens_in_hidden_places_come_back(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    data, planted = build_audit_pdf(31, ("info", "bookmark", "annotation", "link"),
                                    first_value=3100)  # fmt: skip
    source = tmp_path / "in" / "doc.pdf"
    source.parent.mkdir()
    source.write_bytes(data)
    vault = tmp_path / "v.json"
    masked = run_cli("mask", str(source), "--out", str(tmp_path / "m"), "--style", "token",
                     "--vault", str(vault))  # fmt: skip
    assert masked.code == 0, masked.err
    out = (tmp_path / "m" / "doc.pdf").read_bytes()
    values = dict(planted)
    info, titles = _info_and_outline(out)
    assert values["info"] not in json.dumps(info, ensure_ascii=False)
    assert any("<" in v for v in info.values())  # a token stands in the Info entry
    back = run_cli("unmask", str(tmp_path / "m" / "doc.pdf"), "--vault", str(vault),
                   "--out", str(tmp_path / "u"), "--format", "json")  # fmt: skip
    assert back.code == 0, back.err
    report = json.loads(back.out)
    assert report["files"][0]["restored"] >= 3 and not report["files"][0]["unplaced"]
    restored = (tmp_path / "u" / "doc.pdf").read_bytes()
    info, titles = _info_and_outline(restored)
    assert any(values["info"] in v for v in info.values())
    assert any(values["bookmark"] in t for t in titles)
    annots = _annotations(restored)
    assert any(values["annotation"] in str(a.get("/Contents", "")) for a in annots)
    # a link's URI is written back percent-encoded, as mask wrote it
    uris = [str(a["/A"]["/URI"]) for a in annots if "/A" in a]
    assert any(unquote(u).endswith(values["link"]) for u in uris), uris


def test_a_pdf_without_tokens_restores_nothing(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    data, _ = build_audit_pdf(32, ("info",), first_value=3200)
    source = tmp_path / "doc.pdf"
    source.write_bytes(data)
    vault = tmp_path / "v.json"
    vault.write_text('{"version": 1, "tokens": {"<PHONE_1>": "13800000000"}}', "utf-8")
    back = run_cli("unmask", str(source), "--vault", str(vault), "--force", "--out",
                   str(tmp_path / "u"), "--format", "json")  # fmt: skip
    assert back.code == 0, back.err
    assert json.loads(back.out)["files"][0]["restored"] == 0
    assert (tmp_path / "u" / "doc.pdf").read_bytes() == data  # nothing rewritten
