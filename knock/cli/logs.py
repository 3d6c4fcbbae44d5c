"""Reading logs: ``knock export``, ``knock show`` and ``knock redact`` (``knock verify`` is ``knock.cli.verify``)."""

from __future__ import annotations

import contextlib
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from engine.events import HandDead, HandEnded, HandScored
from engine.scoring import ResultKind
from engine.visibility import SeatLens
from knock.cli import stepper
from knock.cli.common import (
    CLUSTER,
    FORCE,
    JOBS,
    JSON_DOC,
    QUIET,
    SIGN_KEY,
    app,
    console,
    plural,
    print_events,
    progress_bar,
    signing_key,
    whole,
)
from knock.cli.output import is_std, json_sink, judged, output_file, read_input, write_json, write_output
from knock.cli.verify import EXIT_FAIL, EXIT_PASS, reached, verdict_line
from knock.cluster.runner import Runner
from knock.cluster.storage import check_inputs, check_output, find_logs
from replay.audit import ViewEvent, view_events
from replay.log import LogError, LogReader
from replay.redact import redact
from replay.replayer import Replayer
from replay.verdict import Verdict, judge


@app.command(name="export")
def export_cmd(
    paths: Annotated[
        list[str], typer.Argument(metavar="PATH...", help="Log files, folders of *.knock files or fsspec URLs.")
    ],
    out: Annotated[
        str,
        typer.Option(
            "-o",
            "--out",
            metavar="DIR",
            help="The dataset's folder or fsspec URL; refused if it holds a dataset, unless --force (which "
            "removes the old parts first).",
        ),
    ],
    force: Annotated[bool, FORCE] = False,
    actions: Annotated[bool, typer.Option("--actions", help="Also write one row per action (DIR/actions).")] = False,
    jobs: Annotated[int, JOBS] = 0,
    cluster: Annotated[str | None, CLUSTER] = None,
    batch: Annotated[
        int,
        typer.Option(
            "--batch", parser=whole(), metavar="N", help="Logs per part file (0: about two parts per worker)."
        ),
    ] = 0,
    quiet: Annotated[bool, QUIET] = False,
    json_out: Annotated[str | None, JSON_DOC] = None,
) -> None:
    """Export logs as a Parquet dataset: tables of games, seats and hands.

    DIR/games, DIR/seats and DIR/hands (and DIR/actions with --actions), every row keyed by its game's trailer
    digest, partitioned by preset (DIR/hands/preset=standard/part-*.parquet), DIR/_SUCCESS written last; for
    DuckDB, Polars or Spark (docs/cluster.md). A log that fails to replay gives no rows and exit status 1. --json
    gives one document: the counts, the tables, the parts and the logs left out. A folder of a run (knock simulate
    --logs) gives the logs its manifest lists.

    Exit status: 0 every log exported; 1 some log left out; 2 a usage error.

    Example: knock export out/sim -o out/corpus --actions
    """
    from knock import export

    check_inputs(paths)
    check_output(out)
    logs = find_logs(paths)
    if not logs:
        raise typer.BadParameter("no logs found", param_hint="PATH")
    if force:
        export.remove_parts(out)
    with progress_bar(hidden=quiet or json_out == "-") as progress, Runner(cluster, jobs) as runner:
        reached(runner, paths)
        task = progress.add_task(f"exporting {plural(len(logs), 'log')}", total=len(logs))
        total = export.run(logs, paths, out, runner, actions=actions, size=batch,
                           tick=lambda n: progress.advance(task, n))  # fmt: skip
    judged(1 if total.failed else 0)
    names = [t for t in export.TABLES if actions or t != "actions"]
    tables = [f"{out.rstrip('/')}/{t}" for t in names]
    if json_out is not None:
        write_json({"logs": total.logs, "games": total.games, "hands": total.hands,
                    "actions": total.actions if actions else None, "tables": tables,
                    "rows": {t: total.rows[t] for t in names}, "parts": {t: total.parts[t] for t in names},
                    "dataset_version": export.DATASET_VERSION, "retried": runner.retried,
                    "failed": [{"log": location, "why": why} for location, why in total.failed]}, json_out)  # fmt: skip
    if json_out != "-":
        for location, why in total.failed:
            console.print(f"[red]FAIL[/] {escape(location)}: {escape(why)}")
        rows = f"{plural(total.games, 'game')}, " + plural(total.hands, "hand") + (
            f" and {plural(total.actions, 'action')}" if actions else "")  # fmt: skip
        counts = {total.parts[t] for t in names}
        parts = (f"{plural(counts.pop(), 'part')} each" if len(counts) == 1
                 else ", ".join(f"{t} {plural(total.parts[t], 'part')}" for t in names))  # fmt: skip
        if not quiet or total.failed:
            console.print(f"exported {rows} from {plural(total.logs, 'log')} to {out.rstrip('/')}/"
                          f"{{{','.join(names)}}} ({parts}); {plural(len(total.failed), 'log')} left out; retried "
                          f"batches: {runner.retried:,}")  # fmt: skip
    if total.failed:
        raise typer.Exit(1)


