"""The ``knock`` command.

Subcommands: demo, play, simulate, show, verify, redact, spec, conform (run, coverage, answer). Each has
``--help`` with an example; every error is one line on stderr with a non-zero exit status.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

from engine.bots import BOT_NAMES, make_bot, play_match
from engine.cards import Card
from engine.errors import KnockError
from engine.events import (
    CutDrawn,
    Dealt,
    GameOver,
    HandDead,
    HandEnded,
    HandScored,
    HandStarted,
)
from engine.fsm import SPECS, mermaid, table_markdown
from engine.match import Match
from engine.rules import PRESETS, RuleSet
from engine.visibility import SeatLens, Seen
from knock import __version__
from knock import audit as audit_mod
from knock import conformance as conf
from knock import play as play_mod
from knock import simulate as sim
from knock.cluster.runner import Runner
from knock.cluster.storage import find_logs, shared
from replay.audit import verify, view_transcript
from replay.log import LogReader, LogWriter, write_log
from replay.redact import redact
from replay.replayer import Replayer
from replay.verdict import Verdict

try:
    import typer
    from rich.console import Console
    from rich.markup import escape
    from rich.progress import Progress
    from rich.table import Table
except ImportError:  # pragma: no cover - the cli extra is not installed
    sys.exit("the knock command needs the cli extra: pip install 'knock-gin[cli]'")

app = typer.Typer(
    help="Knock: a formally specified Gin Rummy engine with auditable logs.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console(highlight=False, soft_wrap=True)


def show_version(value: bool) -> None:
    if value:
        console.print(f"knock {__version__}")
        raise typer.Exit()


@app.callback()
def knock(
    version: Annotated[
        bool, typer.Option("--version", callback=show_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """Knock: a formally specified Gin Rummy engine with auditable logs."""


SEED = typer.Option(min=0, max=2**63 - 1, help="Seed of the game: the draw and every shuffle come from it.")

SUIT_STYLE = {"c": ("♣", "green"), "d": ("♦", "red"), "h": ("♥", "red"), "s": ("♠", "blue")}


def card_markup(card: Card) -> str:
    symbol, colour = SUIT_STYLE[str(card)[1]]
    return f"[bold {colour}]{str(card)[0]}{symbol}[/]"


CARD_TOKEN = re.compile(r"\b[A2-9TJQK][cdhs]\b")


def render(text: str) -> str:
    """Event text as rich markup, every card in colour with its suit symbol."""
    return CARD_TOKEN.sub(lambda m: card_markup(Card.parse(m.group(0))), escape(text))


def print_events(events: Sequence[Seen], names: list[str], history: bool = True) -> None:
    """Events (all of them, or as a seat saw them) as a readable history."""
    safe = [escape(n) for n in names]

    def text(event: object) -> str:
        """The event as markup: cards in colour, seats by their (escaped) names."""
        return re.sub(r"\bp([0-2])\b", lambda m: safe[int(m.group(1))], render(str(event)))

    for e in events:
        if isinstance(e, HandStarted):
            console.rule(text(e))
        elif isinstance(e, Dealt):
            console.print(text(f"p{e.dealer} deals; upcard {e.upcard}, knock limit {e.knock_limit}"))
            if history:
                for seat, held in zip(e.seats, e.hands, strict=True):
                    shown = " ".join(card_markup(c) for c in sorted(held)) or "[dim](not shown)[/]"
                    console.print(f"  {safe[seat]}: {shown}")
        elif isinstance(e, HandScored | HandDead | GameOver | CutDrawn):
            console.print(text(e), style="bold")
        elif isinstance(e, HandEnded):
            console.print(text(e))
        elif history:
            console.print("  " + text(e))


@app.command()
def demo(
    seed: Annotated[int, SEED] = 1,
    preset: Annotated[str, typer.Option(help=f"Rule set: {', '.join(PRESETS)}.")] = "three_handed",
    bots: Annotated[
        str, typer.Option(help=f"One bot per seat, comma separated ({', '.join(BOT_NAMES)}).")
    ] = "heuristic,greedy,random",
    history: Annotated[bool, typer.Option("--history/--summary", help="Print every action, or results only.")] = True,
    log: Annotated[
        Path | None, typer.Option(help="Where to write the game's log (default out/demo-SEED.knock).")
    ] = None,
) -> None:
    """Play a complete seeded game to the target between bots, write its log, verify it, and print the game.

    Example: knock demo --preset oklahoma --bots greedy,random --seed 7 --summary
    """
    rules = RuleSet.preset(preset)
    names = bot_names(bots, rules.players)
    labels = [f"{n}#{i}" for i, n in enumerate(names)]
    match = play_match(Match.new(rules, seed=seed), [make_bot(n, seed + i) for i, n in enumerate(names)])
    console.print(
        f"[bold]Knock demo[/]: a game of {rules.name} Gin to {rules.target}, "
        + ", ".join(f"p{i} = {label}" for i, label in enumerate(labels))
        + f", seed {seed}"
    )
    print_events(match.events, labels, history)
    console.rule()
    st = match.standings()
    assert st.winner is not None
    console.print(
        f"[bold]{labels[st.winner]} wins[/] after {match.number} hands; totals "
        + ", ".join(f"{labels[i]} {t}" for i, t in enumerate(st.totals))
    )
    path = log or Path("out") / f"demo-{seed}.knock"
    path.parent.mkdir(parents=True, exist_ok=True)
    data = write_log(match, players=labels, meta={"seed": seed, "tool": "knock demo"})
    path.write_bytes(data)
    report = verify(data)
    status = "[green]verified[/]" if report.ok else f"[red]FAILED[/]: {report.error}"
    console.print(
        f"log: {path} ({len(data)} bytes, {report.records} records, {report.checkpoints} checkpoints) {status}"
    )
    if not report.ok:
        raise typer.Exit(1)


def bot_names(text: str, count: int | None) -> list[str]:
    """Bot names from ``a,b,c``: all known; exactly ``count`` of them when a count is given."""
    names = [b.strip() for b in text.split(",")]
    for name in names:
        if name not in BOT_NAMES:
            raise typer.BadParameter(f"unknown bot {name!r}; bots: {', '.join(BOT_NAMES)}", param_hint="--bots")
    if count is not None and len(names) != count:
        example = ",".join((["heuristic", "greedy", "random"] * 2)[:count])
        raise typer.BadParameter(f"give {count} bots, one per seat, e.g. {example}", param_hint="--bots")
    return names


def parse_settings(settings: list[str]) -> dict[str, object]:
    """``key=value`` rule-set overrides: integers, true/false, none, or text (enum values)."""
    out: dict[str, object] = {}
    for item in settings:
        key, sep, text = item.partition("=")
        if not sep:
            raise typer.BadParameter(f"{item!r} is not key=value", param_hint="--set")
        low = text.lower()
        out[key] = (
            True if low == "true" else False if low == "false" else None if low == "none"
            else int(text) if text.lstrip("-").isdigit() else text
        )  # fmt: skip
    return out


CLUSTER = typer.Option(help="Run on Dask: a scheduler (tcp://host:8786), or 'local' (a cluster of --jobs processes).")


@app.command()
def simulate(
    games: Annotated[int, typer.Option(min=1, help="How many games.")] = 100,
    preset: Annotated[str, typer.Option(help=f"Rule set: {', '.join(PRESETS)}.")] = "standard",
    bots: Annotated[str, typer.Option(help=f"Bots, comma separated ({', '.join(BOT_NAMES)}).")] = "heuristic,random",
    seed: Annotated[int, typer.Option(min=0, max=2**62, help="Game i is seeded seed + i.")] = 1,
    jobs: Annotated[int, typer.Option(min=0, help="Processes (0: one per core).")] = 0,
    logs: Annotated[
        str | None, typer.Option(help="Write one log per game into this folder or fsspec URL (s3://bucket/run).")
    ] = None,
    settings: Annotated[
        list[str] | None, typer.Option("--set", help="A rule-set option, key=value (repeatable).")
    ] = None,
    cluster: Annotated[str | None, CLUSTER] = None,
    batch: Annotated[int, typer.Option(min=0, help="Games per task (0: about four tasks per worker).")] = 0,
) -> None:
    """Play many seeded games between bots over the machine's cores, or a Dask cluster, and summarise them.

    Bots rotate seats from game to game. With --logs, a run started again skips the games already written
    (listed in the folder's _manifest). Example: knock simulate --games 1000 --bots heuristic,random --logs out/sim
    """
    rules = RuleSet.preset(preset, **parse_settings(settings or []))
    names = bot_names(bots, None)
    shared(logs)
    todo = sim.jobs(rules, names, games, seed)
    with Progress(console=console, transient=True) as progress, Runner(cluster, jobs) as runner:
        task = progress.add_task(f"{games} games of {rules.name}", total=games)
        report = sim.run(todo, runner, logs, batch, lambda n: progress.advance(task, n))
    table = Table(title=f"{games} games of {rules.name} Gin to {rules.target} (seeds {seed}..{seed + games - 1})")
    for col in ("bot", "seats played", "games won", "win %", "average total"):
        table.add_column(col, justify="right" if col != "bot" else "left")
    for line in sim.summarise(report.tally):
        pct = 100 * line.wins / line.seats_played if line.seats_played else 0.0
        table.add_row(line.bot, str(line.seats_played), str(line.wins), f"{pct:.1f}", f"{line.average_total:.1f}")
    console.print(table)
    hands, dead = report.tally.hands, report.tally.dead_hands
    console.print(f"hands per game {hands / games:.2f}; dead hands {dead} ({100 * dead / max(hands, 1):.1f}%)")
    console.print(f"played {report.played} games in {report.batches} batches; {report.skipped} already written "
                  f"(skipped); retried batches: {report.retried}" + (f"; logs: {logs.rstrip('/')}/game-SEED.knock "
                  f"({games} files), manifest in {sim.MANIFEST}/" if logs is not None else ""))  # fmt: skip


@app.command()
def play(
    preset: Annotated[str, typer.Option(help=f"Rule set: {', '.join(PRESETS)}.")] = "standard",
    seat: Annotated[int, typer.Option(help="Your seat: 0 or 1 (0, 1 or 2 three-handed; roles rotate).")] = 0,
    bots: Annotated[str, typer.Option(help=f"The other seats' bots ({', '.join(BOT_NAMES)}).")] = "heuristic",
    seed: Annotated[int, SEED] = 1,
    log: Annotated[Path | None, typer.Option(help="Where to log the game (default out/play-SEED.knock).")] = None,
    settings: Annotated[
        list[str] | None, typer.Option("--set", help="A rule-set option, key=value (repeatable).")
    ] = None,
) -> None:
    """Play a game against bots in the terminal. Choose by number or type an action (discard Kh, knock Kh,
    pickup, draw, pass, take); 0 picks the best spread or layoff for you; q quits. As the sitter you may
    advise the captain.

    Example: knock play --preset three_handed --seat 2 --bots heuristic,greedy
    """
    rules = RuleSet.preset(preset, **parse_settings(settings or []))
    if not 0 <= seat < rules.players:
        raise typer.BadParameter(f"{rules.name} has seats 0..{rules.players - 1}", param_hint="--seat")
    names_in = bot_names(bots, None)
    others = [s for s in range(rules.players) if s != seat]
    players = {s: make_bot(names_in[i % len(names_in)], seed + s) for i, s in enumerate(others)}
    names = [f"p{s} (you)" if s == seat else f"{players[s].name}#{s}" for s in range(rules.players)]
    match = Match.new(rules, seed=seed)
    path = play_mod.log_path(log, seed)
    path.parent.mkdir(parents=True, exist_ok=True)
    lens = SeatLens(rules, seat)

    def ask(prompt: str) -> str:
        try:
            return console.input(prompt)
        except EOFError:
            raise play_mod.Quit from None

    with path.open("wb") as stream:
        writer = LogWriter(stream, match, players=names, meta={"seed": seed, "tool": "knock play", "human": seat})
        console.print(f"[bold]Knock[/]: {rules.name} Gin to {rules.target}; you are p{seat}; log: {path}")
        try:
            play_mod.play_game(
                match, seat, players, console, ask, lambda evs: print_events(lens.see_all(evs), names), render,
                writer.sync,
            )  # fmt: skip
        except play_mod.Quit:
            console.print(f"game stopped; the log so far is in {path}")
            return
    st = match.standings()
    console.print(f"[bold]{names[st.winner or 0]} won[/]; totals " + ", ".join(
        f"{n} {t}" for n, t in zip(names, st.totals, strict=True)))  # fmt: skip


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


if __name__ == "__main__":
    main()
