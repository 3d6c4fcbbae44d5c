"""The spec at the command line: ``knock spec`` (the machines' diagrams and tables) and ``knock conform``."""

from __future__ import annotations

import enum
import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.padding import Padding

from engine.fsm import SPECS, mermaid, table_markdown
from engine.rules import OptionInfo, RuleSet, options
from knock import conformance as conf
from knock.cli.common import DEFAULT_PRESET, FORCE, PRESET, STDOUT, KnockApp, app, choice, console, progress_bar, whole
from knock.cli.output import is_std, judged, output_file, print_table, write_json

MACHINES = tuple(spec.name for spec in SPECS)
WHAT = ("diagram", "table")


@app.command()
def spec(
    what: Annotated[
        str,
        typer.Argument(
            metavar="diagram|table", parser=choice(WHAT, "form"), help="diagram (Mermaid) or table (Markdown)."
        ),
    ] = "diagram",
    machine: Annotated[
        str,
        typer.Option(
            "--machine",
            metavar="NAME",
            parser=choice(MACHINES, "machine"),
            help=f"The machine: {' | '.join(MACHINES)}.",
        ),
    ] = "hand",
    out: Annotated[
        Path | None,
        typer.Option(
            "-o",
            "--out",
            metavar="FILE",
            help="Write to this file instead of printing; refused if it exists, unless --force.",
        ),
    ] = None,
    force: Annotated[bool, FORCE] = False,
    quiet: Annotated[bool, typer.Option("-q", "--quiet", help="With -o, print nothing.")] = False,
    json_out: Annotated[
        str | None,
        typer.Option(
            "--json",
            metavar="FILE",
            help="JSON instead of text: the transition table as one document "
            "(an object: machine, states, transitions, guards), to stdout or FILE, instead of the text.",
        ),
    ] = None,
) -> None:
    """Print a state machine's diagram or table.

    Both come from the transition table the engine runs (spec/state-machine.md); --json gives the table as data
    (the machine's entry of spec/transitions.json).

    Exit status: 0 printed; 2 a usage error.

    Example: knock spec diagram --machine match > match.mmd
    """
    chosen = next(s for s in SPECS if s.name == machine)
    if json_out is not None:
        write_json(machine_json(chosen.name), json_out)
        return
    text = mermaid(chosen) if what == "diagram" else table_markdown(chosen)
    if out is None or is_std(out):
        sys.stdout.write(text)
    else:
        output_file(out, force).write_text(text, encoding="utf-8")
        if not quiet:
            console.print(f"wrote {escape(str(out))}")


def machine_json(name: str) -> object:
    """One machine's entry of the machine-readable tables (``spec/transitions.json``)."""
    from engine.fsm import table_json

    return next(m for m in json.loads(table_json())["machines"] if m["machine"] == name)


@app.command()
def rules(
    preset: Annotated[str, PRESET] = DEFAULT_PRESET,
    json_out: Annotated[
        str | None,
        typer.Option("--json", metavar="FILE", help="JSON lines instead: one object per option, to stdout or FILE."),
    ] = None,
    quiet: Annotated[
        bool, typer.Option("-q", "--quiet", help="Print only KEY=VALUE, one option a line (the preset as --set).")
    ] = False,
) -> None:
    """List every rule-set option with its values, default and rule.

    The defaults are the preset's (--preset); change any option with --set KEY=VALUE in demo, simulate and
    play. Each option's rule id is in spec/rules.md (RULES-2 lists them all). On a terminal a table as wide as
    it is (a narrow one gets an option a paragraph); piped, one option a line, tab-separated.

    Exit status: 0 listed; 2 a usage error (an unknown preset).

    Example: knock rules --preset oklahoma
    """
    chosen = RuleSet.preset(preset)
    listed = options()
    if json_out is not None:
        lines = []
        for o in listed:
            value = getattr(chosen, o.name)
            value = value.value if isinstance(value, enum.Enum) else value
            lines.append(json.dumps({"option": o.name, "values": o.values, "default": value, "rule": o.rule,
                                     "summary": o.summary}) + "\n")  # fmt: skip
        write_text("".join(lines), json_out)
        return
    rows = [(o.name, o.values, OptionInfo(o.name, o.values, getattr(chosen, o.name), o.rule, o.summary).default_text,
             o.rule, o.summary) for o in listed]  # fmt: skip
    if quiet:
        for name, _, default, _, _ in rows:
            console.out(f"{name}={default}", highlight=False)
        return
    title = f"Rule-set options, with the {preset} preset's values (--set KEY=VALUE changes one):"
    if console.is_terminal and console.width < 110:  # too narrow for five columns: an option a paragraph
        console.print(title)
        for name, values, default, rule, summary in rows:
            console.print(f"\n[bold]{escape(name)}[/] = {escape(default)}  [dim]({escape(values)}; {rule})[/]")
            console.print(Padding(escape(summary), (0, 0, 0, 4)), soft_wrap=False)
        return
    cells = [tuple(escape(c) for c in row) for row in rows]
    print_table(
        ("option", "values", preset, "rule", "what it does"),
        cells,
        title=title,
        wrap=("what it does",),
        narrow=("values",),
    )


