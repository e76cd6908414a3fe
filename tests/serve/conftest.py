"""Fixtures for tests/serve (helpers in tests/support/serve_service.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from support.serve_service import ScriptedServer, Service, scripted, start_service, stop


@pytest.fixture(scope="module")
def upstream() -> Iterator[ScriptedServer]:
    with ScriptedServer(scripted) as server:
        yield server


@pytest.fixture(scope="module")
def service(
    upstream: ScriptedServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Service]:
    tmp = tmp_path_factory.mktemp("serve")
    config = "[serve]\nattempt_timeout_s = 1.0\nrequest_deadline_s = 6.0\nmax_retries = 1\ntransient_retries = 0\nmax_body_bytes = 200000\nmax_messages = 50\n"
    svc = start_service(upstream, tmp, config)
    yield svc
    svc.log = stop(svc)  # type: ignore[attr-defined]
