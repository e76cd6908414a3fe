"""`genlint check --jobs N`: the same report as one process, in the same order; bad files and
dying workers reported per file; Ctrl-C exits 130 with nothing half-written."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from genlint.check import check_paths
from genlint.check.engine import worker_check
from genlint.check.parallel import check_files_parallel, resolve_jobs
from genlint.cli.main import main
from genlint.errors import InputError
from support.corpus import make_corpus
from support.signals import sigint_default


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("corpus")
    make_corpus(folder, 60, docx=3, pdf=3, lines=20)
    return folder


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("fmt", ["json", "text", "sarif"])
def test_jobs_output_is_identical(
    corpus: Path, fmt: str, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = str(corpus / "missing.txt")
    one = run(["check", str(corpus), missing, "--format", fmt, "--no-color"], capsys)
    two = run(["check", str(corpus), missing, "--format", fmt, "--no-color", "--jobs", "2"], capsys)
    assert one[0] == two[0] == 2  # the missing file, reported for itself, others checked
    assert one[1] == two[1]
    assert one[2] == two[2]
    assert "missing.txt: no such file" in two[2]
    assert "某某公司" in two[1]


def test_parquet_out_same_rows_for_both(
    corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import pyarrow.parquet as pq

    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    assert main(["check", str(corpus), "--out", str(a)]) == 1
    assert main(["check", str(corpus), "--out", str(b), "--jobs", "2"]) == 1
    ta, tb = pq.read_table(a), pq.read_table(b)
    assert ta.equals(tb) and ta.num_rows > 50
    assert ta.column_names[:3] == ["path", "rule", "severity"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.parquet", "b.parquet"]  # no temp


def test_parquet_needs_out(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["check", str(corpus), "--format", "parquet"], capsys)
    assert code == 2 and "--out" in err


def test_resolve_jobs() -> None:
    assert resolve_jobs("1") == 1
    assert resolve_jobs("auto") >= 1
    assert resolve_jobs(3) == 3
    for bad in ("0", "many", -1):
        with pytest.raises(InputError):
            resolve_jobs(bad)


def test_one_or_two_files_stay_in_process(corpus: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import genlint.check.parallel as parallel

    def boom(*args: object, **kwargs: object) -> None:
        raise AssertionError("a pool started for two files")

    monkeypatch.setattr(parallel, "check_files_parallel", boom)
    files = sorted(str(p) for p in corpus.iterdir())[:2]
    assert len(check_paths(files, jobs=8).files) == 2


def test_dying_worker_retried_once(tmp_path: Path) -> None:
    from support.crashing_worker import serve

    folder = tmp_path / "docs"
    folder.mkdir()
    names = ["a.txt", "crash-once.txt", "b.txt", "crash-always.txt", "c.txt", "d.txt"]
    for name in names:
        (folder / name).write_text(f"{name} 乙方：某某公司\n", "utf-8")
    files = [str(folder / n) for n in names]
    settings = (None, None, None, None)
    done: list[int] = []
    # the driver checks nothing itself here: every file goes to a worker that may die
    results = check_files_parallel(
        files,
        settings,
        2,
        setup=worker_check,
        progress=done.append,
        worker=serve,
        help_workers=False,
    )
    assert [r.path for r in results] == files
    assert sum(done) == len(files)
    by_name = {Path(r.path).name: r for r in results}
    assert by_name["crash-always.txt"].error and "died twice" in by_name["crash-always.txt"].error
    once = by_name["crash-once.txt"]
    assert once.error is None and once.findings and "checked again" in once.warnings[0]
    for name in ("a.txt", "b.txt", "c.txt", "d.txt"):
        assert by_name[name].error is None and by_name[name].findings
    assert not workers_left()


def workers_left() -> list[psutil.Process]:
    """Our child processes, except multiprocessing's resource tracker (one per interpreter,
    started with the first spawned process, ends with it)."""
    return [
        p
        for p in psutil.Process().children(recursive=True)
        if "resource_tracker" not in " ".join(p.cmdline())
    ]


def test_ctrl_c_exits_130_and_writes_nothing(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    # many paths (the corpus ten times over) so the run is still going when it is interrupted
    args = [str(corpus)] * 10
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "genlint",
            "check",
            *args,
            "--jobs",
            "2",
            "--format",
            "json",
            "--out",
            str(out),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=sigint_default,  # started from a background job, SIGINT would be ignored
    )
    parent = psutil.Process(proc.pid)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and len(parent.children()) < 2:
        time.sleep(0.05)
    time.sleep(0.3)
    children = parent.children(recursive=True)
    os.killpg(proc.pid, signal.SIGINT)  # as a terminal does: the whole process group
    stdout, stderr = proc.communicate(timeout=30)
    assert proc.returncode == 130, stderr
    assert b"Traceback" not in stderr
    assert stdout == b""
    assert list(tmp_path.iterdir()) == []
    _gone, alive = psutil.wait_procs(children, timeout=5)
    assert not alive
