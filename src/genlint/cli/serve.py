"""``genlint serve``: run the gate as an HTTP service (docs/commands/serve.md)."""

from __future__ import annotations

from typing import Any

import click

from ..config import Key
from ..errors import InputError
from .options import config_option, exit_codes, option

_CONFIG_KEYS: dict[str, Key] = {
    "host": Key("str"),
    "port": Key("int"),
    "upstream": Key("str"),
    "upstream_key_env": Key("str"),
    "api_key_env": Key("str"),
    "max_body_bytes": Key("int"),
    "max_messages": Key("int"),
    "max_concurrency": Key("int"),
    "queue_timeout_s": Key("number"),
    "request_deadline_s": Key("number"),
    "select": Key("str_or_list"),
    "max_retries": Key("int"),
    "transient_retries": Key("int"),
    "token_budget": Key("int"),
    "attempt_timeout_s": Key("number"),
    "workers": Key("int"),
    "max_connections": Key("int"),
    "keep_alive_s": Key("number"),
    "max_header_bytes": Key("int"),
    "allowed_hosts": Key("str_list"),
}


@click.command("serve", epilog=exit_codes("never: the service runs until SIGTERM or Ctrl-C"))
@option("--host", metavar="ADDR", show_default="127.0.0.1", help="Address to listen on.")
@option("--port", type=int, metavar="N", show_default="8080", help="Port.")
@option("--upstream", metavar="URL", help="OpenAI-compatible base URL the chat requests go to.")
@option(
    "--api-key-env",
    metavar="VAR",
    help="Variable holding the key clients must send (required unless on loopback).",
)
@option("--upstream-key-env", metavar="VAR", help="Variable holding the upstream's key.")
@option(
    "--workers",
    type=int,
    metavar="N",
    show_default="1",
    help="Worker processes sharing the port (one per core keeps latency low under load).",
)
@config_option
def command(**opts: Any) -> int:
    """Serve the gate over HTTP: /v1/chat/completions, /dify/moderation, /v1/check …"""
    from ..config import load_config
    from ..serve.settings import ServeSettings, api_key_from_env

    try:
        import uvicorn

        from ..serve import create_app
    except ImportError as exc:
        raise InputError(
            f"genlint serve needs the serve extra: pip install 'genlint[serve]' ({exc.name})"
        ) from None
    section = load_config(opts.pop("config_path")).validated("serve", _CONFIG_KEYS)
    merged = {**section, **{k: v for k, v in opts.items() if v is not None}}
    if "select" in merged:  # else ServeSettings' default
        select = merged["select"]
        if isinstance(select, str):
            select = select.split(",")
        merged["select"] = tuple(s.strip() for s in select if s.strip())
    if "allowed_hosts" in merged:
        merged["allowed_hosts"] = tuple(h.lower() for h in merged["allowed_hosts"])
    api_key_var = merged.pop("api_key_env", None)
    settings = ServeSettings(**merged, api_key=api_key_from_env(api_key_var)).check()
    from ..serve.logs import configure_logging

    configure_logging()  # the access log, to stderr, as JSON lines
    common: dict[str, Any] = {
        "host": settings.host,
        "port": settings.port,
        "log_level": "warning",
        "access_log": False,  # our own access log holds no query values or bodies
        "timeout_graceful_shutdown": int(settings.request_deadline_s) + 1,
        "lifespan": "off",
        # connections, not only requests, are bounded (docs/commands/serve.md, "Connections")
        "limit_concurrency": settings.max_connections,
        "timeout_keep_alive": settings.keep_alive_s,
        "h11_max_incomplete_event_size": settings.max_header_bytes,
    }
    where = f"genlint serve on http://{settings.host}:{settings.port}"
    if settings.workers == 1:
        server = uvicorn.Server(uvicorn.Config(create_app(settings), **common))
        _announce(where)
        server.run()
        return 0
    _run_workers(uvicorn, settings, api_key_var, common, where)
    return 0


def _run_workers(
    uvicorn: Any, settings: Any, api_key_var: str | None, common: dict[str, Any], where: str
) -> None:
    """``workers`` processes on one port, supervised by uvicorn (SIGTERM reaches each, which
    finishes its requests in flight). Their settings travel in the environment; their metrics
    are summed through prometheus-client's multiprocess mode in a folder removed at the end."""
    import os
    import tempfile

    from ..serve.settings import SETTINGS_ENV, settings_to_env

    os.environ[SETTINGS_ENV] = settings_to_env(settings, api_key_var)
    with tempfile.TemporaryDirectory(prefix="genlint-serve-metrics-") as metrics_dir:
        os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", metrics_dir)
        _announce(f"{where} ({settings.workers} workers)")
        uvicorn.run(
            "genlint.serve:app_from_environment",
            factory=True,
            workers=settings.workers,
            **common,
        )


def _announce(where: str) -> None:
    """The first line of serve's log, a JSON line as every other (genlint.serve.logs)."""
    import json
    import logging

    logging.getLogger("genlint.serve").info(json.dumps({"event": "listening", "message": where}))
