"""What the ``knock`` commands write: the one overwrite policy of ``-o``, JSON (one document or lines), tables
that fit the terminal (one record a line when piped), and a quiet end on a closed pipe with the status of what
was judged."""

from __future__ import annotations

import contextlib
import json
import os
import sys
import threading
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any

import typer
from rich.cells import cell_len
from rich.table import Table
from rich.text import Text

from knock.cli.common import STDOUT, console


def is_std(path: Path | str | None) -> bool:
    """Whether a file argument is ``-``: standard input where a file is read, standard output where one is
    written."""
    return path is not None and str(path) == STDOUT


def read_input(path: Path) -> bytes:
    """A file's bytes, or standard input's for ``-``."""
    return sys.stdin.buffer.read() if is_std(path) else path.read_bytes()


def write_output(path: Path, data: bytes) -> None:
    """Bytes to a file (checked by ``output_file`` first), or to standard output for ``-``."""
    if is_std(path):
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    else:
        path.write_bytes(data)


def output_file(path: Path, force: bool) -> Path:
    """The one overwrite policy of every ``-o``: an existing file is refused unless ``--force``; its folder is made.
    ``-`` is standard output, for a command that takes it (``is_std``); one that writes a file as it goes refuses
    it, rather than write a file named ``-``.

    Raises:
        typer.BadParameter: the file exists and ``force`` is not given, or the path is a folder, or ``-``.
    """
    if is_std(path):
        raise typer.BadParameter("this command writes a file as it goes: - (standard output) is not one here",
                                 param_hint="--out")  # fmt: skip
    if path.is_dir():
        raise typer.BadParameter(f"{path} is a folder; give a file", param_hint="--out")
    if path.exists() and not force:
        raise typer.BadParameter(f"{path} exists; choose another file, or --force to write over it",
                                 param_hint="--out")  # fmt: skip
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def json_sink(target: str | None) -> IO[str] | None:
    """Where ``--json[=FILE]`` goes: None without it, stdout for ``--json``, else the file (created with its folder)."""
    if target is None:
        return None
    if target == STDOUT:
        return sys.stdout
    path = Path(target)
    path.parent.mkdir(parents=True, exist_ok=True)
    return path.open("w", encoding="utf-8")


def write_json(document: object, target: str) -> None:
    """One JSON document, to stdout (``-``) or a file."""
    sink = json_sink(target)
    assert sink is not None
    sink.write(json.dumps(document, indent=1) + "\n")
    if sink is not sys.stdout:
        sink.close()


def print_table(headers: Sequence[str], rows: Iterable[Sequence[str]], *, title: str | None = None,
                right: Sequence[str] = (), wrap: Sequence[str] = (), narrow: Sequence[str] = ()) -> None:  # fmt: skip
    """Rows for people: on a terminal a table as wide as the terminal (the ``wrap`` columns folded to fit), piped
    one record a line, its cells separated by tabs, after a line of the column names (markup stripped). The
    ``narrow`` columns wrap within 28 characters. A table that cannot fit the terminal without cutting a cell that
    does not wrap (a figure, a name) is written one record a paragraph instead, each cell after its column's name:
    no figure is ever cropped."""
    rows = [list(cells) for cells in rows]
    if not console.is_terminal:  # written as is: the console would turn the tabs into spaces
        lines = [Text.from_markup(title).plain] if title else []
        lines += ["\t".join(Text.from_markup(c).plain for c in cells) for cells in [headers, *rows]]
        console.file.write("".join(line + "\n" for line in lines))
        return
    table = Table(title=title, box=None, title_justify="left")
    for h in headers:
        table.add_column(h, justify="right" if h in right else "left", no_wrap=h not in wrap and h not in narrow,
                         ratio=1 if h in wrap else None, max_width=28 if h in narrow else None,
                         overflow="fold")  # fmt: skip
    for cells in rows:
        table.add_row(*cells)
    if _least_width(headers, rows, wrap, narrow) <= console.width:
        console.print(table)
        return
    if title:
        console.print(title)
    for cells in rows:  # too narrow for the table: one record a paragraph, its fields filling each line
        line = Text()
        for h, cell in zip(headers, cells, strict=True):
            field = Text.assemble((f"{h.strip()}: ", "bold"), Text.from_markup(cell))
            if line and line.cell_len + 2 + field.cell_len > console.width:
                console.print(line, overflow="fold")
                line = Text()
            line += Text("  ") + field if line else field
        console.print(line, overflow="fold")
        console.print()


def _least_width(headers: Sequence[str], rows: Sequence[Sequence[str]], wrap: Sequence[str],
                 narrow: Sequence[str]) -> int:  # fmt: skip
    """The narrowest the table can be without cutting a cell: a column that does not wrap as wide as its widest
    cell, one that wraps as its longest word; one space either side of every column (``box=None``)."""
    total = 0
    for i, h in enumerate(headers):
        cells = [Text.from_markup(h).plain, *(Text.from_markup(r[i]).plain for r in rows)]
        if h in wrap or h in narrow:
            total += max((len(word) for c in cells for word in c.split()), default=1)
        else:
            total += max(cell_len(c) for c in cells)
    return total + 2 * len(headers)


class Whole:
    """Ctrl-C held back while a step that must not be cut in two runs (``with whole:``: a verdict printed and
    counted), then raised as soon as it ends; outside such a step it stops the command at once, as usual. Used
    as a context manager around the whole run (``with Whole() as whole:``), which installs the handler."""

    def __init__(self) -> None:
        self._inside = False
        self._pending = False
        self._saved: Any = None

    def __enter__(self) -> Whole:
        import signal

        if threading.current_thread() is threading.main_thread():
            self._saved = signal.signal(signal.SIGINT, self._on_interrupt)
        return self

    def __exit__(self, *exc: object) -> None:
        import signal

        if self._saved is not None:
            signal.signal(signal.SIGINT, self._saved)

    def _on_interrupt(self, signum: int, frame: object) -> None:
        if self._inside:
            self._pending = True
            return
        raise KeyboardInterrupt

    @contextlib.contextmanager
    def step(self) -> Iterator[None]:
        self._inside = True
        try:
            yield
        finally:
            self._inside = False
        if self._pending:
            self._pending = False
            raise KeyboardInterrupt


class OutputClosed(Exception):
    """Standard output's reader has gone (``knock verify out/ | head -1``): the command ends quietly."""


#: The exit status of what a command has judged so far, for the end a closed pipe gives it.
_judged = {"status": 0}


def judged(status: int) -> None:
    """Record the exit status a command's results call for, before it prints them."""
    _judged["status"] = status


def judged_status() -> int:
    return _judged["status"]


def drop_pending_output() -> None:
    """Forget what the console could not write to a closed pipe: Rich keeps it, to write first the next time
    (which, in one process running the command again, would be another command's output)."""
    pending = getattr(console, "_buffer", None)
    if isinstance(pending, list):
        pending.clear()


class GuardedOutput:
    """Standard output that turns a closed pipe into ``OutputClosed`` (never Click's exit status 1), after pointing
    the file descriptor at /dev/null so that nothing more fails on the way out."""

    def __init__(self, stream: IO[str]) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            self._closed()
            return 0

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            self._closed()

    def _closed(self) -> None:
        try:
            fd = self._stream.fileno()
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, fd)
            os.close(null)
        except (OSError, ValueError, AttributeError):  # not a real file (a test's buffer)
            pass
        raise OutputClosed

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)
