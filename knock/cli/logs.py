"""Reading logs: ``knock verify``, ``knock export``, ``knock show`` and ``knock redact``."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.progress import Progress

from engine.visibility import SeatLens
from knock import audit as audit_mod
from knock.cli.common import CLUSTER, app, console, print_events, render
from knock.cluster.runner import Runner
from knock.cluster.storage import find_logs
from replay.audit import view_transcript
from replay.log import LogReader
from replay.redact import redact
from replay.replayer import Replayer
from replay.verdict import Verdict

#: ``knock verify``'s exit status (LOG-13): every file passes; some file fails; a usage error; none fails and some
#: are unfinished.
EXIT_PASS, EXIT_FAIL, EXIT_USAGE, EXIT_UNFINISHED = 0, 1, 2, 3


def verdict_line(path: str, v: Verdict) -> str:
    """One file's verdict for people: ``pass``, ``unfinished`` or ``FAIL``, then what the replay found."""
    where = escape(str(path))
    seats = ", ".join(f"p{s} {t}" for s, t in enumerate(v.scores))
    if v.kind == "pass":
        return f"[green]pass[/]       {where}: {v.hands} hands, p{v.winner} wins, totals {seats}; {escape(v.message)}"
    if v.kind == "unfinished":
        state = f"hand {v.hands} begun, scores {seats}" if v.hands else "before the first deal"
        return f"[yellow]unfinished[/] {where}: ends after record {v.record} ({state}), no trailer"
    bug = " [red](a bug in Knock's reader: please report it with this file)[/]" if v.internal else ""
    return f"[red]FAIL[/]       {where}: {escape(v.message)}{bug}"


@app.command(name="verify")
def verify_cmd(
    paths: Annotated[
        list[str], typer.Argument(help="Log files, per-seat views, folders of *.knock files, or fsspec URLs.")
    ],
    as_json: Annotated[
        bool, typer.Option("--json", help="One JSON object per file (its verdict), for machines.")
    ] = False,
    jobs: Annotated[int, typer.Option(min=0, help="Processes (0: one per core).")] = 0,
    cluster: Annotated[str | None, CLUSTER] = None,
) -> None:
    """Judge logs and per-seat views in parallel: replay each (a full log strictly, a view in public mode) and
    give every file one verdict (spec/log-format.md, LOG-13): pass; unfinished (every record whole and valid, no
    trailer: a game in progress, stopped, or cut short by a crash); or FAIL, naming the record and the rule.

    Exit status: 0 every file passes; 1 some file fails (or cannot be read);
    3 none fails and some are unfinished; 2 a usage error (a bad option, no files found).

    Example: knock verify out/ tests/golden/standard-1.knock --json
    """
    files = find_logs(paths)
    if not files:
        raise typer.BadParameter("no logs found", param_hint="PATHS")
    workers = 1 if cluster is None and len(files) < 8 else jobs
    with Progress(console=console, transient=True, disable=as_json or len(files) < 20) as progress, \
            Runner(cluster, workers) as runner:  # fmt: skip
        task = progress.add_task(f"verifying {len(files)} logs", total=len(files))
        verdicts = audit_mod.run(files, runner, tick=lambda n: progress.advance(task, n))
    for path, verdict in zip(files, verdicts, strict=True):
        if as_json:
            sys.stdout.write(json.dumps({"path": str(path), **verdict.to_json()}) + "\n")
        else:
            console.print(verdict_line(path, verdict))
    counts = {kind: sum(v.kind == kind for v in verdicts) for kind in ("pass", "unfinished", "fail")}
    if not as_json and len(files) > 1:
        retried = f"; retried batches: {runner.retried}" if cluster else ""
        console.print(f"{len(files)} files: {counts['pass']} pass, {counts['unfinished']} unfinished, "
                      f"{counts['fail']} fail{retried}")  # fmt: skip
    if counts["fail"]:
        raise typer.Exit(EXIT_FAIL)
    if counts["unfinished"]:
        raise typer.Exit(EXIT_UNFINISHED)


