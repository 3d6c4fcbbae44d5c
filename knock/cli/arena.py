"""``knock arena``: bots measured against each other over paired seeds (``knock.arena``)."""

from __future__ import annotations

import csv
import io
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

from engine.rules import RuleSet
from knock import arena
from knock.bots.simple import EAAI_OPTIONS
from knock.cli.common import (
    BOTS_HELP,
    CLUSTER,
    DEFAULT_PRESET,
    JOBS,
    JSON_DOC,
    PRESET,
    QUIET,
    SETTINGS,
    app,
    bot_names,
    console,
    plural,
    progress_bar,
    rule_set,
    rules_title,
    whole,
)
from knock.cli.output import judged, print_table, write_json
from knock.cluster.runner import Runner
from knock.sequential import Decision, Sprt, Tally, parse_sprt

#: Option sets of published protocols, applied over --preset before any --set: ``eaai``, the EAAI Gin Rummy
#: challenge's game (its host ``GinRummyGame``: an undercut earns 25; the first player alternates after a hand
#: with a winner and stays after a dead one; otherwise the standard preset's: gin 25, to 100, no bonuses).
PROTOCOLS: dict[str, dict[str, object]] = {"eaai": EAAI_OPTIONS}


def _sprt(text: str | None) -> Sprt | None:
    if text is None:
        return None
    try:
        return parse_sprt(text)
    except ValueError as err:
        raise typer.BadParameter(str(err), param_hint="--sprt") from None


