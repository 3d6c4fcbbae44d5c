#!/usr/bin/env python3
"""What each part of the search bot gains: single hands, paired seeds, against a bot (a development proxy).

    .venv/bin/python tools/search_parts.py --budget 120 --width 4 --margin 3                # every decision
    .venv/bin/python tools/search_parts.py --budget 40 --width 3 --margin 1 --only knock     # knocks only
    .venv/bin/python tools/search_parts.py --budget 2 --margin 1e9                          # the heuristic's choices

Each seed from ``--seed`` (tuning seeds: below 10^9) deals one hand (dealer by the seed's parity) that is
played twice, seats swapped, by ``SearchBot(budget, width, margin)`` against ``--against`` (the compiled
executor). ``--only`` restricts the search to some decisions (``draw``, ``knock``, ``discard``, comma
separated): at the others the bot plays its first candidate, the heuristic's choice. It prints the bot's share
of the hands (a dead hand a half) with a 95% interval over the seed pairs, and its points a hand less the
opponent's. ``knock arena --hands`` measures the levels themselves; this isolates the parts.

``--hand-points N`` instead plays N hands of the heuristic bot against itself (seeds 0 .. N-1) and prints the
winners' points in the buckets of ``engine.winprob.HAND_POINTS`` (the score awareness's model):

    .venv/bin/python tools/search_parts.py --hand-points 20000
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.actions import Action, Discard, DrawDiscard, DrawStock, Knock, PassUpcard, TakeUpcard  # noqa: E402
from engine.bots import Bot, HeuristicBot, make_bot, play_hand  # noqa: E402
from engine.hand import Hand  # noqa: E402
from engine.search import SearchBot  # noqa: E402
from engine.visibility import Observation  # noqa: E402

KINDS: dict[str, tuple[type, ...]] = {
    "draw": (DrawStock, PassUpcard, TakeUpcard, DrawDiscard),
    "knock": (Knock,),
    "discard": (Discard,),
}


class PartSearch(SearchBot):
    """The search bot searching only the decisions whose first candidate is of ``kinds``."""

    def __init__(self, kinds: tuple[type, ...], *args: object, **kw: object) -> None:
        super().__init__(*args, **kw)  # type: ignore[arg-type]
        self.kinds = kinds

    def _search(self, obs: Observation, legal: Sequence[Action], cands: list[Action]) -> Action:
        if not isinstance(cands[0], self.kinds):
            return cands[0]
        return super()._search(obs, legal, cands)


def hand_points(hands: int) -> tuple[tuple[int, int], ...]:
    """The winners' points of ``hands`` hands of the heuristic bot against itself, in buckets of five points (65
    and more one bucket): each bucket's mean points and its share of the won hands in thousandths."""
    buckets: dict[int, list[int]] = {}
    for seed in range(hands):
        hand = play_hand(Hand.deal(seed=seed, dealer=seed % 2, executor="compiled"), [HeuristicBot(), HeuristicBot()])
        result = hand.result
        assert result is not None
        if result.winner is not None:
            bucket = buckets.setdefault(min(result.points // 5, 13), [0, 0])
            bucket[0] += result.points
            bucket[1] += 1
    won = sum(n for _, n in buckets.values())
    return tuple((round(total / n), round(1000 * n / won)) for _, (total, n) in sorted(buckets.items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budget", type=int, default=120)
    parser.add_argument("--width", type=int, default=4)
    parser.add_argument("--margin", type=float, default=3.0)
    parser.add_argument("--only", default="draw,knock,discard")
    parser.add_argument("--against", default="simple")
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--seed", type=int, default=5000)
    parser.add_argument("--hand-points", type=int, default=0, help="print HAND_POINTS from this many hands")
    args = parser.parse_args()
    if args.hand_points:
        print(hand_points(args.hand_points))
        return
    kinds = tuple(t for part in args.only.split(",") for t in KINDS[part])
    shares: list[float] = []
    margins: list[int] = []
    for seed in range(args.seed, args.seed + args.pairs):
        share = 0.0
        margin = 0
        for me in (0, 1):
            bots: list[Bot] = [make_bot(args.against, seed), make_bot(args.against, seed)]
            bots[me] = PartSearch(kinds, args.budget, args.width, seed, margin=args.margin)
            hand = play_hand(Hand.deal(seed=seed, dealer=seed % 2, executor="compiled"), bots)
            result = hand.result
            assert result is not None
            if result.winner is None:
                share += 0.25
            elif result.winner == me:
                share += 0.5
                margin += result.points
            else:
                margin -= result.points
        shares.append(share)
        margins.append(margin)
    mean = statistics.fmean(shares)
    half = 1.96 * statistics.stdev(shares) / math.sqrt(len(shares))
    print(
        f"budget {args.budget} width {args.width} margin {args.margin} only {args.only} vs {args.against}: "
        f"{len(shares)} seed pairs from {args.seed}: {100 * mean:.1f}% ({100 * (mean - half):.1f}–"
        f"{100 * (mean + half):.1f}), {statistics.fmean(margins) / 2:+.2f} points a hand"
    )


if __name__ == "__main__":
    main()
