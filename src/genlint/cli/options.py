"""What every sub-command shares, declared once so it reads and behaves the same everywhere:
the options (``--format``, ``--out``, ``--config``, the endpoint), how defaults are shown
(click's ``[default: …]``), the exit codes at the end of every ``--help``, and deprecated
spellings kept as hidden aliases for one release."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])


class _Option(click.Option):
    """Shows a described default (``show_default="on a terminal"``) as ``[default: on a
    terminal]``, the way click shows a literal one, instead of in parentheses."""

    def get_help_extra(self, ctx: click.Context) -> Any:
        extra = super().get_help_extra(ctx)
        shown = extra.get("default")
        if isinstance(self.show_default, str) and shown == f"({self.show_default})":
            extra["default"] = self.show_default
        return extra


def option(*names: str, **kwargs: Any) -> Any:
    """``click.option`` for every genlint command (defaults shown one way)."""
    return click.option(*names, cls=_Option, **kwargs)

config_option = option(
    "--config",
    "config_path",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="FILE",
    show_default="genlint.toml or [tool.genlint] found walking up",
    help="Configuration file.",
)


show_values_option = option(
    "--show-values",
    is_flag=True,
    help="Show personal data in reports as found (otherwise masked: 138****5678).",
)


def format_option(*choices: str, default: str = "text", help: str = "Output format.") -> Any:
    return option(
        "--format",
        "fmt",
        type=click.Choice(list(choices)),
        default=default,
        show_default=True,
        help=help,
    )


def jobs_option(what: str) -> Any:
    """``--jobs N|auto`` of check, eval and mask: the same pool (genlint._pool) behind each."""
    return option(
        "--jobs",
        "-j",
        default="1",
        show_default=True,
        metavar="N|auto",
        help=f"{what} in N processes (auto: one per CPU); same output as one.",
    )


def out_option(
    help: str = "Write the output to FILE (atomically) instead of standard output.",
    *,
    dir_okay: bool = False,
) -> Any:
    """``--out FILE``; ``dir_okay`` lets the command itself decide about an existing folder
    (``check --engine ray`` replaces its own Parquet dataset folder)."""
    return option(
        "--out",
        "out_path",
        type=click.Path(dir_okay=dir_okay),
        default=None,
        metavar="FILE",
        help=help,
    )


def endpoint_options(fn: F) -> F:
    """``--model``, ``--base-url``, ``--api-key-env`` and ``--timeout`` (one request) of the
    commands that call an OpenAI-compatible endpoint (``match --llm``, ``generate``)."""
    for decorator in reversed(
        [
            option("--model", "-m", "model", default=None, metavar="M", help="Chat model name."),
            option(
                "--base-url", default=None, metavar="URL", help="OpenAI-compatible endpoint (…/v1)."
            ),
            option(
                "--api-key-env",
                default=None,
                metavar="VAR",
                show_default="OPENAI_API_KEY",
                help="Environment variable holding the API key.",
            ),
            option(
                "--timeout",
                "timeout",
                type=float,
                default=None,
                metavar="SECONDS",
                help="Wall-clock limit of one request, however slowly the server answers.",
            ),
        ]
    ):
        fn = decorator(fn)
    return fn


def exit_codes(one: str) -> str:
    """The epilog every ``--help`` ends with; ``one`` says what exit code 1 means."""
    return (
        f"Exit codes: 0 success; 1 {one}; 2 usage error or bad input (one line on stderr); "
        "130 interrupted."
    )


def deprecated_alias(old: str, new: str, dest: str, **kwargs: Any) -> Any:
    """A hidden option ``old`` stored in ``dest`` (the command prefers ``new`` when both are
    given: see :func:`prefer`), which warns that it is going away."""

    def warn(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
        if value not in (None, (), False):
            sys.stderr.write(f"genlint: warning: {old} is deprecated, use {new}\n")
        return value

    return option(old, dest, hidden=True, callback=warn, default=None, **kwargs)


def prefer(value: Any, alias_value: Any) -> Any:
    """The new option's value, else the deprecated alias's (empty tuples count as not given)."""
    return value if value not in (None, ()) else alias_value