@app.command("arena")
def arena_command(
    bots: Annotated[
        str, typer.Option("--bots", metavar="LIST", help=f"{BOTS_HELP}: two or more; every two of them play.")
    ] = "heuristic,simple",
    games: Annotated[
        int,
        typer.Option(
            "--games",
            parser=whole(2),
            metavar="N",
            help="Units per pairing of two bots, as N/2 seed pairs (rounded up).",
        ),
    ] = 200,
    hands: Annotated[bool, typer.Option("--hands", help="Single hands instead of whole games.")] = False,
    preset: Annotated[str, PRESET] = DEFAULT_PRESET,
    protocol: Annotated[
        str | None,
        typer.Option(
            "--protocol",
            metavar="NAME",
            help="A published protocol's options over the preset: eaai (the EAAI challenge's game: undercut 25, "
            "the first player alternating after a hand with a winner).",
        ),
    ] = None,
    settings: Annotated[list[str] | None, SETTINGS] = None,
    sprt_text: Annotated[
        str | None,
        typer.Option(
            "--sprt",
            metavar="ELO0,ELO1[,ALPHA,BETA]",
            help="Two bots: stop once a sequential test decides whether the first is better than the second by "
            "ELO1 (H1) or not by ELO0 (H0); alpha and beta 0.05 unless given (knock.sequential).",
        ),
    ] = None,
    seed: Annotated[
        int,
        typer.Option(
            "--seed", parser=whole(0, 2**62), metavar="N", help="The first seed (acceptance seeds: 10^9 and up)."
        ),
    ] = arena.ACCEPTANCE_SEED,
    results: Annotated[
        Path | None,
        typer.Option("--results", metavar="FILE", help="Append each seed pair's results to FILE, a JSON line each."),
    ] = None,
    resume: Annotated[
        bool, typer.Option("--resume", help="Continue --results FILE: play only the seed pairs it lacks.")
    ] = False,
    csv_out: Annotated[
        Path | None, typer.Option("--csv", metavar="FILE", help="The pairings and the ladder as CSV (- for stdout).")
    ] = None,
    jobs: Annotated[int, JOBS] = 0,
    cluster: Annotated[str | None, CLUSTER] = None,
    bootstrap: Annotated[
        int, typer.Option("--bootstrap", parser=whole(0, 100_000), metavar="N", help="Resamples for the Elo intervals.")
    ] = 200,
    quiet: Annotated[bool, QUIET] = False,
    json_out: Annotated[str | None, JSON_DOC] = None,
) -> None:
    """Measure bots against each other: paired seeds, seats swapped.

    Every two of the bots play each seed twice, the second time with the seats swapped (the same deal), over
    N/2 seeds counting up from --seed. It prints per pairing the win rate with its 95% interval over the seed
    pairs and the points per game (or hand), the hand statistics of each bot, and an Elo ladder with 95%
    intervals (a bootstrap over the seeds). --results keeps every seed pair's result, a JSON line each, as it
    finishes, and --resume continues such a file; --json and --csv give the same figures as data.

    Exit status: 0 done; 2 a usage error; 130 stopped by Ctrl-C (the figures are of the pairs finished).

    Example: knock arena --bots heuristic,simple --games 200
    """
    if protocol is not None and protocol not in PROTOCOLS:
        raise typer.BadParameter(f"no protocol {protocol!r}; protocols: {', '.join(PROTOCOLS)}",
                                 param_hint="--protocol")  # fmt: skip
    over = [f"{k}={v}" for k, v in PROTOCOLS[protocol].items()] if protocol else []
    rules = rule_set(preset, [*over, *(settings or [])])
    names = tuple(bot_names(bots, None))
    sprt = _sprt(sprt_text)
    if sprt is not None and len(names) != 2:
        raise typer.BadParameter("a sequential test compares two bots: give two", param_hint="--sprt")
    try:
        config = arena.Config(rules.to_dict(), names, "hands" if hands else "games", seed)
    except ValueError as err:
        raise typer.BadParameter(str(err), param_hint="--bots" if "bots" in str(err) else "--preset") from None
    pairs = (games + 1) // 2
    done = _open_results(results, resume, config)
    todo = arena.plan(config, pairs, done)  # lazily: the same memory for any --games
    count = pairs * len(config.pairings) - sum(1 for k in done if seed <= k[2] < seed + pairs)
    started = time.monotonic()
    stopped = False
    decided: Decision | None = None
    played = 0  # seed pairs played by this run
    tally = Tally()  # the first pairing's pair scores read so far, in seed order from the first
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    sink = results.open("a", encoding="utf-8") if results is not None else None
    try:
        with progress_bar(*columns, hidden=quiet or json_out == "-") as progress, Runner(cluster, jobs) as runner:
            task = progress.add_task("seed pairs", total=count)
            for batch in runner.map(arena.play_task, todo):
                for r in batch:
                    done[r.key] = r
                    if sink is not None:
                        sink.write(arena.result_line(r))
                if sink is not None:
                    sink.flush()
                progress.advance(task, len(batch))
                played += len(batch)
                if len(names) == 2:  # the running score, as it goes (and the sequential test's statistic)
                    new = arena.prefix_scores(config, done, pairs, start=tally.n)  # the pairs not read yet
                    if sprt is not None:
                        decided = sprt.decide(new, tally)
                    else:
                        for x in new:
                            tally.add(x)
                    progress.update(task, description=_running(names, tally, sprt, decided))
                    if decided is not None and decided.verdict is not None:
                        break
    except KeyboardInterrupt:
        stopped = True
    finally:
        if sink is not None:
            sink.close()
    elapsed = time.monotonic() - started
    if sprt is not None and (decided is None or decided.verdict is None):  # every pair played in order, undecided
        decided = sprt.decide(arena.prefix_scores(config, done, pairs, start=tally.n), tally)
    upto = decided.pairs if decided is not None and decided.verdict is not None else pairs
    summary = arena.summarise(config, [r for k, r in done.items() if seed <= k[2] < seed + upto], bootstrap)
    verdict = _verdict(names, sprt, decided) if sprt is not None and decided is not None else None
    if protocol is not None:
        summary.extra["protocol"] = protocol
    if verdict is not None:
        summary.extra["sprt"] = verdict
    judged(130 if stopped else 0)
    if json_out is not None:
        write_json(_document(summary, rules.name, rules.target, upto, elapsed, stopped), json_out)
    if csv_out is not None:
        text = _csv(summary)
        if str(csv_out) == "-":
            print(text, end="")
        else:
            csv_out.parent.mkdir(parents=True, exist_ok=True)
            csv_out.write_text(text, encoding="utf-8")
    if json_out != "-" and str(csv_out) != "-":
        _text(summary, rules, upto, elapsed, played, quiet)
    if stopped:
        raise typer.Exit(130)


def _running(names: tuple[str, ...], tally: Tally, sprt: Sprt | None, decision: Decision | None) -> str:
    """The progress line of a run of two bots: the first's score over the seed pairs so far, in seed order, with
    its 95% interval, and the sequential test's statistic between its bounds."""
    if not tally.n:
        return "seed pairs"
    mean, low, high = tally.interval()
    line = f"{names[0]} {100 * mean:.1f}% ({100 * max(low, 0):.1f}–{100 * min(high, 1):.1f}) over {tally.n:,}"
    if sprt is not None and decision is not None:
        line += f", LLR {decision.llr:+.2f} ({sprt.lower:+.2f}..{sprt.upper:+.2f})"
    return line


