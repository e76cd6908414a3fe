"""Vaults that cannot lie (issue 25): concurrent writers lose no token, a vault restores only
documents it produced, and tokens of two vaults never collide."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from genlint.mask.vault import TOKEN, Vault

SRC = str(Path(__file__).resolve().parents[2] / "src")


def _phones(seed: int, n: int) -> list[str]:
    return [f"13{seed}{i:08d}" for i in range(n)]


def test_parallel_writers_lose_no_token(tmp_path: Path) -> None:
    """Four processes mask ten distinct numbers each into one vault at the same time."""
    vault = tmp_path / "vault.json"
    procs = []
    for w in range(4):
        src = tmp_path / f"in{w}"
        src.mkdir()
        for i, phone in enumerate(_phones(w + 5, 10)):
            (src / f"d{i}.txt").write_text(f"电话{phone}\n", encoding="utf-8")
        env = {**os.environ, "PYTHONPATH": SRC}
        procs.append(subprocess.Popen(
            [sys.executable, "-m", "genlint", "mask", str(src), "--out", str(tmp_path / f"out{w}"),
             "--style", "token", "--vault", str(vault)],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        ))  # fmt: skip
    for p in procs:
        _out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err.decode()
    data = json.loads(vault.read_text(encoding="utf-8"))
    assert len(data["tokens"]) == 40, "every value of every run is in the vault"
    assert sorted(data["tokens"].values()) == sorted(p for w in range(4) for p in _phones(w + 5, 10))
    assert len(data["documents"]) == 40
    for w in range(4):
        back = tmp_path / f"back{w}"
        r = subprocess.run(
            [sys.executable, "-m", "genlint", "unmask", str(tmp_path / f"out{w}"), "--vault",
             str(vault), "--out", str(back)],
            env={**os.environ, "PYTHONPATH": SRC}, capture_output=True, timeout=120,
        )  # fmt: skip
        assert r.returncode == 0, r.stderr.decode()
        for i, phone in enumerate(_phones(w + 5, 10)):
            assert (back / f"d{i}.txt").read_text(encoding="utf-8") == f"电话{phone}\n"


def _mask(run_cli: Any, tmp_path: Path, name: str, text: str, vault: Path) -> Path:
    src = tmp_path / f"src-{name}"
    src.mkdir(exist_ok=True)
    (src / "a.txt").write_text(text, encoding="utf-8")
    out = tmp_path / f"out-{name}"
    result = run_cli("mask", str(src / "a.txt"), "--out", str(out), "--style", "token",
                     "--vault", str(vault))
    assert result.code == 0, result.err
    return out / "a.txt"


def test_two_vaults_never_share_a_token(run_cli: Any, tmp_path: Path) -> None:
    a = _mask(run_cli, tmp_path, "a", "电话13812345678\n", tmp_path / "va.json")
    b = _mask(run_cli, tmp_path, "b", "电话13987654321\n", tmp_path / "vb.json")
    ta = TOKEN.findall(a.read_text(encoding="utf-8"))
    tb = TOKEN.findall(b.read_text(encoding="utf-8"))
    assert ta and tb and set(ta).isdisjoint(tb)
    ids = {Vault.new_file_vault().id for _ in range(200)}
    assert len(ids) > 190


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_foreign_document_is_refused_and_forced_restores_only_its_own(
    run_cli: Any, tmp_path: Path, fmt: str
) -> None:
    va, vb = tmp_path / "va.json", tmp_path / "vb.json"
    a = _mask(run_cli, tmp_path, "a", "甲方电话13812345678\n", va)
    _mask(run_cli, tmp_path, "b", "乙方电话13987654321\n", vb)
    out = tmp_path / "back"
    refused = run_cli("unmask", str(a), "--vault", str(vb), "--out", str(out), "--format", fmt)
    assert refused.code == 2
    assert "not produced with this vault" in refused.err and refused.err.count("\n") == 1
    assert not out.exists() or not any(out.iterdir())
    forced = run_cli("unmask", str(a), "--vault", str(vb), "--out", str(out), "--force",
                     "--format", fmt)
    assert forced.code == 1, "a token that is not this vault's remains"
    restored = (out / "a.txt").read_text(encoding="utf-8")
    assert "13987654321" not in restored, "no value from the foreign vault"
    assert "not from this vault" in forced.err and "13812345678" not in forced.err
    if fmt == "json":
        row = json.loads(forced.out)["files"][0]
        assert row["foreign"] and row["verified"] is False


def test_an_edited_document_needs_force_then_restores(run_cli: Any, tmp_path: Path) -> None:
    vault = tmp_path / "v.json"
    a = _mask(run_cli, tmp_path, "a", "电话13812345678\n", vault)
    a.write_text("模型回答：" + a.read_text(encoding="utf-8"), encoding="utf-8")
    assert run_cli("unmask", str(a), "--vault", str(vault), "--out", str(tmp_path / "o")).code == 2
    forced = run_cli("unmask", str(a), "--vault", str(vault), "--out", str(tmp_path / "o"), "--force")
    assert forced.code == 0 and "--force" in forced.err
    assert (tmp_path / "o" / "a.txt").read_text(encoding="utf-8") == "模型回答：电话13812345678\n"


def test_a_version_1_vault_cannot_vouch_for_a_document(run_cli: Any, tmp_path: Path) -> None:
    vault = tmp_path / "v.json"
    vault.write_text(json.dumps({"version": 1, "tokens": {"<PHONE_1>": "13812345678"}}))
    doc = tmp_path / "d.txt"
    doc.write_text("电话<PHONE_1>\n", encoding="utf-8")
    result = run_cli("unmask", str(doc), "--vault", str(vault), "--out", str(tmp_path / "o"))
    assert result.code == 2 and "version 1" in result.err
    forced = run_cli("unmask", str(doc), "--vault", str(vault), "--out", str(tmp_path / "o"), "--force")
    assert forced.code == 0
    assert (tmp_path / "o" / "d.txt").read_text(encoding="utf-8") == "电话13812345678\n"


def test_a_save_merges_what_another_writer_added(tmp_path: Path) -> None:
    path = tmp_path / "v.json"
    first = Vault.new_file_vault()
    first.save(path)
    second = Vault.load(path)
    t1 = first.token_for("13812345678", "PHONE")
    first.save(path)
    t2 = second.token_for("13987654321", "PHONE")
    assert t1 == t2, "both runs handed out the same number without the lock"
    with pytest.raises(Exception, match="two values"):
        second.save(path)
    assert Vault.load(path).tokens == {t1: "13812345678"}, "the conflict wrote nothing"
    third = Vault.load(path)
    third.token_for("13700000000", "PHONE")
    first.token_for("13600000000", "EMAIL")
    third.save(path)
    first.save(path)
    assert set(Vault.load(path).tokens.values()) == {"13812345678", "13700000000", "13600000000"}


def test_a_save_reads_the_file_again_only_when_another_writer_replaced_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "v.json"
    vault = Vault.new_file_vault()
    vault.save(path)
    loads: list[object] = []
    real = Vault.load.__func__  # type: ignore[attr-defined]

    def counted(cls: type[Vault], where: object) -> Vault:
        loads.append(where)
        return real(cls, where)  # type: ignore[no-any-return]

    monkeypatch.setattr(Vault, "load", classmethod(counted))
    for n in range(3):  # a run saves after every file: the file is its own last write
        vault.token_for(f"1381234567{n}", "PHONE")
        vault.save(path)
    assert loads == []
    other = Vault.load(path)
    other.token_for("13900000000", "PHONE")
    other.save(path)
    vault.save(path)  # replaced by another writer since: read and merged
    assert len(loads) == 2
    assert "13900000000" in Vault.load(path).tokens.values()


def test_the_vault_lock_times_out_with_one_line(tmp_path: Path) -> None:
    from genlint.errors import InputError
    from genlint.mask.vault import vault_lock

    path = tmp_path / "v.json"
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import fcntl,os,sys,time; fd=os.open(sys.argv[1], os.O_RDWR|os.O_CREAT, 0o600); "
         "fcntl.flock(fd, fcntl.LOCK_EX); print('held', flush=True); time.sleep(30)",
         str(path) + ".lock"],
        stdout=subprocess.PIPE,
    )  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline() == b"held\n"
        with pytest.raises(InputError, match="locked by another genlint run"), vault_lock(path, wait=0.3):
            pass
    finally:
        holder.kill()
        holder.wait()
    assert re.fullmatch(r"0o600", oct(os.stat(str(path) + ".lock").st_mode & 0o777))


def test_tokens_a_restorer_could_not_place_are_reported(
    run_cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A place the DOCX restorer does not write (here: none at all) leaves this vault's tokens
    in the output: they are named, and unmask exits 1."""
    import genlint.mask.docx as mask_docx
    from genlint.mask.unmask import Unmasked
    from support.docx_build import new_document, to_bytes

    document = new_document()
    document.add_paragraph("电话13812345678")
    (tmp_path / "a.docx").write_bytes(to_bytes(document))
    vault = tmp_path / "v.json"
    assert run_cli("mask", str(tmp_path / "a.docx"), "--out", str(tmp_path / "m"), "--style",
                   "token", "--vault", str(vault)).code == 0
    monkeypatch.setattr(mask_docx, "unmask_docx", lambda path, data, v: Unmasked(data, 0))
    result = run_cli("unmask", str(tmp_path / "m" / "a.docx"), "--vault", str(vault), "--out",
                     str(tmp_path / "back"), "--format", "json")
    assert result.code == 1
    (row,) = json.loads(result.out)["files"]
    assert row["unplaced"] and row["unplaced"][0].startswith("<PHONE_1_")
    assert "could not be placed" in result.err and "13812345678" not in result.err


