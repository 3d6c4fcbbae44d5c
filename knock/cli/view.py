"""``knock view``: a log's replay as one self-contained HTML file, for auditors without a server."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from knock.cli.common import app, console
from knock.cli.logs import EXIT_FAIL, EXIT_PASS, EXIT_UNFINISHED
from knock.web.page import replay_page
from knock.web.transcript import transcript

EXIT = {"pass": EXIT_PASS, "fail": EXIT_FAIL, "unfinished": EXIT_UNFINISHED}


@app.command()
def view(
    log: Annotated[Path, typer.Argument(help="A log or a per-seat view (.knock).", exists=True, dir_okay=False)],
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="The HTML file to write (default: the log's name with .html).")
    ] = None,
) -> None:
    """Write a log's replay as ONE HTML file (script, style and cards inlined; it fetches nothing): the log is
    verified here (strict replay, LOG-13) and its transcript embedded, every record from every seat's view,
    the spectator's and the full one, with the verdict and the digest. Open it in any browser, from disk.

    Exit status as knock verify's: 0 the log passes, 1 it fails, 3 it is unfinished (the file is written in
    every case). Example: knock view game.knock -o game.html
    """
    data = log.read_bytes()
    t = transcript(data, name=log.name)
    target = out if out is not None else log.with_suffix(".html")
    target.write_text(replay_page(t), encoding="utf-8")
    v = t["verdict"]
    colour = {"pass": "green", "unfinished": "yellow"}.get(v["verdict"], "red")
    console.print(f"{escape(str(log))}: [{colour}]{escape(v['summary'])}[/]")  # the summary starts with the verdict
    console.print(f"wrote {escape(str(target))} ({target.stat().st_size:,} bytes, {len(t['steps'])} records drawn)")
    raise typer.Exit(EXIT[v["verdict"]])
