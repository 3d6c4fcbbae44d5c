"""Games between bots and a person: ``knock demo``, ``knock simulate`` and ``knock play``."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

from engine.chance import SeededChance
from engine.fairdeal import FairChance, demo_chance
from engine.match import Match
from engine.rules import PRESETS, RuleSet
from knock import play as play_mod
from knock import simulate as sim
from knock.bots import BOT_NAMES, make_bot, play_match
from knock.cli.common import (
    BOTS_HELP,
    CLUSTER,
    DEFAULT_PRESET,
    FORCE,
    JOBS,
    JSON_DOC,
    PRESET,
    QUIET,
    SEED,
    SETTINGS,
    SIGN_KEY,
    app,
    bot_names,
    choice,
    console,
    plural,
    print_events,
    progress_bar,
    render,
    rule_set,
    rules_title,
    seat_bots,
    signing_key,
    whole,
)
from knock.cli.output import judged, output_file, print_table, write_json
from knock.cluster.runner import Runner
from knock.cluster.storage import Store, check_output
from replay.audit import verify
from replay.log import write_log

FAIR = typer.Option(
    "--fair",
    help="Deal every hand fairly (DEAL-5): each deck from a server seed committed before the seats' seeds, "
    "recorded in a version-2.0 log (LOG-20). Here the server's seeds come from --seed and the bots' seeds are "
    "the server's: reproducible, for trying the format; a table's are secret (knock serve).",
)
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
        Path | None,
        typer.Option(
            "-o",
            "--out",
            metavar="FILE",
            help="The game's log; refused if it exists, unless --force [default: out/demo-SEED.knock, replaced when "
            "it exists: the same seed and options give the same bytes].",
        ),
    ] = None,
    force: Annotated[bool, FORCE] = False,
    quiet: Annotated[bool, typer.Option("-q", "--quiet", help="Print only the result and the log's line.")] = False,
    json_out: Annotated[str | None, JSON_DOC] = None,
    key: Annotated[Path | None, SIGN_KEY] = None,
    fair: Annotated[bool, FAIR] = False,
) -> None:
    """Play a seeded game between bots; print, log and verify it.

    The game is played to the target; its history (or with --summary its results) is printed, its log written
    and verified. --json gives one document: the players, winner, totals, hands, and the log with its verdict.

    Exit status: 0 the log verifies; 1 it does not; 2 a usage error.

    Example: knock demo --preset three_handed --seed 7 --summary
    """
    rules = rule_set(preset, settings)
    signer = signing_key(key)
    names = seat_bots(",".join(DEFAULT_BOTS[: rules.players]) if bots is None else bots, rules.players)
    labels = [f"{n}#{i}" for i, n in enumerate(names)]
    path = output_file(out, force) if out is not None else Path("out") / f"demo-{seed}.knock"
    chance = demo_chance(rules.players, seed) if fair else SeededChance(seed)
    match = play_match(Match(rules, chance), [make_bot(n, seed + i) for i, n in enumerate(names)])
    text = json_out != "-"
    st = match.standings()
    assert st.winner is not None
    if text and not quiet:
        console.print(
            f"[bold]Knock demo[/]: a game of {rules_title(rules)} to {rules.target:,}, "
            + ", ".join(f"p{i} = {label}" for i, label in enumerate(labels))
            + f", seed {seed}"
        )
        print_events(match.events, labels, history)
        console.rule()
    path.parent.mkdir(parents=True, exist_ok=True)
    data = write_log(match, players=labels, meta={"seed": seed, "tool": "knock demo"}, key=signer,
                     fair=chance if isinstance(chance, FairChance) else None)  # fmt: skip
    path.write_bytes(data)
    report = verify(data)
    judged(0 if report.ok else 1)
    if json_out is not None:
        write_json({"seed": seed, "preset": rules.name, "target": rules.target, "players": labels,
                    "winner": st.winner, "hands": match.number, "totals": list(st.totals), "log": str(path),
                    "bytes": len(data), "records": report.records, "checkpoints": report.checkpoints,
                    "verified": report.ok, "error": None if report.ok else str(report.error),
                    "signer": signer.public.hex() if signer else None, "fair": fair}, json_out)  # fmt: skip
    if text:
        console.print(
            f"[bold]{labels[st.winner]} wins[/] after {plural(match.number, 'hand')}; totals "
            + ", ".join(f"{labels[i]} {t:,}" for i, t in enumerate(st.totals))
        )
        status = "[green]verified[/]" if report.ok else f"[red]FAILED[/]: {report.error}"
        if signer is not None:
            status = f"signed by {signer.public.hex()[:16]}…, {status}"
        if fair:
            status = f"fair deals, {status}"
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
            "URL (s3://bucket/run), made if new in a folder (or bucket) that exists; a run started again skips the "
            "games already there.",
        ),
    ] = None,
    jobs: Annotated[int, JOBS] = 0,
    cluster: Annotated[str | None, CLUSTER] = None,
    batch: Annotated[
        int,
        typer.Option("--batch", parser=whole(), metavar="N", help="Games per task (0: about four tasks per worker)."),
    ] = 0,
    quiet: Annotated[bool, QUIET] = False,
    json_out: Annotated[str | None, JSON_DOC] = None,
    key: Annotated[Path | None, SIGN_KEY] = None,
    fair: Annotated[bool, FAIR] = False,
) -> None:
    """Play many seeded games between bots and summarise them.

    Games run over the machine's cores, or a Dask cluster. The summary gives each bot's win rate with its 95%
    confidence interval (Wilson), the games per second, and a warning for games that run very long. Ctrl-C
    stops at once and summarises the games finished. With --logs, a run started again skips the games already
    written (listed in the folder's _manifest). The games are planned as they are played, a few batches in
    flight: any --games runs in the same memory. --json gives one document: the totals and a line per bot.

    Exit status: 0 done; 2 a usage error; 130 stopped by Ctrl-C (the summary is of the games finished).

    Example: knock simulate --games 1000 --bots heuristic,random --logs out/sim
    """
    rules = rule_set(preset, settings)
    names = seat_bots(bots, rules.players)
    signer = signing_key(key)
    if signer is not None and logs is None:
        raise typer.BadParameter("--key signs the logs: give --logs DIR too", param_hint="--key")
    if logs is not None:
        check_output(logs)  # before a cluster is started; sim.run resolves it again
    todo = sim.Jobs(rules, names, games, seed, fair)  # lazy: any --games in the same memory
    tally = sim.Tally()
    started = time.monotonic()
    report: sim.Report | None = None
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    runner = Runner(cluster, jobs)
    try:
        with progress_bar(*columns, hidden=quiet or json_out == "-") as progress, runner:
            task = progress.add_task("simulating", total=games)
            report = sim.run(todo, runner, logs, batch, lambda n: progress.advance(task, n), tally=tally,
                             sign=signer.seed if signer is not None else None)  # fmt: skip
    except KeyboardInterrupt:
        if logs is not None:
            Store(logs).remove_leftovers(runner.run_id)
    elapsed = time.monotonic() - started
    judged(0 if report is not None else 130)
    if json_out is not None:
        write_json(sim_json(tally, rules.name, rules.target, seed, games, report, elapsed), json_out)
    if json_out != "-":
        sim_text(tally, rules, seed, games, report, elapsed, quiet, logs)
    if report is None:
        raise typer.Exit(130)


def sim_text(tally: sim.Tally, rules: RuleSet, seed: int, games: int, report: sim.Report | None,
             elapsed: float, quiet: bool, logs: str | None) -> None:  # fmt: skip
    """A run's summary for people: the table per bot, hands, long games, the rate, and how it ended."""
    seeds = f"seeds {seed}..{seed + games - 1}"
    title = f"{plural(tally.games, 'game')} of {rules_title(rules)} to {rules.target:,} ({seeds})"
    if tally.games:
        numbers = ("seats played", "games won", "win %", "average total")
        print_table(("bot", *numbers[:3], "95% interval", numbers[3]), sim_rows(tally), title=title, right=numbers)
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
                      f"{elapsed:,.1f} s ({rate}); the summary is of the games finished")  # fmt: skip
    elif not quiet:
        where = f"; logs: {logs.rstrip('/')}/game-SEED.knock, manifest in {sim.MANIFEST}/" if logs is not None else ""
        console.print(f"played {plural(played, 'game')} in {plural(report.batches, 'batch', 'batches')} in "
                      f"{elapsed:,.1f} s ({rate}); {tally.skipped:,} already written (skipped); retried batches: "
                      f"{report.retried:,}{where}")  # fmt: skip