def _verdict(names: tuple[str, ...], sprt: Sprt, decision: Decision) -> dict[str, object]:
    """The sequential test's outcome, in words and as data."""
    a, b = names
    words = {"H1": f"{a} is better than {b} by {sprt.elo1:g} Elo (H1 accepted)",
             "H0": f"{a} is not better than {b} by {sprt.elo0:g} Elo (H0 accepted)",
             None: "undecided: the seed pairs ran out first"}[decision.verdict]  # fmt: skip
    return {
        "elo0": sprt.elo0,
        "elo1": sprt.elo1,
        "alpha": sprt.alpha,
        "beta": sprt.beta,
        "llr": decision.llr,
        "lower": sprt.lower,
        "upper": sprt.upper,
        "verdict": decision.verdict,
        "pairs": decision.pairs,
        "text": f"{sprt.describe()}: {words} after {decision.pairs:,} seed pairs (LLR {decision.llr:+.2f})",
    }


def _open_results(
    path: Path | None, resume: bool, config: arena.Config
) -> dict[tuple[str, str, int], arena.PairResult]:
    """The pair results already in ``--results`` (resumed), after writing its config line to a new file."""
    if path is None:
        if resume:
            raise typer.BadParameter("--resume continues a --results FILE: give one", param_hint="--resume")
        return {}
    if path.exists() and path.stat().st_size:
        if not resume:
            raise typer.BadParameter(f"{path} exists; --resume continues it", param_hint="--results")
        try:
            had, rows = arena.read_results(path.read_text(encoding="utf-8"))
        except (ValueError, KeyError, TypeError) as err:
            raise typer.BadParameter(f"{path} is not an arena results file: {err}", param_hint="--results") from None
        if had != config:
            raise typer.BadParameter(f"{path} holds another run (its rules, bots, mode or first seed differ)",
                                     param_hint="--resume")  # fmt: skip
        text = path.read_text(encoding="utf-8")
        _check_prints(path, arena.read_prints(text), config)
        if not text.endswith("\n"):  # a torn last line: cut it, so that the next line starts clean
            path.write_text(text[: text.rfind("\n") + 1], encoding="utf-8")
        return {r.key: r for r in rows}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(arena.config_line(config, _prints(config)), encoding="utf-8")
    return {}


def _prints(config: arena.Config) -> dict[str, str]:
    return {name: arena.bot_print(config.rules, name) for name in config.bots}


def _check_prints(path: Path, had: dict[str, str] | None, config: arena.Config) -> None:
    """Refuse to continue a results file whose bots now play otherwise than the bots that began it."""
    if had is None:
        typer.echo(f"note: {path} does not record its bots' fingerprints (begun before they were kept): "
                   "not checked that they still play as they did", err=True)  # fmt: skip
        return
    now = _prints(config)
    changed = [name for name in now if had.get(name) != now[name]]
    if changed:
        raise typer.BadParameter(
            f"{path} was begun by bots that played otherwise: {', '.join(changed)} "
            f"{'now plays' if len(changed) == 1 else 'now play'} other moves in the short games against itself "
            "that fingerprint a bot; begin a new results file for the bots as they are",
            param_hint="--resume",
        )


def _pct(t: tuple[float, float, float]) -> tuple[str, str]:
    return f"{100 * t[0]:.1f}", f"{100 * t[1]:.1f}–{100 * t[2]:.1f}"


