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
    select = merged.pop("select", "placeholder,sensitive")
    if isinstance(select, str):
        select = [s.strip() for s in select.split(",") if s.strip()]
    api_key = api_key_from_env(merged.pop("api_key_env", None))
    settings = ServeSettings(**merged, select=tuple(select), api_key=api_key).check()
    app = create_app(settings)
    config = uvicorn.Config(
        app,
        host=settings.host,
        port=settings.port,
        log_level="warning",
        access_log=False,  # our own access log holds no query values or bodies
        timeout_graceful_shutdown=int(settings.request_deadline_s) + 1,
        lifespan="off",
    )
    import logging

    logging.getLogger("genlint.serve").setLevel(logging.INFO)  # the access log, to stderr
    server = uvicorn.Server(config)
    click.echo(f"genlint serve on http://{settings.host}:{settings.port}", err=True)
    server.run()
    return 0
