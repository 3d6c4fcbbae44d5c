"""The table ``tools/bench_peers.py`` prints: its header of conditions, the figures of every engine side by side,
the ratios (medians of the ratios within each repeat) and, with a baseline, the change from it."""

from __future__ import annotations

import statistics
from typing import TYPE_CHECKING

import measuring

if TYPE_CHECKING:
    from bench_peers import Engine

Figures = dict[str, float]


def median(runs: list[Figures], key: str) -> float | None:
    """The median of a figure over the repeats that measured it."""
    values = [r[key] for r in runs if key in r]
    return statistics.median(values) if values else None


#: (label, key, Knock figure is better when higher). Rows whose key the peers lack show Knock alone.
ROWS: list[tuple[str, str, bool]] = [
    ("random play, hands/s (Knock: in games to 100, log written)", "hands/s", True),
    ("random play, player actions/s (Knock: log written)", "actions/s", True),
    ("random play on bare hands, no game or log, actions/s", "bare actions/s", True),
    ("random play by RandomBot (observations), log written, actions/s", "bot actions/s", True),
    ("minimum deadwood, 10 cards, µs/call", "deadwood 10 µs", False),
    ("minimum deadwood, 11 cards (knock test), µs/call", "deadwood 11 µs", False),
    ("copy a live state, µs", "copy µs", False),
    ("verify a logged hand (OpenSpiel: deserialize one), ms", "verify ms/hand", False),
    ("saved bytes per hand", "bytes/hand", False),
    ("saved bytes per player action", "bytes/action", False),
    ("memory per live game, KiB (10,000 at once; RLCard 2,000; OpenSpiel --quick 2,000)", "memory KiB", False),
    ("complete games to 100 with the log, standard, games/s", "games/s standard", True),
    ("complete games to 100 with the log, oklahoma, games/s", "games/s oklahoma", True),
    ("complete games to 100 with the log, three-handed, games/s", "games/s three_handed", True),
]

#: The figures of Knock's default mode (transitions executing every step) printed beside the compiled ones.
DEFAULT_ROWS: list[tuple[str, str]] = [
    ("random play, player actions/s (log written)", "actions/s"),
    ("random play on bare hands, actions/s", "bare actions/s"),
    ("µs per machine step (bare hands; one step per event)", "µs/step"),
    ("verify a logged hand, ms", "verify ms/hand"),
    ("complete games to 100 with the log, standard, games/s", "games/s standard"),
]


def paired(a: list[Figures], b: list[Figures], key: str) -> float | None:
    """The median over the repeats of a's figure divided by b's in the same repeat (both ran one after the
    other, on the same seeds, so the machine's mood cancels out of the ratio)."""
    values = [x[key] / y[key] for x, y in zip(a, b, strict=False) if key in x and y.get(key)]
    return statistics.median(values) if values else None


def conditions(engines: list[Engine], numpy_first: bool) -> str:
    """The header's line on the measuring processes: their threads, numpy, their pinning, the busy ones."""
    seen = [t for e in engines for t in e.threads]
    counts = sorted({t["threads"] for t in seen})
    with_numpy = [e.label for e in engines if any(t["numpy"] for t in e.threads)]
    busy = sum(len(t["busy"]) for t in seen)
    numpy = "numpy imported first in each" if numpy_first else "numpy only where the engine imports it"
    return (f"{len(seen)} measuring processes ({numpy}: {', '.join(with_numpy) or 'none'}), "
            f"{'/'.join(map(str, counts))} threads each, {busy} busy extra threads"
            f"{' (see the warnings)' if busy else ''}; {seen[0]['pinning'] if seen else ''}")  # fmt: skip


def improvement(knock: Engine, base: Engine, key: str, higher: bool) -> float | None:
    """How many times better this Knock does than the baseline on one figure, from the ratios within each repeat
    (above 1 is better, whichever way the figure runs): the ``change`` column and the largest change alike."""
    change = paired(knock.runs, base.runs, key)
    return 1 / change if change is not None and not higher else change


def report(engines: list[Engine], reps: int, numpy_first: bool) -> None:
    knock, default, ops_engine, rl_engine = engines[:4]
    base = engines[4] if len(engines) > 4 else None
    ops, rl = ops_engine.runs, rl_engine.runs
    versions = {"OpenSpiel": measuring.version("open_spiel"), "RLCard": measuring.version("rlcard"),
                "numpy": measuring.version("numpy")}  # fmt: skip
    against = f", baseline {base.label}" if base else ""
    print(f"Knock v OpenSpiel v RLCard; medians of {reps} runs; Knock in its compiled mode{against}")
    print(measuring.header(processes=conditions(engines, numpy_first), versions=versions))
    print("Each engine in a fresh process each repeat, in turns; ratios are medians of the ratios within each repeat.")

    def cell(v: float | None, width: int = 11) -> str:
        return f"{v:>{width}.2f}" if v is not None else f"{'—':>{width}}"

    def ratio(v: float | None, width: int = 7) -> str:  # three significant digits: 2.39, 0.115, 0.00162
        return f"{v:>{width}.3g}" if v is not None else f"{'—':>{width}}"

    head = f"{'figure':<66} {'Knock':>11}"
    if base:
        head += f" {base.label:>15}"
    head += f" {'OpenSpiel':>11} {'RLCard':>11} {'K/OS':>7}"
    if base:
        head += f" {'base K/OS':>9} {'change':>7}"
    head += f" {'K/RL':>7}"
    print(head)
    print("-" * len(head))
    for name, key, higher in ROWS:
        line = f"{name:<66} {cell(knock.median(key))}"
        if base:
            line += f" {cell(base.median(key), 15)}"
        line += f" {cell(median(ops, key))} {cell(median(rl, key))} {ratio(paired(knock.runs, ops, key))}"
        if base:
            change = improvement(knock, base, key, higher)
            line += f" {ratio(paired(base.runs, ops, key), 9)} "
            line += f"{(change - 1) * 100:+6.1f}%" if change is not None else f"{'—':>7}"
        line += f" {ratio(paired(knock.runs, rl, key))}"
        print(line)
    if base:
        print("change: how much better (+) or worse (-) this Knock does than the baseline (Knock over baseline within")
        print("each repeat, the same as the change of its ratio to OpenSpiel's run in that repeat).")
        changes = [(abs(c - 1), name) for name, key, higher in ROWS if (c := improvement(knock, base, key, higher))]
        worst, name = max(changes)
        print(f"largest change: {worst * 100:.1f} % ({name}); an A/A run (--baseline HEAD) should keep every "
              "change within 5 %")  # fmt: skip
    print()
    print("Knock's default mode: transitions executes every step (Event.trigger once per step)")
    head = f"{'figure':<66} {'compiled':>11} {'transitions':>11} {'ratio':>7} {'K/OS':>7} {'K/OS':>7}"
    print(head)
    print(f"{'':<66} {'':>11} {'':>11} {'':>7} {'compiled':>7} {'trans.':>7}")
    print("-" * len(head))
    for name, key in DEFAULT_ROWS:
        print(f"{name:<66} {cell(knock.median(key))} {cell(default.median(key))} "
              f"{ratio(paired(default.runs, knock.runs, key))} {ratio(paired(knock.runs, ops, key))} "
              f"{ratio(paired(default.runs, ops, key))}")  # fmt: skip
