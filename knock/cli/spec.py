"""The spec at the command line: ``knock spec`` (the machines' diagrams and tables) and ``knock conform``."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.progress import Progress
from rich.table import Table

from engine.fsm import SPECS, mermaid, table_markdown
from knock import conformance as conf
from knock.cli.common import app, console


@app.command()
def spec(
    what: Annotated[str, typer.Argument(help="diagram (Mermaid) or table (Markdown).")] = "diagram",
    machine: Annotated[str, typer.Option(help="hand or match.")] = "hand",
    out: Annotated[Path | None, typer.Option("-o", "--out", help="Write to this file instead of printing.")] = None,
) -> None:
    """Print a state machine, generated from the engine's transition table.

    Example: knock spec diagram --machine match > match.mmd
    """
    specs = {s.name: s for s in SPECS}
    if machine not in specs:
        raise typer.BadParameter("hand or match", param_hint="--machine")
    if what not in ("diagram", "table"):
        raise typer.BadParameter("diagram or table", param_hint="WHAT")
    text = mermaid(specs[machine]) if what == "diagram" else table_markdown(specs[machine])
    if out is None:
        sys.stdout.write(text)
    else:
        out.write_text(text, encoding="utf-8")
        console.print(f"wrote {out}")


CASE_PATHS = "Case files or folders (default: the suite shipped with Knock)."
conform_app = typer.Typer(help="The conformance suite (spec/conformance.md): run cases, report rule coverage.",
                          no_args_is_help=True)  # fmt: skip
app.add_typer(conform_app, name="conform")


@conform_app.command(name="run")
def conform_run(
    paths: Annotated[list[Path] | None, typer.Argument(help=CASE_PATHS)] = None,
    adapter: Annotated[
        str | None,
        typer.Option(
            help="Test another implementation: for each case, 'CMD CASE LOG' (LOG is - when the case has "
            "no log form) prints one JSON answer (spec/conformance.md, CONF-5, CONF-6)."
        ),
    ] = None,
    timeout: Annotated[float, typer.Option(min=1, help="Seconds an adapter may take per case.")] = 60,
    json_out: Annotated[Path | None, typer.Option("--json", help="Also write a JSON report to this file.")] = None,
    quiet: Annotated[bool, typer.Option("-q", "--quiet", help="Print only failures and the totals.")] = False,
) -> None:
    """Run conformance cases: Knock in case and log mode, or another engine through --adapter (CONF-6).
    Exit status 0 only if every case passes; a case that breaks the case format fails on its own.

    Example: knock conform run --json out/conformance.json
    """
    import tempfile

    invalid: list[conf.CaseError] = []
    cases = conf.load_cases(paths or [conf.default_suite()], invalid, set(conf.rule_ids()))  # CONF-2: defined ids
    if not cases and not invalid:
        raise typer.BadParameter("no cases found", param_hint="PATHS")
    results = [conf.CaseResult(e.path, (), "?", False, {"case": "invalid"}, [e.reason]) for e in invalid]
    with tempfile.TemporaryDirectory() as tmp, Progress(console=console, transient=True) as progress:
        task = progress.add_task(f"running {len(cases)} cases", total=len(cases))
        for case in cases:
            results.append(conf.run_case(case, adapter, Path(tmp), timeout))
            progress.advance(task)
    modes = ("adapter",) if adapter else ("case", "log")
    table = Table("case", "rules", "expects", *(f"{m} mode" if m != "adapter" else m for m in modes), "result",
                  box=None)  # fmt: skip
    table.columns[0].overflow = "fold"
    colour = {"pass": "green", "fail": "red", "skip": "dim", "invalid": "red", "unsupported": "yellow"}
    for r in results:
        if quiet and r.passed:
            continue
        cells = [r.modes.get(m, r.modes.get("case", "-")) for m in modes]
        verdict = "[yellow]n/a[/]" if r.unsupported else "[green]pass[/]" if r.passed else "[red]FAIL[/]"
        table.add_row(escape(r.name), " ".join(r.rules), r.outcome,
                      *(f"[{colour.get(c, 'white')}]{c}[/]" for c in cells), verdict)  # fmt: skip
    if table.row_count:
        console.print(table)
    for r in results:
        for problem in r.problems:
            console.print(f"[red]{escape(r.name)}[/]: {escape(problem)}")
    failed = sum(not r.passed for r in results)
    unsupported = sum(bool(r.unsupported) for r in results)
    also = f" ({unsupported} not expressible by the adapter's implementation)" if unsupported else ""
    console.print(f"{len(results) - failed - unsupported} of {len(results)} cases pass{also}")
    if json_out is not None:
        json_out.parent.mkdir(parents=True, exist_ok=True)
        json_out.write_text(json.dumps({"cases": [r.to_json() for r in results],
                                        "passed": len(results) - failed - unsupported, "failed": failed,
                                        "unsupported": unsupported}, indent=1) + "\n")  # fmt: skip
    if failed:
        raise typer.Exit(1)


@conform_app.command(name="coverage")
def conform_coverage(
    paths: Annotated[list[Path] | None, typer.Argument(help=CASE_PATHS)] = None,
) -> None:
    """How many accept and reject cases each rule id has (CONF-8); exit status 1 if one has no accept case.

    Example: knock conform coverage
    """
    cov = conf.rule_coverage(conf.load_cases(paths or [conf.default_suite()]))
    table = Table("rule", "accept cases", "reject cases", box=None)
    for rule, acc, rej in cov.rows():
        table.add_row(f"[red]{rule}[/]" if acc == 0 else rule, str(acc), str(rej) if rej else "-")
    console.print(table)
    missing = cov.missing()
    for m in missing:
        console.print(f"[red]missing[/] {m}")
    console.print(f"{sum(1 for _ in cov.rows())} rules, {len(missing)} gaps")
    if missing:
        raise typer.Exit(1)


@conform_app.command(name="answer")
def conform_answer(
    case: Annotated[Path, typer.Argument(help="A case file.")],
    log: Annotated[str, typer.Argument(help="Its log form, or - to answer from the case.")] = "-",
) -> None:
    """Print Knock's answer (CONF-5) to a case, or to its log: Knock as an adapter for the runner.

    Example: knock conform answer knock/conformance/suite/cases/lay/LAY-4-chain.toml
    """
    loaded = conf.load_case(case)
    if log == "-" and loaded.tamper is None:
        answer = conf.answer_case(loaded)
    elif log == "-":  # a log case is answered about its log (CONF-7)
        compiled = conf.compile_case(loaded)
        answer = conf.answer_log(compiled.data) if compiled.data is not None else {"outcome": "none"}
    else:
        answer = conf.answer_log(Path(log).read_bytes())
    sys.stdout.write(json.dumps(answer) + "\n")
