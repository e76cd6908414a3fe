"""Hostile conditions, as a CI job running as root meets them: bad targets, special files,
crashes, damaged encodings. Each case would break a careless implementation."""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

import pytest


def test_crash_log_goes_to_the_users_cache_never_a_shared_fixed_name(
    run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    import genlint.check.engine as engine

    def boom(*args: object, **kwargs: object) -> None:
        raise RuntimeError("simulated bug")

    monkeypatch.setattr(engine, "check_paths", boom)
    monkeypatch.setattr("genlint.check.check_paths", boom)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    planted = Path(tempfile.gettempdir()) / "genlint-crash.log"
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me", encoding="utf-8")
    if not planted.exists():
        planted.symlink_to(victim)
    try:
        doc = tmp_path / "a.txt"
        doc.write_text("x", encoding="utf-8")
        result = run_cli("check", str(doc))
    finally:
        if planted.is_symlink():
            planted.unlink()
    assert result.code == 2
    assert result.err.count("\n") == 1 and "internal error: RuntimeError: simulated bug" in result.err
    logs = list((tmp_path / "cache" / "genlint").glob("crash-*.log"))
    assert len(logs) == 1 and "simulated bug" in logs[0].read_text(encoding="utf-8")
    assert stat.S_IMODE(logs[0].stat().st_mode) == 0o600
    assert victim.read_text(encoding="utf-8") == "keep me", "no link in /tmp was followed"


@pytest.mark.parametrize(
    ("make", "needle"),
    [
        (lambda d: "/dev/zero", "not a regular file"),
        (lambda d: (os.mkfifo(d / "p.txt"), str(d / "p.txt"))[1], "not a regular file"),
        (lambda d: str(d / "missing.txt"), "no such file"),
        (lambda d: (d / "deep.json").write_text("[" * 100_000 + "]" * 100_000) and str(d / "deep.json"), "nested too deeply"),
    ],
    ids=["device", "fifo", "missing", "deep-json"],
)
def test_check_reports_special_inputs_per_file_and_keeps_the_rest(
    run_cli, tmp_path: Path, make, needle: str
) -> None:  # type: ignore[no-untyped-def]
    bad = make(tmp_path)
    good = tmp_path / "good.txt"
    good.write_text("甲方：某某公司\n", encoding="utf-8")
    result = run_cli("check", bad, str(good), "--format", "json")
    assert result.code == 2
    assert needle in result.err and "internal error" not in result.err
    import json

    files = {Path(f["path"]).name: f for f in json.loads(result.out)["files"]}
    assert files["good.txt"]["findings"], "the good file still has its findings"


@pytest.mark.parametrize(
    ("data", "encoding", "warned"),
    [
        (("原告张三诉被告某某公司。" * 50).encode()[:-2] + b"\xff\xfe", "utf-8", True),
        (b"Contact: ops@example.com or 13812345678 " * 10 + b"\xe9\xff tail", "utf-8", True),
        ("原告张三诉被告某某公司。".encode("gbk"), "gb18030", False),
        ("原告王五訴被告某某公司。".encode("big5"), "big5hkscs", False),
    ],
    ids=["damaged-chinese-utf8", "ascii-with-bad-bytes", "gbk", "big5"],
)
def test_encodings_are_decided_with_evidence(
    run_cli, tmp_path: Path, data: bytes, encoding: str, warned: bool
) -> None:  # type: ignore[no-untyped-def]
    import json

    path = tmp_path / "doc.txt"
    path.write_bytes(data)
    result = run_cli("check", str(path), "--format", "json")
    entry = json.loads(result.out)["files"][0]
    assert entry["encoding"] == encoding
    assert entry["findings"], "the findings are not hidden by a wrong guess"
    assert bool(entry.get("warnings")) == warned
    if warned:
        assert "byte offset" in entry["warnings"][0] and "warning:" in result.err


def test_empty_inputs_are_warnings_the_json_carries(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    import json

    empty = tmp_path / "empty.json"
    empty.write_text("[]", encoding="utf-8")
    clause = tmp_path / "clause.json"
    clause.write_text('{"clause_id": "c1", "clause_ref": "4.1", "text": "付款"}', encoding="utf-8")
    chapter = tmp_path / "ch.md"
    chapter.write_text("结论<sources>[1]</sources>。\n", encoding="utf-8")
    facts = tmp_path / "facts.json"
    facts.write_text('{"facts": []}', encoding="utf-8")
    wiki = tmp_path / "wiki.json"
    wiki.write_text('{"method": "m", "claims": [{"text": "x", "fact_refs": ["calls:A"]}]}')

    match = run_cli("match", "--criteria", str(empty), "--clause", str(clause), "--format", "json")
    cite = run_cli("cite", str(chapter), "--sources", str(empty), "--format", "json")
    evaluation = run_cli("eval", "--facts", str(facts), "--wiki", str(wiki), "--format", "json")
    for result, needle in ((match, "no criteria"), (cite, "no sources"), (evaluation, "no facts")):
        assert needle in " ".join(json.loads(result.out)["warnings"])
        assert f"warning: {tmp_path}" in result.err and needle in result.err
    assert match.code == 0 and cite.code == 1 and evaluation.code == 1


def test_a_catastrophic_user_pattern_is_bounded(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    import time

    config = tmp_path / "genlint.toml"
    config.write_text(
        '[check]\n[[check.patterns]]\nid = "placeholder/evil"\n'
        'pattern = "(x+x+)+y"\ndescription = "evil"\n',
        encoding="utf-8",
    )
    doc = tmp_path / "a.txt"
    doc.write_text("x" * 5000 + "\n", encoding="utf-8")
    started = time.monotonic()
    result = run_cli("check", str(doc), "--config", str(config))
    assert time.monotonic() - started < 10
    assert result.code == 2 and "placeholder/evil ran over" in result.err
    # a sane user pattern still works
    config.write_text(
        '[check]\n[[check.patterns]]\nid = "placeholder/dai-ding"\npattern = "待定"\n'
        'description = "待定 left where a value belongs"\n',
        encoding="utf-8",
    )
    doc.write_text("金额：待定\n", encoding="utf-8")
    assert run_cli("check", str(doc), "--config", str(config)).code == 1


def test_a_catastrophic_schema_pattern_is_bounded(tmp_path: Path) -> None:
    import time

    from genlint import parse_json

    schema = {"type": "object", "properties": {"a": {"type": "string", "pattern": "^(x+x+)+y$"}}}
    started = time.monotonic()
    result = parse_json('{"a": "' + "x" * 5000 + '"}', schema=schema)
    assert time.monotonic() - started < 2
    assert not result.ok


@pytest.mark.parametrize("command", ["cite", "eval", "match", "parse-schema", "generate"])
def test_deep_json_anywhere_is_a_clean_exit_2(run_cli, tmp_path: Path, command: str) -> None:  # type: ignore[no-untyped-def]
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    text = tmp_path / "t.md"
    text.write_text("x", encoding="utf-8")
    args = {
        "cite": ["cite", str(text), "--sources", str(deep)],
        "eval": ["eval", "--facts", str(deep), "--wiki", str(deep)],
        "match": ["match", "--criteria", str(deep), "--clause", str(deep)],
        "parse-schema": ["parse", str(text), "--schema", str(deep)],
        "generate": ["generate", "--model", "m", "--base-url", "http://127.0.0.1:9/v1",
                     "--prompt-file", str(deep)],
    }[command]
    result = run_cli(*args)
    assert result.code == 2
    assert "nested too deeply" in result.err and "internal error" not in result.err


# -- issue 25: the second round, table-driven ---------------------------------------------------
# Every case runs genlint in its own process (its peak RSS measured by wait4) under an address-
# space limit, so a case that regresses fails, instead of taking the machine's memory.

import json  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
from collections.abc import Callable  # noqa: E402
from dataclasses import dataclass  # noqa: E402

from support import hostile_files as hf  # noqa: E402

SRC = str(Path(__file__).resolve().parents[1] / "src")
MB = 1024 * 1024


@dataclass
class Run:
    code: int
    out: str
    err: str
    peak_mb: float


def run_genlint(args: list[str], cwd: Path, *, env: dict[str, str] | None = None,
                address_space_mb: int = 4096, stdout: object = None) -> Run:
    """``python -m genlint ARGS`` in a child process; its peak RSS from the kernel (wait4)."""
    out_path, err_path = cwd / ".stdout", cwd / ".stderr"

    # A small launcher sets the limit and runs genlint as its own child, then reports that
    # child's peak RSS: on Linux a process started from the test process (fork, vfork or
    # posix_spawn alike) keeps the test process's peak RSS across its exec (hundreds of MB late
    # in a full run), while a grandchild started from the small launcher does not.
    peak_path = cwd / ".peak"
    launcher = (
        "import os, resource, subprocess, sys; cap = int(sys.argv[1]); "
        "resource.setrlimit(resource.RLIMIT_AS, (cap, cap)); "
        "p = subprocess.Popen([sys.executable, '-m', 'genlint', *sys.argv[3:]]); "
        "_, status, usage = os.wait4(p.pid, 0); "
        "open(sys.argv[2], 'w').write(str(usage.ru_maxrss)); "
        "code = os.waitstatus_to_exitcode(status); "
        "os.kill(os.getpid(), -code) if code < 0 else sys.exit(code)"
    )
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        proc = subprocess.Popen(
            [sys.executable, "-c", launcher, str(address_space_mb * MB), str(peak_path), *args],
            cwd=cwd, stdout=stdout or out, stderr=err,
            env={**os.environ, "PYTHONPATH": SRC, **(env or {})},
        )  # fmt: skip
        proc.wait()
    peak_kb = int(peak_path.read_text()) if peak_path.exists() else 0
    return Run(proc.returncode, out_path.read_text(encoding="utf-8", errors="replace"),
               err_path.read_text(encoding="utf-8", errors="replace"), peak_kb / 1024)


def _one_error_line(run: Run, needle: str) -> None:
    lines = [line for line in run.err.splitlines() if line.startswith("genlint: error:")]
    assert lines and needle in lines[0], run.err
    assert "internal error" not in run.err and "Traceback" not in run.err, run.err


def _json_5000_digits(d: Path) -> list[str]:
    (d / "big.json").write_text('{"a": ' + "9" * 5000 + ', "b": "电话13812345678"}')
    (d / "good.txt").write_text("甲方：某某公司\n", encoding="utf-8")
    return ["big.json", "good.txt"]


# (name, files and arguments, environment, exit code, stderr needle, peak RSS ceiling in MB)
CASES: list[tuple[str, Callable[[Path], list[str]], dict[str, str], int, str, int]] = [
    ("json-5000-digits-jobs-1", lambda d: ["check", *_json_5000_digits(d), "--format", "json",
                                           "--jobs", "1"], {}, 1, "", 512),
    ("json-5000-digits-jobs-2", lambda d: ["check", *_json_5000_digits(d), "d/../good.txt",
                                           "--format", "json", "--jobs", "2"], {}, 1, "", 512),
    ("zip-bomb-lying-sizes", lambda d: ["check", str(hf.lying_zip_bomb(d / "bomb.docx"))], {},
     2, "expands past its declared size", 512),
    ("zip-bomb-lying-sizes-mask", lambda d: ["mask", str(hf.lying_zip_bomb(d / "bomb.docx")),
                                             "--out", "masked"], {}, 2, "declared size", 512),
    ("xml-too-deep", lambda d: ["check", str(hf.deep_docx(d / "deep.docx"))], {}, 2,
     "nested deeper than the XML parser reads", 512),
    ("xml-entity", lambda d: ["check", str(hf.entity_docx(d / "ent.docx"))], {}, 2,
     "uses the XML entity &co;", 512),
    ("pattern-repetition", lambda d: ["check", _doc(d), "--config", _config(
        d, '[check]\n[[check.patterns]]\nid = "placeholder/evil"\npattern = "a{1000000000}"\n'
        'description = "x"\n')], {}, 2, "repetition count", 512),
    ("pattern-nested-repetition", lambda d: ["check", _doc(d), "--config", _config(
        d, '[check]\n[[check.patterns]]\nid = "placeholder/evil"\npattern = "(a{999}){999}"\n'
        'description = "x"\n')], {}, 2, "multiply", 512),
    ("pattern-builtin-id", lambda d: ["check", _doc(d), "--config", _config(
        d, '[check]\n[[check.patterns]]\nid = "sensitive/mobile"\npattern = "x"\n'
        'description = "x"\n')], {}, 2, "is a built-in rule", 512),
    ("config-unknown-table", lambda d: ["check", _doc(d), "--config", _config(d, "[chek]\nx = 1\n")],
     {}, 2, "unknown table [chek]", 512),
    ("config-not-utf8", lambda d: ["check", _doc(d), "--config", _config(
        d, b'[check]\nselect = ["\xff"]\n')], {}, 2, "not UTF-8", 512),
    ("config-deep", lambda d: ["check", _doc(d), "--config", _config(
        d, "a = " + "[" * 100_000 + "]" * 100_000 + "\n")], {}, 2, "nested too deeply", 512),
    ("env-max-file-nan", lambda d: ["check", _doc(d)], {"GENLINT_MAX_FILE_MB": "nan"}, 2,
     "GENLINT_MAX_FILE_MB must be a positive number", 512),
    ("env-max-file-inf", lambda d: ["check", _doc(d)], {"GENLINT_MAX_FILE_MB": "1e400"}, 2,
     "GENLINT_MAX_FILE_MB", 512),
    ("env-max-docx-abc", lambda d: ["check", str(hf.deep_docx(d / "a.docx", 1))],
     {"GENLINT_MAX_DOCX_MB": "abc"}, 2, "GENLINT_MAX_DOCX_MB must be a positive number", 512),
    ("out-unwritable", lambda d: ["check", _doc(d), "--format", "json", "--out",
                                  "/proc/self/x.json"], {}, 2, "cannot write", 512),
    ("pdf-page-too-large", lambda d: ["check", str(hf.inline_image_pdf(
        d / "huge.pdf", (14400, 14400)))], {}, 2, "pixels", 1024),
]


def _doc(d: Path) -> str:
    (d / "doc.txt").write_text("电话13812345678\n", encoding="utf-8")
    return "doc.txt"


def _config(d: Path, text: str | bytes) -> str:
    path = d / "genlint.toml"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return str(path)


@pytest.mark.parametrize(("name", "make", "env", "code", "needle", "ceiling_mb"), CASES,
                         ids=[c[0] for c in CASES])
def test_hostile_case(tmp_path: Path, name: str, make: Callable[[Path], list[str]],
                      env: dict[str, str], code: int, needle: str, ceiling_mb: int) -> None:
    if name.startswith("pdf-"):
        pytest.importorskip("pypdfium2")
    (tmp_path / "d").mkdir()
    run = run_genlint(make(tmp_path), tmp_path, env=env)
    assert run.code == code, run.err
    assert run.peak_mb < ceiling_mb, f"{name}: peak RSS {run.peak_mb:.0f} MB"
    if needle:
        _one_error_line(run, needle)
    else:
        assert "internal error" not in run.err, run.err
    if name.startswith("json-5000"):
        files = {Path(f["path"]).name: f for f in json.loads(run.out)["files"]}
        assert files["good.txt"]["findings"] and files["big.json"]["findings"]


def test_a_full_standard_output_is_one_line(tmp_path: Path) -> None:
    with open("/dev/full", "wb") as full:
        run = run_genlint(["check", _doc(tmp_path), "--format", "json"], tmp_path, stdout=full)
    assert run.code == 2
    _one_error_line(run, "No space left on device")


def test_a_closed_standard_output_exits_141(tmp_path: Path) -> None:
    _doc(tmp_path)
    read, write = os.pipe()
    os.close(read)
    with os.fdopen(write, "wb") as closed:
        run = run_genlint(["check", "doc.txt", "--format", "json"], tmp_path, stdout=closed)
    assert run.code == 141 and run.err == "", run.err


def test_an_inline_image_page_is_a_scan(tmp_path: Path) -> None:
    from genlint.readers import ocr

    pdf = hf.inline_image_pdf(tmp_path / "scan.pdf")
    run = run_genlint(["check", str(pdf), "--format", "json"], tmp_path)
    if ocr.available():
        entry = json.loads(run.out)["files"][0]
        warnings = " ".join(entry["warnings"])
        assert run.code == 1 and "read by OCR" in warnings and "page 1" in warnings
    else:
        assert run.code == 2 and "OCR" in run.err


def test_damaged_mostly_ascii_stays_utf8_with_the_warning(tmp_path: Path) -> None:
    run = run_genlint(["check", str(hf.damaged_ascii(tmp_path / "a.txt")), "--format", "json"],
                      tmp_path)
    entry = json.loads(run.out)["files"][0]
    assert entry["encoding"] == "utf-8" and "invalid UTF-8" in entry["warnings"][0]
    assert {f["rule"] for f in entry["findings"]} == {"sensitive/email", "sensitive/mobile"}


def test_parquet_has_a_row_for_an_unreadable_file(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.4 not really")
    _doc(tmp_path)
    run = run_genlint(["check", "broken.pdf", "doc.txt", "--out", "f.parquet"], tmp_path)
    assert run.code == 2
    rows = pq.read_table(tmp_path / "f.parquet").to_pylist()
    errors = [r for r in rows if r["rule"] is None]
    assert len(errors) == 1 and errors[0]["path"].endswith("broken.pdf") and errors[0]["error"]
    assert any(r["rule"] == "sensitive/mobile" for r in rows)


# -- generate against faulty endpoints ----------------------------------------------------------
def _gzip_bomb(megabytes: int) -> bytes:
    import zlib

    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
    zeros = deflate.compress(b"\0" * MB) + deflate.flush(zlib.Z_FULL_FLUSH)
    header = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03"
    return header + zeros * megabytes + deflate.flush(zlib.Z_FINISH) + b"\0" * 8


class _Endpoint:
    """An HTTP endpoint answering every POST with ``body`` (bytes, or a number of megabytes
    streamed without a length, closed at the end), with ``headers``."""

    def __init__(self, body: bytes | int, headers: dict[str, str] | None = None) -> None:
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.0"

            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                try:
                    if isinstance(body, bytes):
                        self.send_header("Content-Length", str(len(body)))
                        self.end_headers()
                        self.wfile.write(body)
                        return
                    self.end_headers()
                    self.wfile.write(b'{"choices": [{"message": {"content": "')
                    block = b"x" * MB
                    for _ in range(body):
                        self.wfile.write(block)
                        owner.sent += len(block)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        self.sent = 0
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> str:
        self.thread.start()
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


def _reply(content: object) -> bytes:
    return json.dumps({"id": "x", "object": "chat.completion", "created": 0, "model": "m",
                       "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                                    "finish_reason": "stop"}]}).encode()


def _generate(tmp_path: Path, body: bytes | int, headers: dict[str, str] | None = None) -> Run:
    (tmp_path / "p.txt").write_text("写一段话", encoding="utf-8")
    with _Endpoint(body, headers) as url:
        return run_genlint(["generate", "--prompt-file", "p.txt", "--model", "m", "--base-url", url,
                            "--max-retries", "0", "--format", "json"], tmp_path)


GENERATE_CASES = [
    ("content-a-number", _reply(42), None, "reply content is a number"),
    ("content-a-list", _reply([1, 2]), None, "reply content is list"),
    ("body-200k-deep", b"[" * 200_000 + b"]" * 200_000, None, "nested too deeply"),
    ("body-200-mb", 200, None, "cut while receiving"),
    ("gzip-bomb-1-gb", _gzip_bomb(1024), {"Content-Encoding": "gzip"}, "cut while receiving"),
]


@pytest.mark.parametrize(("name", "body", "headers", "needle"), GENERATE_CASES,
                         ids=[c[0] for c in GENERATE_CASES])
def test_generate_against_a_faulty_endpoint(tmp_path: Path, name: str, body: bytes | int,
                                            headers: dict[str, str] | None, needle: str) -> None:
    pytest.importorskip("openai")
    from genlint.llm.wire import DEFAULT_MAX_REPLY_BYTES

    baseline = _generate(tmp_path, _reply("一段正常的回答。"))
    assert baseline.code == 0, baseline.err
    run = _generate(tmp_path, body, headers)
    assert run.code in (1, 2), run.err
    assert "internal error" not in run.err and "Traceback" not in run.err, run.err
    assert needle in run.out + run.err
    # what the reply may cost on top of a normal run: twice the cap on what is received
    assert run.peak_mb - baseline.peak_mb < 2 * DEFAULT_MAX_REPLY_BYTES / MB, (
        f"{name}: {run.peak_mb:.0f} MB against {baseline.peak_mb:.0f} MB")


def test_retry_after_as_an_http_date_is_honoured() -> None:
    import email.utils
    import time

    from genlint.llm.openai_compat import _retry_after

    class Response:
        def __init__(self, value: str) -> None:
            self.headers = {"retry-after": value}

    class Failure:
        def __init__(self, value: str) -> None:
            self.response = Response(value)

    later = email.utils.formatdate(time.time() + 30, usegmt=True)
    assert 25 <= (_retry_after(Failure(later)) or 0) <= 31
    assert _retry_after(Failure(email.utils.formatdate(time.time() - 60, usegmt=True))) == 0
    assert _retry_after(Failure("soon")) is None
    assert _retry_after(Failure("nan")) is None


def test_one_malformed_prompt_never_costs_the_batch(tmp_path: Path) -> None:
    pytest.importorskip("openai")
    from genlint.llm.testing import Reply, ScriptedServer

    prompts = tmp_path / "prompts"
    prompts.mkdir()
    (prompts / "a.txt").write_text("写一段话", encoding="utf-8")
    (prompts / "b.json").write_text('{"messages": [', encoding="utf-8")
    (prompts / "c.json").write_text('[{"role": "user", "content": "x", "n": ' + "9" * 5000 + "}]")
    with ScriptedServer(lambda body: Reply("一段干净的回答。")) as server:
        run = run_genlint(["generate", "--prompts-dir", str(prompts), "--model", "m", "--base-url",
                           server.url, "--format", "json"], tmp_path)
    assert run.code == 2, run.err
    results = {r["prompt"]: r for r in json.loads(run.out)["results"]}
    assert results["a.txt"]["status"] == "passed" or results["a.txt"].get("ok")
    assert "invalid JSON" in results["b.json"]["error"]
    assert "5,000 digits" in results["c.json"]["error"]
    assert run.err.count("genlint: error:") == 2 and "internal error" not in run.err


@pytest.mark.parametrize("command", ["check", "mask", "mask-token"])
def test_an_unexpected_failure_in_one_file_costs_that_file_only(
    run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:  # type: ignore[no-untyped-def]
    import genlint.readers.markdown as markdown

    def boom(path: str, data: bytes) -> object:
        raise RuntimeError("a bug that quotes 13812345678")

    monkeypatch.setattr(markdown, "read", boom)
    if command != "check":
        # patched where it is called: batch binds the name when it is first imported, and a
        # patch of files.mask_bytes made before that import would outlive this test
        import genlint.mask.batch as batch

        real = batch.mask_bytes
        monkeypatch.setattr(batch, "mask_bytes", lambda p, d, m: boom(p, d) if p.endswith(".md")
                            else real(p, d, m))
    (tmp_path / "bad.md").write_text("电话13812345678\n", encoding="utf-8")
    (tmp_path / "good.txt").write_text("电话13912345678\n", encoding="utf-8")
    paths = [str(tmp_path / "bad.md"), str(tmp_path / "good.txt")]
    if command == "check":
        result = run_cli("check", *paths, "--format", "json")
        files_out = {Path(f["path"]).name: f for f in json.loads(result.out)["files"]}
        assert files_out["good.txt"]["findings"]
    else:
        extra = ["--style", "token", "--vault", str(tmp_path / "v.json")] if command == "mask-token" else []
        result = run_cli("mask", *paths, "--out", str(tmp_path / "out"), *extra)
        assert (tmp_path / "out" / "good.txt").exists() and not (tmp_path / "out" / "bad.md").exists()
    assert result.code == 2
    assert "could not be processed (RuntimeError" in result.err
    assert "13812345678" not in result.err and "internal error" not in result.err


def test_a_file_that_kills_its_ray_worker_costs_that_file_only() -> None:
    """RayChecker.run against a stand-in for Ray whose actors die on one file: the chunk is
    retried file by file on fresh actors, that file is its error, every other file its result."""
    import types

    from genlint.batch.ray_files import RayChecker
    from genlint.check.report import FileResult

    class RayError(Exception):
        pass

    class RayActorError(RayError):
        pass

    class Ref:
        def __init__(self, call: Callable[[], object]) -> None:
            self.call = call

    class Actor:
        def __init__(self) -> None:
            self.dead = False
            self.check = types.SimpleNamespace(remote=lambda chunk, out: Ref(lambda: self.run(chunk)))

        def run(self, chunk: list[tuple[int, str, str]]) -> list[tuple[int, int, FileResult]]:
            if self.dead or any("killer" in path for _i, path, _s in chunk):
                self.dead = True
                raise RayActorError("the actor died")
            return [(i, 1, FileResult(path)) for i, path, _s in chunk]

    started: list[Actor] = []

    def start() -> Actor:
        started.append(Actor())
        return started[-1]

    fake = types.SimpleNamespace(
        exceptions=types.SimpleNamespace(RayError=RayError, RayActorError=RayActorError),
        wait=lambda refs, num_returns: ([refs[0]], refs[1:]),
        get=lambda ref: ref.call(),
        kill=lambda actor: None,
    )
    checker = object.__new__(RayChecker)
    checker.ray, checker._start = fake, start
    checker.actors = [start(), start()]
    files = [f"f{i}.txt" for i in range(40)]
    files[17] = "killer.txt"
    results, total = checker.run(files)
    assert [r.path for r in results] == files
    errors = [r for r in results if r.error]
    assert len(errors) == 1 and errors[0].path == "killer.txt"
    assert "failed twice" in (errors[0].error or "") and total == 39