def seat_number(value: object) -> int | None:
    """``--seat``: a seat number, 0 to 2."""
    return None if value is None else whole(0, 2, "a seat")(value)


SEAT = typer.Option("--seat", parser=seat_number, metavar="N", help="Only what this seat saw (0, 1 or 2).")


@app.command()
def show(
    path: Annotated[Path, typer.Argument(metavar="LOG", help="A log file or a per-seat view (knock redact).")],
    seat: Annotated[int | None, SEAT] = None,
    step: Annotated[
        bool,
        typer.Option(
            "--step",
            help="Step through the game record by record, with the position "
            "after each (Enter or space: next, b: back, q: quit); without a terminal, "
            "print every record.",
        ),
    ] = False,
    quiet: Annotated[
        bool, typer.Option("-q", "--quiet", help="Print only each hand's deal and result, and the totals.")
    ] = False,
    json_out: Annotated[
        str | None,
        typer.Option(
            "--json",
            metavar="FILE",
            help="JSON lines instead of text: one object per event (record, event), then the verdict "
            "(path, verdict, ..., as knock verify gives it), to stdout or FILE.",
        ),
    ] = None,
) -> None:
    """Print a logged game as a readable history, or step through it.

    The history gives the draw, each hand's deal, every action, the spreads and
    layoffs, the results and the scores. An unfinished log is shown as far as it goes ("valid so far, unfinished
    at record N"); a damaged one up to the record that fails, which is named.

    Exit status: 0 the log passes or is unfinished; 1 it fails (shown up to the record that fails); 2 a usage
    error.

    Example: knock show tests/golden/three-handed-5.knock --seat 2 --step
    """
    data = read_input(path)
    verdict = judge(data)
    judged(EXIT_FAIL if verdict.kind == "fail" else EXIT_PASS)
    try:
        header = LogReader(data).header
    except LogError:
        header = None
    sink = json_sink(json_out)
    if header is not None:
        names = list(header.players)
        if header.view is not None and seat not in (None, header.view):
            raise typer.BadParameter(f"this log is p{header.view}'s view: it shows no other seat", param_hint="--seat")
        if header.view is None and seat is not None and seat >= len(names):
            raise typer.BadParameter(f"no seat {seat} in a game of {len(names)}", param_hint="--seat")
        events = view_history(data) if header.view is not None else log_history(data, seat)
        if sink is not None:
            for record, event in events:
                sink.write(json.dumps({"record": record, "event": str(event)}) + "\n")
        elif step:
            frames = stepper.view_frames(data, names) if header.view is not None else stepper.log_frames(data, seat)
            stepper.step(frames, last_valid(verdict))
        else:
            if header.view is not None:
                console.print(f"[bold]The view of {escape(names[header.view])}[/] (the cards it was not shown are "
                              "not in it)")  # fmt: skip
            elif seat is not None:
                console.print(f"[bold]What {escape(names[seat])} saw[/] (cards it was not shown are not printed)")
            for _, event in events:
                print_events([event], names, history=not quiet)
    if sink is not None:
        sink.write(json.dumps({"path": str(path), **verdict.to_json()}) + "\n")
        if sink is not sys.stdout:
            sink.close()
    if verdict.kind != "pass" and json_out != "-":
        console.print(verdict_line(str(path), verdict))
    if verdict.kind == "fail":
        raise typer.Exit(EXIT_FAIL)


def log_history(data: bytes, seat: int | None) -> Iterator[tuple[int, ViewEvent]]:
    """A full log's events as they are replayed (all of them, or as ``seat`` saw them), up to where it ends; a
    hand's end with its result first (the result record holds both)."""
    replayer = Replayer(data, history=False)  # a log of any length is shown in the same memory
    lens = SeatLens(replayer.rules, seat) if seat is not None else None
    with contextlib.suppress(LogError):  # the verdict after the history says where and why it ends
        for state in replayer.states():
            if state.event is not None:
                yield from with_result(state.index, lens.see(state.event) if lens is not None else state.event)


