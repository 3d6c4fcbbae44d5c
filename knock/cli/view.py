"""``knock view``: a log's replay as one self-contained HTML file, for auditors without a server."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from knock.cli.common import FORCE, JSON_DOC, app, console, plural
from knock.cli.output import is_std, judged, output_file, read_input, write_json, write_output
from knock.cli.verify import EXIT_FAIL, EXIT_PASS, EXIT_UNFINISHED
from knock.web.page import replay_page
from knock.web.transcript import transcript

EXIT = {"pass": EXIT_PASS, "fail": EXIT_FAIL, "unfinished": EXIT_UNFINISHED}


@app.command()
def view(
    log: Annotated[
        Path,
        typer.Argument(
            help="A log or a per-seat view (.knock); - for standard input.",
            exists=True,
            dir_okay=False,
            allow_dash=True,
        ),
    ],
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            metavar="FILE",
            help="The HTML file to write; refused if it exists, unless --force (default: the log's name with "
            ".html, replaced when it exists).",
        ),
    ] = None,
    force: Annotated[bool, FORCE] = False,
    quiet: Annotated[
        bool, typer.Option("-q", "--quiet", help="Print nothing; the exit status gives the verdict.")
    ] = False,
    json_out: Annotated[str | None, JSON_DOC] = None,
) -> None:
    """Write a log's replay as one self-contained HTML file, verified, for any browser.

    Script, style and cards are inlined (it fetches nothing): the log is verified here (strict replay, LOG-13)
    and its transcript embedded, every record from every seat's view, the spectator's and the full one, with
    the verdict and the digest. Open it in any browser, from disk. --json gives one document: the log, the
    file written, the records drawn and the verdict.

    Exit status as knock verify's: 0 the log passes, 1 it fails, 3 it is unfinished (the file is written in
    every case); 2 a usage error.

    Example: knock view game.knock -o game.html
    """
    if is_std(log) and out is None:
        raise typer.BadParameter("a log on standard input has no name to make the page's from: give -o FILE (or -o -)",
                                 param_hint="--out")  # fmt: skip
    target = log.with_suffix(".html") if out is None else out if is_std(out) else output_file(out, force)
    data = read_input(log)
    t = transcript(data, name="standard input" if is_std(log) else log.name)
    page = replay_page(t).encode("utf-8")
    write_output(target, page)
    v = t["verdict"]
    judged(EXIT[v["verdict"]])
    if json_out is not None:
        write_json({"log": str(log), "out": str(target), "bytes": len(page), "records": len(t["steps"]),
                    "verdict": v}, json_out)  # fmt: skip
    elif not quiet and not is_std(target):
        colour = {"pass": "green", "unfinished": "yellow"}.get(v["verdict"], "red")
        console.print(f"{escape(str(log))}: [{colour}]{escape(v['summary'])}[/]")  # the summary starts with the verdict
        console.print(f"wrote {escape(str(target))} ({plural(len(page), 'byte')}, "
                      f"{plural(len(t['steps']), 'record')} drawn)")  # fmt: skip
    raise typer.Exit(EXIT[v["verdict"]])
