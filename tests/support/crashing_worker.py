"""A `--jobs` worker that kills itself on chosen files, to test how the pool reports a dying
worker and retries its files (importable by spawned workers: tests/ is on their path)."""

from __future__ import annotations

import os
import signal
from typing import Any


def serve(conn: Any, *args: Any) -> None:
    import genlint.check.engine as engine
    from genlint import _pool

    real = engine.check_file

    def check_file(checker: Any, path: str, data: bytes | None = None) -> Any:
        name = os.path.basename(path)
        if "crash-always" in name:
            os.kill(os.getpid(), signal.SIGKILL)
        if "crash-once" in name and not os.path.exists(path + ".crashed"):
            open(path + ".crashed", "w").close()
            os.kill(os.getpid(), signal.SIGKILL)
        return real(checker, path, data)

    engine.check_file = check_file  # type: ignore[assignment]
    _pool.serve(conn, *args)