def last_valid(verdict: Verdict) -> int:
    """The last record a history can show: the trailer of a log that passes, N of one unfinished at N, the record
    before the one that fails."""
    if verdict.kind == "fail":
        return max(0, (verdict.record or 1) - 1)
    return verdict.record or 0


def view_history(data: bytes) -> Iterator[tuple[int, ViewEvent]]:
    """A per-seat view's events, as the seat saw them: the same history ``show --seat`` gives, as far as the view
    holds it (another seat's deadwood cards at the showdown are in the full log only; the result gives every
    seat's deadwood)."""
    with contextlib.suppress(LogError):
        for entry, _, event in view_events(data):
            if event is not None:
                yield from with_result(entry.index, event)


def with_result(record: int, event: ViewEvent) -> Iterator[tuple[int, ViewEvent]]:
    """One event of a history; a hand's end with its result first."""
    if isinstance(event, HandEnded):
        kind = HandDead if event.result.kind is ResultKind.DEAD else HandScored
        yield record, kind(event.result)
    yield record, event


def logged_table(log: bytes) -> str | None:
    """The table a log's free metadata names (``knock serve`` writes ``table``), or None."""
    try:
        table = LogReader(log).header.meta.get("table")
    except LogError:
        return None
    return table if type(table) is str and table else None


@app.command(name="redact")
def redact_cmd(
    path: Annotated[Path, typer.Argument(metavar="LOG", help="A log file.")],
    seat: Annotated[
        int, typer.Option("--seat", parser=whole(0, 2, "a seat"), metavar="N", help="The seat whose view to make.")
    ],
    out: Annotated[
        Path,
        typer.Option(
            "-o", "--out", metavar="FILE", help="Where to write the view; refused if it exists, unless --force."
        ),
    ],
    force: Annotated[bool, FORCE] = False,
    quiet: Annotated[bool, typer.Option("-q", "--quiet", help="Print nothing (errors still go to stderr).")] = False,
    json_out: Annotated[str | None, JSON_DOC] = None,
    key: Annotated[Path | None, SIGN_KEY] = None,
    table: Annotated[
        str | None,
        typer.Option(metavar="NAME", help="The table a signed view names (default: the log's meta 'table'; LOG-23)."),
    ] = None,
    made: Annotated[
        int | None,
        typer.Option(
            "--time",
            metavar="SECONDS",
            min=0,
            help="When a signed view says it was made, in seconds since 1970 (default: now; LOG-23).",
        ),
    ] = None,
) -> None:
    """Write the view of a log that one seat may receive.

    The cards the seat was not shown are replaced (spec/log-format.md, LOG-11). With --key the view is signed
    with that key (LOG-18) and names its table and the time it was made (LOG-23, format 3.0), without it
    unsigned. --json gives one document: the log, the seat, the view's file and size.

    Exit status: 0 written; 1 the log cannot be redacted (the error names the record and rule); 2 a usage error.

    Example: knock redact out/demo-1.knock --seat 0 -o out/p0.knock
    """
    if not is_std(out) and not is_std(path) and out.resolve() == path.resolve():
        raise typer.BadParameter("the view would overwrite the log; choose another file", param_hint="--out")
    signer = signing_key(key)
    if signer is None and (table is not None or made is not None):
        raise typer.BadParameter("LOG-23: only a signed view names its table and time: give --key too",
                                 param_hint="--table/--time")  # fmt: skip
    if not is_std(out):
        output_file(out, force)
    log = read_input(path)
    if signer is not None:
        table = table if table is not None else logged_table(log)
        if table is None:
            raise typer.BadParameter("LOG-23: a signed view names its table, and the log's meta names none: give "
                                     "--table NAME", param_hint="--table")  # fmt: skip
        made = made if made is not None else int(time.time())
    data = redact(log, seat, key=signer, table=table, made=made)
    write_output(out, data)
    if json_out is not None:
        write_json({"log": str(path), "seat": seat, "out": str(out), "bytes": len(data)}, json_out)
    elif not quiet and not is_std(out):
        console.print(f"wrote {escape(str(out))} ({plural(len(data), 'byte')}), the view of p{seat}")
