"""``knock verify``: every file one verdict (spec/log-format.md, LOG-13), streamed in the order of the files as
soon as each and those before it are judged, on local processes or a Dask cluster (``knock.bulk_verify``); a bad
path reported and the rest judged, a file that is not a regular one skipped, ``-`` the log on standard input,
Ctrl-C the totals so far, and the published digests and signer a verdict may be held to (LOG-19)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from knock import bulk_verify as audit_mod
from knock.cli.common import CLUSTER, JOBS, app, console, plural, progress_bar
from knock.cli.output import Whole, json_sink, judged
from knock.cluster.runner import Runner
from knock.cluster.storage import check_inputs, find_logs, is_url, resolve
from replay.signing import KeyFileError, load_public_key
from replay.verdict import Verdict, judge, signed_words

#: ``knock verify``'s exit status (LOG-13): every file passes; some file fails; a usage error; none fails and some
#: are unfinished.
EXIT_PASS, EXIT_FAIL, EXIT_USAGE, EXIT_UNFINISHED = 0, 1, 2, 3


def verdict_line(path: str, v: Verdict) -> str:
    """One file's verdict for people: ``pass``, ``unfinished`` or ``FAIL``, then what the replay found."""
    where = escape(str(path))
    seats = ", ".join(f"p{s} {t:,}" for s, t in enumerate(v.scores))
    if v.kind == "pass":
        return f"[green]pass[/]       {where}: {plural(v.hands, 'hand')}, p{v.winner} wins, totals {seats}; " \
            f"{escape(v.message)}"  # fmt: skip
    if v.kind == "unfinished":
        state = (f"the game over, p{v.winner} wins, totals {seats}" if v.winner is not None
                 else f"hand {v.hands} begun, scores {seats}" if v.hands else "before the first deal")  # fmt: skip
        signed = f"; {signed_words(v.signed_through, v.record or 0)}" if v.signer is not None else ""
        return f"[yellow]unfinished[/] {where}: valid so far, unfinished at record {v.record} ({state}); no " \
            f"trailer{signed}"  # fmt: skip
    bug = " [red](a bug in Knock's reader: please report it with this file)[/]" if v.internal else ""
    return f"[red]FAIL[/]       {where}: {escape(v.message)}{bug}"


JSON = typer.Option(
    "--json", metavar="FILE", help="JSON lines instead of text: one object per file, to stdout or FILE."
)


def reached(runner: Runner, paths: list[str]) -> None:
    """Every local path named (globs aside) is seen by every worker of the cluster, as the client resolved it."""
    for path in paths:
        if not is_url(path) and not any(ch in path for ch in "*?["):
            runner.reaches(resolve(path))


JSON = typer.Option(
    "--json", metavar="FILE", help="JSON lines instead of text: one object per file, to stdout or FILE."
)