def write_text(text: str, target: str) -> None:
    """Text to stdout (``-``) or to a file, its folder made (``--json=FILE``: a report, written over)."""
    if target == STDOUT:
        sys.stdout.write(text)
        return
    Path(target).parent.mkdir(parents=True, exist_ok=True)
    Path(target).write_text(text, encoding="utf-8")


CASE_PATHS = "Case files or folders (default: the suite shipped with Knock)."
conform_app = KnockApp(
    help="The conformance suite: run cases, report rule coverage (spec/conformance.md).\n\n"
    "Exit status: each command's own (-h); 2 a usage error."
)
app.add_typer(conform_app, name="conform")


@conform_app.command(name="run")
def conform_run(
    paths: Annotated[list[Path] | None, typer.Argument(metavar="CASE...", help=CASE_PATHS)] = None,
    adapter: Annotated[
        str | None,
        typer.Option(
            "--adapter",
            metavar="CMD",
            help="Test another implementation: for each case, 'CMD CASE LOG' (LOG is - when the case has "
            "no log form) prints one JSON answer (spec/conformance.md, CONF-5, CONF-6).",
        ),
    ] = None,
    timeout: Annotated[
        int,
        typer.Option("--timeout", parser=whole(1), metavar="SECONDS", help="How long an adapter may take per case."),
    ] = 60,
    json_out: Annotated[
        str | None,
        typer.Option(
            "--json",
            metavar="FILE",
            help="A JSON report, one document (cases, passed, failed, "
            "unsupported): to stdout instead of the text, or to FILE besides it.",
        ),
    ] = None,
    quiet: Annotated[bool, typer.Option("-q", "--quiet", help="Print only failures and the totals.")] = False,
) -> None:
    """Run conformance cases: Knock in case and log mode, or another engine through --adapter (CONF-6).
    Exit status 0 only if every case passes (1 otherwise; 2 a usage error); a case that breaks the case format
    fails on its own.

    Example: knock conform run --json=out/conformance.json
    """
    import tempfile

    invalid: list[conf.CaseError] = []
    cases = conf.load_cases(paths or [conf.default_suite()], invalid, set(conf.rule_ids()))  # CONF-2: defined ids
    if not cases and not invalid:
        raise typer.BadParameter("no cases found", param_hint="PATHS")
    results = [conf.CaseResult(e.path, (), "?", False, {"case": "invalid"}, [e.reason]) for e in invalid]
    with tempfile.TemporaryDirectory() as tmp, progress_bar(hidden=json_out == STDOUT) as progress:
        task = progress.add_task(f"running {len(cases):,} cases", total=len(cases))
        for case in cases:
            results.append(conf.run_case(case, adapter, Path(tmp), timeout))
            progress.advance(task)
    failed = sum(not r.passed for r in results)
    unsupported = sum(bool(r.unsupported) for r in results)
    judged(1 if failed else 0)
    if json_out is not None:
        report = json.dumps({"cases": [r.to_json() for r in results], "passed": len(results) - failed - unsupported,
                             "failed": failed, "unsupported": unsupported}, indent=1) + "\n"  # fmt: skip
        write_text(report, json_out)
    if json_out != STDOUT:
        modes = ("adapter",) if adapter else ("case", "log")
        colour = {"pass": "green", "fail": "red", "skip": "dim", "invalid": "red", "unsupported": "yellow"}
        rows = []
        for r in results:
            if quiet and r.passed:
                continue
            cells = [r.modes.get(m, r.modes.get("case", "-")) for m in modes]
            verdict = "[yellow]n/a[/]" if r.unsupported else "[green]pass[/]" if r.passed else "[red]FAIL[/]"
            rows.append((escape(r.name), " ".join(r.rules), r.outcome,
                         *(f"[{colour.get(c, 'white')}]{c}[/]" for c in cells), verdict))  # fmt: skip
        if rows:
            print_table(("case", "rules", "expects", *(f"{m} mode" if m != "adapter" else m for m in modes),
                         "result"), rows, wrap=("case", "rules"))  # fmt: skip
        for r in results:
            for problem in r.problems:
                console.print(f"[red]{escape(r.name)}[/]: {escape(problem)}")
        also = f" ({unsupported:,} not expressible by the adapter's implementation)" if unsupported else ""
        console.print(f"{len(results) - failed - unsupported:,} of {len(results):,} cases pass{also}")
    if failed:
        raise typer.Exit(1)


