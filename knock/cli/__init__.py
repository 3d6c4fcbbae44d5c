"""The ``knock`` command.

Subcommands: demo, play, simulate (``knock.cli.games``); arena (``knock.cli.arena``); verify (``knock.cli.verify``);
export, show, redact (``knock.cli.logs``); spec, rules and conform (``knock.cli.spec``); serve and engine
(``knock.cli.serve``); view (``knock.cli.view``). Each has
``-h``/``--help`` with an example; every error is one line on stderr with a non-zero exit status (2 for a usage
error), never a traceback; ``knock`` alone prints the help and exits 0; a closed pipe ends a command quietly with
the status of what it had judged."""

from __future__ import annotations

import errno
import os
import re
import sys

import typer
from rich.console import Console
from rich.markup import escape

from engine.errors import KnockError
from knock.cli import arena, games, logs, spec, verify
from knock.cli import keys as keys  # knock keygen (spec/log-format.md, LOG-17)
from knock.cli import serve as serve  # knock serve, knock engine (spec/protocol.md)
from knock.cli import view as view  # knock view: a log's replay as one HTML file
from knock.cli.common import app, expand_optional
from knock.cli.output import GuardedOutput, OutputClosed, drop_pending_output, judged, judged_status

__all__ = ["app", "arena", "games", "logs", "main", "serve", "spec", "verify", "view"]

#: Exit status after Ctrl-C, as a shell reports a process ended by SIGINT.
EXIT_INTERRUPTED = 130


def os_error(err: OSError) -> str:
    """An operating-system error in words, once: ``cannot read /nope: no such file or directory``."""
    what = err.strerror or (os.strerror(err.errno) if err.errno else str(err))
    where = err.filename
    if where is None:
        return str(err) if err.args and not err.strerror else what[:1].lower() + what[1:]
    verb = "find" if err.errno == errno.ENOENT else "open" if err.errno == errno.EISDIR else "use"
    return f"cannot {verb} {where}: {what[:1].lower() + what[1:]}"


def usage_message(message: str) -> str:
    """Click's usage error in Knock's words: one quoting of an option (``Invalid value for --set``)."""
    head, sep, rest = message.replace("Value error, ", "").partition(": ")  # Typer's words for a parser's refusal
    return re.sub(r"'(-[^']*)'", r"\1", head) + sep + rest


def main() -> None:
    """Entry point of the ``knock`` console script: an error is one line and a non-zero exit, never a traceback."""
    for name in ("stdout", "stderr"):  # started with the stream closed (``knock verify x >&-``): nothing to write to
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))  # noqa: SIM115 -- for the process's life
    err_console = Console(stderr=True, highlight=False, soft_wrap=True)

    def fail(message: str, code: int = 2) -> None:
        err_console.print(f"[red]error[/]: {escape(' '.join(message.split()))}")
        sys.exit(code)

    stdout = sys.stdout
    sys.stdout = GuardedOutput(stdout)
    judged(0)
    try:
        code = app(args=expand_optional(sys.argv[1:]), prog_name="knock", standalone_mode=False)
        sys.stdout.flush()
    except OutputClosed:
        drop_pending_output()
        sys.exit(judged_status())
    except typer.TyperException as err:  # usage errors: bad options, values, arguments
        context = getattr(err, "ctx", None)
        if type(err).__name__ == "NoArgsIsHelpError" and context is not None:  # ``knock``, ``knock conform``
            sys.stdout.write(context.get_help() + "\n")
            sys.exit(0)
        where = context.command_path if context is not None else "knock"
        message = err.format_message() if hasattr(err, "format_message") else str(err)
        fail(f"{usage_message(message)} (see {where} -h)", getattr(err, "exit_code", 2))
    except (typer.Abort, KeyboardInterrupt):
        err_console.print("\nstopped (Ctrl-C)")
        sys.exit(EXIT_INTERRUPTED)
    except KnockError as err:
        fail(str(err))
    except OSError as err:
        fail(os_error(err))
    finally:
        sys.stdout = stdout
    sys.exit(code if isinstance(code, int) else 0)
