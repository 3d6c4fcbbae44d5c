"""Games between bots and a person: ``knock demo``, ``knock simulate`` and ``knock play``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.progress import Progress
from rich.table import Table

from engine.bots import BOT_NAMES, make_bot, play_match
from engine.match import Match
from engine.rules import PRESETS, RuleSet
from engine.visibility import SeatLens
from knock import play as play_mod
from knock import simulate as sim
from knock.cli.common import CLUSTER, SEED, app, bot_names, console, parse_settings, print_events, render
from knock.cluster.runner import Runner
from knock.cluster.storage import shared
from replay.audit import verify
from replay.log import LogWriter, write_log


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