@conform_app.command(name="vectors")
def conform_vectors(
    manifest: Annotated[
        Path | None,
        typer.Argument(metavar="MANIFEST", help="A vectors manifest (default: the suite's vectors.json)."),
    ] = None,
    adapter: Annotated[
        str | None,
        typer.Option(
            "--adapter",
            metavar="CMD",
            help="Test another reader: for each vector, 'CMD FILE [--key HEX] [--digest HEX]...' prints its verdict "
            "as one JSON object, as 'knock verify --json' does (spec/conformance.md, CONF-15).",
        ),
    ] = None,
    timeout: Annotated[
        int,
        typer.Option("--timeout", parser=whole(1), metavar="SECONDS", help="How long an adapter may take a vector."),
    ] = 60,
    json_out: Annotated[
        str | None,
        typer.Option("--json", metavar="FILE", help="A JSON report, one document: to stdout, or to FILE besides it."),
    ] = None,
    quiet: Annotated[bool, typer.Option("-q", "--quiet", help="Print only failures and the totals.")] = False,
) -> None:
    """Run the verdict vectors: Knock's reader, or another through --adapter, against each vector's verdict, record
    and rule (CONF-15). Exit status 0 only if every vector passes (1 otherwise; 2 a usage error).

    Example: knock conform vectors --adapter "knock verify --json"
    """
    from knock.conformance.vectors import load_vectors, run_vector

    try:
        folder, vectors = load_vectors(manifest)
    except (OSError, ValueError, KeyError, TypeError) as err:
        raise typer.BadParameter(f"not a vectors manifest: {err}", param_hint="MANIFEST") from None
    with progress_bar(hidden=json_out == STDOUT) as progress:
        task = progress.add_task(f"running {len(vectors):,} vectors", total=len(vectors))
        results = []
        for v in vectors:
            results.append(run_vector(v, folder, adapter, timeout))
            progress.advance(task)
    failed = [r for r in results if not r.passed]
    judged(1 if failed else 0)
    if json_out is not None:
        report = {"vectors": [{"name": r.vector.name, "row": r.vector.row, "passed": r.passed,
                               "problems": list(r.problems)} for r in results],
                  "passed": len(results) - len(failed), "failed": len(failed)}  # fmt: skip
        write_json(report, json_out)
    if json_out != STDOUT:
        shown = [r for r in results if not (quiet and r.passed)]
        rows = [(escape(r.vector.name), r.vector.row, r.vector.verdict, str(r.vector.record), r.vector.rule or "-",
                 "[green]pass[/]" if r.passed else "[red]FAIL[/]") for r in shown]  # fmt: skip
        if rows:
            print_table(("vector", "row", "verdict", "record", "rule", "result"), rows, wrap=("vector",))
        for r in failed:
            console.print(f"[red]{escape(r.vector.name)}[/]: {escape('; '.join(r.problems))}")
        console.print(f"{len(results) - len(failed):,} of {len(results):,} vectors pass")
    if failed:
        raise typer.Exit(1)


