"""Options shared by every sub-command, declared once so they read and behave the same."""

from __future__ import annotations

import click

config_option = click.option(
    "--config",
    "config_path",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="FILE",
    help="Configuration file (default: genlint.toml or [tool.genlint] found walking up).",
)
