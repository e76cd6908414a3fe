"""What ``genlint serve`` is configured with: ``[serve]`` in genlint.toml, then flags."""

from __future__ import annotations

import dataclasses
import ipaddress
import json
import os
from dataclasses import dataclass, field

from ..errors import InputError


@dataclass(frozen=True)
class ServeSettings:
    """Service settings; the gate's budgets come from ``[generate]`` as for ``genlint generate``.

    ``api_key`` is the key clients must send (``Authorization: Bearer …``); it is required unless
    the service listens on loopback only. ``upstream_key_env`` names the variable holding the
    upstream's own key (never the clients' key). Limits: ``max_body_bytes`` per request,
    ``max_concurrency`` requests in flight (more wait up to ``queue_timeout_s``, then 503),
    ``request_deadline_s`` per request however slow the upstream or the client (limits hold per
    worker process: ``workers`` processes share the port).
    """

    host: str = "127.0.0.1"
    port: int = 8080
    upstream: str | None = None
    upstream_key_env: str = "OPENAI_API_KEY"
    api_key: str | None = field(default=None, repr=False)
    max_body_bytes: int = 4 * 1024 * 1024
    max_messages: int = 1_000
    max_concurrency: int = 64
    queue_timeout_s: float = 5.0
    request_deadline_s: float = 120.0
    select: tuple[str, ...] = ("placeholder", "sensitive")
    max_retries: int = 2
    transient_retries: int = 2
    token_budget: int | None = None
    attempt_timeout_s: float = 60.0
    dify_carry_chars: int = 64
    log_requests: bool = True
    workers: int = 1
    # connection hygiene (docs/commands/serve.md, "Connections"): open connections per worker
    # before new ones are answered 503 (below the usual 1,024 descriptors), seconds an idle
    # keep-alive connection stays open, bytes of an incomplete request head (h11)
    max_connections: int = 512
    keep_alive_s: float = 5.0
    max_header_bytes: int = 64 * 1024
    #: Host names accepted besides the bound address and loopback names (no API key only)
    allowed_hosts: tuple[str, ...] = ()

    def check(self) -> ServeSettings:
        """Refuse a configuration that would serve personal data to anyone who asks."""
        if self.api_key is None and not is_loopback(self.host):
            raise InputError(
                f"serve: listening on {self.host} needs an API key "
                "(--api-key-env VAR, or bind to 127.0.0.1)"
            )
        names = ("max_body_bytes", "max_concurrency", "max_messages", "max_retries", "workers",
                 "max_connections", "max_header_bytes")  # fmt: skip
        for name in names:
            least = 0 if name == "max_retries" else 1
            if int(getattr(self, name)) < least:
                raise InputError(f"serve: {name} must be at least {least}")
        if self.request_deadline_s <= 0 or self.attempt_timeout_s <= 0 or self.keep_alive_s <= 0:
            raise InputError("serve: time limits must be positive")
        return self


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def api_key_from_env(var: str | None) -> str | None:
    """The clients' key from the variable ``var`` (empty or unset: an error when named)."""
    if var is None:
        return None
    value = os.environ.get(var, "")
    if not value:
        raise InputError(f"serve: --api-key-env {var}: the variable is unset or empty")
    return value


#: where a worker process finds its settings (``genlint serve --workers N``): the processes are
#: started afresh by uvicorn, so the settings travel as JSON in the environment, never the key
#: itself, only the name of the variable that holds it (the workers inherit the variable)
SETTINGS_ENV = "GENLINT_SERVE_SETTINGS"


def settings_to_env(settings: ServeSettings, api_key_env: str | None) -> str:
    values = {k: v for k, v in dataclasses.asdict(settings).items() if k != "api_key"}
    return json.dumps({**values, "api_key_env": api_key_env})


def settings_from_env() -> ServeSettings:
    raw = os.environ.get(SETTINGS_ENV)
    if not raw:
        raise InputError(f"serve: {SETTINGS_ENV} is not set (workers are started by genlint serve)")
    values = json.loads(raw)
    api_key = api_key_from_env(values.pop("api_key_env", None))
    values["select"] = tuple(values.get("select") or ())
    values["allowed_hosts"] = tuple(values.get("allowed_hosts") or ())
    return ServeSettings(**values, api_key=api_key).check()
