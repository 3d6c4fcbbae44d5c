"""The ``knock`` command.

Subcommands: demo, play, simulate (``knock.cli.games``); verify, export, show, redact (``knock.cli.logs``);
spec and conform (``knock.cli.spec``). Each has ``--help`` with an example; every error is one line on stderr
with a non-zero exit status.
"""

from __future__ import annotations

import sys

import typer
from rich.console import Console
from rich.markup import escape

from engine.errors import KnockError
from knock.cli import games, logs, spec
from knock.cli import serve as serve  # knock serve, knock engine (spec/protocol.md)
from knock.cli import view as view  # knock view: a log's replay as one HTML file
from knock.cli.common import app

__all__ = ["app", "games", "logs", "main", "serve", "spec", "view"]


def main() -> None:
    """Entry point of the ``knock`` console script: an error is one line and a non-zero exit, never a traceback."""
    err_console = Console(stderr=True, highlight=False, soft_wrap=True)

    def fail(message: str, code: int = 2) -> None:
        err_console.print(f"[red]error[/]: {escape(message)}")
        sys.exit(code)

    try:
        code = app(standalone_mode=False)
    except typer.TyperException as err:  # usage errors: bad options, values, arguments
        context = getattr(err, "ctx", None)
        where = context.command_path.replace("knock", "knock", 1) if context is not None else "knock"
        message = err.format_message() if hasattr(err, "format_message") else str(err)
        fail(f"{message} (see {where} --help)", getattr(err, "exit_code", 2))
    except typer.Abort:
        fail("aborted", 130)
    except KnockError as err:
        fail(str(err))
    except OSError as err:
        fail(str(err))
    sys.exit(code if isinstance(code, int) else 0)