def sim_rows(tally: sim.Tally) -> list[tuple[str, ...]]:
    """Per bot: seats played, games won, the win rate with its 95% interval, the average final total."""
    rows: list[tuple[str, ...]] = []
    for line in sim.summarise(tally):
        low, high = sim.wilson(line.wins, line.seats_played)
        pct = 100 * line.wins / line.seats_played if line.seats_played else 0.0
        rows.append((line.bot, f"{line.seats_played:,}", f"{line.wins:,}", f"{pct:.1f}",
                     f"{100 * low:.1f}–{100 * high:.1f}", f"{line.average_total:,.1f}"))  # fmt: skip
    return rows


def sim_json(tally: sim.Tally, preset: str, target: int, seed: int, games: int, report: sim.Report | None,
             elapsed: float) -> dict[str, object]:  # fmt: skip
    """A run's summary as one JSON document."""
    bots = []
    for line in sim.summarise(tally):
        low, high = sim.wilson(line.wins, line.seats_played)
        bots.append({"bot": line.bot, "seats_played": line.seats_played, "wins": line.wins,
                     "win_rate": line.wins / line.seats_played if line.seats_played else 0.0,
                     "interval": [low, high], "average_total": line.average_total})  # fmt: skip
    return {"preset": preset, "target": target, "seeds": [seed, seed + games - 1], "games": tally.games,
            "played": tally.games - tally.skipped, "skipped": tally.skipped, "hands": tally.hands,
            "dead_hands": tally.dead_hands, "long_games": tally.long_games,
            "longest": {"hands": tally.longest[0], "seed": tally.longest[1]}, "bots": bots,
            "batches": report.batches if report else None, "retried": report.retried if report else None,
            "seconds": round(elapsed, 3), "stopped": report is None}  # fmt: skip


