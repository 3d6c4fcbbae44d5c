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
from knock import play as play_mod
from knock import simulate as sim
from knock.cli.common import CLUSTER, SEED, app, bot_names, console, parse_settings, print_events, render
from knock.cluster.runner import Runner
from knock.cluster.storage import shared
from replay.audit import verify
from replay.log import write_log


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
    preset: Annotated[
        str | None, typer.Option(metavar="PRESET", help=f"Rule set: {', '.join(PRESETS)} (default standard).")
    ] = None,
    seat: Annotated[
        int | None,
        typer.Option(metavar="SEAT", help="Your seat: 0 or 1 (0, 1 or 2 three-handed; roles rotate). Default 0."),
    ] = None,
    bots: Annotated[
        str | None,
        typer.Option(
            metavar="BOT,BOT",
            help=f"The bots of the other seats, in seat order, comma separated ({', '.join(BOT_NAMES)}); "
            "one name for all of them. Default heuristic.",
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(metavar="N", help="Seed of the game, 0 to 2**63-1 (default: random, printed when the game ends)."),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "-o",
            "--out",
            metavar="FILE",
            help="Where to write the game's log; it must not exist (default out/play-DATE-TIME.knock).",
        ),
    ] = None,
    settings: Annotated[
        list[str] | None,
        typer.Option("--set", metavar="KEY=VALUE", help="A rule-set option, key=value (repeatable)."),
    ] = None,
    name: Annotated[str | None, typer.Option(metavar="NAME", help="Your name in the log (default: you).")] = None,
    resume: Annotated[
        Path | None,
        typer.Option(metavar="LOG", help="Continue the unfinished game logged in LOG, appending to it."),
    ] = None,
) -> None:
    """Play a game against bots in the terminal; the log, written as you play, is the save file.

    Choose a move by its number or type it (take, pass, draw, pickup, discard K♥ or just K♥, knock K♥, gin);
    ? lists everything, hint asks the heuristic bot, score shows the score sheet, undo takes back your last move
    (the game goes on in a new log), q stops (resume with --resume LOG). As the sitter you may advise the captain.

    Example: knock play --preset three_handed --seat 2 --bots heuristic,greedy
    """
    import contextlib
    import secrets

    from replay.verdict import judge

    with contextlib.suppress(ImportError):
        import readline  # noqa: F401 -- line editing at the prompt, where the platform has it
    if resume is not None:
        given = [flag for flag, value in (("--preset", preset), ("--seat", seat), ("--bots", bots), ("--seed", seed),
                 ("--out", out), ("--set", settings), ("--name", name)) if value is not None]  # fmt: skip
        if given:
            raise typer.BadParameter(f"a resumed game keeps its own setup: leave out {', '.join(given)}",
                                     param_hint="--resume")  # fmt: skip
        session, save = play_mod.resume(resume)
    else:
        if seed is not None and not 0 <= seed < 2**63:
            raise typer.BadParameter(f"{seed} is not in 0 to 2**63-1", param_hint="--seed")
        rules = RuleSet.preset(preset or "standard", **parse_settings(settings or []))
        chosen = 0 if seat is None else seat
        if not 0 <= chosen < rules.players:
            raise typer.BadParameter(f"{rules.name} has seats 0..{rules.players - 1}", param_hint="--seat")
        names = bot_names(bots or "heuristic", None)
        if len(names) == 1:
            names *= rules.players - 1
        if len(names) != rules.players - 1:
            raise typer.BadParameter(f"give {rules.players - 1} bots, one per other seat in seat order (or one name "
                                     "for all)", param_hint="--bots")  # fmt: skip
        setup = play_mod.Setup(rules, secrets.randbits(63) if seed is None else seed, chosen, tuple(names),
                               name or "you")  # fmt: skip
        session = play_mod.Session(setup)
        save = play_mod.Save.create(out or play_mod.fresh_path(), session)

    def ask(prompt: str) -> str:
        try:
            return input(prompt)  # not console.input: readline then keeps the prompt, and ends an empty line
        except EOFError:
            raise play_mod.Quit from None

    setup = session.setup
    match = session.match
    table = play_mod.Table(session, save, console, ask, render, new=resume is None)
    against = " and ".join(n for s, n in enumerate(setup.players) if s != setup.seat)
    console.print(f"[bold]Knock[/]: {match.rules.name} Gin to {match.rules.target}; you are p{setup.seat}, against "
                  f"{against}; ? for help")  # fmt: skip
    console.print(f"log: {save.path}" + (" (resumed)" if resume is not None else ""))
    if resume is not None:
        table.resumed()
    try:
        table.play()
    except (play_mod.Quit, KeyboardInterrupt) as stop:
        table.save.close()
        path = table.save.path
        if isinstance(stop, KeyboardInterrupt):
            console.print()
        console.print(f"stopped: the game so far is in {path} (unfinished at record {table.save.records}); "
                      f"go on with: knock play --resume {path}")  # fmt: skip
        raise typer.Exit(130 if isinstance(stop, KeyboardInterrupt) else 0) from None
    table.save.close()
    path = table.save.path
    match = table.session.match
    st = match.standings()
    assert st.winner is not None
    players = table.session.setup.players
    verdict = judge(path.read_bytes())
    totals = ", ".join(f"{n} {t}" for n, t in zip(players, st.totals, strict=True))
    who = "you win" if st.winner == setup.seat else f"{players[st.winner]} wins"
    console.print(f"[bold]{who}[/] after {match.number} hands; totals {totals}")
    checked = f"{verdict.record} records, verified" if verdict.kind == "pass" else f"[red]{verdict.message}[/]"
    console.print(f"log: {path} ({checked})")
    console.print(f"seed {setup.seed} — the same deals again with --seed {setup.seed}")