@app.command(name="verify")
def verify_cmd(
    paths: Annotated[
        list[str],
        typer.Argument(metavar="PATH...", help="Log files, per-seat views, folders of *.knock files, or fsspec URLs."),
    ],
    json_out: Annotated[str | None, JSON] = None,
    quiet: Annotated[
        bool, typer.Option("-q", "--quiet", help="Print only the files that do not pass, and the totals.")
    ] = False,
    jobs: Annotated[int, JOBS] = 0,
    cluster: Annotated[str | None, CLUSTER] = None,
    key: Annotated[
        str | None,
        typer.Option(
            "--key",
            metavar="PUB",
            help="Require logs signed by this key: a key file (knock keygen) or its 64 hex digits (LOG-19).",
        ),
    ] = None,
    digest: Annotated[
        list[str] | None,
        typer.Option(
            "--digest",
            metavar="HEX",
            help="Require each log's digest to be this published one (LOG-19); may be repeated.",
        ),
    ] = None,
    digests: Annotated[
        Path | None,
        typer.Option(
            "--digests",
            metavar="FILE",
            help="Require each log's digest to be in this file of published "
            "digests, one a line (what knock serve --digests appends).",
        ),
    ] = None,
) -> None:
    """Judge logs and views: pass, unfinished at record N, or FAIL.

    Replays each in parallel (a full log strictly, a view in public mode) and
    gives every file one verdict (spec/log-format.md, LOG-13): pass; unfinished ("valid so far, unfinished at
    record N": every record whole and valid, no trailer — a game in progress, stopped, or cut short by a crash);
    or FAIL, naming the record and the rule.

    Each verdict is printed as soon as it and every one before it are judged, in the order of the files (so
    `knock verify big/ | head -1` ends early); Ctrl-C prints the totals so far ("stopped after N of M files").
    --json gives JSON lines, one object per file (its path and verdict), in the same order. A folder gives its
    *.knock files at any depth, or, if it holds a run's manifest (knock simulate --logs), the logs the manifest
    lists (a missing one is a FAIL); a quoted glob ('out/*.knock') every file it matches. A path that does not
    exist is reported and the others judged; a file that is not a regular one (a FIFO, a device) is skipped
    with a word, never opened.

    A signed log (format 2.0) is checked against its own signer always; --key also requires that signer, and
    --digest/--digests that the log's digest (the trailer's) was published: otherwise FAIL under LOG-19.

    Exit status: 0 every file passes; 1 some file fails (or cannot be read);
    3 none fails and some are unfinished; 2 a usage error (a bad option, a key file that is not one, no files,
    or a path that does not exist, once the others are judged); 130 stopped by Ctrl-C. On a closed pipe, the
    status of the verdicts judged until then.

    Example: knock verify out/ tests/golden/standard-1.knock --json=out/verdicts.jsonl
    """
    required = audit_mod.Required(required_key(key), published(digest, digests))
    if STDIN in paths:
        verify_stdin(paths, required, json_out, quiet)
    named, bad = readable_inputs(paths)
    files, skipped = regular_logs(find_logs(named))
    for why in [*bad, *skipped]:  # reported, and the rest judged (exit 2 at the end for a bad path)
        print(f"knock verify: {why}", file=sys.stderr)
    if not files:
        raise typer.BadParameter("no logs found", param_hint="PATH")
    sink = json_sink(json_out)
    to_stdout = sink is sys.stdout
    workers = 1 if cluster is None and len(files) < 8 else jobs
    counts = dict.fromkeys(("pass", "unfinished", "fail"), 0)
    stopped = False
    with progress_bar(hidden=to_stdout or quiet or len(files) < 20) as progress, \
            Runner(cluster, workers) as runner, Whole() as whole:  # fmt: skip
        reached(runner, named)
        task = progress.add_task(f"verifying {plural(len(files), 'log')}", total=len(files))
        try:  # each verdict printed as soon as it and those before it are judged, in the order of the files
            for path, verdict in zip(files, audit_mod.stream(files, runner, required=required), strict=False):
                with whole.step():  # printed and counted, or neither: the totals of a stop are of the lines shown
                    counts[verdict.kind] += 1
                    judged(_status(counts))  # what a closed pipe ends with: the status of what was judged so far
                    if sink is not None:
                        sink.write(json.dumps({"path": str(path), **verdict.to_json()}) + "\n")
                        sink.flush()
                    if not to_stdout and not (quiet and verdict.kind == "pass"):
                        console.print(verdict_line(path, verdict))
                progress.advance(task, 1)
        except KeyboardInterrupt:
            stopped = True
    if sink is not None and not to_stdout:
        sink.close()
    done = sum(counts.values())
    if not to_stdout and (len(files) > 1 or quiet or stopped):
        retried = f"; retried batches: {runner.retried:,}" if cluster else ""
        judged_of = f"stopped after {done:,} of {len(files):,} files" if stopped else plural(len(files), "file")
        console.print(f"{judged_of}: {counts['pass']:,} pass, {counts['unfinished']:,} unfinished, "
                      f"{counts['fail']:,} fail{retried}")  # fmt: skip
    status = 130 if stopped else EXIT_USAGE if bad else _status(counts)
    if status != EXIT_PASS:
        raise typer.Exit(status)