@app.command()
def play(
    preset: Annotated[
        str | None,
        typer.Option(
            "--preset",
            parser=choice(tuple(PRESETS), "preset"),
            metavar="NAME",
            help=f"The rule set: {' | '.join(PRESETS)} [default: {DEFAULT_PRESET}].",
        ),
    ] = None,
    seat: Annotated[
        int | None,
        typer.Option(metavar="SEAT", help="Your seat: 0 or 1 (0, 1 or 2 three-handed; roles rotate). Default 0."),
    ] = None,
    bots: Annotated[
        str | None,
        typer.Option(
            metavar="LIST",
            help=f"The bots of the other seats, in seat order, comma separated ({', '.join(BOT_NAMES)}); "
            "one name for all of them. Default: chosen when the game starts, on a terminal; else heuristic.",
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            parser=whole(),
            metavar="N",
            help="The game's seed (default: random, printed when the game ends).",
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "-o",
            "--out",
            metavar="FILE",
            help="Where to write the game's log; refused if it exists, unless --force (default "
            "out/play-DATE-TIME.knock).",
        ),
    ] = None,
    force: Annotated[bool, FORCE] = False,
    settings: Annotated[list[str] | None, SETTINGS] = None,
    name: Annotated[str | None, typer.Option(metavar="NAME", help="Your name in the log (default: you).")] = None,
    resume: Annotated[
        Path | None,
        typer.Option(metavar="LOG", help="Continue the unfinished game logged in LOG, appending to it."),
    ] = None,
    plain: Annotated[
        bool,
        typer.Option(
            "--plain",
            help="Line by line, never the board (also whenever input or output is not a terminal, or the board "
            "extra is not installed).",
        ),
    ] = False,
) -> None:
    """Play a game against bots in the terminal; the log, written as you play, is the save file.

    On a terminal the game is a board redrawn in place (the board extra, Textual); with --plain, in a pipe or
    for a screen reader it goes line by line. Choose a move by its number or type it (take, pass, draw, pickup,
    discard K♥ or just K♥, knock K♥, gin); ? lists everything, hint asks the heuristic bot, score shows the
    score sheet, undo takes back your last move (never a stock draw you have seen; 'undo anyway' into a scored
    hand; the log as it was is kept in LOG's NAME.branches/), q stops (resume with --resume LOG). As the sitter
    you may advise the captain. Without --bots you choose the bot when the game starts (on a terminal).

    Exit status: 0 the game ended, or q stopped it (saved); 2 a usage error (a save that cannot be resumed
    included); 130 stopped by Ctrl-C (saved).

    Example: knock play --preset three_handed --seat 2 --bots heuristic,greedy
    """
    import contextlib
    import secrets
    import sys

    if resume is not None:
        given = [flag for flag, value in (("--preset", preset), ("--seat", seat), ("--bots", bots), ("--seed", seed),
                 ("--out", out), ("--set", settings), ("--name", name), ("--force", force or None))
                 if value is not None]  # fmt: skip
        if given:
            raise typer.BadParameter(f"a resumed game keeps its own setup: leave out {', '.join(given)}",
                                     param_hint="--resume")  # fmt: skip
    on_board = not plain and sys.stdin.isatty() and sys.stdout.isatty()
    if on_board:
        import importlib.util

        on_board = importlib.util.find_spec("textual") is not None  # without the board extra: line by line
    if not on_board:
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401 -- line editing at the prompt, where the platform has it
    if resume is not None:
        session, save = play_mod.resume(resume)
        return _play_out(session, save, on_board, resumed=True)
    rules = rule_set(preset or DEFAULT_PRESET, settings)
    chosen = 0 if seat is None else seat
    if not 0 <= chosen < rules.players:
        raise typer.BadParameter(f"{rules.name} has seats 0..{rules.players - 1}", param_hint="--seat")
    game_seed = secrets.randbits(63) if seed is None else seed

    def start(bot_text: str) -> tuple[play_mod.Session, play_mod.Save]:
        names = bot_names(bot_text, None)
        if len(names) == 1:
            names *= rules.players - 1
        if len(names) != rules.players - 1:
            raise typer.BadParameter(f"give {rules.players - 1} bots, one per other seat in seat order (or one name "
                                     "for all)", param_hint="--bots")  # fmt: skip
        setup = play_mod.Setup(rules, game_seed, chosen, tuple(names), name or "you")
        session = play_mod.Session(setup)
        if out is not None:  # the -o policy of every command; with --force the old file goes first (Save.create
            output_file(out, force).unlink(missing_ok=True)  # creates exclusively, so it is never written over)
        return session, play_mod.Save.create(out or play_mod.fresh_path(), session)

    if bots is None and on_board:
        return _play_out(None, None, True, resumed=False, start=start)
    if bots is None and sys.stdin.isatty():
        bots = _ask_bot()
    return _play_out(*start(bots or "heuristic"), on_board, resumed=False)