def _text(s: arena.Summary, rules: RuleSet, pairs: int, elapsed: float, played: int, quiet: bool) -> None:
    unit = "game" if s.config.mode == "games" else "hand"
    what = f"{rules_title(rules)} to {rules.target:,}" if unit == "game" else f"single hands of {rules_title(rules)}"
    protocol = s.extra.get("protocol")
    under = f", the {str(protocol).upper()} protocol" if protocol else ""
    asked = f" of the {pairs:,} asked for" if s.pairs < pairs else ""  # stopped early (Ctrl-C)
    title = (f"{plural(s.pairs, 'seed pair')}{asked} per pairing ({s.config.seed}..{s.config.seed + pairs - 1}), "
             f"seats swapped: {what}{under}")  # fmt: skip
    rows = []
    for p in s.pairings:
        win, interval = _pct(p.win)
        rows.append((p.a, p.b, f"{p.pairs:,}", win, interval, f"{p.points[0]:+.1f}",
                     f"{p.points[1]:+.1f}–{p.points[2]:+.1f}", f"{p.points_a:.1f}", f"{p.points_b:.1f}"))  # fmt: skip
    numbers = ("pairs", "win %", f"margin/{unit}", f"points/{unit}", "opponent's")
    print_table(("bot", "against", "pairs", "win %", "95% interval", f"margin/{unit}", "95% interval ",
                 f"points/{unit}", "opponent's"), rows, title=title, right=numbers)  # fmt: skip
    hand_rows = []
    for bot, h in s.hands.items():
        hand_rows.append((bot, f"{int(h['hands']):,}", f"{100 * h['won_rate']:.1f}", f"{h['points_per_hand_won']:.1f}",
                          f"{100 * h['knock_rate']:.1f}", f"{100 * h['gin_rate']:.1f}",
                          f"{100 * h['undercut_rate']:.1f}", f"{100 * h['dead_rate']:.1f}"))  # fmt: skip
    hand_cols = ("hands", "won %", "points/won", "knocks %", "gins %", "undercut % of knocks", "dead %")
    print_table(("bot", *hand_cols), hand_rows, title="hands", right=hand_cols)
    ladder = [(str(i), line.bot, f"{line.elo:.0f}", f"{line.low:.0f}–{line.high:.0f}", f"{100 * line.score:.1f}")
              for i, line in enumerate(s.ladder, 1)]  # fmt: skip
    print_table(("rank", "bot", "Elo", "95% interval", "score %"), ladder,
                title=f"Elo ladder (mean 1500; intervals from {s.bootstrap} resamples of the seeds)",
                right=("rank", "Elo", "score %"))  # fmt: skip
    if "sprt" in s.extra:
        console.print(str(s.extra["sprt"]["text"]))
    if not quiet:
        rate = f"{played / elapsed:,.1f} seed pairs/s" if played and elapsed > 0 else "none to play"
        console.print(f"played {plural(played, 'seed pair')} in {elapsed:,.1f} s ({rate}); "
                      f"{s.units:,} {unit}s summarised")  # fmt: skip


def _document(
    s: arena.Summary, preset: str, target: int, pairs: int, elapsed: float, stopped: bool
) -> dict[str, object]:
    def interval(t: tuple[float, float, float]) -> dict[str, float]:
        return {"mean": t[0], "low": t[1], "high": t[2]}

    return {
        "preset": preset, "target": target, "mode": s.config.mode, "bots": list(s.config.bots),
        "rules": s.config.rules, "seeds": [s.config.seed, s.config.seed + pairs - 1], "pairs": pairs,
        "units": s.units,
        "pairings": [{"bot": p.a, "against": p.b, "pairs": p.pairs, "win_rate": interval(p.win),
                      "margin": interval(p.points), "points": p.points_a, "opponent_points": p.points_b}
                     for p in s.pairings],
        "hands": s.hands,
        "ladder": [{"bot": line.bot, "elo": line.elo, "low": line.low, "high": line.high, "score": line.score}
                   for line in s.ladder],
        "bootstrap": s.bootstrap, "seconds": round(elapsed, 3), "stopped": stopped,
        "protocol": s.extra.get("protocol"), "sprt": s.extra.get("sprt"),
    }  # fmt: skip


def _csv(s: arena.Summary) -> str:
    """One table: a row per pairing (``kind`` pairing) and per bot of the ladder (``kind`` ladder)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["kind", "bot", "against", "pairs", "win_rate", "low", "high", "margin", "margin_low", "margin_high",
                "points", "opponent_points", "elo", "elo_low", "elo_high", "score", "hands", "hands_won_rate",
                "knock_rate", "gin_rate", "undercut_rate", "dead_rate"])  # fmt: skip
    for p in s.pairings:
        w.writerow(["pairing", p.a, p.b, p.pairs, *(f"{x:.6f}" for x in (*p.win, *p.points, p.points_a, p.points_b)),
                    "", "", "", "", "", "", "", "", "", ""])  # fmt: skip
    rates = ("won_rate", "knock_rate", "gin_rate", "undercut_rate", "dead_rate")
    for line in s.ladder:
        h = s.hands[line.bot]
        w.writerow(["ladder", line.bot, "", "", "", "", "", "", "", "", "", "",
                    *(f"{x:.6f}" for x in (line.elo, line.low, line.high, line.score)), int(h["hands"]),
                    *(f"{h[k]:.6f}" for k in rates)])  # fmt: skip
    return buf.getvalue()
