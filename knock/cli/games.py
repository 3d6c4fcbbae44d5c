"""Games between bots and a person: ``knock demo``, ``knock simulate`` and ``knock play``."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from engine.bots import BOT_NAMES, make_bot, play_match
from engine.match import Match
from engine.rules import PRESETS, RuleSet
from engine.visibility import SeatLens
from knock import play as play_mod
from knock import simulate as sim
from knock.cli.common import (
    BOTS_HELP,
    CLUSTER,
    DEFAULT_PRESET,
    JOBS,
    PRESET,
    QUIET,
    SEED,
    SETTINGS,
    app,
    bot_names,
    console,
    parse_settings,
    plural,
    print_events,
    render,
    rule_set,
    seat_bots,
    whole,
)
from knock.cluster.runner import Runner
from knock.cluster.storage import Store, shared
from replay.audit import verify
from replay.log import LogWriter, write_log

DEFAULT_BOTS = ("heuristic", "greedy", "random")  #: demo's bots, seat by seat, when --bots is not given


@app.command()
def demo(
    seed: Annotated[int, SEED] = 1,
    preset: Annotated[str, PRESET] = DEFAULT_PRESET,
    bots: Annotated[
        str | None,
        typer.Option(
            "--bots",
            metavar="LIST",
            help=f"{BOTS_HELP}; fewer are repeated in order [default: heuristic,greedy,random, one per seat].",
        ),
    ] = None,
    settings: Annotated[list[str] | None, SETTINGS] = None,
    history: Annotated[bool, typer.Option("--history/--summary", help="Print every action, or results only.")] = True,
    out: Annotated[
        Path | None, typer.Option("-o", "--out", metavar="FILE", help="The game's log [default: out/demo-SEED.knock].")
    ] = None,
) -> None:
    """Play a seeded game between bots; print, log and verify it.

    The game is played to the target; its history (or with --summary its results) is printed, its log written
    and verified.

    Example: knock demo --preset three_handed --seed 7 --summary
    """
    rules = rule_set(preset, settings)
    names = seat_bots(bots or ",".join(DEFAULT_BOTS[: rules.players]), rules.players)
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
        f"[bold]{labels[st.winner]} wins[/] after {plural(match.number, 'hand')}; totals "
        + ", ".join(f"{labels[i]} {t}" for i, t in enumerate(st.totals))
    )
    path = out or Path("out") / f"demo-{seed}.knock"
    path.parent.mkdir(parents=True, exist_ok=True)
    data = write_log(match, players=labels, meta={"seed": seed, "tool": "knock demo"})
    path.write_bytes(data)
    report = verify(data)
    status = "[green]verified[/]" if report.ok else f"[red]FAILED[/]: {report.error}"
    console.print(f"log: {path} ({plural(len(data), 'byte')}, {plural(report.records, 'record')}, "
                  f"{plural(report.checkpoints, 'checkpoint')}) {status}")  # fmt: skip
    if not report.ok:
        raise typer.Exit(1)


@app.command()
def simulate(
    games: Annotated[int, typer.Option("--games", parser=whole(1), metavar="N", help="How many games.")] = 100,
    preset: Annotated[str, PRESET] = DEFAULT_PRESET,
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            metavar="LIST",
            help=f"{BOTS_HELP} for game 1; fewer are repeated in order, and "
            "they rotate one seat each game, so every bot plays every seat.",
        ),
    ] = "heuristic,random",
    seed: Annotated[
        int, typer.Option("--seed", parser=whole(0, 2**62), metavar="N", help="Game i (from 0) is seeded N + i.")
    ] = 1,
    settings: Annotated[list[str] | None, SETTINGS] = None,
    logs: Annotated[
        str | None,
        typer.Option(
            "--logs",
            metavar="DIR",
            help="Write one log per game into this folder or fsspec "
            "URL (s3://bucket/run); a run started again skips the games already there.",
        ),
    ] = None,
    jobs: Annotated[int, JOBS] = 0,
    cluster: Annotated[str | None, CLUSTER] = None,
    batch: Annotated[
        int,
        typer.Option("--batch", parser=whole(), metavar="N", help="Games per task (0: about four tasks per worker)."),
    ] = 0,
    quiet: Annotated[bool, QUIET] = False,
) -> None:
    """Play many seeded games between bots and summarise them.

    Games run over the machine's cores, or a Dask cluster. The summary gives each bot's win rate with its 95%
    confidence interval (Wilson), the games per second, and a warning for games that run very long. Ctrl-C
    stops at once and summarises the games finished. With --logs, a run started again skips the games already
    written (listed in the folder's _manifest).

    Example: knock simulate --games 1000 --bots heuristic,random --logs out/sim
    """
    rules = rule_set(preset, settings)
    names = seat_bots(bots, rules.players)
    shared(logs)
    todo = sim.jobs(rules, names, games, seed)
    tally = sim.Tally()
    started = time.monotonic()
    report: sim.Report | None = None
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    runner = Runner(cluster, jobs)
    try:
        with Progress(*columns, console=console, transient=True, disable=quiet) as progress, runner:
            task = progress.add_task("simulating", total=games)
            report = sim.run(todo, runner, logs, batch, lambda n: progress.advance(task, n), tally=tally)
    except KeyboardInterrupt:
        if logs is not None:
            Store(logs).remove_leftovers(runner.run_id)
    elapsed = time.monotonic() - started
    title = f"{plural(tally.games, 'game')} of {rules.name} Gin to {rules.target} (seeds {seed}..{seed + games - 1})"
    if tally.games:
        console.print(sim_table(tally, title))
    hands, dead = tally.hands, tally.dead_hands
    console.print(f"hands per game {hands / max(tally.games, 1):.2f}; dead hands {dead:,} "
                  f"({100 * dead / max(hands, 1):.1f}%)")  # fmt: skip
    if tally.long_games:
        most, at = tally.longest
        console.print(f"[yellow]warning[/]: {plural(tally.long_games, 'game')} ran over {sim.LONG_GAME} hands "
                      f"(the longest {plural(most, 'hand')}, seed {at}): bots that seldom knock play many dead "
                      "hands (random against random averages about 100 hands a game)")  # fmt: skip
    played, played_hands = tally.games - tally.skipped, tally.hands - tally.skipped_hands
    rate = (f"{played / elapsed:,.1f} games/s, {played_hands / elapsed:,.0f} hands/s"
            if played and elapsed > 0 else "no games played")  # fmt: skip
    if report is None:
        console.print(f"[yellow]stopped[/] (Ctrl-C) after {plural(tally.games, 'game')} of {games:,} in "
                      f"{elapsed:.1f} s ({rate}); the summary is of the games finished")  # fmt: skip
        raise typer.Exit(130)
    if not quiet:
        where = f"; logs: {logs.rstrip('/')}/game-SEED.knock, manifest in {sim.MANIFEST}/" if logs is not None else ""
        console.print(f"played {plural(played, 'game')} in {plural(report.batches, 'batch', 'batches')} in "
                      f"{elapsed:.1f} s ({rate}); {tally.skipped:,} already written (skipped); retried batches: "
                      f"{report.retried}{where}")  # fmt: skip


def sim_table(tally: sim.Tally, title: str) -> Table:
    """Per bot: seats played, games won, the win rate with its 95% interval, the average final total."""
    table = Table(title=title)
    for col in ("bot", "seats played", "games won", "win %", "95% interval", "average total"):
        table.add_column(col, justify="right" if col != "bot" else "left")
    for line in sim.summarise(tally):
        low, high = sim.wilson(line.wins, line.seats_played)
        pct = 100 * line.wins / line.seats_played if line.seats_played else 0.0
        table.add_row(line.bot, f"{line.seats_played:,}", f"{line.wins:,}", f"{pct:.1f}",
                      f"{100 * low:.1f}–{100 * high:.1f}", f"{line.average_total:.1f}")  # fmt: skip
    return table


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