@app.command(name="export")
def export_cmd(
    paths: Annotated[list[str], typer.Argument(help="Log files, folders of *.knock files or fsspec URLs.")],
    out: Annotated[str, typer.Option("-o", "--out", help="The dataset's folder or fsspec URL (must hold no parts).")],
    actions: Annotated[bool, typer.Option("--actions", help="Also write one row per action (OUT/actions).")] = False,
    cluster: Annotated[str | None, CLUSTER] = None,
    jobs: Annotated[int, typer.Option(min=0, help="Processes (0: one per core).")] = 0,
    batch: Annotated[int, typer.Option(min=0, help="Logs per part file (0: about two parts per worker).")] = 0,
) -> None:
    """Export logs as a Parquet dataset: OUT/hands, one row per hand (and OUT/actions with --actions), for
    DuckDB, Polars or Spark. A log that fails to replay gives no rows and exit status 1.

    Example: knock export out/sim -o out/corpus --actions
    """
    from knock import export

    logs = find_logs(paths)
    if not logs:
        raise typer.BadParameter("no logs found", param_hint="PATHS")
    with Progress(console=console, transient=True) as progress, Runner(cluster, jobs) as runner:
        task = progress.add_task(f"exporting {len(logs)} logs", total=len(logs))
        total, parts = export.run(logs, paths, out, runner, actions=actions, size=batch,
                                  tick=lambda n: progress.advance(task, n))  # fmt: skip
    for location, why in total.failed:
        console.print(f"[red]FAIL[/] {escape(location)}: {escape(why)}")
    rows = f"{total.hands} hands" + (f" and {total.actions} actions" if actions else "")
    tables = f"{out.rstrip('/')}/hands" + (f" and {out.rstrip('/')}/actions" if actions else "")
    console.print(f"exported {rows} from {total.logs} logs to {tables} ({parts} parts each); "
                  f"{len(total.failed)} logs left out; retried batches: {runner.retried}")  # fmt: skip
    if total.failed:
        raise typer.Exit(1)


@app.command()
def show(
    path: Annotated[Path, typer.Argument(help="A log file.")],
    seat: Annotated[int | None, typer.Option(help="Show only what this seat saw (its per-seat view).")] = None,
) -> None:
    """Print a logged game as a readable hand history.

    Example: knock show tests/golden/three-handed-5.knock --seat 2
    """
    data = path.read_bytes()
    if LogReader(data).header.view is not None:  # a per-seat view: only what it shows
        if seat is not None:
            raise typer.BadParameter("this log is already one seat's view", param_hint="--seat")
        for line in view_transcript(data):
            console.print(render(line))
        return
    replayer = Replayer(data)
    names = list(replayer.reader.header.players)
    match = replayer.run()
    if seat is None:
        print_events(match.events, names)
        return
    if not 0 <= seat < len(names):
        raise typer.BadParameter(f"no seat {seat} in a game of {len(names)}", param_hint="--seat")
    console.print(f"[bold]What {names[seat]} saw[/] (cards it was not shown are not printed)")
    print_events(SeatLens(match.rules, seat).see_all(match.events), names)


@app.command(name="redact")
def redact_cmd(
    path: Annotated[Path, typer.Argument(help="A log file.")],
    seat: Annotated[int, typer.Option(help="The seat whose view to make.")],
    out: Annotated[Path, typer.Option("-o", "--out", help="Where to write the view.")],
) -> None:
    """Write the view of a log that a client at one seat may receive (hidden cards replaced).

    Example: knock redact out/demo-1.knock --seat 0 -o out/demo-1.p0.knock
    """
    if out.resolve() == path.resolve():
        raise typer.BadParameter("the view would overwrite the log; choose another file", param_hint="--out")
    data = redact(path.read_bytes(), seat)
    out.write_bytes(data)
    console.print(f"wrote {out} ({len(data)} bytes), the view of p{seat}")
