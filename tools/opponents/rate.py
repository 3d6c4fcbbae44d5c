#!/usr/bin/env python3
"""MARJJ v5 (``marjj.py``) against the EAAI baseline ``simple``: whole games to the target, paired seeds, seats
swapped, one process.

    nice -n 15 .venv/bin/python tools/opponents/rate.py --minutes 15              # the EAAI game's options
    nice -n 15 .venv/bin/python tools/opponents/rate.py --rules standard --pairs 500

A pair is one seed (``Match.new(rules, seed=s)``: the same deals and first dealer) played twice, ``marjj`` in seat
0 then in seat 1, each bot seeded with ``s``; its score is ``marjj``'s wins over two. The win rate is the mean over
pairs with a normal 95% interval over pairs. Seeds start at ``--seed`` (10⁹ + 3·10⁶ by default: never used while
porting). It stops after ``--pairs`` pairs or ``--minutes`` of wall time, whichever comes first.

Measured (one process under ``nice -n 15`` on a shared two-core machine, the default seeds): EAAI options, 10,913
pairs (21,826 games, ``--minutes 14``): 77.0% (76.5-77.5), against the Java's 76.9% (74.2-79.4) in the EAAI host;
standard rules, 2,671 pairs (5,342 games, ``--rules standard --minutes 4``): 62.0% (60.6-63.5).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))  # tools/ is not a package: the opponents are ``opponents.*``

from engine.match import Match  # noqa: E402
from engine.rules import RuleSet  # noqa: E402
from knock.bots import EAAI_RULES, Bot, SimpleBot, play_match  # noqa: E402
from opponents.marjj import MarjjBot  # noqa: E402

SEED = 1_000_000_000 + 3_000_000


def pair(rules: RuleSet, seed: int) -> float:
    """``marjj``'s wins over two in the pair of games of ``seed``."""
    wins = 0
    for seat in (0, 1):
        bots: list[Bot] = [SimpleBot(seed), SimpleBot(seed)]
        bots[seat] = MarjjBot(seed)
        game = play_match(Match.new(rules, seed=seed, history=False), bots)
        wins += game.winner == seat
    return wins / 2


def interval(scores: list[float]) -> tuple[float, float, float]:
    """The mean and its normal 95% interval over the pairs' scores."""
    n = len(scores)
    mean = sum(scores) / n
    var = sum((s - mean) ** 2 for s in scores) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n)
    return mean, mean - half, mean + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", choices=["eaai", "standard"], default="eaai")
    parser.add_argument("--pairs", type=int, default=1_000_000)
    parser.add_argument("--minutes", type=float, default=15.0)
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args()
    rules = EAAI_RULES if args.rules == "eaai" else RuleSet()
    stop = time.monotonic() + args.minutes * 60
    scores: list[float] = []
    while len(scores) < args.pairs and time.monotonic() < stop:
        scores.append(pair(rules, args.seed + len(scores)))
    mean, low, high = interval(scores)
    print(
        f"marjj vs simple, {args.rules} rules: {len(scores)} pairs ({2 * len(scores)} games), seeds {args.seed}.."
        f"{args.seed + len(scores) - 1}: marjj wins {100 * mean:.1f}% (95% interval {100 * low:.1f}-{100 * high:.1f})"
    )


if __name__ == "__main__":
    main()