STDIN = "-"


def verify_stdin(paths: list[str], required: audit_mod.Required, json_out: str | None, quiet: bool) -> None:
    """``knock verify -``: the log on standard input, read as a stream (any length in the same memory, LOG-15),
    judged here; alone, as standard input is one file.

    Raises:
        typer.Exit: with the verdict's status; typer.BadParameter: ``-`` with other paths.
    """
    if paths != [STDIN]:
        raise typer.BadParameter("- reads the log on standard input: give it alone", param_hint="PATH")
    verdict = judge(sys.stdin.buffer, signer=required.signer, digests=required.digests)
    status = _status({"pass": 0, "unfinished": 0, "fail": 0, verdict.kind: 1})
    judged(status)
    sink = json_sink(json_out)
    if sink is not None:
        sink.write(json.dumps({"path": STDIN, **verdict.to_json()}) + "\n")
        if sink is not sys.stdout:
            sink.close()
    if sink is not sys.stdout and not (quiet and verdict.kind == "pass"):
        console.print(verdict_line("(standard input)", verdict))
    raise typer.Exit(status)


def _status(counts: dict[str, int]) -> int:
    return EXIT_FAIL if counts["fail"] else EXIT_UNFINISHED if counts["unfinished"] else EXIT_PASS


def readable_inputs(paths: list[str]) -> tuple[list[str], list[str]]:
    """The paths named that exist (or, a glob, match something), and the others with why (``check_inputs``'s
    words): a bad path is reported, not the end of the run."""
    named, bad = [], []
    for path in paths:
        try:
            check_inputs([path])
        except FileNotFoundError as err:
            bad.append(f"cannot find {path}: {err.strerror or err}")
            continue
        named.append(path)
    return named, bad


def regular_logs(found: list[str]) -> tuple[list[str], list[str]]:
    """The logs that are files to read; a local one that is not a regular file (a FIFO, a device, a socket) is
    skipped with a word, never opened (reading a FIFO could wait for ever)."""
    files, skipped = [], []
    for location in found:
        if not is_url(location) and Path(location).exists() and not Path(location).is_file():
            skipped.append(f"{location}: skipped, not a regular file")
        else:
            files.append(location)
    return files, skipped


def required_key(spec: str | None) -> bytes | None:
    """The public key of ``--key`` (LOG-17: a key file that is not one is a usage error naming the rule)."""
    if spec is None:
        return None
    try:
        return load_public_key(spec)
    except KeyFileError as err:
        raise typer.BadParameter(str(err), param_hint="--key") from None


def published(given: list[str] | None, path: Path | None) -> frozenset[bytes] | None:
    """The digests of ``--digest`` and ``--digests FILE`` (64 hex digits each; in the file, the first word of a
    line, as ``knock serve --digests`` writes ``HEX  TABLE``; blank lines and ``#`` comments ignored), or None
    when neither is given."""
    if not given and path is None:
        return None
    lines = [(f"--digest {d}", d) for d in given or []]
    if path is not None:
        try:
            text = path.read_text("ascii")
        except (OSError, UnicodeDecodeError) as err:
            raise typer.BadParameter(f"LOG-19: cannot read {path}: {err}", param_hint="--digests") from None
        for n, line in enumerate(text.splitlines(), 1):
            words = line.split("#")[0].split()
            lines.append((f"{path}:{n}", words[0] if words else ""))
    out = set()
    for where, value in lines:
        if not value:
            continue
        if len(value) != 64 or any(c not in "0123456789abcdefABCDEF" for c in value):
            raise typer.BadParameter(
                f"LOG-19: {where}: a digest is 64 hexadecimal digits, not {value[:80]!r}",
                param_hint="--digests" if where.startswith(str(path)) else "--digest",
            )
        out.add(bytes.fromhex(value))
    return frozenset(out)
