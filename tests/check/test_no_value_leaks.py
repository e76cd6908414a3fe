"""Reports never copy personal data (SPEC "Common rules"): every report format of check, mask
and generate, run on files planted with distinct values, is searched for every planted value.
None may be found without --show-values; with it, every format that shows values shows all.

The values are generated here (valid check digits, so the sensitive pack flags them), each one
distinct, in txt, md, JSON, DOCX and PDF, and several on one line (the text report prints the
line around each finding: the other values of that line must be masked too)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from genlint.check.rules.sensitive.checks import id_check_char
from genlint.llm.testing import Reply, ScriptedServer
from support.docx_build import new_document, to_bytes
from support.pdf_build import make_pdf

KEY = "test-fingerprint-key"


def _luhn_digit(partial: str) -> str:
    total = 0
    for i, ch in enumerate(reversed(partial)):
        d = int(ch)
        if i % 2 == 0:
            d = d * 2 - 9 if d * 2 > 9 else d * 2
        total += d
    return str((10 - total % 10) % 10)


def planted_values(n: int, seed: int = 7) -> list[tuple[str, str]]:
    """``n`` distinct (kind, value) pairs: mobile numbers (plain, spaced, dotted), resident
    IDs, bank cards and e-mail addresses."""
    rng = random.Random(seed)
    seen: set[str] = set()
    out: list[tuple[str, str]] = []
    while len(out) < n:
        k = len(out) % 5
        if k == 0:
            value = "1" + rng.choice("3589") + "".join(rng.choices("0123456789", k=9))
            kind = "mobile"
        elif k == 1:
            first = (
                rng.choice(["110105", "310101", "440305"])
                + f"{rng.randint(1950, 2005)}{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}"
                + "".join(rng.choices("0123456789", k=3))
            )
            value, kind = first + id_check_char(first), "resident-id"
        elif k == 2:
            partial = "6222" + "".join(rng.choices("0123456789", k=11))
            value, kind = partial + _luhn_digit(partial), "bank-card"
        elif k == 3:
            name = "".join(rng.choices("abcdefghijklmnopqrstuvwxyz", k=8))
            value, kind = f"{name}@example.com", "email"
        else:
            digits = "13" + rng.choice("6789") + "".join(rng.choices("0123456789", k=8))
            value, kind = f"{digits[:3]}.{digits[3:7]}.{digits[7:]}", "mobile"
        if value not in seen:
            seen.add(value)
            out.append((kind, value))
    return out


def _line(values: list[str]) -> str:
    # a placeholder beside the values: its line is shown too, and must not show them
    return "甲方某某公司，联系方式：" + "，".join(values) + "。"


def _digits(value: str) -> str:
    return re.sub(r"[^0-9A-Za-z@.]", "", value) if "@" in value else re.sub(r"\D", "", value)


@pytest.fixture(scope="module")
def planted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """A folder of files holding 66 distinct values (three per line, and JSON keys and
    numbers), and the values."""
    folder = tmp_path_factory.mktemp("planted")
    values = [v for _, v in planted_values(60)]
    groups = [values[i : i + 3] for i in range(0, len(values), 3)]
    (folder / "a.txt").write_text("\n".join(_line(g) for g in groups[0:4]) + "\n", "utf-8")
    (folder / "b.md").write_text("# 联系\n\n" + "\n\n".join(_line(g) for g in groups[4:8]), "utf-8")
    (folder / "c.json").write_text(
        json.dumps({"contacts": [{"note": _line(g)} for g in groups[8:12]]}, ensure_ascii=False),
        "utf-8",
    )
    document = new_document()
    for g in groups[12:16]:
        document.add_paragraph(_line(g))
    (folder / "d.docx").write_bytes(to_bytes(document))
    make_pdf(folder / "e.pdf", [[_line(g) for g in groups[16:20]]])
    # JSON keys and numbers: a phone as a key (every pointer below it names it) and as a number
    extra = [v for _, v in planted_values(80, seed=3) if v.isdigit() and v not in values][:6]
    (folder / "f.json").write_text(
        json.dumps(
            {
                extra[0]: {"备注": "某某公司", "电话": int(extra[1])},
                extra[2]: int(extra[3]),
                "list": [int(extra[4]), {extra[5]: "x"}],
            },
            ensure_ascii=False,
        ),
        "utf-8",
    )
    return folder, values + extra


def _leaks(output: str, values: list[str]) -> list[str]:
    squeezed = re.sub(r"[\s\-.]", "", output)
    return [v for v in values if v in output or ("@" not in v and _digits(v) in squeezed)]


def _check_outputs(run_cli: Any, folder: Path, tmp: Path, *extra: str) -> dict[str, str]:
    """Every report of ``check`` on ``folder``, as text, keyed by format."""
    import pyarrow.parquet as pq

    outputs: dict[str, str] = {}
    for fmt in ("text", "json", "sarif", "junit"):
        result = run_cli("check", str(folder), "--format", fmt, *extra)
        assert result.code == 1, result.err
        outputs[fmt] = result.out + result.err
    for fmt in ("text", "json"):
        result = run_cli("check", str(folder), "--statistics", "--format", fmt, *extra)
        outputs[f"statistics-{fmt}"] = result.out + result.err
    target = tmp / f"report{len(extra)}.parquet"
    result = run_cli("check", str(folder), "--out", str(target), *extra)
    assert result.code == 1, result.err
    outputs["parquet"] = json.dumps(pq.read_table(target).to_pylist(), ensure_ascii=False)
    result = run_cli("check", str(folder), "--jobs", "2", "--format", "json", *extra)
    outputs["jobs-2"] = result.out + result.err
    # debug logs and warnings go to stderr: they hold no value either
    result = run_cli("--debug", "check", str(folder), "--format", "junit", *extra)
    outputs["debug-log"] = result.out + result.err
    return outputs


def test_no_report_of_check_holds_a_value(
    run_cli: Any, planted: tuple[Path, list[str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GENLINT_FINGERPRINT_KEY", KEY)
    folder, values = planted
    outputs = _check_outputs(run_cli, folder, tmp_path)
    found = json.loads(outputs["json"])
    flagged = sum(f["rule"].startswith("sensitive/") for x in found["files"] for f in x["findings"])
    assert flagged == len(values), "every planted value is found (else the test proves nothing)"
    for fmt, text in outputs.items():
        assert _leaks(text, values) == [], f"{fmt} report copies personal data"


def test_show_values_shows_every_value(
    run_cli: Any, planted: tuple[Path, list[str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GENLINT_FINGERPRINT_KEY", KEY)
    folder, values = planted
    outputs = _check_outputs(run_cli, folder, tmp_path, "--show-values")
    # (the statistics text table lists five distinct values per rule: not all)
    for fmt in ("text", "json", "sarif", "statistics-json", "parquet"):
        missing = [v for v in values if v not in outputs[fmt]]
        assert missing == [], f"{fmt} with --show-values lacks {len(missing)} values"
    # the SARIF fingerprints stay keyed hashes: no value, with or without --show-values
    sarif = json.loads(outputs["sarif"])
    prints = [r["partialFingerprints"]["genlint/v1"] for r in sarif["runs"][0]["results"]]
    assert _leaks("\n".join(prints), values) == []


def test_config_show_values_opts_in_and_is_validated(
    run_cli: Any, planted: tuple[Path, list[str]], tmp_path: Path
) -> None:
    folder, values = planted
    config = tmp_path / "genlint.toml"
    config.write_text("[check]\nshow_values = true\n", "utf-8")
    shown = run_cli("check", str(folder / "a.txt"), "--config", str(config), "--format", "json")
    assert values[0] in shown.out
    config.write_text('[check]\nshow_values = "yes"\n', "utf-8")
    bad = run_cli("check", str(folder / "a.txt"), "--config", str(config))
    assert bad.code == 2
    assert bad.err.startswith("genlint: error: ") and "show_values" in bad.err
    assert len(bad.err.strip().splitlines()) == 1


def test_sarif_fingerprints_are_keyed_and_stable(
    run_cli: Any, planted: tuple[Path, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    import hashlib

    folder, values = planted

    def prints(*extra: str) -> list[str]:
        out = run_cli("check", str(folder / "a.txt"), "--format", "sarif", *extra).out
        results = json.loads(out)["runs"][0]["results"]
        return [
            r["partialFingerprints"]["genlint/v1"] for r in results if "sensitive" in r["ruleId"]
        ]

    monkeypatch.setenv("GENLINT_FINGERPRINT_KEY", KEY)
    first = prints()
    assert first == prints(), "the same key gives the same fingerprints run after run"
    assert first == prints("--show-values"), "showing values does not change fingerprints"
    assert len(set(first)) == len(first) == 12
    assert all(p.startswith("hmac-sha256:") for p in first)
    # not an unkeyed hash of the value, which a brute force over 10^10 numbers reverses
    plain = {hashlib.sha256(v.encode()).hexdigest() for v in values}
    assert not plain & {p.split(":", 1)[1] for p in first}
    monkeypatch.setenv("GENLINT_FINGERPRINT_KEY", "another key")
    assert set(prints()).isdisjoint(first), "another key, other fingerprints"


def test_fingerprint_key_file_is_made_once_private(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import stat

    from genlint.check.reporters import _fingerprint

    monkeypatch.delenv("GENLINT_FINGERPRINT_KEY", raising=False)
    monkeypatch.setattr(_fingerprint, "_key_file", lambda: str(tmp_path / "c" / "fingerprint.key"))
    monkeypatch.setattr(_fingerprint, "_cached", {})
    key = _fingerprint.fingerprint_key()
    path = tmp_path / "c" / "fingerprint.key"
    assert path.read_bytes() == key and len(key) == 32
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    monkeypatch.setattr(_fingerprint, "_cached", {})
    assert _fingerprint.fingerprint_key() == key, "read back, not made again"


def test_mask_reports_hold_no_value(
    run_cli: Any, planted: tuple[Path, list[str]], tmp_path: Path
) -> None:
    folder, values = planted
    for fmt in ("text", "json"):
        out = tmp_path / f"masked-{fmt}"
        out.mkdir()
        result = run_cli(
            "mask",
            str(folder / "a.txt"),
            str(folder / "c.json"),
            str(folder / "f.json"),
            "--out",
            str(out),
            "--format",
            fmt,
        )
        assert result.code == 0, result.err
        assert _leaks(result.out + result.err, values) == [], f"mask --format {fmt}"
        assert _leaks((out / "f.json").read_text("utf-8"), values) == [], "keys and numbers"


# ``genlint generate`` against a scripted server, checking its reply with the sensitive pack
_GENERATE = (
    "generate",
    "--model",
    "m",
    "--api-key-env",
    "HOME",
    "--select",
    "sensitive",
    "--max-retries",
    "1",
)


def test_generate_never_writes_or_shows_a_value(run_cli: Any, tmp_path: Path) -> None:
    values = [v for _, v in planted_values(6, seed=11)]
    reply = _line(values[:3]) + "\n" + _line(values[3:])
    prompt = tmp_path / "p.txt"
    prompt.write_text("写联系人清单", "utf-8")
    base = [*_GENERATE, "--prompt-file", str(prompt)]
    out = tmp_path / "reply.txt"
    with ScriptedServer([Reply(reply), Reply(reply)]) as server:
        result = run_cli(*base, "--base-url", server.url, "--out", str(out))
    assert result.code == 1, result.err  # degraded: never clean
    written = out.read_text("utf-8")
    assert _leaks(written + result.out + result.err, values) == []
    assert len(written) == len(reply), "masked in place, same length"
    assert "personal data masked in the returned text: 6 value(s)" in result.out
    with ScriptedServer([Reply(reply), Reply(reply)]) as server:
        result = run_cli(*base, "--base-url", server.url, "--format", "json")
    doc = json.loads(result.out)
    assert _leaks(result.out + result.err, values) == []
    assert doc["personal_data_masked"] == 6 and doc["status"] == "degraded"
    with ScriptedServer([Reply(reply), Reply(reply)]) as server:
        result = run_cli(
            *base,
            "--base-url",
            server.url,
            "--out",
            str(out),
            "--keep-personal-data",
            "--show-values",
        )
    assert out.read_text("utf-8") == reply, "--keep-personal-data writes the reply as it came"
    assert values[0] in result.out, "--show-values shows the findings' values"


def test_check_table_rows_mask_unless_the_config_shows_values() -> None:
    import pyarrow as pa

    from genlint.batch import check_table

    values = [v for _, v in planted_values(5, seed=21)]
    table = pa.table({"id": [1, 2], "text": [_line(values[:3]), _line(values[3:])]})
    rows = check_table(table, select=["sensitive"]).to_pylist()
    assert len(rows) == 5
    assert _leaks(json.dumps(rows, ensure_ascii=False), values) == []
    assert all(len(r["text"]) == r["end"] - r["start"] for r in rows), "span and length intact"
    shown = check_table(table, select=["sensitive"], config={"show_values": True}).to_pylist()
    assert sorted(r["text"] for r in shown) == sorted(values)


def test_generate_batch_never_writes_or_shows_a_value(run_cli: Any, tmp_path: Path) -> None:
    values = [v for _, v in planted_values(3, seed=12)]
    reply = _line(values)
    prompts = tmp_path / "prompts"
    prompts.mkdir()
    (prompts / "p.txt").write_text("写联系人清单", "utf-8")
    out = tmp_path / "out"
    out.mkdir()
    with ScriptedServer([Reply(reply), Reply(reply)]) as server:
        result = run_cli(
            *_GENERATE,
            "--prompts-dir",
            str(prompts),
            "--base-url",
            server.url,
            "--out",
            str(out),
            "--format",
            "json",
        )
    assert result.code == 1, result.err
    written = (out / "p.txt").read_text("utf-8")
    ledger = (out / "genlint-ledger.jsonl").read_text("utf-8")
    assert _leaks(written + ledger + result.out + result.err, values) == []
    assert len(written) == len(reply), "masked in place, same length"
    assert json.loads(result.out)["results"][0]["personal_data_masked"] == 3


def test_generate_table_opts_in_as_the_flags_do(run_cli: Any, tmp_path: Path) -> None:
    values = [v for _, v in planted_values(3, seed=13)]
    reply = _line(values)
    prompt = tmp_path / "p.txt"
    prompt.write_text("写联系人清单", "utf-8")
    config = tmp_path / "genlint.toml"
    config.write_text("[generate]\nshow_values = true\nkeep_personal_data = true\n", "utf-8")
    out = tmp_path / "reply.txt"
    with ScriptedServer([Reply(reply), Reply(reply)]) as server:
        result = run_cli(
            *_GENERATE,
            "--prompt-file",
            str(prompt),
            "--base-url",
            server.url,
            "--out",
            str(out),
            "--config",
            str(config),
        )
    assert result.code == 1, result.err
    assert out.read_text("utf-8") == reply and values[0] in result.out
