"""Ray: a local two-CPU cluster over 2,000 generated documents of mixed formats finds exactly
what the in-process engine finds; the cluster is started and stopped here and leaves no
process behind."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from genlint import batch
from genlint.batch.parquet import report_table
from genlint.check import check_paths
from genlint.cli.main import main
from support.corpus import make_corpus

ray = pytest.importorskip("ray", reason="the ray extra is not installed")
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _children() -> set[int]:
    return {p.pid for p in psutil.Process().children(recursive=True)}


@pytest.fixture(scope="module")
def cluster() -> Iterator[None]:
    before = _children()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
    from ray.data import DataContext

    DataContext.get_current().enable_progress_bars = False
    try:
        yield
    finally:
        ray.shutdown()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and _children() - before:
            time.sleep(0.2)
        left = [psutil.Process(pid).cmdline()[:2] for pid in _children() - before]
        assert not left, f"Ray left processes behind: {left}"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("ray-corpus")
    make_corpus(folder, 2000, docx=20, pdf=20, lines=12)
    (folder / "broken.pdf").write_bytes(b"%PDF-1.4 not really")
    return folder


def test_cli_ray_parquet_equals_in_process(cluster: None, corpus: Path, tmp_path: Path) -> None:
    local, remote = tmp_path / "local.parquet", tmp_path / "ray.parquet"
    assert main(["check", str(corpus), "--out", str(local)]) == 2  # broken.pdf
    assert main(["check", str(corpus), "--engine", "ray", "--out", str(remote)]) == 2
    expected, got = pq.read_table(local), pq.read_table(remote)
    assert remote.is_dir()  # the workers' parts, readable as one table
    assert expected.num_rows > 2000
    assert got.select(expected.column_names).equals(expected)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["local.parquet", "ray.parquet"]


def test_cli_ray_json_equals_in_process(
    cluster: None, corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = sorted(str(p) for p in corpus.iterdir())[::7]  # a sample of every format
    assert main(["check", *files, "--format", "json"]) == 2
    local = capsys.readouterr()
    assert main(["check", *files, "--format", "json", "--engine", "ray"]) == 2
    remote = capsys.readouterr()
    assert remote.out == local.out and remote.err == local.err
    assert "broken.pdf" in remote.err
    assert {Path(f["path"]).suffix for f in json.loads(remote.out)["files"]} >= {
        ".txt",
        ".md",
        ".json",
        ".docx",
        ".pdf",
    }


def test_check_dataset_over_binary_files(cluster: None, corpus: Path) -> None:
    files = sorted(str(p) for p in corpus.iterdir() if p.name != "broken.pdf")[:400]
    ds = ray.data.read_binary_files(files, include_paths=True)
    got = batch.check_dataset(ds, files=True).to_arrow_refs()
    rows = pa.concat_tables(ray.get(got)).to_pylist()
    expected = report_table(check_paths(files).files).to_pylist()

    def key(row: dict[str, object]) -> tuple[object, ...]:
        name = Path(str(row["path"])).name
        return (name, row["start"], row["rule"], row["line"], row["page"], row["paragraph"])

    for row in rows:
        assert row.pop("error") is None
    for row in expected:
        assert row.pop("error") is None
    got_rows = sorted(({**r, "path": Path(r["path"]).name} for r in rows), key=key)
    want_rows = sorted(({**r, "path": Path(r["path"]).name} for r in expected), key=key)
    assert got_rows == want_rows


def test_check_and_parse_dataset_of_texts(cluster: None) -> None:
    texts = [f"第{i}条 乙方：某某公司" if i % 3 else "干净。" for i in range(300)]
    ds = ray.data.from_items([{"id": i, "text": t} for i, t in enumerate(texts)])
    rows = batch.check_dataset(ds, batch_size=64).take_all()
    assert sorted(r["id"] for r in rows) == [i for i in range(300) if i % 3]
    replies = ray.data.from_items([{"id": i, "text": f'{{"n": {i}}}'} for i in range(300)])
    parsed = batch.parse_dataset(replies).take_all()
    assert all(r["ok"] for r in parsed) and {r["value"] for r in parsed} == {
        f'{{"n":{i}}}' for i in range(300)
    }


def test_ray_parquet_rerun_replaces_its_dataset(cluster: None, corpus: Path, tmp_path: Path) -> None:
    files = sorted(str(p) for p in corpus.iterdir() if p.suffix == ".txt")[:30]
    out = tmp_path / "findings.parquet"
    for _ in range(2):  # the second run replaces the first run's folder of parts
        assert main(["check", *files, "--engine", "ray", "--out", str(out)]) == 1
    assert [p.name for p in tmp_path.iterdir()] == ["findings.parquet"]  # nothing hidden left
    assert pq.read_table(out).num_rows == report_table(check_paths(files).files).num_rows > 0
    assert oct(out.stat().st_mode & 0o777) != "0o700"  # the umask's mode, not mkdtemp's