@conform_app.command(name="sessions")
def conform_sessions(
    url: Annotated[str, typer.Option("--url", metavar="URL", help="The server to replay against: http://HOST:PORT.")],
    session: Annotated[
        Path | None,
        typer.Argument(metavar="SESSION", help="A recorded session (default: the one shipped with Knock)."),
    ] = None,
    timeout: Annotated[
        int, typer.Option("--timeout", parser=whole(1), metavar="SECONDS", help="How long to wait for each frame.")
    ] = 15,
) -> None:
    """Replay a recorded WebSocket session against a table server, frame by frame (spec/protocol.md, PROTO-27).
    Exit status 0 when it answers every frame as recorded (1 otherwise; 2 a usage error). Each table it makes
    and every connection it opens is the server's to keep or end; point it at a server for tests.

    Example: knock conform sessions --url http://127.0.0.1:8000
    """
    from knock.conformance.sessions import default_session, replay

    try:
        text = (session or default_session()).read_text(encoding="utf-8")
        problems = replay(text, url.rstrip("/"), timeout=timeout)
    except (OSError, ValueError, AssertionError) as err:
        raise typer.BadParameter(str(err)[:300], param_hint="SESSION or --url") from None
    judged(1 if problems else 0)
    for p in problems:
        console.print(f"[red]{escape(p)}[/]")
    if problems:
        raise typer.Exit(1)
    console.print(f"{url}: every frame as recorded")


@conform_app.command(name="coverage")
def conform_coverage(
    paths: Annotated[list[Path] | None, typer.Argument(metavar="CASE...", help=CASE_PATHS)] = None,
    quiet: Annotated[bool, typer.Option("-q", "--quiet", help="Print only the gaps and the totals.")] = False,
    json_out: Annotated[
        str | None,
        typer.Option(
            "--json",
            metavar="FILE",
            help="JSON instead of text: one document (rules: rule, accept, reject; missing), to stdout or FILE.",
        ),
    ] = None,
) -> None:
    """How many accept and reject cases each rule id has (CONF-8); exit status 1 if one has no accept case.

    Exit status: 0 every rule id has an accept case; 1 some has none; 2 a usage error (a case that does not load).

    Example: knock conform coverage
    """
    cov = conf.rule_coverage(conf.load_cases(paths or [conf.default_suite()]))
    missing = cov.missing()
    judged(1 if missing else 0)
    rows = list(cov.rows())
    if json_out is not None:
        write_json({"rules": [{"rule": rule, "accept": acc, "reject": rej} for rule, acc, rej in rows],
                    "missing": list(missing)}, json_out)  # fmt: skip
    else:
        if not quiet:
            print_table(("rule", "accept cases", "reject cases"),
                        [(f"[red]{rule}[/]" if acc == 0 else rule, f"{acc:,}", f"{rej:,}" if rej else "-")
                         for rule, acc, rej in rows], right=("accept cases", "reject cases"))  # fmt: skip
        for m in missing:
            console.print(f"[red]missing[/] {m}")
        console.print(f"{len(rows):,} rules, {len(missing):,} gaps")
    if missing:
        raise typer.Exit(1)


@conform_app.command(name="answer")
def conform_answer(
    case: Annotated[Path, typer.Argument(metavar="CASE", help="A case file.")],
    log: Annotated[str, typer.Argument(metavar="LOG", help="Its log form, or - to answer from the case.")] = "-",
) -> None:
    """Print Knock's answer (CONF-5) to a case, or to its log: Knock as an adapter for the runner.

    The answer is always JSON: one document (an object) on one line.

    Exit status: 0 answered (whatever the answer says); 2 a usage error (a case that does not load, a missing log).

    Example: knock conform answer knock/conformance/suite/cases/lay/LAY-4-chain.toml
    """
    loaded = conf.load_case(case)
    if log == "-" and loaded.tamper is None:
        answer = conf.answer_case(loaded)
    elif log == "-":  # a log case is answered about its log (CONF-7)
        compiled = conf.compile_case(loaded)
        data = compiled.data
        answer = conf.answer_log(data, verify=loaded.verify) if data is not None else {"outcome": "none"}
    else:
        answer = conf.answer_log(Path(log).read_bytes(), verify=loaded.verify)
    sys.stdout.write(json.dumps(answer) + "\n")
