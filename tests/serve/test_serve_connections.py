"""Connection hygiene over real sockets (docs/commands/serve.md, "Connections"): idle
keep-alive connections are closed, and open connections are capped below the descriptor
limit, so idle sockets cannot take the service down."""

from __future__ import annotations

import contextlib
import socket
import time
from pathlib import Path

from support.serve_service import ScriptedServer, start_service, stop

REQUEST = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"


def _read_all(sock: socket.socket, wait: float) -> bytes:
    sock.settimeout(wait)
    data = b""
    try:
        while chunk := sock.recv(65536):
            data += chunk
    except TimeoutError:
        pass
    return data


def test_an_idle_keep_alive_connection_is_closed(upstream: ScriptedServer, tmp_path: Path) -> None:
    svc = start_service(upstream, tmp_path, "[serve]\nkeep_alive_s = 1.0\n")
    try:
        with socket.create_connection(("127.0.0.1", svc.port), 5) as sock:
            sock.sendall(REQUEST)
            started = time.monotonic()
            data = _read_all(sock, 8.0)  # ends when the service closes the connection
            assert b"200 OK" in data
            assert time.monotonic() - started < 4.0
    finally:
        stop(svc)


def test_connections_over_the_cap_are_refused_not_queued(
    upstream: ScriptedServer, tmp_path: Path
) -> None:
    svc = start_service(upstream, tmp_path, "[serve]\nmax_connections = 4\n")
    idle = []
    try:
        for _ in range(6):
            idle.append(socket.create_connection(("127.0.0.1", svc.port), 5))
        time.sleep(0.3)
        with socket.create_connection(("127.0.0.1", svc.port), 5) as sock:
            sock.sendall(REQUEST)
            assert b" 503 " in _read_all(sock, 3.0).split(b"\r\n", 1)[0] + b" "
        for s in idle:
            s.close()
        idle.clear()
        time.sleep(0.3)
        with socket.create_connection(("127.0.0.1", svc.port), 5) as sock:
            sock.sendall(REQUEST)
            assert b"200 OK" in _read_all(sock, 3.0)  # served again once they went away
    finally:
        for s in idle:
            s.close()
        stop(svc)


def test_an_oversized_header_is_refused(upstream: ScriptedServer, tmp_path: Path) -> None:
    svc = start_service(upstream, tmp_path, "[serve]\nmax_header_bytes = 8192\n")
    try:
        with socket.create_connection(("127.0.0.1", svc.port), 5) as sock:
            big = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 200_000
            with contextlib.suppress(OSError):  # the service may close before reading it all
                sock.sendall(big + b"\r\n\r\n")
            data = _read_all(sock, 3.0)
            assert b"200 OK" not in data and (not data or b" 431 " in data.split(b"\r\n")[0] + b" ")
    finally:
        stop(svc)
