"""A web page cannot reach a key-less loopback service (docs/commands/serve.md, "Web pages"):
a rebound name in ``Host`` is refused, and JSON bodies must say ``application/json`` (a page
can POST ``text/plain`` anywhere without asking first)."""

from __future__ import annotations

import pytest

from support.serve_service import Service

BODY = {"text": "电话13812345678"}


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8080", "127.0.0.1.evil.example"])
def test_a_foreign_host_is_refused(service: Service, host: str) -> None:
    code, _, body = service.post("/v1/mask", BODY, headers={"host": host})
    assert code == 421 and "13812345678" not in str(body)


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "LOCALHOST:1"])
def test_loopback_names_are_served(service: Service, host: str) -> None:
    assert service.post("/v1/mask", BODY, headers={"host": f"{host}"})[0] == 200


@pytest.mark.parametrize("kind", ["text/plain", "application/x-www-form-urlencoded", ""])
def test_a_json_body_must_say_json(service: Service, kind: str) -> None:
    code, _, body = service.post("/v1/mask", BODY, headers={"content-type": kind})
    assert code == 415 and body["error"]["code"] == 415


def test_json_with_a_charset_is_json(service: Service) -> None:
    code, _, _ = service.post(
        "/v1/mask", BODY, headers={"content-type": "application/json; charset=utf-8"}
    )
    assert code == 200