@settings(max_examples=40, deadline=None)
@given(runs=st.lists(st.lists(st.sampled_from([f"1381234{i:04d}" for i in range(30)]),
                              max_size=8), min_size=1, max_size=6))
def test_runs_in_turn_keep_every_value_once(runs: list[list[str]]) -> None:
    """Whatever values successive runs add (repeats included), the vault ends with each value
    under one token of its own id, and a value keeps its token from run to run."""
    import tempfile

    from genlint.mask.vault import vault_lock

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "v.json"
        first_token: dict[str, str] = {}
        for values in runs:
            with vault_lock(path):
                vault = Vault.load_or_new(path)
                for value in values:
                    token = vault.token_for(value, "PHONE")
                    assert first_token.setdefault(value, token) == token
                vault.save(path)
        final = Vault.load(path)
        assert sorted(final.tokens.values()) == sorted(set(first_token))
        assert all(t.endswith(f"_{final.id}>") for t in final.tokens)


def test_a_masker_with_another_vault_shares_its_rules_not_its_tokens() -> None:
    from genlint.mask import Masker, Vault

    base = Masker("token")
    one, two = base.with_vault(Vault()), base.with_vault(Vault())
    a = one.mask("电话 13812345678")
    b = two.mask("电话 13900001234")
    assert one.checker is base.checker is two.checker
    assert one.vault is not None and two.vault is not None and one.vault is not two.vault
    assert one.vault.restore(a.text)[0] == "电话 13812345678"
    assert "13900001234" not in one.vault.restore(b.text)[0]  # another request's token
    with pytest.raises(Exception, match="token"):
        Masker("keep-ends").with_vault(Vault())
