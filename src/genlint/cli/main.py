"""``genlint`` entry point: a lazy click group and the one error boundary.

Each sub-command lives in its own module (``genlint.cli.<name>``) exposing a click command
named ``command`` whose callback returns the exit code. Modules are imported only when their
sub-command runs, so ``genlint --help`` stays fast.
"""

from __future__ import annotations

import contextlib
import gc
import logging
import os
import sys
import time
import traceback
from collections.abc import Sequence

import click

from .. import __version__
from ..errors import GenlintError
from .options import option

SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "check": ("genlint.cli.check", "Lint documents for placeholders and unmasked personal data."),
    "parse": ("genlint.cli.parse", "Turn an LLM reply into the JSON value it meant."),
    "cite": ("genlint.cli.cite", "Citation markers to numbered citations and a reference list."),
    "eval": ("genlint.cli.eval", "Score a generated wiki against extracted facts."),
    "match": ("genlint.cli.match", "Review criteria for a contract clause."),
    "generate": ("genlint.cli.generate", "Call an LLM until its output passes the checks."),
    "mask": ("genlint.cli.mask", "Write copies with personal data masked (txt, md, json, docx, pdf)."),
    "unmask": ("genlint.cli.unmask", "Restore token-masked values from a vault."),
    "rule": ("genlint.cli.rule", "Show what a check rule flags, why, and how to silence it."),
    "serve": ("genlint.cli.serve", "Serve the gate over HTTP (OpenAI-compatible, Dify, check API)."),
    "init": ("genlint.cli.init", "Write a commented genlint.toml and .pre-commit-config.yaml."),
}


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(SUBCOMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in SUBCOMMANDS:
            return None
        import importlib

        module_name, _ = SUBCOMMANDS[cmd_name]
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name == module_name:
                return None
            raise
        command: click.Command = module.command
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # Help text from the table above, so listing commands imports none of them.
        with formatter.section("Commands"):
            formatter.write_dl([(name, text) for name, (_, text) in SUBCOMMANDS.items()])


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="genlint")
@option("--debug", is_flag=True, help="Show tracebacks and debug logs.")
def cli(debug: bool) -> None:
    """genlint: check, repair and gate what large language models write."""
    # main() reads --debug itself (it decides about tracebacks before click has parsed anything)
    logging.basicConfig(
        level=logging.DEBUG if debug else logging.WARNING,
        format="genlint: %(levelname)s: %(message)s",
        stream=sys.stderr,
    )


def _fail(message: str) -> int:
    first_line = " ".join(str(message).split("\n")[0].split()) or "unknown error"
    sys.stderr.write(f"genlint: error: {first_line}\n")
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI and return its exit code (tests call ``main([...])``)."""
    args = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in args
    try:
        result = cli.main(args=args, prog_name="genlint", standalone_mode=False)
        sys.stdout.flush()  # a full disk or a closed pipe shows here, not at exit
    except click.exceptions.Exit as exc:
        return int(exc.exit_code)
    except SystemExit as exc:
        if type(sys.stdout).__name__.endswith("PacifyFlushWrapper"):
            # click met EPIPE on standard output and exits 1 ("findings"): the output was cut
            _drop_stdout()
            return 141
        raise exc
    except click.exceptions.Abort:
        # click turns Ctrl-C (KeyboardInterrupt) into Abort: the same exit as below
        sys.stderr.write("genlint: interrupted\n")
        return 130
    except click.ClickException as exc:
        return _fail(exc.format_message())
    except GenlintError as exc:
        if debug:
            raise
        return _fail(str(exc))
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): no message, but not success either (the output
        # was cut); 141 is what a shell reports for a process SIGPIPE ended (docs/index.md)
        _drop_stdout()
        return 141
    except KeyboardInterrupt:
        sys.stderr.write("genlint: interrupted\n")
        return 130
    except OSError as exc:
        # the environment, not genlint: a full disk or standard output, a read-only file
        # system, a file we may not write (docs/commands/index.md "Exit codes")
        if debug:
            raise
        _drop_stdout()
        where = f"{exc.filename}: cannot write" if exc.filename else "cannot write the output"
        return _fail(f"{where} ({exc.strerror or exc})")
    except Exception as exc:
        if debug:
            raise
        log = _write_crash_log(traceback.format_exc())
        return _fail(f"internal error: {type(exc).__name__}: {exc} (traceback in {log})")
    if isinstance(result, int):
        return result
    return 0


def _drop_stdout() -> None:
    """Nothing more reaches a standard output that failed (the interpreter's own flush at exit
    would fail again, with a second message)."""
    with contextlib.suppress(OSError):
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115


def _write_crash_log(text: str) -> str:
    """The traceback in a new file of the user's own cache folder, never a fixed name in a
    shared temporary folder (another user could plant a link there): the folder is made 0700,
    the file is created exclusively, 0600, and a link in its place is not followed."""
    try:
        from platformdirs import user_cache_dir

        folder = user_cache_dir("genlint", appauthor=False)
        os.makedirs(folder, mode=0o700, exist_ok=True)
        name = os.path.join(folder, f"crash-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.log")
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
        with os.fdopen(os.open(name, flags, 0o600), "w", encoding="utf-8") as fh:
            fh.write(text)
    except (OSError, ImportError):
        return "(could not write a log; run with --debug for the traceback)"
    return name


def entry() -> None:
    """Console-script entry point."""
    code = main()
    # The process ends here: the collections of interpreter shutdown need not walk what the
    # run built (0.1 s after checking 2,000 files, all of it after the report was written).
    # Exit handlers and finalizers still run.
    gc.freeze()
    sys.exit(code)