def _ask_bot() -> str:
    """The line mode's choice of bot, when none was given and a person is at the terminal."""
    console.print("choose the bot you play against:")
    for i, (bot, line) in enumerate(play_mod.BOT_CHOICES, start=1):
        console.print(f"  {i}. {bot:<10} {line}")
    while True:
        try:
            text = input(f"a number or a name (Enter: {play_mod.BOT_CHOICES[0][0]}): ").strip().lower()
        except EOFError:
            raise typer.Exit(0) from None
        names = [bot for bot, _ in play_mod.BOT_CHOICES]
        if not text:
            return names[0]
        if text.isdigit() and 1 <= int(text) <= len(names):
            return names[int(text) - 1]
        if text in names:
            return text
        console.print(f"no such bot: type 1–{len(names)} or one of {', '.join(names)}", style="yellow")


def _play_out(session: play_mod.Session | None, save: play_mod.Save | None, on_board: bool, *, resumed: bool,
              start: Callable[[str], tuple[play_mod.Session, play_mod.Save]] | None = None) -> None:  # fmt: skip
    """Play the game (on the board or line by line) to its end or until stopped, and say how it went."""
    from replay.verdict import judge

    def ask(prompt: str) -> str:
        try:
            return input(prompt)  # not console.input: readline then keeps the prompt, and ends an empty line
        except EOFError:
            raise play_mod.Quit from None

    stop: BaseException | None = None
    if on_board:
        from knock.play.tui import INTERRUPTED, OVER, BoardApp, BoardTable

        def maker(s: play_mod.Session, v: play_mod.Save, new: bool) -> Callable[..., BoardTable]:
            return lambda con, asks: BoardTable(s, v, con, asks, render, new=new)

        if session is None or save is None:
            assert start is not None
            app = BoardApp(render, choose=lambda bot: maker(*start(bot), True))
        else:
            app = BoardApp(render, table=maker(session, save, not resumed), resumed=resumed)
        how = app.run()
        if app.table is None:  # closed before a bot was chosen: no game, no log
            console.print("no game started")
            return
        app.done.wait(10)  # the table's thread writes its last record, then ends
        if app.error is not None:
            raise app.error
        table: play_mod.TerminalTable = app.table
        if how != OVER:
            stop = KeyboardInterrupt() if how == INTERRUPTED else play_mod.Quit()
    else:
        assert session is not None and save is not None
        table = play_mod.TerminalTable(session, save, console, ask, render, new=not resumed)
        setup, match = session.setup, session.match
        against = " and ".join(n for s, n in enumerate(setup.players) if s != setup.seat)
        console.print(f"[bold]Knock[/]: {rules_title(match.rules)} to {match.rules.target}; you are p{setup.seat}, "
                      f"against {against}; ? for help")  # fmt: skip
        console.print(f"log: {save.path}" + (" (resumed)" if resumed else ""))
        if resumed:
            table.resumed()
        try:
            table.play()
        except (play_mod.Quit, KeyboardInterrupt) as stopped:
            stop = stopped
    table.save.close()
    path = table.save.path
    if stop is not None:
        if isinstance(stop, KeyboardInterrupt) and not on_board:
            console.print()
        console.print(f"stopped: the game so far is in {path} (unfinished at record {table.save.records}); "
                      f"go on with: knock play --resume {path}")  # fmt: skip
        raise typer.Exit(130 if isinstance(stop, KeyboardInterrupt) else 0) from None
    setup = table.session.setup
    match = table.session.match
    st, winner = match.standings(), match.winner
    players = setup.players
    verdict = judge(path.read_bytes())
    totals = ", ".join(f"{n} {t:,}" for n, t in zip(players, st.totals, strict=True))
    who = "no winner: the game was aborted" if winner is None else "you win" if winner == setup.seat else (
        f"{players[winner]} wins")  # fmt: skip
    console.print(f"[bold]{who}[/] after {plural(match.number, 'hand')}; totals {totals}")
    records = plural(verdict.record or 0, "record")
    checked = f"{records}, verified" if verdict.kind == "pass" else f"[red]{verdict.message}[/]"
    console.print(f"log: {path} ({checked})")
    console.print(f"seed {setup.seed} — the same deals again with --seed {setup.seed}")
