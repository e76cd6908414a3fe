"""Benchmark of the bounds of issue 25 (run: .venv/bin/python benchmarks/bench_hostile.py).

What each guard costs on ordinary input, against the obvious alternative, and what it saves on
hostile input:

1. ``readers.check_zip`` (inflates every entry a megabyte at a time, counting) on an ordinary
   DOCX, against summing the declared sizes (the old guard) and against reading the whole DOCX;
   then peak memory on an entry that declares 1 KB and inflates to 100 MB: ``check_zip``
   against ``zipfile.ZipFile.read`` (what python-docx does).
2. A token vault saved under its lock, re-read and merged, against a plain atomic write.
3. Replies through the byte-capped transport against the SDK's default client (a 1 MB reply
   from a local scripted server), and peak memory of a 200 MB reply body, capped.
"""

from __future__ import annotations

import io
import sys
import tempfile
import time
import tracemalloc
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests"))


def best_of(n: int, fn: object) -> float:
    times = []
    for _ in range(n):
        started = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(time.perf_counter() - started)
    return min(times)


def zip_guard() -> None:
    from genlint.readers import check_zip
    from genlint.readers.docx import read
    from support.docx_build import new_document, to_bytes
    from support.hostile_files import lying_zip_bomb

    document = new_document()
    for i in range(2000):
        document.add_paragraph(f"第{i}条 甲方应于2026年3月1日前支付人民币{i},000元，联系人电话13812345678。")
    data = to_bytes(document)

    def declared() -> int:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return sum(i.file_size for i in archive.infolist())

    guard = best_of(5, lambda: check_zip("a.docx", data, 512 << 20))
    old = best_of(5, declared)
    whole = best_of(3, lambda: read("a.docx", data))
    print(f"1. DOCX of {len(data) / 1e3:.0f} KB ({declared() / 1e6:.1f} MB inflated):")
    print(f"   check_zip {guard * 1e3:.1f} ms ({declared() / guard / 1e6:.0f} MB/s inflated), "
          f"declared-size sum {old * 1e3:.2f} ms, reading the DOCX {whole * 1e3:.0f} ms: "
          f"the guard adds {guard / whole:.1%} to a read")
    with tempfile.TemporaryDirectory() as tmp:
        bomb = lying_zip_bomb(Path(tmp) / "bomb.docx", inflated_mb=100).read_bytes()
    tracemalloc.start()
    try:
        check_zip("bomb.docx", bomb, 512 << 20)
    except Exception as exc:  # refused: what we want
        refused = type(exc).__name__
    _, guard_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    tracemalloc.start()
    with zipfile.ZipFile(io.BytesIO(bomb)) as archive:
        archive.read("word/document.xml")
    _, zip_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"   entry declaring 1 KB, inflating to 100 MB: check_zip peak {guard_peak / 1e6:.1f} MB "
          f"({refused}), zipfile.read peak {zip_peak / 1e6:.0f} MB "
          f"({zip_peak / max(guard_peak, 1):.0f}x)")


def vault_saves() -> None:
    from genlint._io import atomic_write
    from genlint.mask.vault import Vault

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "vault.json"
        vault = Vault.new_file_vault()
        for i in range(1000):
            vault.token_for(f"1381234{i:04d}", "PHONE")
        vault.save(path)
        n = 50
        locked = best_of(3, lambda: [vault.save(path) for _ in range(n)]) / n
        plain = best_of(3, lambda: [atomic_write(path, vault.to_json(), mode=0o600)
                                    for _ in range(n)]) / n
    print(f"2. vault of 1,000 tokens: locked save with re-read and merge {locked * 1e3:.2f} ms, "
          f"plain atomic write {plain * 1e3:.2f} ms ({locked / plain:.2f}x)")


def replies() -> None:
    import openai

    from genlint.llm import OpenAICompatible
    from genlint.llm.openai_compat import run_sync
    from genlint.llm.testing import Reply, ScriptedServer
    from genlint.llm.wire import capped_async_client

    text = "甲方应于2026年3月1日前支付人民币五万元。" * 40_000  # about 1 MB of reply
    with ScriptedServer(lambda body: Reply(text)) as server:
        model = OpenAICompatible("m", base_url=server.url, timeout=60)
        capped = best_of(5, lambda: model.complete([{"role": "user", "content": "x"}]))

        async def plain_call() -> object:
            client = openai.AsyncOpenAI(api_key="x", base_url=server.url, max_retries=0)
            try:
                return await client.chat.completions.create(
                    model="m", messages=[{"role": "user", "content": "x"}])
            finally:
                await client.close()

        plain = best_of(5, lambda: run_sync(plain_call))
    mb = len(text.encode()) / 1e6
    print(f"3. a {mb:.1f} MB reply: capped transport {capped * 1e3:.0f} ms ({mb / capped:.0f} MB/s), "
          f"SDK default client {plain * 1e3:.0f} ms ({capped / plain:.2f}x)")
    assert capped_async_client  # the transport under test


if __name__ == "__main__":
    zip_guard()
    vault_saves()
    replies()
